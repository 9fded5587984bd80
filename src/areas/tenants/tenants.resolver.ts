import { Arg, Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import type { Ledger } from '../ledgers/ledgers.types';
import type { Tenant, Unit } from './tenants.types';
import type { TenantsService } from './tenants.service';
import type { GraphqlContext } from '../../graphql/context';
import { FacilityObject } from '../facilities/facilities.graphql';
import { LEDGER_LIST_COST } from '../ledgers/ledgers.resolver';
import { LedgerObject } from '../ledgers/ledgers.graphql';
import { facilityOf } from '../facilities/facilities.navigation';
import type { NoteEventView } from '../notes/note-event.contract';
import {
  NOTES_LIST_COST,
  NoteEventConnectionObject,
  NoteEventObject,
  NoteSliceArgs,
} from '../notes/notes.graphql';
import { noteEventConnection, noteEventSlice } from '../notes/notes.resolver';
import { ConnectionArgsType, connectionCost, type ConnectionView } from '../../graphql/connection';
import { MoneyScalar, UUIDScalar } from '../../graphql/scalars';
import { centsToAmount } from '../../kernel/money';
import { TenantObject, UnitObject } from './tenants.graphql';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly tenants: TenantsService;
}

@Resolver(() => FacilityObject)
export class FacilityTenantsResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => TenantObject, {
    nullable: true,
    description: "One tenant of the facility (NOT_FOUND otherwise, also for another facility's).",
  })
  tenant(@Root() facility: Facility, @Arg('id', () => UUIDScalar) id: string): Promise<Tenant> {
    return this.services.tenants.tenantFor(facility, id, ['id']);
  }

  @FieldResolver(() => UnitObject, {
    nullable: true,
    description: "One unit of the facility (NOT_FOUND otherwise, also for another facility's).",
  })
  unit(@Root() facility: Facility, @Arg('id', () => UUIDScalar) id: string): Promise<Unit> {
    return this.services.tenants.unitFor(facility, id, ['id']);
  }
}

@Resolver(() => TenantObject)
export class TenantsResolver {
  @FieldResolver(() => String, { description: 'First and last name, as REST writes tenant_name.' })
  name(@Root() tenant: Tenant): string {
    return `${tenant.firstName} ${tenant.lastName}`;
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() tenant: Tenant, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, tenant, 'tenant');
  }

  @FieldResolver(() => [LedgerObject], { description: "The tenant's ledgers, by id." })
  @Cost(LEDGER_LIST_COST)
  ledgers(@Root() tenant: Tenant, @Ctx() ctx: GraphqlContext): Promise<Ledger[]> {
    return ctx.loaders.ledgersByTenant.load(tenant.id);
  }

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

@Resolver(() => UnitObject)
export class UnitsResolver {
  @FieldResolver(() => MoneyScalar, { description: 'Monthly rate.' })
  rate(@Root() unit: Unit): number {
    return centsToAmount(unit.rateCents);
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() unit: Unit, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, unit, 'unit');
  }

  @FieldResolver(() => [LedgerObject], { description: "The unit's ledgers (past and present), by id." })
  @Cost(LEDGER_LIST_COST)
  ledgers(@Root() unit: Unit, @Ctx() ctx: GraphqlContext): Promise<Ledger[]> {
    return ctx.loaders.ledgersByUnit.load(unit.id);
  }

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
