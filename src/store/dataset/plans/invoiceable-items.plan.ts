import { InvoiceableItem } from '../../../contract';
import {
  ITEM_COLUMNS,
  itemOf,
  type ItemArray,
} from '../../../areas/invoiceable-items/invoiceable-items.repository';
import type { InvoiceableAmountsTable } from '../../schema';
import type { Dataset } from '../dataset.types';
import { cents, flag, lower, type PlanBuilder } from './plan-builder';

/** Invoiceable items with their stored listings, and each item's amount tiers replaced whole. */
export function planInvoiceableItems(plan: PlanBuilder, data: Dataset): void {
  const items = data.invoiceable_items ?? [];
  // Each item's tiers, as rows of invoiceable_amounts, made once for its listing and its rows.
  const amounts: InvoiceableAmountsTable[] = [];
  plan.upsert(
    'invoiceable_items',
    [...ITEM_COLUMNS, 'listing', 'listing_rest'],
    items.map((item) => {
      const row: ItemArray = [
        lower(item.id),
        lower(item.facility_id),
        item.kind,
        item.product_code,
        item.description,
        item.short_description ?? null,
        flag(item.required_at_move_in, false),
        flag(item.required_at_transfer, false),
        flag(item.show_in_sales_center, true),
        cents(item.tax_total),
        cents(item.total),
        item.kind === 'fee' ? (item.fee_category ?? 'other') : null,
        item.coverage_amount === undefined ? null : cents(item.coverage_amount),
        item.coverage_percentage ?? null,
        item.provider_name ?? null,
        item.provider_key ?? null,
        item.kind === 'retail' ? (item.quantity ?? 0) : (item.quantity ?? null),
        flag(item.is_rental_center_lock, false),
        flag(item.rental_center_eligible, false),
      ];
      const tiers = item.invoiceable_amounts.map((tier, position) => ({
        id: lower(tier.id),
        itemId: row[0],
        position,
        kind: tier.kind,
        amountHundredths: cents(tier.amount),
        limit: tier.limit ?? null,
      }));
      for (const tier of tiers) {
        amounts.push({
          id: tier.id,
          invoiceable_item_id: tier.itemId,
          position: tier.position,
          amount_cents: tier.amountHundredths,
          kind: tier.kind,
          limit_value: tier.limit,
        });
      }
      const listing = InvoiceableItem.listing({ item: itemOf(row), tiers });
      return [...row, listing.text, listing.rest];
    }),
  );
  if (items.length) {
    plan.deleteIn(
      'invoiceable_amounts',
      'invoiceable_item_id',
      items.map((item) => lower(item.id)),
    );
    plan.upsertRows('invoiceable_amounts', amounts);
  }
}
