import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import type { Ledger } from '../ledgers/ledgers.types';
import type { RateAppliedActionsService } from './rate-applied-actions.service';
import { isUuid } from '../../kernel/ids';
import type { Unit } from '../tenants/tenants.types';
import type { GraphqlContext } from '../../graphql/context';
import { FacilityObject } from '../facilities/facilities.graphql';
import { LedgerObject } from '../ledgers/ledgers.graphql';
import {
  present as presentRateAppliedAction,
  type RateAppliedActionView,
} from './rate-applied-action.contract';
import { RateAppliedActionObject } from './rate-applied-actions.graphql';
import { LocalDateScalar } from '../../graphql/scalars';
import { UnitObject } from '../tenants/tenants.graphql';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly rateAppliedActions: RateAppliedActionsService;
}

@Resolver(() => FacilityObject)
export class FacilityRateAppliedActionsResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => [RateAppliedActionObject], {
    description:
      'Actions completed in an inclusive date range (either bound defaults to today at the facility), ' +
      'by time_completed then id: the list of GET /v1/:facility_id/rate_applied_actions.',
  })
  @Cost({ assumedSize: 200 })
  async rateAppliedActions(
    @Root() facility: Facility,
    @Ctx() ctx: GraphqlContext,
    @Arg('startDate', () => LocalDateScalar, {
      nullable: true,
      description: 'Default: today at the facility.',
    })
    startDate?: string | null,
    @Arg('endDate', () => LocalDateScalar, { nullable: true, description: 'Default: today at the facility.' })
    endDate?: string | null,
  ): Promise<RateAppliedActionView[]> {
    const result = await this.services.rateAppliedActions.list(facility, { startDate, endDate });
    return result.actions.map((action) => presentRateAppliedAction(action, facility.timeZone));
  }
}

@Resolver(() => RateAppliedActionObject)
export class RateAppliedActionsResolver {
  @FieldResolver(() => LedgerObject, { nullable: true, description: 'The ledger the rate was applied to.' })
  newLedger(@Root() action: RateAppliedActionView, @Ctx() ctx: GraphqlContext): Promise<Ledger | null> {
    return ctx.loaders.ledgers.load(action.newLedgerId);
  }

  @FieldResolver(() => LedgerObject, { nullable: true, description: 'The earlier ledger, on a transfer.' })
  oldLedger(
    @Root() action: RateAppliedActionView,
    @Ctx() ctx: GraphqlContext,
  ): Promise<Ledger | null> | null {
    return isUuid(action.oldLedgerId) ? ctx.loaders.ledgers.load(action.oldLedgerId) : null;
  }

  @FieldResolver(() => UnitObject, { nullable: true })
  unit(@Root() action: RateAppliedActionView, @Ctx() ctx: GraphqlContext): Promise<Unit | null> {
    return ctx.loaders.units.load(action.unitId);
  }
}
