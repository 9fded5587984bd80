import type { InvoiceableItemView } from './invoiceable-items.presenter';
import { presentInvoiceableItem } from './invoiceable-items.presenter';
import { presentRateChange } from './rate-changes.presenter';
import type { PricedItem } from '../domain/invoiceable-items/invoiceable-items.types';
import type { RateChange } from '../domain/rate-changes/rate-changes.types';

/*
 * Listings: rows as the contract lists them, as JSON text. The store keeps each rate change's and
 * each item's listing beside its columns, written with the row and again when what it shows
 * changes, so a cold page is the texts of its rows joined by the database, instead of thousands of
 * values made into objects and serialized again on every request. These functions are the one
 * place their shape is written; REST's other answers with items use contractItem too.
 */

/** A rate change update as the contract writes it (2.9), fields in the contract's order. */
export function contractRateChange(change: RateChange) {
  const view = presentRateChange(change);
  return {
    id: view.id,
    facility_name: view.facilityName,
    tenant_id: view.tenantId,
    tenant_name: view.tenantName,
    unit_id: view.unitId,
    unit_name: view.unitName,
    changed_at: view.changedAt,
    old_rate: view.oldRate,
    new_rate: view.newRate,
    effective_on_date: view.effectiveOnDate,
  };
}

/** A rate change's listing: changed_at in its facility's zone (migration 20261125140000_rate_change_listings). */
export function rateChangeListing(change: RateChange): string {
  return JSON.stringify(contractRateChange(change));
}

/** An invoiceable item as the contract writes it (2.7), fields in the contract's order; insurance and retail items add their own. */
export function contractItem(item: InvoiceableItemView): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: item.id,
    product_code: item.productCode,
    kind: item.kind,
    description: item.description,
    required_at_move_in: item.requiredAtMoveIn,
    required_at_transfer: item.requiredAtTransfer,
    amount: item.amount,
    short_description: item.shortDescription,
    show_in_sales_center: item.showInSalesCenter,
    tax_total: item.taxTotal,
    total: item.total,
    invoiceable_amounts: item.invoiceableAmounts.map((tier) => ({
      id: tier.id,
      amount: tier.amount,
      kind: tier.kind,
      limit: tier.limit,
    })),
  };
  if (item.insurance) {
    out.coverage_amount = item.insurance.coverageAmount;
    out.coverage_percentage = item.insurance.coveragePercentage;
    out.provider_name = item.insurance.providerName;
    out.provider_key = item.insurance.providerKey;
  }
  if (item.retail) {
    out.quantity = item.retail.quantity;
    out.is_rental_center_lock = item.retail.isRentalCenterLock;
  }
  return out;
}

/**
 * An item's listing (migration 20261125150000_item_listings). A retail item's quantity changes with
 * every sale, so its text is kept in two parts, before and after the quantity, and the page puts
 * the stored quantity between them: `text` is the whole listing of any other item, `rest` null.
 */
export function itemListing(priced: PricedItem): { text: string; rest: string | null } {
  const whole = JSON.stringify(contractItem(presentInvoiceableItem(priced)));
  if (priced.item.kind !== 'retail') return { text: whole, rest: null };
  // The last two members are the quantity (a number or null) and is_rental_center_lock.
  const at = whole.lastIndexOf(QUANTITY) + QUANTITY.length;
  return { text: whole.slice(0, at), rest: whole.slice(whole.indexOf(',', at)) };
}

const QUANTITY = '"quantity":';
