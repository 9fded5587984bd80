import { Field, Float, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { InvoiceableItemView } from './invoiceable-item.contract';
import { PageType } from '../../graphql/pagination';
import { ConnectionType, EdgeType } from '../../graphql/connection';
import { MoneyScalar, UUIDScalar } from '../../graphql/scalars';

/** The fields only insurance items have, and those only retail items have. */
type InsuranceView = Pick<
  InvoiceableItemView,
  'coverageAmount' | 'coveragePercentage' | 'providerName' | 'providerKey'
>;
type RetailView = Pick<InvoiceableItemView, 'quantity' | 'isRentalCenterLock'>;
/** The fields every item has. */
type CommonView = Omit<InvoiceableItemView, keyof InsuranceView | keyof RetailView>;
type InvoiceableAmountView = InvoiceableItemView['invoiceableAmounts'][number];

export const InvoiceableItemKindEnum = {
  FEE: 'fee',
  INSURANCE: 'insurance',
  SERVICE: 'service',
  RETAIL: 'retail',
} as const;
registerEnumType(InvoiceableItemKindEnum, { name: 'InvoiceableItemKind' });

/** The lists of REST 4.10, each a path under /v1/:facility_id/invoiceable_items. */
export const InvoiceableItemListEnum = {
  ALL: 'all',
  INSURANCE: 'insurance',
  SERVICES: 'services',
  RETAIL: 'retail',
  RENTAL_CENTER: 'rental_center',
} as const;
registerEnumType(InvoiceableItemListEnum, {
  name: 'InvoiceableItemList',
  valuesConfig: {
    ALL: { description: 'Every item: fees, insurance, services, retail (GET .../invoiceable_items).' },
    INSURANCE: { description: 'GET .../invoiceable_items/insurance' },
    SERVICES: { description: 'GET .../invoiceable_items/services' },
    RETAIL: { description: 'GET .../invoiceable_items/retail' },
    RENTAL_CENTER: {
      description: 'Retail items sold in the rental center (GET .../invoiceable_items/rental_center).',
    },
  },
});

export const InvoiceableAmountKindEnum = { AMOUNT: 'amount', PERCENT: 'percent' } as const;
registerEnumType(InvoiceableAmountKindEnum, { name: 'InvoiceableAmountKind' });

@ObjectType('InvoiceableAmount', { simpleResolvers: true, description: 'One amount tier of an item.' })
export class InvoiceableAmountObject implements InvoiceableAmountView {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => Float, { description: 'Currency units for an AMOUNT tier, a percentage for a PERCENT tier.' })
  amount: number;

  @Field(() => InvoiceableAmountKindEnum)
  kind: InvoiceableAmountView['kind'];

  @Field(() => Float, { nullable: true })
  limit: number | null;
}

/**
 * REST 2.7 in camelCase. As in REST, insurance and retail items add their own fields: ask for
 * them with `... on InsuranceItem { coverageAmount }` and `... on RetailItem { quantity }`.
 */
@InterfaceType('InvoiceableItem', {
  // No resolveType: TypeGraphQL's default picks the type by class, synchronously (graphql-jit
  // needs that; a resolveType option would be wrapped in an async function).
  description: 'A fee, insurance, service or retail item a facility can invoice (REST 2.7).',
})
export abstract class InvoiceableItemObject implements Omit<CommonView, 'amount'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  productCode: string;

  @Field(() => InvoiceableItemKindEnum)
  kind: InvoiceableItemView['kind'];

  @Field(() => String)
  description: string;

  @Field(() => Boolean)
  requiredAtMoveIn: boolean;

  @Field(() => Boolean)
  requiredAtTransfer: boolean;

  @Field(() => MoneyScalar, {
    nullable: true,
    description:
      'The single tier\'s amount (or the pre-tax price without tiers); null when there are several tiers, where REST writes "Variable".',
  })
  amount: number | null;

  @Field(() => Boolean, {
    description: 'Whether the item has several amount tiers (REST amount "Variable").',
  })
  amountIsVariable: boolean;

  @Field(() => String, { nullable: true })
  shortDescription: string | null;

  @Field(() => Boolean)
  showInSalesCenter: boolean;

  @Field(() => MoneyScalar)
  taxTotal: number;

  @Field(() => MoneyScalar)
  total: number;

  @Field(() => [InvoiceableAmountObject], { description: 'Amount tiers in position order.' })
  @Cost({ assumedSize: 5 })
  invoiceableAmounts: InvoiceableAmountObject[];
}

