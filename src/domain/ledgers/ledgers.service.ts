import type { Clock } from '../../clock';
import type {
  LedgerDiscountRow,
  LedgerInsuranceRow,
  LedgerRow,
  LedgerServiceRow,
  LedgersRepository,
} from '../../store/repositories/ledgers.repository';
import { DomainError } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../shared/ids';
import { centsToAmount } from '../shared/money';
import { localDate } from '../shared/time';
import type {
  Ledger,
  LedgerDiscount,
  LedgerInsurance,
  LedgerInsuranceServicesAndDiscounts,
  LedgerService,
} from './ledgers.types';

export function ledgerRowToLedger(row: LedgerRow): Ledger {
  return { id: row.id, facilityId: row.facility_id, tenantId: row.tenant_id, unitId: row.unit_id };
}

export function ledgerInsuranceRowToLedgerInsurance(row: LedgerInsuranceRow): LedgerInsurance {
  return {
    id: row.id,
    ledgerId: row.ledger_id,
    effectiveDate: row.effective_date,
    cancelDate: row.cancel_date,
    description: row.description,
    retainType: row.retain_type,
    productCode: row.product_code,
    policyNumber: row.policy_number,
    retainAmount: row.retain_amount,
    coverageAmount: row.coverage_amount,
    coveragePercentage: row.coverage_percentage,
    insuranceProviderKey: row.insurance_provider_key,
    amount: centsToAmount(row.amount_cents),
  };
}

export function ledgerServiceRowToLedgerService(row: LedgerServiceRow): LedgerService {
  return {
    id: row.id,
    ledgerId: row.ledger_id,
    effectiveDate: row.effective_date,
    cancelDate: row.cancel_date,
    description: row.description,
    productCode: row.product_code,
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

/**
 * The current policy among a ledger's policies: the latest effective_date of those not cancelled
 * before today (ties broken by the greater id, so the answer is stable), or null.
 */
export function currentInsurance(
  policies: readonly LedgerInsurance[],
  today: string,
): LedgerInsurance | null {
  let current: LedgerInsurance | null = null;
  for (const policy of policies) {
    if (policy.cancelDate !== null && policy.cancelDate < today) continue;
    if (
      current === null ||
      policy.effectiveDate > current.effectiveDate ||
      (policy.effectiveDate === current.effectiveDate && policy.id > current.id)
    ) {
      current = policy;
    }
  }
  return current;
}

/** Ids as stored (lower-case); a malformed id becomes a key that matches nothing. */
function storedKeys(ids: readonly string[]): string[] {
  return ids.map((id) => (isUuid(id) ? normalizeId(id) : ''));
}

export class LedgersService {
  constructor(
    private readonly repository: LedgersRepository,
    private readonly clock: Clock,
  ) {}

  /** The ledger, if it exists and belongs to the facility; otherwise 404/9 naming the parameter. */
  async ledgerFor(facility: Facility, ledgerId: string, parameter = 'ledger_id'): Promise<Ledger> {
    if (!isUuid(ledgerId)) throw DomainError.notFound(parameter, 'ledger', ledgerId);
    const row = await this.repository.findLedger(normalizeId(ledgerId));
    if (!row || row.facility_id !== facility.id) throw DomainError.notFound(parameter, 'ledger', ledgerId);
    return ledgerRowToLedger(row);
  }

  /** The ledger's current insurance, and all its services and discounts (contract 4.4). */
  async insuranceServicesAndDiscounts(
    facility: Facility,
    ledgerId: string,
  ): Promise<LedgerInsuranceServicesAndDiscounts> {
    const ledger = await this.ledgerFor(facility, ledgerId);
    const keys = [ledger.id];
    const [[insurances], [services], [discounts]] = await Promise.all([
      this.repository.insurancesByLedgerIds(keys),
      this.repository.servicesByLedgerIds(keys),
      this.repository.discountsByLedgerIds(keys),
    ]);
    const today = localDate(this.clock.now(), facility.timeZone);
    return {
      ledger,
      insurance: currentInsurance(insurances.map(ledgerInsuranceRowToLedgerInsurance), today),
      services: services.map(ledgerServiceRowToLedgerService),
      discounts: discounts.map(ledgerDiscountRowToLedgerDiscount),
    };
  }

  /** Ledgers by id, in key order, null for a missing id (DataLoader batch shape). */
  async ledgersByIds(ids: readonly string[]): Promise<(Ledger | null)[]> {
    const rows = await this.repository.findByIds(storedKeys(ids));
    return rows.map((row) => (row ? ledgerRowToLedger(row) : null));
  }

  /** Each tenant's ledgers, in key order. */
  async ledgersByTenantIds(tenantIds: readonly string[]): Promise<Ledger[][]> {
    const groups = await this.repository.findByTenantIds(storedKeys(tenantIds));
    return groups.map((rows) => rows.map(ledgerRowToLedger));
  }

  /** Each unit's ledgers, in key order. */
  async ledgersByUnitIds(unitIds: readonly string[]): Promise<Ledger[][]> {
    const groups = await this.repository.findByUnitIds(storedKeys(unitIds));
    return groups.map((rows) => rows.map(ledgerRowToLedger));
  }

  /** Each ledger's current insurance (as of today at its facility), in key order, null when none. */
  async insuranceByLedgerIds(ledgerIds: readonly string[]): Promise<(LedgerInsurance | null)[]> {
    const groups = await this.repository.insurancesWithTimeZoneByLedgerIds(storedKeys(ledgerIds));
    const now = this.clock.now();
    return groups.map((rows) => {
      if (rows.length === 0) return null;
      const today = localDate(now, rows[0].time_zone);
      return currentInsurance(rows.map(ledgerInsuranceRowToLedgerInsurance), today);
    });
  }

  /** Each ledger's services, in key order, sorted by effective_date then id. */
  async servicesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerService[][]> {
    const groups = await this.repository.servicesByLedgerIds(storedKeys(ledgerIds));
    return groups.map((rows) => rows.map(ledgerServiceRowToLedgerService));
  }

  /** Each ledger's discounts, in key order, sorted by start_date then id. */
  async discountsByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerDiscount[][]> {
    const groups = await this.repository.discountsByLedgerIds(storedKeys(ledgerIds));
    return groups.map((rows) => rows.map(ledgerDiscountRowToLedgerDiscount));
  }
}
