import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Cost, type CostHint } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import type { Ledger, LedgerDiscount } from './ledgers.types';
import {
  LedgerInsurance,
  LedgerService,
  type LedgerInsuranceView,
  type LedgerServiceView,
} from './ledger-charges.contract';
import type { LedgersService } from './ledgers.service';
import type { Tenant, Unit } from '../tenants/tenants.types';
import type { GraphqlContext } from '../../graphql/context';
import { facilityOf } from '../../graphql/loaders';
import { EventObject, type EventView } from '../documents/documents.graphql';
import { FacilityObject } from '../facilities/facilities.graphql';
import {
  LedgerDiscountObject,
  LedgerInsuranceObject,
  LedgerObject,
  LedgerServiceObject,
} from './ledgers.graphql';
import { UUIDScalar } from '../../graphql/scalars';
import { TenantObject, UnitObject } from '../tenants/tenants.graphql';

/** Cost hints: how many of each a ledger usually has (see demand-control.ts). */
const LEDGER_LIST_COST: CostHint = { assumedSize: 10 };

/** Loads a record a ledger names; the ledger was the caller's, so a missing one is a data fault. */
function required<T>(record: T | null, what: string, ledger: Ledger): T {
  if (record === null) throw new Error(`${what} of ledger ${ledger.id} is missing`);
  return record;
}

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly ledgers: LedgersService;
}

/** A facility's ledgers: GET /v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts, and navigation. */
@Resolver(() => FacilityObject)
export class FacilityLedgersResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => LedgerObject, {
    nullable: true,
    description: "One ledger of the facility (NOT_FOUND otherwise, also for another facility's).",
  })
  ledger(@Root() facility: Facility, @Arg('id', () => UUIDScalar) id: string): Promise<Ledger> {
    return this.services.ledgers.ledgerFor(facility, id, ['id']);
  }
}

@Resolver(() => LedgerObject)
export class LedgersResolver {
  @FieldResolver(() => FacilityObject)
  facility(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, ledger, 'ledger');
  }

  @FieldResolver(() => TenantObject)
  async tenant(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<Tenant> {
    return required(await ctx.loaders.tenants.load(ledger.tenantId), 'tenant', ledger);
  }

  @FieldResolver(() => UnitObject)
  async unit(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<Unit> {
    return required(await ctx.loaders.units.load(ledger.unitId), 'unit', ledger);
  }

  @FieldResolver(() => LedgerInsuranceObject, {
    nullable: true,
    description: 'The current policy: the latest effective_date not cancelled before today at the facility.',
  })
  async insurance(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<LedgerInsuranceView | null> {
    const policy = await ctx.loaders.ledgerInsurance.load(ledger.id);
    return policy && LedgerInsurance.present(policy);
  }

  @FieldResolver(() => [LedgerServiceObject], { description: 'Every service, by effective_date then id.' })
  @Cost(LEDGER_LIST_COST)
  async services(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<LedgerServiceView[]> {
    return (await ctx.loaders.ledgerServices.load(ledger.id)).map(LedgerService.present);
  }

  @FieldResolver(() => [LedgerDiscountObject], { description: 'Every discount, by start_date then id.' })
  @Cost(LEDGER_LIST_COST)
  discounts(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<LedgerDiscount[]> {
    return ctx.loaders.ledgerDiscounts.load(ledger.id);
  }
}

@Resolver(() => EventObject)
export class EventLedgerResolver {
  @FieldResolver(() => LedgerObject, {
    nullable: true,
    description: 'The ledger the event concerns, if any.',
  })
  async ledger(@Root() event: EventView, @Ctx() ctx: GraphqlContext): Promise<Ledger | null> {
    return event.ledgerId === null ? null : ctx.loaders.ledgers.load(event.ledgerId);
  }
}

/** A tenant's ledgers. */
@Resolver(() => TenantObject)
export class TenantLedgersResolver {
  @FieldResolver(() => [LedgerObject], { description: "The tenant's ledgers, by id." })
  @Cost(LEDGER_LIST_COST)
  ledgers(@Root() tenant: Tenant, @Ctx() ctx: GraphqlContext): Promise<Ledger[]> {
    return ctx.loaders.ledgersByTenant.load(tenant.id);
  }
}

/** A unit's ledgers, past and present. */
@Resolver(() => UnitObject)
export class UnitLedgersResolver {
  @FieldResolver(() => [LedgerObject], { description: "The unit's ledgers (past and present), by id." })
  @Cost(LEDGER_LIST_COST)
  ledgers(@Root() unit: Unit, @Ctx() ctx: GraphqlContext): Promise<Ledger[]> {
    return ctx.loaders.ledgersByUnit.load(unit.id);
  }
}
