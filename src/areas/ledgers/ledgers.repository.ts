import type { LedgersRepository, PoliciesInZone } from './ledgers.ports';
import {
  insuranceTerms,
  serviceTerms,
  type Ledger,
  type LedgerDiscount,
  type LedgerInsurance,
  type LedgerService,
} from './ledgers.types';
import { centsToAmount } from '../../kernel/money';
import type { Db } from '../../store/database';
import type {
  LedgerDiscountsTable,
  LedgerInsurancesTable,
  LedgerServicesTable,
  LedgersTable,
} from '../../store/schema';
import { compareCodePoints } from '../../kernel/compare';
import { SnakeCaseKeys } from '../../kernel/names';

export type LedgerRow = LedgersTable;
export type LedgerInsuranceRow = LedgerInsurancesTable;
export type LedgerServiceRow = LedgerServicesTable;
export type LedgerDiscountRow = LedgerDiscountsTable;

/** A policy's and a service's terms are stored one per column, named in snake_case. */
const insuranceColumns = new SnakeCaseKeys(insuranceTerms);
const serviceColumns = new SnakeCaseKeys(serviceTerms);

export function ledgerRowToLedger(row: LedgerRow): Ledger {
  return { id: row.id, facilityId: row.facility_id, tenantId: row.tenant_id, unitId: row.unit_id };
}

export function ledgerInsuranceRowToLedgerInsurance(row: LedgerInsuranceRow): LedgerInsurance {
  return {
    id: row.id,
    ledgerId: row.ledger_id,
    effectiveDate: row.effective_date,
    cancelDate: row.cancel_date,
    data: insuranceColumns.fromSnakeCase(row),
    amount: centsToAmount(row.amount_cents),
  };
}

export function ledgerServiceRowToLedgerService(row: LedgerServiceRow): LedgerService {
  return {
    id: row.id,
    ledgerId: row.ledger_id,
    effectiveDate: row.effective_date,
    cancelDate: row.cancel_date,
    data: serviceColumns.fromSnakeCase(row),
    amount: centsToAmount(row.amount_cents),
  };
}

export function ledgerDiscountRowToLedgerDiscount(row: LedgerDiscountRow): LedgerDiscount {
  return {
    id: row.id,
    ledgerId: row.ledger_id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    startDate: row.start_date,
    endDate: row.end_date,
    minOccupancyMonths: row.min_occupancy_months,
  };
}

/** Rows grouped by a key column, one list per key in key order (empty for a missing key). */
function groupInKeyOrder<R>(keys: readonly string[], rows: R[], keyOf: (row: R) => string): R[][] {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return keys.map((key) => groups.get(key) ?? []);
}

// Sorting happens here, by code point, so the order never depends on a PostgreSQL collation.
const byId = (a: { id: string }, b: { id: string }) => compareCodePoints(a.id, b.id);
const byEffectiveDate = (
  a: LedgerServiceRow | LedgerInsuranceRow,
  b: LedgerServiceRow | LedgerInsuranceRow,
) => compareCodePoints(a.effective_date, b.effective_date) || byId(a, b);
const byStartDate = (a: LedgerDiscountRow, b: LedgerDiscountRow) =>
  compareCodePoints(a.start_date, b.start_date) || byId(a, b);

export class SqlLedgersRepository implements LedgersRepository {
  constructor(private readonly db: Db) {}

  async findLedger(id: string): Promise<Ledger | undefined> {
    const row = await this.db.selectFrom('ledgers').selectAll().where('id', '=', id).executeTakeFirst();
    return row && ledgerRowToLedger(row);
  }

  /** Ledgers by id, in key order, null for a missing id. */
  async findByIds(ids: readonly string[]): Promise<(Ledger | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const ledgersById = new Map(rows.map((row) => [row.id, ledgerRowToLedger(row)]));
    return ids.map((id) => ledgersById.get(id) ?? null);
  }

  /** Each tenant's ledgers, in key order, sorted by id. */
  async findByTenantIds(tenantIds: readonly string[]): Promise<Ledger[][]> {
    if (tenantIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('tenant_id', 'in', [...new Set(tenantIds)])
      .execute();
    return groupInKeyOrder(tenantIds, rows.sort(byId), (row) => row.tenant_id).map((g) =>
      g.map(ledgerRowToLedger),
    );
  }

  /** Each unit's ledgers, in key order, sorted by id. */
  async findByUnitIds(unitIds: readonly string[]): Promise<Ledger[][]> {
    if (unitIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('unit_id', 'in', [...new Set(unitIds)])
      .execute();
    return groupInKeyOrder(unitIds, rows.sort(byId), (row) => row.unit_id).map((g) =>
      g.map(ledgerRowToLedger),
    );
  }

  /** Every insurance policy of each ledger, in key order, sorted by effective_date then id. */
  async insurancesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerInsurance[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_insurances')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byEffectiveDate), (row) => row.ledger_id).map((g) =>
      g.map(ledgerInsuranceRowToLedgerInsurance),
    );
  }

  /** Every service of each ledger, in key order, sorted by effective_date then id. */
  async servicesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerService[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_services')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byEffectiveDate), (row) => row.ledger_id).map((g) =>
      g.map(ledgerServiceRowToLedgerService),
    );
  }

  /** Every discount of each ledger, in key order, sorted by start_date then id. */
  async discountsByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerDiscount[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_discounts')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byStartDate), (row) => row.ledger_id).map((g) =>
      g.map(ledgerDiscountRowToLedgerDiscount),
    );
  }

  async insurancesInZoneByLedgerIds(ledgerIds: readonly string[]): Promise<(PoliciesInZone | null)[]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_insurances as i')
      .innerJoin('ledgers as l', 'l.id', 'i.ledger_id')
      .innerJoin('facilities as f', 'f.id', 'l.facility_id')
      .selectAll('i')
      .select('f.time_zone')
      .where('i.ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byEffectiveDate), (row) => row.ledger_id).map((group) =>
      group.length === 0
        ? null
        : { timeZone: group[0].time_zone, policies: group.map(ledgerInsuranceRowToLedgerInsurance) },
    );
  }
}
