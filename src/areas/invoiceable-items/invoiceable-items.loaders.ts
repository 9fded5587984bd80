import type { LoaderTools } from '../../graphql/loaders';
import type { InvoiceableItemsService } from './invoiceable-items.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly invoiceableItems: InvoiceableItemsService;
}

/** Invoiceable items by id, and an item's amount tiers. */
export function invoiceableItemsLoaders({ invoiceableItems }: LoaderServices, { byIds, lists }: LoaderTools) {
  return {
    invoiceableItems: byIds('invoiceableItems', (ids) => invoiceableItems.itemsByIds(ids)),
    invoiceableTiers: lists('invoiceableTiers', (ids) => invoiceableItems.tiersByItemIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof invoiceableItemsLoaders> {}
}
