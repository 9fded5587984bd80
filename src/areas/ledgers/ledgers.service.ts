import type { Clock } from '../../kernel/clock';
import { DomainError, type Path } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId, storedKeys } from '../../kernel/ids';
import { localDate } from '../../kernel/time';
import type { LedgersRepository } from './ledgers.ports';
import type {
  Ledger,
  LedgerDiscount,
  LedgerInsurance,
  LedgerInsuranceServicesAndDiscounts,
  LedgerService,
} from './ledgers.types';

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

export class LedgersService {
  constructor(
    private readonly repository: LedgersRepository,
    private readonly clock: Clock,
  ) {}

  /** The ledger, if it exists and belongs to the facility; otherwise 404/9 naming the parameter. */
  async ledgerFor(facility: Facility, ledgerId: string, parameter: Path = ['ledgerId']): Promise<Ledger> {
    return this.inFacility(
      facility,
      ledgerId,
      parameter,
      (id) => this.repository.findLedger(id),
      (ledger) => ledger,
    );
  }

  /** What `read` finds for the ledger id, if the ledger exists and belongs to the facility; else 404/9. */
  private async inFacility<T>(
    facility: Facility,
    ledgerId: string,
    parameter: Path,
    read: (id: string) => Promise<T | undefined>,
    ledgerOf: (found: T) => Ledger,
  ): Promise<T> {
    if (!isUuid(ledgerId)) throw DomainError.notFound(parameter, 'ledger', ledgerId);
    const found = await read(normalizeId(ledgerId));
    if (found === undefined || ledgerOf(found).facilityId !== facility.id)
      throw DomainError.notFound(parameter, 'ledger', ledgerId);
    return found;
  }

  /** The ledger's current insurance, and all its services and discounts (contract 4.4). */
  async insuranceServicesAndDiscounts(
    facility: Facility,
    ledgerId: string,
  ): Promise<LedgerInsuranceServicesAndDiscounts> {
    const { ledger, insurances, services, discounts } = await this.inFacility(
      facility,
      ledgerId,
      ['ledgerId'],
      (id) => this.repository.ledgerWithCharges(id),
      (found) => found.ledger,
    );
    const today = localDate(this.clock.now(), facility.timeZone);
    return { ledger, insurance: currentInsurance(insurances, today), services, discounts };
  }

  /** Ledgers by id, in key order, null for a missing id (DataLoader batch shape). */
  async ledgersByIds(ids: readonly string[]): Promise<(Ledger | null)[]> {
    return this.repository.findByIds(storedKeys(ids));
  }

  /** Each tenant's ledgers, in key order. */
  async ledgersByTenantIds(tenantIds: readonly string[]): Promise<Ledger[][]> {
    return this.repository.findByTenantIds(storedKeys(tenantIds));
  }

  /** Each unit's ledgers, in key order. */
  async ledgersByUnitIds(unitIds: readonly string[]): Promise<Ledger[][]> {
    return this.repository.findByUnitIds(storedKeys(unitIds));
  }

  /** Each ledger's current insurance (as of today at its facility), in key order, null when none. */
  async insuranceByLedgerIds(ledgerIds: readonly string[]): Promise<(LedgerInsurance | null)[]> {
    const groups = await this.repository.insurancesInZoneByLedgerIds(storedKeys(ledgerIds));
    const now = this.clock.now();
    return groups.map((group) =>
      group ? currentInsurance(group.policies, localDate(now, group.timeZone)) : null,
    );
  }

  /** Each ledger's services, in key order, sorted by effective_date then id. */
  async servicesByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerService[][]> {
    return this.repository.servicesByLedgerIds(storedKeys(ledgerIds));
  }

  /** Each ledger's discounts, in key order, sorted by start_date then id. */
  async discountsByLedgerIds(ledgerIds: readonly string[]): Promise<LedgerDiscount[][]> {
    return this.repository.discountsByLedgerIds(storedKeys(ledgerIds));
  }
}
