import { centsToAmount } from '../../kernel/money';
import { displayAmount } from './invoiceable-items.service';
import type { PricedItem } from './invoiceable-items.types';

/**
 * An invoiceable item as the contract writes it (2.7): fields in its order, money in currency
 * units; insurance and retail items add their own.
 */
export function contractItem({ item, tiers }: PricedItem): Record<string, unknown> {
  const out: Record<string, unknown> = {
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
 * by the database (see rate-change-listing.ts). A retail item's quantity changes with every sale,
 * so its text is kept in two parts, before and after the quantity, and a page puts the stored
 * quantity between them: `text` is the whole listing of any other item, and `rest` null.
 */
export function itemListing(priced: PricedItem): { text: string; rest: string | null } {
  const whole = JSON.stringify(contractItem(priced));
  if (priced.item.kind !== 'retail') return { text: whole, rest: null };
  // The last two members are the quantity (a number or null) and is_rental_center_lock.
  const at = whole.lastIndexOf(QUANTITY) + QUANTITY.length;
  return { text: whole.slice(0, at), rest: whole.slice(whole.indexOf(',', at)) };
}
