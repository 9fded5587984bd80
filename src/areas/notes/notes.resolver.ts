import { Arg, Args, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import type { NotesService } from './notes.service';
import type { Ledger } from '../ledgers/ledgers.types';
import type { Tenant, Unit } from '../tenants/tenants.types';
import { present as presentNoteEvent, type NoteEventView } from './note-event.contract';
import type { GraphqlContext } from '../../graphql/context';
import { withArgumentNames } from '../../graphql/errors';
import { facilityOf } from '../../graphql/loaders';
import { FacilityObject } from '../facilities/facilities.graphql';
import { LedgerObject } from '../ledgers/ledgers.graphql';
import {
  CreateNoteInput,
  NOTE_LIST_LIMITS,
  NOTES_LIST_COST,
  NoteEventConnectionObject,
  NoteEventObject,
  NoteSliceArgs,
} from './notes.graphql';
import type { NoteEvent } from './notes.types';
import { sliceOf } from '../../graphql/pagination';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOfLoaded,
  type ConnectionView,
} from '../../graphql/connection';
import type { ConnectionArgs } from '../../kernel/connections';
import { parseSliceRequest } from '../../kernel/pagination';
import { UUIDScalar } from '../../graphql/scalars';
import { TenantObject, UnitObject } from '../tenants/tenants.graphql';

/** The note command's fields are the input's. */
const NOTE_NAMES = {
  note: 'input',
  noteText: 'input.noteText',
  tenantId: 'input.tenantId',
  unitId: 'input.unitId',
  ledgerId: 'input.ledgerId',
  userId: 'input.userId',
};

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly notes: NotesService;
}

/**
 * The note events of one ledger, tenant or unit that a query asked for: `first` of them from
 * `offset` (the slice is checked before anything is read), in the facility's time zone.
 */
async function noteEventSlice(
  args: NoteSliceArgs,
  events: () => Promise<readonly NoteEvent[]>,
  facility: () => Promise<Facility>,
): Promise<NoteEventView[]> {
  const slice = parseSliceRequest(args, NOTE_LIST_LIMITS);
  const [all, { timeZone }] = await Promise.all([events(), facility()]);
  return sliceOf(all, slice).map((event) => presentNoteEvent(event, timeZone));
}

/**
 * The note events of one ledger, tenant or unit walked by cursor (created_at, then id), bound to
 * the list (`list`, the parent's field) and its parent; 20 when neither first nor last is given.
 */
async function noteEventConnection(
  args: ConnectionArgs,
  list: { list: string; owner: string },
  events: () => Promise<readonly NoteEvent[]>,
  facility: () => Promise<Facility>,
): Promise<ConnectionView<NoteEventView>> {
  const [all, { timeZone }] = await Promise.all([events(), facility()]);
  return connectionOfLoaded(
    all,
    args,
    {
      scope: list,
      keyOf: (event) => [event.createdAt, event.id],
      arity: 2,
      defaultFirst: NOTE_LIST_LIMITS.defaultFirst,
    },
    (event) => presentNoteEvent(event, timeZone),
  );
}

@Resolver(() => NoteEventObject)
export class NotesResolver {
  constructor(private readonly services: ResolverServices) {}

  @Mutation(() => NoteEventObject, {
    description:
      'Creates a note event with one note on a tenant, unit and/or ledger of the facility (POST /v1/:facility_id/notes).',
  })
  async createNote(
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('input', () => CreateNoteInput) input: CreateNoteInput,
    @Ctx() ctx: GraphqlContext,
  ): Promise<NoteEventView> {
    const facility = await ctx.loaders.facility(facilityId);
    ctx.loaders.facilities.prime(facility.id, facility);
    const event = await withArgumentNames(NOTE_NAMES, () =>
      this.services.notes.createNote(facility, ctx.caller, input),
    );
    return presentNoteEvent(event, facility.timeZone);
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() event: NoteEventView, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, event, 'note event');
  }

  @FieldResolver(() => TenantObject, { nullable: true })
  tenant(@Root() event: NoteEventView, @Ctx() ctx: GraphqlContext): Promise<Tenant | null> | null {
    return event.tenantId === null ? null : ctx.loaders.tenants.load(event.tenantId);
  }

  @FieldResolver(() => UnitObject, { nullable: true })
  unit(@Root() event: NoteEventView, @Ctx() ctx: GraphqlContext): Promise<Unit | null> | null {
    return event.unitId === null ? null : ctx.loaders.units.load(event.unitId);
  }

  @FieldResolver(() => LedgerObject, { nullable: true })
  ledger(@Root() event: NoteEventView, @Ctx() ctx: GraphqlContext): Promise<Ledger | null> | null {
    return event.ledgerId === null ? null : ctx.loaders.ledgers.load(event.ledgerId);
  }
}

/**
 * The resolver of a record's note events, its `notes` and `notesConnection` (the same two fields
 * on Ledger, Tenant and Unit): `what` names the record in the schema's descriptions and its
 * errors, `type` is its object type, `notesOf` its loader of note events.
 */
function recordNotesResolver(
  type: typeof LedgerObject | typeof TenantObject | typeof UnitObject,
  what: 'ledger' | 'tenant' | 'unit',
  notesOf: (ctx: GraphqlContext, id: string) => Promise<readonly NoteEvent[]>,
) {
  const list = `${what[0].toUpperCase()}${what.slice(1)}.notes`;

  @Resolver(() => type)
  class RecordNotesResolver {
    @FieldResolver(() => [NoteEventObject], {
      description: `Note events written on the ${what}, oldest first: \`first\` of them (at most 20) from \`offset\`.`,
    })
    @Cost(NOTES_LIST_COST)
    notes(
      @Root() record: Ledger | Tenant | Unit,
      @Ctx() ctx: GraphqlContext,
      @Args(() => NoteSliceArgs) args: NoteSliceArgs,
    ): Promise<NoteEventView[]> {
      return noteEventSlice(
        args,
        () => notesOf(ctx, record.id),
        () => facilityOf(ctx, record, what),
      );
    }

    @FieldResolver(() => NoteEventConnectionObject, {
      description:
        'The note events of notes walked by cursor (Relay connection): oldest first, created_at then id.',
    })
    @Cost(connectionCost())
    notesConnection(
      @Root() record: Ledger | Tenant | Unit,
      @Ctx() ctx: GraphqlContext,
      @Args(() => ConnectionArgsType) args: ConnectionArgsType,
    ): Promise<ConnectionView<NoteEventView>> {
      return noteEventConnection(
        args,
        { list, owner: record.id },
        () => notesOf(ctx, record.id),
        () => facilityOf(ctx, record, what),
      );
    }
  }
  return RecordNotesResolver;
}

/** The note events written on a ledger, a tenant, a unit. */
export const LedgerNotesResolver = recordNotesResolver(LedgerObject, 'ledger', (ctx, id) =>
  ctx.loaders.notesByLedger.load(id),
);
export const TenantNotesResolver = recordNotesResolver(TenantObject, 'tenant', (ctx, id) =>
  ctx.loaders.notesByTenant.load(id),
);
export const UnitNotesResolver = recordNotesResolver(UnitObject, 'unit', (ctx, id) =>
  ctx.loaders.notesByUnit.load(id),
);
