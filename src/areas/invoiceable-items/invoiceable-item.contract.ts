import { Type, type Static } from '@sinclair/typebox';
import type { InvoiceableAmount, InvoiceableItem, PricedItem } from './invoiceable-items.types';
import { cases, type ViewOf } from '../../contract/cases';
import { centsToAmount } from '../../kernel/money';
import { Money, Nullable, NullableText, StringEnum, Text, Uuid } from '../../contract/kit';

/**
 * An invoiceable item as the contract writes it (2.7): fields in its order, money in currency
 * units; insurance and retail items add their own.
 */
export const schema = Type.Object(
  {
    id: Uuid(),
    product_code: Text(),
    kind: StringEnum(['fee', 'insurance', 'service', 'retail']),
    description: Text(),
    required_at_move_in: Type.Boolean(),
    required_at_transfer: Type.Boolean(),
    amount: Type.Unsafe<number | 'Variable'>({
      description: 'The single tier amount, "Variable" with several tiers, the pre-tax price without any',
      oneOf: [{ type: 'number' }, { type: 'string', enum: ['Variable'] }],
    }),
    short_description: NullableText(),
    show_in_sales_center: Type.Boolean(),
    tax_total: Money(),
    total: Money(),
    invoiceable_amounts: Type.Array(
      Type.Object({
        id: Uuid(),
        amount: Type.Number({ description: 'Currency units, or a percentage for a percent tier' }),
        kind: StringEnum(['amount', 'percent']),
        limit: Nullable(Type.Number()),
      }),
    ),
    coverage_amount: Type.Optional(Nullable(Type.Number())),
    coverage_percentage: Type.Optional(Nullable(Type.Number())),
    provider_name: Type.Optional(NullableText()),
    provider_key: Type.Optional(NullableText()),
    quantity: Type.Optional(Nullable(Type.Integer({ description: 'Units in stock' }))),
    is_rental_center_lock: Type.Optional(Type.Boolean()),
  },
  {
    $id: 'InvoiceableItem',
    description:
      'Insurance items add coverage_amount, coverage_percentage, provider_name and provider_key; retail items quantity and is_rental_center_lock',
  },
);

/** An item as both transports show it: money in currency units (GraphQL splits `amount` in two). */
export type InvoiceableItemView = ViewOf<typeof schema>;

const itemCases = cases(schema);

/**
 * The item's `amount` as the contract writes it: its single tier's amount, or "Variable" when it
 * has several tiers; an item without tiers shows its pre-tax price (total less tax).
 */
function displayAmount(item: InvoiceableItem, tiers: readonly InvoiceableAmount[]): number | 'Variable' {
  if (tiers.length > 1) return 'Variable';
  if (tiers.length === 1) return centsToAmount(tiers[0].amountCents);
  return centsToAmount(item.totalCents - item.taxTotalCents);
}

/** The item with its tiers as both transports show it; insurance and retail items add their own fields. */
export function present({ item, tiers }: PricedItem): InvoiceableItemView {
  const view: InvoiceableItemView = {
    id: item.id,
    productCode: item.productCode,
    kind: item.kind,
    description: item.description,
    requiredAtMoveIn: item.requiredAtMoveIn,
    requiredAtTransfer: item.requiredAtTransfer,
    amount: displayAmount(item, tiers),
    shortDescription: item.shortDescription,
    showInSalesCenter: item.showInSalesCenter,
    taxTotal: centsToAmount(item.taxTotalCents),
    total: centsToAmount(item.totalCents),
    invoiceableAmounts: tiers.map((tier) => ({
      id: tier.id,
      amount: centsToAmount(tier.amountCents),
      kind: tier.kind,
      limit: tier.limitValue,
    })),
  };
  if (item.kind === 'insurance') {
    view.coverageAmount = item.coverageAmountCents === null ? null : centsToAmount(item.coverageAmountCents);
    view.coveragePercentage = item.coveragePercentage;
    view.providerName = item.providerName;
    view.providerKey = item.providerKey;
  }
  if (item.kind === 'retail') {
    view.quantity = item.quantity;
    view.isRentalCenterLock = item.isRentalCenterLock;
  }
  return view;
}

export function toContract(priced: PricedItem): Static<typeof schema> {
  return itemCases.toContract(present(priced));
}

const QUANTITY = '"quantity":';

/**
 * An item's listing: its contract JSON text with its tiers, which the store keeps beside its
 * columns (migration 20261125150000_item_listings) so that a page is the texts of its items joined
 * by the database (see rate-change-update.contract.ts). A retail item's quantity changes with
 * every sale, so its text is kept in two parts, before and after the quantity, and a page puts the
 * stored quantity between them: `text` is the whole listing of any other item, and `rest` null.
 */
export function listing(priced: PricedItem): { text: string; rest: string | null } {
  const whole = JSON.stringify(toContract(priced));
  if (priced.item.kind !== 'retail') return { text: whole, rest: null };
  // The last two members are the quantity (a number or null) and is_rental_center_lock.
  const at = whole.lastIndexOf(QUANTITY) + QUANTITY.length;
  return { text: whole.slice(0, at), rest: whole.slice(whole.indexOf(',', at)) };
}
