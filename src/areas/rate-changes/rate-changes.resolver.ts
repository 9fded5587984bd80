import { Arg, Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { Company, Facility } from '../facilities/facilities.types';
import {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  RATE_CHANGE_CURSOR_LIST,
  type RateChangesService,
} from './rate-changes.service';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOf,
  type ConnectionView,
} from '../../graphql/connection';
import { normalizeId } from '../../kernel/ids';
import type { Tenant, Unit } from '../tenants/tenants.types';
import { present as presentRateChange, type RateChangeUpdateView } from './rate-change-update.contract';
import { RATE_CHANGE_UPDATES_KEPT } from './rate-changes.kept';
import type { GraphqlContext } from '../../graphql/context';
import { Kept } from '../../graphql/kept';
import { CompanyObject, FacilityObject } from '../facilities/facilities.graphql';
import { pageCost, paginationOf, type PageView } from '../../graphql/pagination';
import {
  RateChangeUpdateConnectionObject,
  RateChangeUpdateObject,
  RateChangeUpdatePageObject,
} from './rate-changes.graphql';
import { DateTimeScalar } from '../../graphql/scalars';
import { TenantObject, UnitObject } from '../tenants/tenants.graphql';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly rateChanges: RateChangesService;
}

@Resolver(() => CompanyObject)
export class CompanyRateChangesResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => RateChangeUpdatePageObject, {
    description:
      'Rate changes with updatedAfter <= changedAt < updatedBefore, sorted by facility name, tenant name ' +
      '(both case-insensitive), changedAt, then id: the pages of GET /v1/companies/:company_id/rate_change_updates.',
  })
  @Cost(pageCost(MAX_PER_PAGE))
  @Kept(RATE_CHANGE_UPDATES_KEPT)
  async rateChangeUpdates(
    @Root() company: Company,
    @Ctx() ctx: GraphqlContext,
    @Arg('updatedAfter', () => DateTimeScalar, { description: 'Start of the window, inclusive.' })
    updatedAfter: string,
    @Arg('updatedBefore', () => DateTimeScalar, { description: 'End of the window, exclusive.' })
    updatedBefore: string,
    @Arg('createdBy', () => Int, { nullable: true, description: 'Only changes made by this user.' })
    createdBy?: number | null,
    @Arg('page', () => Int, { nullable: true, description: '1-based page number (default 1).' })
    page?: number | null,
    @Arg('perPage', () => Int, {
      nullable: true,
      description: `Page size (default ${DEFAULT_PER_PAGE}; above ${MAX_PER_PAGE} reads as ${MAX_PER_PAGE}).`,
    })
    perPage?: number | null,
  ): Promise<PageView<RateChangeUpdateView>> {
    const result = await this.services.rateChanges.updates(company, {
      updatedAfter,
      updatedBefore,
      createdBy,
      page,
      perPage,
    });
    return {
      entries: result.rateChanges.map(presentRateChange),
      pagination: paginationOf(result.pagination),
    };
  }

  @FieldResolver(() => RateChangeUpdateConnectionObject, {
    description:
      'The rate changes of rateChangeUpdates walked by cursor (Relay connection): the same window, creator and order.',
  })
  @Cost(connectionCost())
  async rateChangeUpdatesConnection(
    @Root() company: Company,
    @Arg('updatedAfter', () => DateTimeScalar, { description: 'Start of the window, inclusive.' })
    updatedAfter: string,
    @Arg('updatedBefore', () => DateTimeScalar, { description: 'End of the window, exclusive.' })
    updatedBefore: string,
    @Arg('createdBy', () => Int, { nullable: true, description: 'Only changes made by this user.' })
    createdBy: number | null | undefined,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): Promise<ConnectionView<RateChangeUpdateView>> {
    const slice = await this.services.rateChanges.updatesConnection(
      company,
      { updatedAfter, updatedBefore, createdBy },
      args,
    );
    const scope = { list: RATE_CHANGE_CURSOR_LIST, owner: normalizeId(company.id) };
    return connectionOf(slice, scope, args, presentRateChange);
  }
}

@Resolver(() => RateChangeUpdateObject)
export class RateChangeUpdatesResolver {
  @FieldResolver(() => FacilityObject, { nullable: true })
  facility(@Root() change: RateChangeUpdateView, @Ctx() ctx: GraphqlContext): Promise<Facility | null> {
    return ctx.loaders.facilities.load(change.facilityId);
  }

  @FieldResolver(() => TenantObject, { nullable: true })
  tenant(@Root() change: RateChangeUpdateView, @Ctx() ctx: GraphqlContext): Promise<Tenant | null> {
    return ctx.loaders.tenants.load(change.tenantId);
  }

  @FieldResolver(() => UnitObject, { nullable: true })
  unit(@Root() change: RateChangeUpdateView, @Ctx() ctx: GraphqlContext): Promise<Unit | null> {
    return ctx.loaders.units.load(change.unitId);
  }
}
