import { Field, ObjectType } from 'type-graphql';
import type { RateAppliedActionView } from './rate-applied-action.contract';
import { DateTimeScalar, LocalDateScalar, MoneyScalar, UUIDScalar } from '../../graphql/scalars';

type RateInfo = RateAppliedActionView['rateInfo'];
type AppliedRate = RateInfo['appliedRate'];

@ObjectType('AppliedRate', { simpleResolvers: true })
export class AppliedRateObject implements AppliedRate {
  @Field(() => String)
  name: string;

  @Field(() => MoneyScalar)
  amount: number;
}

@ObjectType('RateInfo', { simpleResolvers: true, description: 'The rate applied, and the standard rate.' })
export class RateInfoObject implements RateInfo {
  @Field(() => AppliedRateObject)
  appliedRate: AppliedRateObject;

  @Field(() => MoneyScalar)
  standardRate: number;
}

/** REST 2.3 in camelCase, plus the id; ids REST writes as "" when absent stay strings here too. */
@ObjectType('RateAppliedAction', {
  simpleResolvers: true,
  description: 'The rates offered at a move-in or transfer and the one finally applied (REST 2.3).',
})
export class RateAppliedActionObject implements Omit<RateAppliedActionView, 'facilityId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => RateInfoObject)
  rateInfo: RateInfoObject;

  @Field(() => String)
  source: string;

  @Field(() => LocalDateScalar)
  completedOn: string;

  @Field(() => String, { description: 'Empty when no user completed it.' })
  completedBy: string;

  @Field(() => String)
  employeeId: string;

  @Field(() => String, { description: 'A UUID, or empty.' })
  userId: string;

  @Field(() => DateTimeScalar)
  timeCompleted: string;

  @Field(() => String, { description: 'Such as MoveInUnitEvent.' })
  event: string;

  @Field(() => String, {
    description: 'A UUID, or empty when there was no earlier ledger (oldLedger is then null).',
  })
  oldLedgerId: string;

  @Field(() => UUIDScalar)
  newLedgerId: string;

  @Field(() => UUIDScalar)
  unitId: string;

  @Field(() => UUIDScalar)
  leadId: string;
}