@ObjectType('FeeItem', { implements: InvoiceableItemObject, simpleResolvers: true, description: 'A fee.' })
export class FeeItemObject extends InvoiceableItemObject {}

@ObjectType('ServiceItem', {
  implements: InvoiceableItemObject,
  simpleResolvers: true,
  description: 'A recurring service.',
})
export class ServiceItemObject extends InvoiceableItemObject {}

@ObjectType('InsuranceItem', {
  implements: InvoiceableItemObject,
  simpleResolvers: true,
  description: 'An insurance plan, with its coverage and provider.',
})
export class InsuranceItemObject extends InvoiceableItemObject implements Required<InsuranceView> {
  @Field(() => MoneyScalar, { nullable: true })
  coverageAmount: number | null;

  @Field(() => Float, { nullable: true })
  coveragePercentage: number | null;

  @Field(() => String, { nullable: true })
  providerName: string | null;

  @Field(() => String, { nullable: true })
  providerKey: string | null;
}

@ObjectType('RetailItem', {
  implements: InvoiceableItemObject,
  simpleResolvers: true,
  description: 'A retail product, with its stock.',
})
export class RetailItemObject extends InvoiceableItemObject implements Required<RetailView> {
  @Field(() => Int, { nullable: true, description: 'Units in stock.' })
  quantity: number | null;

  @Field(() => Boolean)
  isRentalCenterLock: boolean;
}

@ObjectType('InvoiceableItemPage', { simpleResolvers: true, description: 'A page of invoiceable items.' })
export class InvoiceableItemPageObject extends PageType(InvoiceableItemObject, 'items') {}

@ObjectType('InvoiceableItemEdge', {
  simpleResolvers: true,
  description: 'An invoiceable item and its cursor.',
})
export class InvoiceableItemEdgeObject extends EdgeType(InvoiceableItemObject) {}

@ObjectType('InvoiceableItemConnection', {
  simpleResolvers: true,
  description: 'A slice of a list of invoiceable items, walked by cursor.',
})
export class InvoiceableItemConnectionObject extends ConnectionType(InvoiceableItemEdgeObject, 'items') {}

@ObjectType('InvoiceableItemFees', {
  simpleResolvers: true,
  description: 'Fee items by fee category (GET /v1/:facility_id/invoiceable_items/fees).',
})
export class InvoiceableItemFeesObject {
  @Field(() => InvoiceableItemObject, { nullable: true })
  securityDeposit: InvoiceableItemObject | null;

  @Field(() => InvoiceableItemObject, { nullable: true })
  onlinePayment: InvoiceableItemObject | null;

  @Field(() => InvoiceableItemObject, { nullable: true })
  reservation: InvoiceableItemObject | null;

  @Field(() => [InvoiceableItemObject])
  @Cost({ assumedSize: 20 })
  moveInFees: InvoiceableItemObject[];

  @Field(() => [InvoiceableItemObject])
  @Cost({ assumedSize: 20 })
  transferFees: InvoiceableItemObject[];

  @Field(() => [InvoiceableItemObject])
  @Cost({ assumedSize: 20 })
  other: InvoiceableItemObject[];
}

/** An item as GraphQL answers it: plain properties, so no field needs a resolver. */
export function invoiceableItemObject(view: InvoiceableItemView): InvoiceableItemObject {
  // REST's "Variable" is GraphQL's null amount with amountIsVariable.
  const variable = view.amount === 'Variable';
  const shown = { amount: variable ? null : view.amount, amountIsVariable: variable };
  // Instances of the kind's class: that is how the interface resolves each item's type. The view
  // holds the insurance and retail fields only for items of their kind.
  switch (view.kind) {
    case 'insurance':
      return Object.assign(new InsuranceItemObject(), view, shown);
    case 'retail':
      return Object.assign(new RetailItemObject(), view, shown);
    case 'service':
      return Object.assign(new ServiceItemObject(), view, shown);
    case 'fee':
      return Object.assign(new FeeItemObject(), view, shown);
  }
}
