import { Arg, Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import {
  ITEM_CURSOR_LIST,
  ITEM_PAGE_LIMITS,
  type InvoiceableItemsService,
} from './invoiceable-items.service';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOf,
  type ConnectionView,
} from '../../graphql/connection';
import { normalizeId } from '../../kernel/ids';
import type { InvoiceableItemList } from './invoiceable-items.types';
import { present } from './invoiceable-item.contract';
import type { PricedItem } from './invoiceable-items.types';
import { INVOICEABLE_ITEMS_KEPT } from './invoiceable-items.kept';
import type { GraphqlContext } from '../../graphql/context';
import { Kept } from '../../graphql/kept';
import { FacilityObject } from '../facilities/facilities.graphql';
import {
  InvoiceableItemConnectionObject,
  InvoiceableItemFeesObject,
  InvoiceableItemListEnum,
  InvoiceableItemPageObject,
  InvoiceableItemObject,
  invoiceableItemObject,
} from './invoiceable-items.graphql';

/** An item as the schema answers it (its concrete type's object). */
export const itemObject = (item: PricedItem) => invoiceableItemObject(present(item));
import { pageCost, paginationOf, type PageView } from '../../graphql/pagination';
import { PaymentLineObject } from '../payments/payments.graphql';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly invoiceableItems: InvoiceableItemsService;
}

/** The invoiceable item lists of REST 4.10, from the same service. */
@Resolver(() => FacilityObject)
export class FacilityInvoiceableItemsResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => InvoiceableItemPageObject, {
    description: 'One page of a list of REST 4.10, sorted by kind, description (case-insensitive), then id.',
  })
  @Cost(pageCost(ITEM_PAGE_LIMITS.maxPerPage))
  @Kept(INVOICEABLE_ITEMS_KEPT)
  async invoiceableItems(
    @Root() facility: Facility,
    @Ctx() ctx: GraphqlContext,
    @Arg('list', () => InvoiceableItemListEnum, { defaultValue: 'all' }) list: InvoiceableItemList,
    @Arg('page', () => Int, { nullable: true, description: '1-based page number (default 1).' })
    page?: number | null,
    @Arg('perPage', () => Int, {
      nullable: true,
      description: 'Page size (default 100; above 100 reads as 100).',
    })
    perPage?: number | null,
  ): Promise<PageView<InvoiceableItemObject>> {
    const result = await this.services.invoiceableItems.list(facility, list, { page, perPage });
    return { entries: result.entries.map(itemObject), pagination: paginationOf(result.pagination) };
  }

  @FieldResolver(() => InvoiceableItemConnectionObject, {
    description:
      'The items of invoiceableItems walked by cursor (Relay connection): the same list, filters and order.',
  })
  @Cost(connectionCost())
  async invoiceableItemsConnection(
    @Root() facility: Facility,
    @Arg('list', () => InvoiceableItemListEnum, { defaultValue: 'all' }) list: InvoiceableItemList,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): Promise<ConnectionView<InvoiceableItemObject>> {
    const slice = await this.services.invoiceableItems.connection(facility, list, args);
    const scope = { list: ITEM_CURSOR_LIST, owner: normalizeId(facility.id) };
    return connectionOf(slice, scope, args, itemObject);
  }

  @FieldResolver(() => InvoiceableItemFeesObject, {
    description:
      'Fee items by fee category; security deposit, online payment and reservation are the first of their category.',
  })
  async invoiceableItemFees(@Root() facility: Facility): Promise<InvoiceableItemFeesObject> {
    const groups = await this.services.invoiceableItems.fees(facility);
    const one = (fee: PricedItem | null) => (fee ? itemObject(fee) : null);
    return {
      securityDeposit: one(groups.securityDeposit),
      onlinePayment: one(groups.onlinePayment),
      reservation: one(groups.reservation),
      moveInFees: groups.moveInFees.map(itemObject),
      transferFees: groups.transferFees.map(itemObject),
      other: groups.other.map(itemObject),
    };
  }
}

@Resolver(() => PaymentLineObject)
export class PaymentLineItemResolver {
  @FieldResolver(() => InvoiceableItemObject, {
    nullable: true,
    description: 'The item paid for, as it is now (its stock and price may have changed since).',
  })
  async invoiceableItem(
    @Root() line: PaymentLineObject,
    @Ctx() ctx: GraphqlContext,
  ): Promise<InvoiceableItemObject | null> {
    const [item, tiers] = await Promise.all([
      ctx.loaders.invoiceableItems.load(line.invoiceableItemId),
      ctx.loaders.invoiceableTiers.load(line.invoiceableItemId),
    ]);
    return item && itemObject({ item, tiers });
  }
}
