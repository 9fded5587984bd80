import type { Clock } from '../../clock';
import type {
  InvoiceableAmountRow,
  InvoiceableItemRow,
  InvoiceableItemsRepository,
  ItemFilter,
} from '../../store/repositories/invoiceable-items.repository';
import { centsToAmount } from '../shared/money';
import { normalizeId } from '../shared/ids';
import { offsetOf, pageMeta, parsePageRequest, type Page, type PageRequest } from '../shared/pagination';
import type { Facility } from '../facilities/facilities.types';
import type {
  FeeGroups,
  InvoiceableAmount,
  InvoiceableItem,
  InvoiceableItemList,
  PricedItem,
} from './invoiceable-items.types';

/** Invoiceable item lists are paginated as event documents are (DESIGN 6). */
export const ITEM_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

const LIST_FILTERS: Record<InvoiceableItemList, ItemFilter> = {
  all: {},
  insurance: { kind: 'insurance' },
  services: { kind: 'service' },
  retail: { kind: 'retail' },
  rental_center: { kind: 'retail', rentalCenterEligible: true },
};

export function itemRowToItem(row: InvoiceableItemRow): InvoiceableItem {
  return {
    id: row.id,
    facilityId: row.facility_id,
    kind: row.kind,
    productCode: row.product_code,
    description: row.description,
    shortDescription: row.short_description,
    requiredAtMoveIn: row.required_at_move_in === 1,
    requiredAtTransfer: row.required_at_transfer === 1,
    showInSalesCenter: row.show_in_sales_center === 1,
    taxTotalCents: row.tax_total_cents,
    totalCents: row.total_cents,
    feeCategory: row.fee_category,
    coverageAmountCents: row.coverage_amount_cents,
    coveragePercentage: row.coverage_percentage === null ? null : Number(row.coverage_percentage),
    providerName: row.provider_name,
    providerKey: row.provider_key,
    quantity: row.quantity,
    isRentalCenterLock: row.is_rental_center_lock === 1,
    rentalCenterEligible: row.rental_center_eligible === 1,
  };
}

export function amountRowToAmount(row: InvoiceableAmountRow): InvoiceableAmount {
  return {
    id: row.id,
    itemId: row.invoiceable_item_id,
    position: row.position,
    kind: row.kind,
    amountHundredths: row.amount_cents,
    limit: row.limit_value === null ? null : Number(row.limit_value),
  };
}

/**
 * The item's `amount` as the contract writes it: its single tier's amount, or "Variable" when it
 * has several tiers; an item without tiers shows its pre-tax price (total less tax).
 */
export function displayAmount(
  item: InvoiceableItem,
  tiers: readonly InvoiceableAmount[],
): number | 'Variable' {
  if (tiers.length > 1) return 'Variable';
  if (tiers.length === 1) return centsToAmount(tiers[0].amountHundredths);
  return centsToAmount(item.totalCents - item.taxTotalCents);
}

export class InvoiceableItemsService {
  constructor(
    private readonly repository: InvoiceableItemsRepository,
    private readonly clock: Clock,
  ) {}

  /** One page of a list of contract 4.10, sorted by kind, description (case-insensitive), id. */
  async list(
    facility: Facility,
    list: InvoiceableItemList,
    input: { page?: unknown; per_page?: unknown },
  ): Promise<Page<PricedItem>> {
    return this.listPage(facility, list, parsePageRequest(input, ITEM_PAGE_LIMITS));
  }

  /** One page of a list, the page already read from the request (see ITEM_PAGE_LIMITS). */
  async listPage(
    facility: Facility,
    list: InvoiceableItemList,
    request: PageRequest,
  ): Promise<Page<PricedItem>> {
    const filter = LIST_FILTERS[list];
    const [total, rows] = await Promise.all([
      this.repository.count(facility.id, filter),
      this.repository.page(facility.id, filter, request.perPage, offsetOf(request)),
    ]);
    return { entries: await this.withTiers(rows), pagination: pageMeta(total, request) };
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
  async itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]> {
    const rows = await this.repository.itemsByIds(ids.map(normalizeId));
    return rows.map((row) => (row ? itemRowToItem(row) : null));
  }

  /** Amount tiers of each item, in key order, [] for none (DataLoader batch shape). */
  async tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmount[][]> {
    const lists = await this.repository.tiersByItemIds(itemIds.map(normalizeId));
    return lists.map((rows) => rows.map(amountRowToAmount));
  }

  /** Attaches tiers with one query for all the rows. */
  private async withTiers(rows: InvoiceableItemRow[]): Promise<PricedItem[]> {
    const tiers = await this.repository.tiersByItemIds(rows.map((row) => row.id));
    return rows.map((row, i) => ({ item: itemRowToItem(row), tiers: tiers[i].map(amountRowToAmount) }));
  }
}
