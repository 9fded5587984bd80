import type { Generated } from 'kysely';
import type { companies, facilities } from '../areas/facilities/facilities.tables';
import type { tenants, units } from '../areas/tenants/tenants.tables';
import type {
  invoiceableAmounts,
  invoiceableItems,
} from '../areas/invoiceable-items/invoiceable-items.tables';
import type {
  ledgerDiscounts,
  ledgerInsurances,
  ledgers,
  ledgerServices,
} from '../areas/ledgers/ledgers.tables';
import type { eventDocuments, events } from '../areas/documents/documents.tables';
import type { moveInSessions, sessionDocuments } from '../areas/move-ins/move-ins.tables';
import type {
  idempotencyKeys,
  paymentAttempts,
  paymentHolds,
  paymentLines,
  paymentMethods,
  payments,
} from '../areas/payments/payments.tables';
import type { flipperActors, flippers } from '../areas/flippers/flippers.tables';
import type { noteEvents, notes } from '../areas/notes/notes.tables';
import type { rateAppliedActions } from '../areas/rate-applied-actions/rate-applied-actions.tables';
import type {
  rateChangeCreatorDailyCounts,
  rateChangeDailyCounts,
  rateChangeMonthlyCounts,
  rateChanges,
} from '../areas/rate-changes/rate-changes.tables';
import type { RowOf, Same } from '../kernel/columns';
import type { EventType } from '../areas/documents/documents.types';
import type { FeeCategory, InvoiceableItemKind } from '../areas/invoiceable-items/invoiceable-items.types';
import type { PaymentKind } from '../areas/payments/payments.types';
import type {
  DatasetCompany,
  DatasetLedger,
  DatasetLedgerDiscount,
  DatasetLedgerInsurance,
  DatasetLedgerService,
  DatasetTenant,
} from './dataset/dataset.types';

export type { EventType, FeeCategory, InvoiceableItemKind, PaymentKind };

/**
 * Row types of every table. Both dialects store the same shapes: ids, dates (YYYY-MM-DD) and
 * instants (UTC, `YYYY-MM-DDTHH:mm:ss.sssZ`) as text, money as integer cents, flags as 0/1, so
 * comparisons and ordering behave identically on SQLite and PostgreSQL. A table that stores a
 * record of the dataset file as it comes is declared as that record (src/store/dataset), so its
 * columns are written once: `Required<>` where an optional field is stored as null.
 */
import type {
  esignAuditEvents,
  esignLinkDocuments,
  esignLinks,
  esignSignedDocuments,
  sealingCertificates,
} from '../areas/esign/esign.tables';
import type { liveEvents } from '../live/live.tables';
import type { outboxMessages } from '../areas/outbox/outbox.tables';
import type { webhookEndpoints } from '../areas/webhooks/webhooks.tables';

export type CompaniesTable = RowOf<typeof companies>;
/** A company is stored as the dataset file has it. */
const _companiesAsInTheDataset: Same<CompaniesTable, DatasetCompany> = true;

export type FacilitiesTable = RowOf<typeof facilities>;

export type FlippersTable = RowOf<typeof flippers>;

export type FlipperActorsTable = RowOf<typeof flipperActors>;

export type TenantsTable = RowOf<typeof tenants>;
/** A tenant is stored as the dataset file has it, an absent email or phone as null. */
const _tenantsAsInTheDataset: Same<TenantsTable, Required<DatasetTenant>> = true;

export type UnitsTable = RowOf<typeof units>;

export type LedgersTable = RowOf<typeof ledgers>;
export type LedgerInsurancesTable = RowOf<typeof ledgerInsurances>;
export type LedgerServicesTable = RowOf<typeof ledgerServices>;
export type LedgerDiscountsTable = RowOf<typeof ledgerDiscounts>;

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

export type RateAppliedActionsTable = RowOf<typeof rateAppliedActions>;

export type EventsTable = RowOf<typeof events>;

export type EventDocumentsTable = RowOf<typeof eventDocuments>;

export type InvoiceableItemsTable = RowOf<typeof invoiceableItems>;

