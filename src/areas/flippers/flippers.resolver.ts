import { Arg, FieldResolver, Resolver, Root } from 'type-graphql';
import { Cost, type CostHint } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import type { FlippersService } from './flippers.service';
import { FLIPPERS_KEPT } from './flippers.kept';
import { Kept } from '../../graphql/kept';
import { FacilityObject } from '../facilities/facilities.graphql';

// Each answer is one SQL statement, so it counts like an object in the query cost (the list once).
const ONE_QUERY: CostHint = { weight: 1 };

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly flippers: FlippersService;
}

/** Feature flags of a facility: the same answers as GET /v1/:facility_id/flippers[/:name]. */
@Resolver(() => FacilityObject)
export class FlippersResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => [String], {
    description: "Flags enabled globally, for the facility's company or for the facility, sorted by name.",
  })
  @Cost({ ...ONE_QUERY, assumedSize: 1 })
  @Kept(FLIPPERS_KEPT)
  flippers(@Root() facility: Facility): Promise<string[]> {
    return this.services.flippers.enabledFlippers(facility);
  }

  @FieldResolver(() => Boolean, { description: 'Whether one flag is enabled; false for an unknown name.' })
  @Cost(ONE_QUERY)
  flipper(@Root() facility: Facility, @Arg('name', () => String) name: string): Promise<boolean> {
    return this.services.flippers.isEnabled(facility, name);
  }
}
