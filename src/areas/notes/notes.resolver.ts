import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { Facility } from '../facilities/facilities.types';
import type { NotesService } from './notes.service';
import type { Ledger } from '../ledgers/ledgers.types';
import type { Tenant, Unit } from '../tenants/tenants.types';
import { present as presentNoteEvent, type NoteEventView } from './note-event.contract';
import type { GraphqlContext } from '../../graphql/context';
import { withArgumentNames } from '../../graphql/errors';
import { FacilityObject } from '../facilities/facilities.graphql';
import { LedgerObject } from '../ledgers/ledgers.graphql';
import { facilityOf } from '../facilities/facilities.navigation';
import { CreateNoteInput, NOTE_LIST_LIMITS, NoteEventObject, type NoteSliceArgs } from './notes.graphql';
import type { NoteEvent } from './notes.types';
import { sliceOf } from '../../graphql/pagination';
import { connectionOfLoaded, type ConnectionView } from '../../graphql/connection';
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
export async function noteEventSlice(
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
export async function noteEventConnection(
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
