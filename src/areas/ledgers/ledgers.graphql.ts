import { Field, Int, ObjectType } from 'type-graphql';
import type {
  Ledger,
  LedgerDiscount,
  LedgerInsurance,
  LedgerInsuranceData,
  LedgerService,
  LedgerServiceData,
} from './ledgers.types';
import { LocalDateScalar, MoneyScalar, UUIDScalar } from '../../graphql/scalars';

/**
 * Ledgers and what hangs off them (REST 2.4), read straight from the domain records: insurance and
 * service keep REST's `data` object, so each field is REST's in camelCase.
 */
@ObjectType('Ledger', {
  simpleResolvers: true,
  description: "A tenant's occupancy of a unit at a facility: the account rent and fees are billed to.",
})
export class LedgerObject implements Omit<Ledger, 'facilityId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => UUIDScalar)
  tenantId: string;

  @Field(() => UUIDScalar)
  unitId: string;
}

@ObjectType('LedgerInsuranceData', { simpleResolvers: true })
export class LedgerInsuranceDataObject implements LedgerInsuranceData {
  @Field(() => String)
  description: string;

  @Field(() => String, { description: 'Such as percent.' })
  retainType: string;

  @Field(() => String)
  productCode: string;

  @Field(() => String)
  policyNumber: string;

  @Field(() => String, { description: 'A decimal number, as a string.' })
  retainAmount: string;

  @Field(() => String, { description: 'A decimal number, as a string.' })
  coverageAmount: string;

  @Field(() => String, { description: 'A decimal number, as a string.' })
  coveragePercentage: string;

  @Field(() => String)
  insuranceProviderKey: string;
}

@ObjectType('LedgerInsurance', { simpleResolvers: true, description: 'An insurance policy on a ledger.' })
export class LedgerInsuranceObject implements Omit<LedgerInsurance, 'ledgerId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => LocalDateScalar)
  effectiveDate: string;

  @Field(() => LocalDateScalar, { nullable: true })
  cancelDate: string | null;

  @Field(() => LedgerInsuranceDataObject)
  data: LedgerInsuranceDataObject;

  @Field(() => MoneyScalar)
  amount: number;
}

@ObjectType('LedgerServiceData', { simpleResolvers: true })
export class LedgerServiceDataObject implements LedgerServiceData {
  @Field(() => String)
  description: string;

  @Field(() => String)
  productCode: string;
}

@ObjectType('LedgerService', {
  simpleResolvers: true,
  description: 'A recurring service billed on a ledger.',
})
export class LedgerServiceObject implements Omit<LedgerService, 'ledgerId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => LocalDateScalar)
  effectiveDate: string;

  @Field(() => LocalDateScalar, { nullable: true })
  cancelDate: string | null;

  @Field(() => LedgerServiceDataObject)
  data: LedgerServiceDataObject;

  @Field(() => MoneyScalar)
  amount: number;
}

@ObjectType('LedgerDiscount', { simpleResolvers: true, description: 'A discount applied to a ledger.' })
export class LedgerDiscountObject implements Omit<LedgerDiscount, 'ledgerId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'Such as always.' })
  kind: string;

  @Field(() => String)
  description: string;

  @Field(() => LocalDateScalar)
  startDate: string;

  @Field(() => LocalDateScalar, { nullable: true })
  endDate: string | null;

  @Field(() => Int, { nullable: true })
  minOccupancyMonths: number | null;
}
