import type { Generated } from 'kysely';
import type { RowOf, Same } from '../kernel/columns';
import type {
  DatasetCompany,
  DatasetLedger,
  DatasetLedgerDiscount,
  DatasetLedgerInsurance,
  DatasetLedgerService,
  DatasetTenant,
} from './dataset/dataset.types';

/**
 * Row types of every table. Both dialects store the same shapes: ids, dates (YYYY-MM-DD) and
 * instants (UTC, `YYYY-MM-DDTHH:mm:ss.sssZ`) as text, money as integer cents, flags as 0/1, so
 * comparisons and ordering behave identically on SQLite and PostgreSQL. A table that stores a
 * record of the dataset file as it comes is declared as that record (src/store/dataset), so its
 * columns are written once: `Required<>` where an optional field is stored as null.
 */
import type { liveEvents } from '../live/live.tables';

export type CompaniesTable = Database['companies'];
/** A company is stored as the dataset file has it. */
const _companiesAsInTheDataset: Same<CompaniesTable, DatasetCompany> = true;

export type FacilitiesTable = Database['facilities'];

export type FlippersTable = Database['flippers'];

export type FlipperActorsTable = Database['flipper_actors'];

export type TenantsTable = Database['tenants'];
/** A tenant is stored as the dataset file has it, an absent email or phone as null. */
const _tenantsAsInTheDataset: Same<TenantsTable, Required<DatasetTenant>> = true;

export type UnitsTable = Database['units'];

export type LedgersTable = Database['ledgers'];
export type LedgerInsurancesTable = Database['ledger_insurances'];
export type LedgerServicesTable = Database['ledger_services'];
export type LedgerDiscountsTable = Database['ledger_discounts'];

/** A policy or service of the dataset, its `data` stored as columns and its amount in cents. */
type LedgerChargeRow<
  Charge extends { data: object },
  Row = Required<Omit<Charge, 'data' | 'amount'>> & Charge['data'] & { amount_cents: number },
> = { [Column in keyof Row]: Row[Column] };
/** Ledgers and what hangs off them are stored as the dataset file has them. */
const _ledgersAsInTheDataset: [
  Same<LedgersTable, DatasetLedger>,
  Same<LedgerInsurancesTable, LedgerChargeRow<DatasetLedgerInsurance>>,
  Same<LedgerServicesTable, LedgerChargeRow<DatasetLedgerService>>,
  Same<LedgerDiscountsTable, Required<DatasetLedgerDiscount>>,
] = [true, true, true, true];

export type RateAppliedActionsTable = Database['rate_applied_actions'];

export type EventsTable = Database['events'];

export type EventDocumentsTable = Database['event_documents'];

export type InvoiceableItemsTable = Database['invoiceable_items'];

export type InvoiceableAmountsTable = Database['invoiceable_amounts'];

/** A saved payment method: never a full card or account number. */
export type PaymentMethodsTable = Database['payment_methods'];

export type PaymentsTable = Database['payments'];

export type PaymentLinesTable = Database['payment_lines'];

export type IdempotencyKeysTable = Database['idempotency_keys'];

export type PaymentAttemptsTable = Database['payment_attempts'];

export type PaymentHoldsTable = Database['payment_holds'];

export type RateChangesTable = Database['rate_changes'];

export type RateChangeDailyCountsTable = Database['rate_change_daily_counts'];

export type RateChangeMonthlyCountsTable = Database['rate_change_monthly_counts'];

export type RateChangeCreatorDailyCountsTable = Database['rate_change_creator_daily_counts'];

/** Revision counters of cached pages, bumped by triggers (migration 20261121150000). */
export interface DataRevisionsTable {
  scope: string;
  revision: number;
}

export type NoteEventsTable = Database['note_events'];

export type NotesTable = Database['notes'];

export interface ClientApplicationsTable {
  id: string;
  company_id: string;
  name: string;
  consumer_key: string;
  /**
   * HMAC verification of OAuth 1.0 needs the shared secret itself, so it is sealed (secret box,
   * SECRETS_KEY), not hashed: `enc:v1:<key id>:...`, or as given in clear storage.
   */
  consumer_secret: string;
  created_at: string;
  /** How it was made: `demo` by the first `start`, `created` by `clients create`, `imported` from a dataset. */
  kind: ClientKind;
  /** Set by `clients revoke`: the client is refused from then on, its bearer tokens deleted. */
  revoked_at: string | null;
  /** When a request last authenticated as it, to the minute (written at most once a minute per instance). */
  last_used_at: string | null;
  /** The consumer secret before `clients rotate`, sealed like consumer_secret, until previous_secret_expires_at. */
  previous_consumer_secret: string | null;
  previous_secret_expires_at: string | null;
}

export type ClientKind = 'demo' | 'created' | 'imported';

export interface BearerTokensTable {
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  client_id: string;
  created_at: string;
  /** A token replaced by `clients rotate` is refused from this instant on; null: no end. */
  expires_at: string | null;
}

export interface OauthNoncesTable {
  consumer_key: string;
  nonce: string;
  expires_at: string;
}

export type MoveInSessionsTable = Database['move_in_sessions'];

export type SessionDocumentsTable = Database['session_documents'];

export type OutboxMessagesTable = Database['outbox_messages'];

export type WebhookEndpointsTable = Database['webhook_endpoints'];

export type EsignLinksTable = Database['esign_links'];

export type EsignLinkDocumentsTable = Database['esign_link_documents'];

export type EsignAuditEventsTable = Database['esign_audit_events'];

export type EsignSignedDocumentsTable = Database['esign_signed_documents'];

export type SealingCertificatesTable = Database['sealing_certificates'];

/** A client application's trusted GraphQL document (`facility-ops documents load`). */
export interface TrustedDocumentsTable {
  client_id: string;
  /** SHA-256 of `body`, lower-case hex: the id the front end sends. */
  document_id: string;
  body: string;
  /** The names of the document's operations, comma-separated (empty for an anonymous one). */
  operation_names: string;
  created_at: string;
}

/** Its seq is numbered by the store. */
export type LiveEventsTable = Omit<RowOf<typeof liveEvents>, 'seq'> & { seq: Generated<number> };

/** The version of the code that wrote a table's stored listings (src/store/listings.ts). */
export interface ListingVersionsTable {
  listing: string;
  /** The version the whole table's listings are of; empty when unknown (stored before versions). */
  version: string;
  /** A rebuild under way: the version it writes, and the last id it wrote (ids in order). */
  rebuilding: string | null;
  after_id: string | null;
  /** Listings the rebuild under way has written. */
  rebuilt: Generated<number>;
}

/** The kits' own tables. */
export interface StoreTables {
  data_revisions: DataRevisionsTable;
  client_applications: ClientApplicationsTable;
  trusted_documents: TrustedDocumentsTable;
  bearer_tokens: BearerTokensTable;
  oauth_nonces: OauthNoncesTable;
  live_events: LiveEventsTable;
  listing_versions: ListingVersionsTable;
}

/**
 * Every table: the kits' own, and each area's, which its `<area>.tables.ts` adds to this interface
 * (the `TablesOf` its module hands in; src/modules.ts checks the two agree).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the areas' tables extend it
export interface Database extends StoreTables {}
