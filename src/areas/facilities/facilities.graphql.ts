import { Field, ObjectType } from 'type-graphql';
import { TimeZoneScalar, UUIDScalar } from '../../graphql/scalars';

/**
 * GraphQL shapes of the domain's Facility and Company. Resolvers return the domain objects
 * themselves; fields that need more than a property (flippers, company, ...) are field resolvers,
 * one resolver file per area, on `@Resolver(() => FacilityObject)`.
 */
@ObjectType('Facility', {
  simpleResolvers: true,
  description: "A self-storage facility of the caller's company.",
})
export class FacilityObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => TimeZoneScalar, { description: 'IANA zone; dates and instants of the facility are in it.' })
  timeZone: string;
}

@ObjectType('Company', { simpleResolvers: true, description: 'The company a client application belongs to.' })
export class CompanyObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  name: string;
}
