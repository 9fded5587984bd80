import { sql } from 'kysely';
import type { LedgerLookup, LedgersRepository, LedgerWithCharges, PoliciesInZone } from './ledgers.ports';
import { insuranceTerms, ledgerCharge, ledgerDiscounts, ledgers, serviceTerms } from './ledgers.tables';
import type { Ledger, LedgerCharge, LedgerDiscount, LedgerInsurance, LedgerService } from './ledgers.types';
import type { Columns, RecordOfTable, RowOf } from '../../kernel/columns';
import type { ArrayRows, Db } from '../../store/database';
import { CompiledStatements, reusable } from '../../store/compiled-statements';
import { arrayReader, rowCodec } from '../../store/rows';
import { isPostgres } from '../../store/dialect';
import type {
  LedgerDiscountsTable,
  LedgerInsurancesTable,
  LedgerServicesTable,
  LedgersTable,
} from '../../store/schema';
import { compareCodePoints } from '../../kernel/compare';

const ledgerCodec = rowCodec(ledgers);
const discountCodec = rowCodec(ledgerDiscounts);
const chargeCodec = rowCodec(ledgerCharge);

/** A policy's or a service's row read into its charge, the terms' columns together in `data`. */
function chargeReader<Terms extends Columns>(
  terms: Terms,
): (row: RowOf<typeof ledgerCharge> & RowOf<Terms>) => LedgerCharge<RecordOfTable<Terms>> {
  const data = rowCodec(terms);
  return (row) => ({ ...chargeCodec.read(row), data: data.read(row) });
}

const insuranceOf: (row: LedgerInsurancesTable) => LedgerInsurance = chargeReader(insuranceTerms);
const serviceOf: (row: LedgerServicesTable) => LedgerService = chargeReader(serviceTerms);

/**
 * A policy's or a service's row as an array: the columns it is selected by (the charge's, then the
 * terms') and the reader of such an array into its charge.
 */
function chargeArrays<Terms extends Columns>(
  terms: Terms,
): {
  columns: readonly string[];
  read: (row: readonly unknown[]) => LedgerCharge<RecordOfTable<Terms>>;
} {
  const charge = arrayReader(ledgerCharge);
  const data = arrayReader(terms, [], chargeCodec.columns.length);
  return {
    columns: [...chargeCodec.columns, ...rowCodec(terms).columns],
    read: (row) => ({ ...charge(row), data: data(row) }),
  };
}

/**
 * SQLite's reads of a ledger's page, each a table's declared columns (in ArrayRows' order) by one
 * key: compiled once and prepared on the raw handle, where Kysely built and compiled four queries a
 * page.
 */
const PAGE_READS = {
  ledger: { table: 'ledgers', key: 'id', columns: ledgerCodec.columns, read: arrayReader(ledgers) },
  insurances: { table: 'ledger_insurances', key: 'ledger_id', ...chargeArrays(insuranceTerms) },
  services: { table: 'ledger_services', key: 'ledger_id', ...chargeArrays(serviceTerms) },
  discounts: {
    table: 'ledger_discounts',
    key: 'ledger_id',
    columns: discountCodec.columns,
    read: arrayReader(ledgerDiscounts),
  },
} as const;

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
const byEffectiveDate = (a: LedgerCharge<unknown>, b: LedgerCharge<unknown>) =>
  compareCodePoints(a.effectiveDate, b.effectiveDate) || byId(a, b);
const byStartDate = (a: LedgerDiscount, b: LedgerDiscount) =>
  compareCodePoints(a.startDate, b.startDate) || byId(a, b);

export class SqlLedgersRepository implements LedgersRepository, LedgerLookup {
  private readonly statements: CompiledStatements;

  constructor(
    private readonly db: Db,
    private readonly arrays: ArrayRows,
  ) {
    this.statements = new CompiledStatements(db);
  }

  /** SQLite: the rows of one of a ledger's page reads (PAGE_READS), as arrays. */
  private pageRows(part: keyof typeof PAGE_READS, id: string): Promise<unknown[][]> {
    const { table, key, columns } = PAGE_READS[part];
    return this.arrays<unknown[]>(
      this.statements.statement(
        part,
        [id],
        (slot) =>
          sql`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(table)} where ${sql.ref(key)} = ${slot(0)}`,
      ),
    );
  }

