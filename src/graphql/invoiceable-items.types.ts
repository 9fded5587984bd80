import { Extensions, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { displayAmount } from '../domain/invoiceable-items/invoiceable-items.service';
import type { PricedItem } from '../domain/invoiceable-items/invoiceable-items.types';
import { centsToAmount } from '../domain/shared/money';
import { PageType } from './pagination';
import { MoneyScalar, UUIDScalar } from './scalars';

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
export class InvoiceableAmountObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => Float, { description: 'Currency units for an AMOUNT tier, a percentage for a PERCENT tier.' })
  amount: number;

  @Field(() => InvoiceableAmountKindEnum)
  kind: string;

  @Field(() => Float, { nullable: true })
  limit: number | null;
}

/** REST 2.7 in camelCase; the insurance and retail fields are null on other kinds. */
@ObjectType('InvoiceableItem', {
  simpleResolvers: true,
  description: 'A fee, insurance, service or retail item a facility can invoice (REST 2.7).',
})
export class InvoiceableItemObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  productCode: string;

  @Field(() => InvoiceableItemKindEnum)
  kind: string;

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
  @Extensions({ cost: { listSize: 5 } })
  invoiceableAmounts: InvoiceableAmountObject[];

  @Field(() => MoneyScalar, { nullable: true, description: 'Insurance only.' })
  coverageAmount: number | null;

  @Field(() => Float, { nullable: true, description: 'Insurance only.' })
  coveragePercentage: number | null;

  @Field(() => String, { nullable: true, description: 'Insurance only.' })
  providerName: string | null;

  @Field(() => String, { nullable: true, description: 'Insurance only.' })
  providerKey: string | null;

  @Field(() => Int, { nullable: true, description: 'Retail only: units in stock.' })
  quantity: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Retail only.' })
  isRentalCenterLock: boolean | null;
}

@ObjectType('InvoiceableItemPage', { simpleResolvers: true, description: 'A page of invoiceable items.' })
export class InvoiceableItemPageObject extends PageType(InvoiceableItemObject, 'items') {}

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
  @Extensions({ cost: { listSize: 20 } })
  moveInFees: InvoiceableItemObject[];

  @Field(() => [InvoiceableItemObject])
  @Extensions({ cost: { listSize: 20 } })
  transferFees: InvoiceableItemObject[];

  @Field(() => [InvoiceableItemObject])
  @Extensions({ cost: { listSize: 20 } })
  other: InvoiceableItemObject[];
}

/** An item with its tiers as GraphQL answers it: plain properties, so no field needs a resolver. */
export function invoiceableItemView({ item, tiers }: PricedItem): InvoiceableItemObject {
  const amount = displayAmount(item, tiers);
  const insurance = item.kind === 'insurance';
  const retail = item.kind === 'retail';
  return {
    id: item.id,
    productCode: item.productCode,
    kind: item.kind,
    description: item.description,
    requiredAtMoveIn: item.requiredAtMoveIn,
    requiredAtTransfer: item.requiredAtTransfer,
    amount: amount === 'Variable' ? null : amount,
    amountIsVariable: amount === 'Variable',
    shortDescription: item.shortDescription,
    showInSalesCenter: item.showInSalesCenter,
    taxTotal: centsToAmount(item.taxTotalCents),
    total: centsToAmount(item.totalCents),
    invoiceableAmounts: tiers.map((tier) => ({
      id: tier.id,
      amount: centsToAmount(tier.amountHundredths),
      kind: tier.kind,
      limit: tier.limit,
    })),
    coverageAmount:
      insurance && item.coverageAmountCents !== null ? centsToAmount(item.coverageAmountCents) : null,
    coveragePercentage: insurance ? item.coveragePercentage : null,
    providerName: insurance ? item.providerName : null,
    providerKey: insurance ? item.providerKey : null,
    quantity: retail ? item.quantity : null,
    isRentalCenterLock: retail ? item.isRentalCenterLock : null,
  };
}
