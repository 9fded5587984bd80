import { displayAmount } from './invoiceable-items.service';
import type { InvoiceableItemKind, PricedItem } from './invoiceable-items.types';
import { centsToAmount } from '../../kernel/money';

export interface InvoiceableAmountView {
  id: string;
  amount: number;
  kind: 'amount' | 'percent';
  limit: number | null;
}

/** An item with its tiers as both transports show it: money in currency units. */
export interface InvoiceableItemView {
  id: string;
  productCode: string;
  kind: InvoiceableItemKind;
  description: string;
  requiredAtMoveIn: boolean;
  requiredAtTransfer: boolean;
  /** Its single tier's amount, "Variable" with several tiers, its pre-tax price without any. */
  amount: number | 'Variable';
  shortDescription: string | null;
  showInSalesCenter: boolean;
  taxTotal: number;
  total: number;
  invoiceableAmounts: InvoiceableAmountView[];
  /** Insurance items only. */
  insurance: {
    coverageAmount: number | null;
    coveragePercentage: number | null;
    providerName: string | null;
    providerKey: string | null;
  } | null;
  /** Retail items only. */
  retail: { quantity: number | null; isRentalCenterLock: boolean } | null;
}

export function presentInvoiceableItem({ item, tiers }: PricedItem): InvoiceableItemView {
  return {
    id: item.id,
    productCode: item.productCode,
    kind: item.kind,
    description: item.description,
    requiredAtMoveIn: item.requiredAtMoveIn,
    requiredAtTransfer: item.requiredAtTransfer,
    amount: displayAmount(item, tiers),
    shortDescription: item.shortDescription,
    showInSalesCenter: item.showInSalesCenter,
    taxTotal: centsToAmount(item.taxTotalCents),
    total: centsToAmount(item.totalCents),
    invoiceableAmounts: tiers.map((tier) => ({
      id: tier.id,
      amount: centsToAmount(tier.amountHundredths),
      kind: tier.kind,
      limit: tier.limit,
    })),
    insurance:
      item.kind === 'insurance'
        ? {
            coverageAmount:
              item.coverageAmountCents === null ? null : centsToAmount(item.coverageAmountCents),
            coveragePercentage: item.coveragePercentage,
            providerName: item.providerName,
            providerKey: item.providerKey,
          }
        : null,
    retail:
      item.kind === 'retail'
        ? { quantity: item.quantity, isRentalCenterLock: item.isRentalCenterLock }
        : null,
  };
}
