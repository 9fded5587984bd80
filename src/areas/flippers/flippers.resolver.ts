import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Cost, type CostHint } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import { KEPT_LISTS } from '../../caching/kept-lists';
import type { GraphqlContext } from '../../graphql/context';
import { Kept } from '../../graphql/kept';
import { FacilityObject } from '../facilities/facilities.graphql';

// Each answer is one SQL statement, so it counts like an object in the query cost (the list once).
const ONE_QUERY: CostHint = { weight: 1 };

/** Feature flags of a facility: the same answers as GET /v1/:facility_id/flippers[/:name]. */
@Resolver(() => FacilityObject)
export class FlippersResolver {
  @FieldResolver(() => [String], {
    description: "Flags enabled globally, for the facility's company or for the facility, sorted by name.",
  })
  @Cost({ ...ONE_QUERY, assumedSize: 1 })
  @Kept(KEPT_LISTS.flippers)
  flippers(@Root() facility: Facility, @Ctx() ctx: GraphqlContext): Promise<string[]> {
    return ctx.services.flippers.enabledFlippers(facility);
  }

  @FieldResolver(() => Boolean, { description: 'Whether one flag is enabled; false for an unknown name.' })
  @Cost(ONE_QUERY)
  flipper(
    @Root() facility: Facility,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: GraphqlContext,
  ): Promise<boolean> {
    return ctx.services.flippers.isEnabled(facility, name);
  }
}
