import type { Ledger, LedgerDiscount, LedgerInsurance, LedgerService } from './ledgers.types';

/** A ledger's insurance policies with its facility's time zone (to tell which is current there). */
export interface PoliciesInZone {
  timeZone: string;
  policies: LedgerInsurance[];
}

/** A ledger of a facility, looked up by the areas that name one (`SqlLedgersRepository` implements it). */
export interface LedgerLookup {
  /** The ledger, if it is one of this facility's. */
  ledgerInFacility(facilityId: string, ledgerId: string): Promise<Ledger | undefined>;
}

/** Where ledgers and what is attached to them are read from; lists come in key order. */
export interface LedgersRepository {
  findLedger(id: string): Promise<Ledger | undefined>;
  /** Ledgers by id, null for a missing id. */
  findByIds(ids: readonly string[]): Promise<(Ledger | null)[]>;
  /** Each tenant's ledgers, sorted by id. */
  findByTenantIds(tenantIds: readonly string[]): Promise<Ledger[][]>;
  /** Each unit's ledgers, sorted by id. */
  findByUnitIds(unitIds: readonly string[]): Promise<Ledger[][]>;
  /** Every policy of each ledger, by effective_date then id. */
  insurancesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerInsurance[][]>;
  /** Every policy of each ledger with its facility's zone (one statement); null for a ledger without policies. */
  insurancesInZoneByLedgerIds(ledgerIds: readonly string[]): Promise<(PoliciesInZone | null)[]>;
  /** Every service of each ledger, by effective_date then id. */
  servicesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerService[][]>;
  /** Every discount of each ledger, by start_date then id. */
  discountsByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerDiscount[][]>;
  /** The ledger with all its policies, services and discounts, ordered as above; undefined when none. */
  ledgerWithCharges(id: string): Promise<LedgerWithCharges | undefined>;
}

export interface LedgerWithCharges {
  ledger: Ledger;
  insurances: LedgerInsurance[];
  services: LedgerService[];
  discounts: LedgerDiscount[];
}
