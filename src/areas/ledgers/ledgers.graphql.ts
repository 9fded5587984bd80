import { Field, Int, ObjectType, type ClassType } from 'type-graphql';
import type { LedgerInsuranceView, LedgerServiceView } from './ledger-charges.contract';
import type { LedgerDiscountView } from './ledger-discount.contract';
import type { Ledger, LedgerInsuranceData, LedgerServiceData } from './ledgers.types';
import { LocalDateScalar, MoneyScalar, UUIDScalar } from '../../graphql/scalars';

/**
 * Ledgers and what hangs off them (REST 2.4), each the view REST writes in snake_case: insurance and
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

@ObjectType('LedgerServiceData', { simpleResolvers: true })
export class LedgerServiceDataObject implements LedgerServiceData {
  @Field(() => String)
  description: string;

  @Field(() => String)
  productCode: string;
}

/**
 * A policy and a service are one shape, told apart by the class of their `data` (TypeGraphQL's
 * generic types): each record's class extends this one over its data's class and implements its view.
 */
function LedgerChargeType<Data extends object>(dataType: ClassType<Data>) {
  // Not a type of the schema itself: only the classes extending it are reached.
  @ObjectType({ simpleResolvers: true })
  abstract class LedgerChargeObject implements Omit<LedgerInsuranceView | LedgerServiceView, 'data'> {
    @Field(() => UUIDScalar)
    id: string;

    @Field(() => LocalDateScalar)
    effectiveDate: string;

    @Field(() => LocalDateScalar, { nullable: true })
    cancelDate: string | null;

    @Field(() => dataType)
    data: Data;

    @Field(() => MoneyScalar)
    amount: number;
  }
  return LedgerChargeObject;
}

@ObjectType('LedgerInsurance', { simpleResolvers: true, description: 'An insurance policy on a ledger.' })
export class LedgerInsuranceObject
  extends LedgerChargeType(LedgerInsuranceDataObject)
  implements LedgerInsuranceView {}

@ObjectType('LedgerService', {
  simpleResolvers: true,
  description: 'A recurring service billed on a ledger.',
})
export class LedgerServiceObject
  extends LedgerChargeType(LedgerServiceDataObject)
  implements LedgerServiceView {}

@ObjectType('LedgerDiscount', { simpleResolvers: true, description: 'A discount applied to a ledger.' })
export class LedgerDiscountObject implements LedgerDiscountView {
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
