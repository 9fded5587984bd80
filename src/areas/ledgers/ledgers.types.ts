import type { insuranceTerms, ledgerCharge, ledgerDiscounts, ledgers, serviceTerms } from './ledgers.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type Ledger = RecordOfTable<typeof ledgers>;

/**
 * A charge on a ledger, an insurance policy or a recurring service: its terms kept together in
 * `data`, as the contract (2.4) writes them.
 */
export type LedgerCharge<Data> = RecordOfTable<typeof ledgerCharge> & { data: Data };

/** A policy's terms (see insuranceTerms). */
export type LedgerInsuranceData = RecordOfTable<typeof insuranceTerms>;

export type LedgerInsurance = LedgerCharge<LedgerInsuranceData>;

export type LedgerServiceData = RecordOfTable<typeof serviceTerms>;

export type LedgerService = LedgerCharge<LedgerServiceData>;

export type LedgerDiscount = RecordOfTable<typeof ledgerDiscounts>;

export interface LedgerInsuranceServicesAndDiscounts {
  ledger: Ledger;
  /** The current policy, or null when there is none. */
  insurance: LedgerInsurance | null;
  services: LedgerService[];
  discounts: LedgerDiscount[];
}
