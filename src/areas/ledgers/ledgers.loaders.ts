import type { LoaderTools } from '../../graphql/loaders';
import type { LedgersService } from './ledgers.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly ledgers: LedgersService;
}

/** Ledgers by id, by tenant and by unit, and what hangs off a ledger. */
export function ledgersLoaders({ ledgers }: LoaderServices, { byIds, lists }: LoaderTools) {
  return {
    ledgers: byIds('ledgers', (ids) => ledgers.ledgersByIds(ids)),
    ledgersByTenant: lists('ledgersByTenant', (ids) => ledgers.ledgersByTenantIds(ids)),
    ledgersByUnit: lists('ledgersByUnit', (ids) => ledgers.ledgersByUnitIds(ids)),
    ledgerInsurance: lists('ledgerInsurance', (ids) => ledgers.insuranceByLedgerIds(ids)),
    ledgerServices: lists('ledgerServices', (ids) => ledgers.servicesByLedgerIds(ids)),
    ledgerDiscounts: lists('ledgerDiscounts', (ids) => ledgers.discountsByLedgerIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof ledgersLoaders> {}
}
