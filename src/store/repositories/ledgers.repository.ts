import type { Db } from '../database';
import type {
  LedgerDiscountsTable,
  LedgerInsurancesTable,
  LedgerServicesTable,
  LedgersTable,
} from '../schema';
import { compareCodePoints } from '../../domain/shared/compare';

export type LedgerRow = LedgersTable;
export type LedgerInsuranceRow = LedgerInsurancesTable;
export type LedgerServiceRow = LedgerServicesTable;
export type LedgerDiscountRow = LedgerDiscountsTable;

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

export class LedgersRepository {
  constructor(private readonly db: Db) {}

  findLedger(id: string): Promise<LedgerRow | undefined> {
    return this.db.selectFrom('ledgers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Ledgers by id, in key order, null for a missing id. */
  async findByIds(ids: readonly string[]): Promise<(LedgerRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const rowsById = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => rowsById.get(id) ?? null);
  }

  /** Each tenant's ledgers, in key order, sorted by id. */
  async findByTenantIds(tenantIds: readonly string[]): Promise<LedgerRow[][]> {
    if (tenantIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('tenant_id', 'in', [...new Set(tenantIds)])
      .execute();
    return groupInKeyOrder(tenantIds, rows.sort(byId), (row) => row.tenant_id);
  }

  /** Each unit's ledgers, in key order, sorted by id. */
  async findByUnitIds(unitIds: readonly string[]): Promise<LedgerRow[][]> {
    if (unitIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('unit_id', 'in', [...new Set(unitIds)])
      .execute();
    return groupInKeyOrder(unitIds, rows.sort(byId), (row) => row.unit_id);
  }

  /** Every insurance policy of each ledger, in key order, sorted by effective_date then id. */
  async insurancesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerInsuranceRow[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_insurances')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byEffectiveDate), (row) => row.ledger_id);
  }

  /** Every service of each ledger, in key order, sorted by effective_date then id. */
  async servicesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerServiceRow[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_services')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byEffectiveDate), (row) => row.ledger_id);
  }

  /** Every discount of each ledger, in key order, sorted by start_date then id. */
  async discountsByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerDiscountRow[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_discounts')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byStartDate), (row) => row.ledger_id);
  }

  /**
   * Every insurance policy of each ledger with its facility's time zone (to tell which is current
   * today there), in key order, by effective_date then id: one statement.
   */
  async insurancesWithTimeZoneByLedgerIds(
    ledgerIds: readonly string[],
  ): Promise<Array<Array<LedgerInsuranceRow & { time_zone: string }>>> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_insurances as i')
      .innerJoin('ledgers as l', 'l.id', 'i.ledger_id')
      .innerJoin('facilities as f', 'f.id', 'l.facility_id')
      .selectAll('i')
      .select('f.time_zone')
      .where('i.ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(ledgerIds, rows.sort(byEffectiveDate), (row) => row.ledger_id);
  }
}
