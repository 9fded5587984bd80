import type { EntityReferences } from '../../graphql/federation';
import { itemObject } from './invoiceable-items.resolver';

/**
 * Federation entities: an invoiceable item by id (the interface, and so each of its four types),
 * with its tiers, as a facility's lists answer it; null for another company's.
 */
export const INVOICEABLE_ITEMS_ENTITIES = {
  InvoiceableItem: async (id, { loaders }) => {
    const [item, tiers] = await Promise.all([
      loaders.invoiceableItems.load(id),
      loaders.invoiceableTiers.load(id),
    ]);
    return item && itemObject({ item, tiers });
  },
} satisfies EntityReferences;
