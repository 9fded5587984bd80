import { Field, Int, ObjectType } from 'type-graphql';
import type { RateChangeUpdateView } from './rate-change-update.contract';
import { PageType } from '../../graphql/pagination';
import { ConnectionType, EdgeType } from '../../graphql/connection';
import { DateTimeScalar, LocalDateScalar, MoneyScalar, UUIDScalar } from '../../graphql/scalars';

/** REST 2.9 in camelCase; facility, tenant and unit lead to the records themselves. */
@ObjectType('RateChangeUpdate', {
  simpleResolvers: true,
  description: "A unit's rental rate change (REST 2.9).",
})
export class RateChangeUpdateObject implements Omit<RateChangeUpdateView, 'facilityId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  facilityName: string;

  @Field(() => UUIDScalar)
  tenantId: string;

  @Field(() => String, { description: 'First and last name.' })
  tenantName: string;

  @Field(() => UUIDScalar)
  unitId: string;

  @Field(() => String)
  unitName: string;

  @Field(() => DateTimeScalar, { description: "In the facility's time zone." })
  changedAt: string;

  @Field(() => MoneyScalar)
  oldRate: number;

  @Field(() => MoneyScalar)
  newRate: number;

  @Field(() => LocalDateScalar)
  effectiveOnDate: string;

  @Field(() => Int, { nullable: true, description: 'The user who made the change, when known.' })
  createdBy: number | null;
}

@ObjectType('RateChangeUpdatePage', { simpleResolvers: true, description: 'A page of rate change updates.' })
export class RateChangeUpdatePageObject extends PageType(RateChangeUpdateObject, 'rate change updates') {}

@ObjectType('RateChangeUpdateEdge', {
  simpleResolvers: true,
  description: 'A rate change update and its cursor.',
})
export class RateChangeUpdateEdgeObject extends EdgeType(RateChangeUpdateObject) {}

@ObjectType('RateChangeUpdateConnection', {
  simpleResolvers: true,
  description: 'A slice of rate change updates, walked by cursor.',
})
export class RateChangeUpdateConnectionObject extends ConnectionType(
  RateChangeUpdateEdgeObject,
  'rate change updates',
) {}
