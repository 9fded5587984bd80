import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Company, Facility } from './facilities.types';
import type { FacilitiesService } from './facilities.service';
import { FACILITIES_KEPT } from './facilities.kept';
import type { GraphqlContext } from '../../graphql/context';
import { Kept } from '../../graphql/kept';
import { CompanyObject, FacilityObject } from './facilities.graphql';
import { UUIDScalar } from '../../graphql/scalars';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly facilities: FacilitiesService;
}

@Resolver(() => FacilityObject)
export class FacilitiesResolver {
  constructor(private readonly services: ResolverServices) {}

  @Query(() => FacilityObject, {
    nullable: true,
    description:
      "A facility of the caller's company (NOT_FOUND when unknown, FORBIDDEN for another company's).",
  })
  @Kept(FACILITIES_KEPT)
  async facility(@Arg('id', () => UUIDScalar) id: string, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    // A response being kept reads the facility itself, not the few seconds' copy.
    const fresh = ctx.trace !== null;
    const facility = await ctx.loaders.facility(id, ['id'], { fresh });
    // Records reached from here check their facility through this loader: no second lookup.
    ctx.loaders.facilities.prime(facility.id, facility);
    return facility;
  }

  @FieldResolver(() => CompanyObject)
  async company(@Root() facility: Facility, @Ctx() ctx: GraphqlContext): Promise<Company> {
    const company = await ctx.loaders.companies.load(facility.companyId);
    // A facility reached here was checked to be the caller's, so its company is too.
    if (!company) throw new Error(`company ${facility.companyId} of facility ${facility.id} is missing`);
    return company;
  }
}

@Resolver(() => CompanyObject)
export class CompaniesResolver {
  constructor(private readonly services: ResolverServices) {}

  @Query(() => CompanyObject, {
    nullable: true,
    description: "The caller's company (NOT_FOUND when unknown, FORBIDDEN for another company's).",
  })
  @Kept(FACILITIES_KEPT)
  async company(@Arg('id', () => UUIDScalar) id: string, @Ctx() ctx: GraphqlContext): Promise<Company> {
    return this.services.facilities.companyFor(ctx.caller, id, ['id'], { fresh: ctx.trace !== null });
  }

  @FieldResolver(() => [FacilityObject], {
    description: "The company's facilities, by name (case-insensitive), then id.",
  })
  facilities(@Root() company: Company): Promise<Facility[]> {
    return this.services.facilities.facilitiesOfCompany(company);
  }
}
