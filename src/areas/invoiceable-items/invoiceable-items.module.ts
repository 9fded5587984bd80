import { areaModule } from '../../area-module';
import { FacilityInvoiceableItemsResolver, PaymentLineItemResolver } from './invoiceable-items.resolver';
import { INVOICEABLE_ITEMS_ROUTES } from './invoiceable-items.routes';
import * as InvoiceableItem from './invoiceable-item.contract';
import { invoiceableItemsLoaders } from './invoiceable-items.loaders';
import { invoiceableItemsTables } from './invoiceable-items.tables';
import { INVOICEABLE_ITEMS_KEPT } from './invoiceable-items.kept';
import { INVOICEABLE_ITEM_LISTINGS } from './invoiceable-items.listings';
import { INVOICEABLE_ITEMS_ENTITIES } from './invoiceable-items.entities';
import { planInvoiceableItems } from './invoiceable-items.plan';

/** The invoiceable-items area, as the kits take it (see AreaModule). */
export const invoiceableItemsModule = areaModule({
  name: 'invoiceable-items',
  routes: INVOICEABLE_ITEMS_ROUTES,
  resolvers: [FacilityInvoiceableItemsResolver, PaymentLineItemResolver],
  schemas: [InvoiceableItem.schema],
  loaders: invoiceableItemsLoaders,
  entities: INVOICEABLE_ITEMS_ENTITIES,
  tables: invoiceableItemsTables,
  kept: { invoiceableItems: INVOICEABLE_ITEMS_KEPT },
  listings: INVOICEABLE_ITEM_LISTINGS,
  datasetPlan: planInvoiceableItems,
});
