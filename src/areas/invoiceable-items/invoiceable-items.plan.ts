import * as InvoiceableItem from './invoiceable-item.contract';
import { ITEM_LISTING_COLUMNS, invoiceableAmounts, invoiceableItems } from './invoiceable-items.tables';
import { rowCodec } from '../../store/rows';
import type { InvoiceableAmountsTable, InvoiceableItemsTable } from '../../store/schema';
import { datasetSchema } from '../../store/dataset/dataset.schema';
import type { Dataset } from '../../store/dataset/dataset.types';
import { cents, datasetRowOf, lower, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

const itemRowOf = datasetRowOf(
  invoiceableItems,
  datasetSchema.properties.invoiceable_items.items.properties,
  ITEM_LISTING_COLUMNS,
);
const itemCodec = rowCodec(invoiceableItems, ITEM_LISTING_COLUMNS);
const tierCodec = rowCodec(invoiceableAmounts);

/** Invoiceable items with their stored listings, and each item's amount tiers replaced whole. */
export function planInvoiceableItems(plan: PlanBuilder, data: Dataset): void {
  const items = data.invoiceable_items ?? [];
  // Each item's tiers, as rows of invoiceable_amounts, made once for its listing and its rows.
  const amounts: InvoiceableAmountsTable[] = [];
  plan.upsertRows(
    'invoiceable_items',
    items.map((item): InvoiceableItemsTable => {
      const row = itemRowOf(item);
      // Only fees have a category (other when the file gives none); a retail item has a stock.
      row.fee_category = item.kind === 'fee' ? (item.fee_category ?? 'other') : null;
      if (item.kind === 'retail') row.quantity = item.quantity ?? 0;
      const tiers = item.invoiceable_amounts.map((tier, position) => ({
        id: lower(tier.id),
        invoiceable_item_id: row.id,
        position,
        kind: tier.kind,
        amount_cents: cents(tier.amount),
        limit_value: tier.limit ?? null,
      }));
      amounts.push(...tiers);
      const listing = InvoiceableItem.listing({
        item: itemCodec.read(row),
        tiers: tiers.map(tierCodec.read),
      });
      return { ...row, listing: listing.text, listing_rest: listing.rest };
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
