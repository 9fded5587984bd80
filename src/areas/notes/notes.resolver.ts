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

/** The note events written on a ledger: its `notes` and `notesConnection`. */
@Resolver(() => LedgerObject)
export class LedgerNotesResolver {
  @FieldResolver(() => [NoteEventObject], {
    description:
      'Note events written on the ledger, oldest first: `first` of them (at most 20) from `offset`.',
  })
  @Cost(NOTES_LIST_COST)
  notes(
    @Root() ledger: Ledger,
    @Ctx() ctx: GraphqlContext,
    @Args(() => NoteSliceArgs) args: NoteSliceArgs,
  ): Promise<NoteEventView[]> {
    return noteEventSlice(
      args,
      () => ctx.loaders.notesByLedger.load(ledger.id),
      () => facilityOf(ctx, ledger, 'ledger'),
    );
  }

  @FieldResolver(() => NoteEventConnectionObject, {
    description:
      'The note events of notes walked by cursor (Relay connection): oldest first, created_at then id.',
  })
  @Cost(connectionCost())
  notesConnection(
    @Root() ledger: Ledger,
    @Ctx() ctx: GraphqlContext,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): Promise<ConnectionView<NoteEventView>> {
    return noteEventConnection(
      args,
      { list: 'Ledger.notes', owner: ledger.id },
      () => ctx.loaders.notesByLedger.load(ledger.id),
      () => facilityOf(ctx, ledger, 'ledger'),
    );
  }
}

/** The note events written on a tenant: its `notes` and `notesConnection`. */
@Resolver(() => TenantObject)
export class TenantNotesResolver {
  @FieldResolver(() => [NoteEventObject], {
    description:
      'Note events written on the tenant, oldest first: `first` of them (at most 20) from `offset`.',
  })
  @Cost(NOTES_LIST_COST)
  notes(
    @Root() tenant: Tenant,
    @Ctx() ctx: GraphqlContext,
    @Args(() => NoteSliceArgs) args: NoteSliceArgs,
  ): Promise<NoteEventView[]> {
    return noteEventSlice(
      args,
      () => ctx.loaders.notesByTenant.load(tenant.id),
      () => facilityOf(ctx, tenant, 'tenant'),
    );
  }

  @FieldResolver(() => NoteEventConnectionObject, {
    description:
      'The note events of notes walked by cursor (Relay connection): oldest first, created_at then id.',
  })
  @Cost(connectionCost())
  notesConnection(
    @Root() tenant: Tenant,
    @Ctx() ctx: GraphqlContext,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): Promise<ConnectionView<NoteEventView>> {
    return noteEventConnection(
      args,
      { list: 'Tenant.notes', owner: tenant.id },
      () => ctx.loaders.notesByTenant.load(tenant.id),
      () => facilityOf(ctx, tenant, 'tenant'),
    );
  }
}

/** The note events written on a unit: its `notes` and `notesConnection`. */
@Resolver(() => UnitObject)
export class UnitNotesResolver {
  @FieldResolver(() => [NoteEventObject], {
    description: 'Note events written on the unit, oldest first: `first` of them (at most 20) from `offset`.',
  })
  @Cost(NOTES_LIST_COST)
  notes(
    @Root() unit: Unit,
    @Ctx() ctx: GraphqlContext,
    @Args(() => NoteSliceArgs) args: NoteSliceArgs,
  ): Promise<NoteEventView[]> {
    return noteEventSlice(
      args,
      () => ctx.loaders.notesByUnit.load(unit.id),
      () => facilityOf(ctx, unit, 'unit'),
    );
  }

  @FieldResolver(() => NoteEventConnectionObject, {
    description:
      'The note events of notes walked by cursor (Relay connection): oldest first, created_at then id.',
  })
  @Cost(connectionCost())
  notesConnection(
    @Root() unit: Unit,
    @Ctx() ctx: GraphqlContext,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): Promise<ConnectionView<NoteEventView>> {
    return noteEventConnection(
      args,
      { list: 'Unit.notes', owner: unit.id },
      () => ctx.loaders.notesByUnit.load(unit.id),
      () => facilityOf(ctx, unit, 'unit'),
    );
  }
}