  async findLedger(id: string): Promise<Ledger | undefined> {
    const row = await this.db.selectFrom('ledgers').selectAll().where('id', '=', id).executeTakeFirst();
    return row && ledgerCodec.read(row);
  }

  async ledgerInFacility(facilityId: string, ledgerId: string): Promise<Ledger | undefined> {
    const row = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('id', '=', ledgerId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row && ledgerCodec.read(row);
  }

  /** Ledgers by id, in key order, null for a missing id. */
  async findByIds(ids: readonly string[]): Promise<(Ledger | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const ledgersById = new Map(rows.map((row) => [row.id, ledgerCodec.read(row)]));
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
    return groupInKeyOrder(tenantIds, rows.map(ledgerCodec.read).sort(byId), (ledger) => ledger.tenantId);
  }

  /** Each unit's ledgers, in key order, sorted by id. */
  async findByUnitIds(unitIds: readonly string[]): Promise<Ledger[][]> {
    if (unitIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('unit_id', 'in', [...new Set(unitIds)])
      .execute();
    return groupInKeyOrder(unitIds, rows.map(ledgerCodec.read).sort(byId), (ledger) => ledger.unitId);
  }

  /** Every insurance policy of each ledger, in key order, sorted by effective_date then id. */
  async insurancesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerInsurance[][]> {
    if (ledgerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('ledger_insurances')
      .selectAll()
      .where('ledger_id', 'in', [...new Set(ledgerIds)])
      .execute();
    return groupInKeyOrder(
      ledgerIds,
      rows.map(insuranceOf).sort(byEffectiveDate),
      (policy) => policy.ledgerId,
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
    return groupInKeyOrder(
      ledgerIds,
      rows.map(serviceOf).sort(byEffectiveDate),
      (service) => service.ledgerId,
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
    return groupInKeyOrder(
      ledgerIds,
      rows.map(discountCodec.read).sort(byStartDate),
      (discount) => discount.ledgerId,
    );
  }

  /**
   * PostgreSQL: the ledger and its three lists in one statement (each row as its JSON text, all
   * columns being text or integer), one round trip where four took two. SQLite reads them as four
   * prepared statements (PAGE_READS), which cost no round trip there.
   */
  async ledgerWithCharges(id: string): Promise<LedgerWithCharges | undefined> {
    if (!isPostgres(this.db)) {
      const [ledger] = await this.pageRows('ledger', id);
      if (ledger === undefined) return undefined;
      const [insurances, services, discounts] = await Promise.all([
        this.pageRows('insurances', id),
        this.pageRows('services', id),
        this.pageRows('discounts', id),
      ]);
      return {
        ledger: PAGE_READS.ledger.read(ledger),
        insurances: insurances.map(PAGE_READS.insurances.read).sort(byEffectiveDate),
        services: services.map(PAGE_READS.services.read).sort(byEffectiveDate),
        discounts: discounts.map(PAGE_READS.discounts.read).sort(byStartDate),
      };
    }
    // Kept prepared: its plan (four reads by key) is the same for every ledger.
    const rows = await this.arrays<[number, string]>(
      reusable(sql`
      select 0 as part, row_to_json(l)::text as row from ledgers l where l.id = ${id}
      union all select 1, row_to_json(i)::text from ledger_insurances i where i.ledger_id = ${id}
      union all select 2, row_to_json(s)::text from ledger_services s where s.ledger_id = ${id}
      union all select 3, row_to_json(d)::text from ledger_discounts d where d.ledger_id = ${id}`),
    );
    const parts: unknown[][] = [[], [], [], []];
    for (const [part, row] of rows) parts[part]!.push(JSON.parse(row));
    const [ledgerRows, insuranceRows, serviceRows, discountRows] = parts as [
      LedgersTable[],
      LedgerInsurancesTable[],
      LedgerServicesTable[],
      LedgerDiscountsTable[],
    ];
    if (ledgerRows.length === 0) return undefined;
    return {
      ledger: ledgerCodec.read(ledgerRows[0]!),
      insurances: insuranceRows.map(insuranceOf).sort(byEffectiveDate),
      services: serviceRows.map(serviceOf).sort(byEffectiveDate),
      discounts: discountRows.map(discountCodec.read).sort(byStartDate),
    };
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
    return groupInKeyOrder(ledgerIds, rows, (row) => row.ledger_id).map((group) =>
      group.length === 0
        ? null
        : { timeZone: group[0].time_zone, policies: group.map(insuranceOf).sort(byEffectiveDate) },
    );
  }
}
