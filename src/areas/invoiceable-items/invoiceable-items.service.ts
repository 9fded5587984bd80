import type { Clock } from '../../kernel/clock';
import type { Facility } from '../facilities/facilities.types';
import { normalizeId } from '../../kernel/ids';
import {
  offsetOf,
  pageMeta,
  parsePageRequest,
  type Page,
  type PageInput,
  type PageMeta,
  type PageRequest,
} from '../../kernel/pagination';
import { parseSlice, type ConnectionArgs, type Slice } from '../../kernel/connections';
import type { InvoiceableItemsRepository, ItemFilter } from './invoiceable-items.ports';
import type {
  FeeGroups,
  InvoiceableAmount,
  InvoiceableItem,
  InvoiceableItemList,
  PricedItem,
} from './invoiceable-items.types';

/** Invoiceable item lists are paginated as event documents are (DESIGN 6). */
export const ITEM_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

/** The list a cursor of invoiceable items names. */
export const ITEM_CURSOR_LIST = 'Facility.invoiceableItems';

const LIST_FILTERS: Record<InvoiceableItemList, ItemFilter> = {
  all: {},
  insurance: { kind: 'insurance' },
  services: { kind: 'service' },
  retail: { kind: 'retail' },
  rental_center: { kind: 'retail', rentalCenterEligible: true },
};

export class InvoiceableItemsService {
  constructor(
    private readonly repository: InvoiceableItemsRepository,
    private readonly clock: Clock,
  ) {}

  /** One page of a list of contract 4.10, sorted by kind, description (case-insensitive), id. */
  async list(facility: Facility, list: InvoiceableItemList, input: PageInput): Promise<Page<PricedItem>> {
    const request = parsePageRequest(input, ITEM_PAGE_LIMITS);
    const { total, entries } = await this.repository.pricedPage(
      facility.id,
      LIST_FILTERS[list],
      request.perPage,
      offsetOf(request),
    );
    return { entries, pagination: pageMeta(total, request) };
  }

  /**
   * A slice of a list of contract 4.10 walked by cursor (the list's filters and order; a cursor
   * holds kind, description case-insensitively and id, bound to the list and the facility).
   */
  async connection(
    facility: Facility,
    list: InvoiceableItemList,
    args: ConnectionArgs,
  ): Promise<Slice<PricedItem>> {
    const slice = parseSlice(args, { list: ITEM_CURSOR_LIST, owner: normalizeId(facility.id) }, 3);
    return this.repository.pricedSlice(facility.id, LIST_FILTERS[list], slice);
  }

  /**
   * The same page as list, the page already read from the request (see ITEM_PAGE_LIMITS), each
   * item as the contract lists it, joined by commas: the members of the JSON array REST answers.
   */
  async listingPage(
    facility: Facility,
    list: InvoiceableItemList,
    request: PageRequest,
  ): Promise<{ listings: Uint8Array; pagination: PageMeta }> {
    const { total, listings } = await this.repository.listingPage(
      facility.id,
      LIST_FILTERS[list],
      request.perPage,
      offsetOf(request),
    );
    return { listings, pagination: pageMeta(total, request) };
  }

  /** The facility's fee items by fee category; single-item categories take the first in list order. */
  async fees(facility: Facility): Promise<FeeGroups> {
    const fees = await this.withTiers(await this.repository.all(facility.id, { kind: 'fee' }));
    const inCategory = (category: InvoiceableItem['feeCategory']) =>
      fees.filter((fee) => (fee.item.feeCategory ?? 'other') === category);
    return {
      securityDeposit: inCategory('security_deposit')[0] ?? null,
      onlinePayment: inCategory('online_payment')[0] ?? null,
      reservation: inCategory('reservation')[0] ?? null,
      moveInFees: inCategory('move_in'),
      transferFees: inCategory('transfer'),
      other: inCategory('other'),
    };
  }

  /** Items by id, in key order, null for a missing id (DataLoader batch shape). */
  itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]> {
    return this.repository.itemsByIds(ids.map(normalizeId));
  }

  /** Amount tiers of each item, in key order, [] for none (DataLoader batch shape). */
  tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmount[][]> {
    return this.repository.tiersByItemIds(itemIds.map(normalizeId));
  }

  /** Attaches tiers with one query for all the items. */
  private async withTiers(items: InvoiceableItem[]): Promise<PricedItem[]> {
    const tiers = await this.repository.tiersByItemIds(items.map((item) => item.id));
    return items.map((item, i) => ({ item, tiers: tiers[i] }));
  }
}