export type InvoiceableAmountsTable = RowOf<typeof invoiceableAmounts>;

/** A saved payment method: never a full card or account number. */
export type PaymentMethodsTable = RowOf<typeof paymentMethods>;

export type PaymentsTable = RowOf<typeof payments>;

export type PaymentLinesTable = RowOf<typeof paymentLines>;

export type IdempotencyKeysTable = RowOf<typeof idempotencyKeys>;

export type PaymentAttemptsTable = RowOf<typeof paymentAttempts>;

export type PaymentHoldsTable = RowOf<typeof paymentHolds>;

export type RateChangesTable = RowOf<typeof rateChanges>;

export type RateChangeDailyCountsTable = RowOf<typeof rateChangeDailyCounts>;

export type RateChangeMonthlyCountsTable = RowOf<typeof rateChangeMonthlyCounts>;

export type RateChangeCreatorDailyCountsTable = RowOf<typeof rateChangeCreatorDailyCounts>;

/** Revision counters of cached pages, bumped by triggers (migration 20261121150000). */
export interface DataRevisionsTable {
  scope: string;
  revision: number;
}

export type NoteEventsTable = RowOf<typeof noteEvents>;

export type NotesTable = RowOf<typeof notes>;

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

export type MoveInSessionsTable = RowOf<typeof moveInSessions>;

export type SessionDocumentsTable = RowOf<typeof sessionDocuments>;

export type OutboxMessagesTable = RowOf<typeof outboxMessages>;

export type WebhookEndpointsTable = RowOf<typeof webhookEndpoints>;

export type EsignLinksTable = RowOf<typeof esignLinks>;

export type EsignLinkDocumentsTable = RowOf<typeof esignLinkDocuments>;

export type EsignAuditEventsTable = RowOf<typeof esignAuditEvents>;

export type EsignSignedDocumentsTable = RowOf<typeof esignSignedDocuments>;

export type SealingCertificatesTable = RowOf<typeof sealingCertificates>;

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

export interface Database {
  companies: CompaniesTable;
  facilities: FacilitiesTable;
  flippers: FlippersTable;
  flipper_actors: FlipperActorsTable;
  tenants: TenantsTable;
  units: UnitsTable;
  ledgers: LedgersTable;
  ledger_insurances: LedgerInsurancesTable;
  ledger_services: LedgerServicesTable;
  ledger_discounts: LedgerDiscountsTable;
  rate_applied_actions: RateAppliedActionsTable;
  events: EventsTable;
  event_documents: EventDocumentsTable;
  invoiceable_items: InvoiceableItemsTable;
  invoiceable_amounts: InvoiceableAmountsTable;
  payment_methods: PaymentMethodsTable;
  payments: PaymentsTable;
  payment_lines: PaymentLinesTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_changes: RateChangesTable;
  rate_change_daily_counts: RateChangeDailyCountsTable;
  rate_change_monthly_counts: RateChangeMonthlyCountsTable;
  rate_change_creator_daily_counts: RateChangeCreatorDailyCountsTable;
  data_revisions: DataRevisionsTable;
  note_events: NoteEventsTable;
  notes: NotesTable;
  client_applications: ClientApplicationsTable;
  trusted_documents: TrustedDocumentsTable;
  bearer_tokens: BearerTokensTable;
  oauth_nonces: OauthNoncesTable;
  move_in_sessions: MoveInSessionsTable;
  session_documents: SessionDocumentsTable;
  outbox_messages: OutboxMessagesTable;
  esign_links: EsignLinksTable;
  esign_link_documents: EsignLinkDocumentsTable;
  esign_audit_events: EsignAuditEventsTable;
  esign_signed_documents: EsignSignedDocumentsTable;
  webhook_endpoints: WebhookEndpointsTable;
  sealing_certificates: SealingCertificatesTable;
  live_events: LiveEventsTable;
  payment_attempts: PaymentAttemptsTable;
  payment_holds: PaymentHoldsTable;
  listing_versions: ListingVersionsTable;
}
