import { Field, Int, ObjectType } from 'type-graphql';
import type { LedgerDiscount, LedgerInsurance, LedgerService } from '../domain/ledgers/ledgers.types';
import { LocalDateScalar, MoneyScalar, UUIDScalar } from './scalars';

/**
 * Ledgers and what hangs off them (REST 2.4). Insurance and service keep REST's `data` object, so
 * each field is REST's in camelCase.
 */
@ObjectType('Ledger', {
  simpleResolvers: true,
  description: "A tenant's occupancy of a unit at a facility: the account rent and fees are billed to.",
})
export class LedgerObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => UUIDScalar)
  tenantId: string;

  @Field(() => UUIDScalar)
  unitId: string;
}

@ObjectType('LedgerInsuranceData', { simpleResolvers: true })
export class LedgerInsuranceDataObject {
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
export class LedgerInsuranceObject {
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
export class LedgerServiceDataObject {
  @Field(() => String)
  description: string;

  @Field(() => String)
  productCode: string;
}

@ObjectType('LedgerService', {
  simpleResolvers: true,
  description: 'A recurring service billed on a ledger.',
})
export class LedgerServiceObject {
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
export class LedgerDiscountObject {
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

export function insuranceView(insurance: LedgerInsurance): LedgerInsuranceObject {
  return {
    id: insurance.id,
    effectiveDate: insurance.effectiveDate,
    cancelDate: insurance.cancelDate,
    data: {
      description: insurance.description,
      retainType: insurance.retainType,
      productCode: insurance.productCode,
      policyNumber: insurance.policyNumber,
      retainAmount: insurance.retainAmount,
      coverageAmount: insurance.coverageAmount,
      coveragePercentage: insurance.coveragePercentage,
      insuranceProviderKey: insurance.insuranceProviderKey,
    },
    amount: insurance.amount,
  };
}

export function serviceView(service: LedgerService): LedgerServiceObject {
  return {
    id: service.id,
    effectiveDate: service.effectiveDate,
    cancelDate: service.cancelDate,
    data: { description: service.description, productCode: service.productCode },
    amount: service.amount,
  };
}

export function discountView(discount: LedgerDiscount): LedgerDiscountObject {
  return {
    id: discount.id,
    name: discount.name,
    kind: discount.kind,
    description: discount.description,
    startDate: discount.startDate,
    endDate: discount.endDate,
    minOccupancyMonths: discount.minOccupancyMonths,
  };
}
