import { Type, type Static } from '@sinclair/typebox';
import { displayAmount } from './invoiceable-items.service';
import type { PricedItem } from './invoiceable-items.types';
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

export function toContract({ item, tiers }: PricedItem): Static<typeof schema> {
  const out: Static<typeof schema> = {
    id: item.id,
    product_code: item.productCode,
    kind: item.kind,
    description: item.description,
    required_at_move_in: item.requiredAtMoveIn,
    required_at_transfer: item.requiredAtTransfer,
    amount: displayAmount(item, tiers),
    short_description: item.shortDescription,
    show_in_sales_center: item.showInSalesCenter,
    tax_total: centsToAmount(item.taxTotalCents),
    total: centsToAmount(item.totalCents),
    invoiceable_amounts: tiers.map((tier) => ({
      id: tier.id,
      amount: centsToAmount(tier.amountHundredths),
      kind: tier.kind,
      limit: tier.limit,
    })),
  };
  if (item.kind === 'insurance') {
    out.coverage_amount = item.coverageAmountCents === null ? null : centsToAmount(item.coverageAmountCents);
    out.coverage_percentage = item.coveragePercentage;
    out.provider_name = item.providerName;
    out.provider_key = item.providerKey;
  }
  if (item.kind === 'retail') {
    out.quantity = item.quantity;
    out.is_rental_center_lock = item.isRentalCenterLock;
  }
  return out;
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
