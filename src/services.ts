import { WorkerPdfSigner } from './adapters/workers/pdf-signer';
import { WorkerSignatureReader } from './adapters/workers/signature-reader';
import { PdfkitRenderer } from './adapters/pdf/pdfkit.renderer';
import { DocumentSeal } from './adapters/seal/document-seal';
import { StripePaymentGateway } from './adapters/payments/stripe-gateway';
import { TestPaymentGateway } from './adapters/payments/test-gateway';
import { secretBoxFor } from './adapters/secrets/aes-gcm.secret-box';
import { AuthService, type AuthLog } from './auth/auth.service';
import { CacheMemory } from './caching/cache-memory';
import { PageCache } from './caching/page-cache';
import type { Clock } from './kernel/clock';
import type { SecretBox } from './kernel/secret-box';
import type { RevisionTokens } from './kernel/revisions';
import type { Config, PaymentsConfig } from './config';
import { DocumentsService } from './areas/documents/documents.service';
import { EsignService } from './areas/esign/esign.service';
import { SigningService } from './areas/esign/signing.service';
import { EventsService } from './areas/events/events.service';
import { FacilitiesService } from './areas/facilities/facilities.service';
import { FlippersService } from './areas/flippers/flippers.service';
import { InvoiceableItemsService } from './areas/invoiceable-items/invoiceable-items.service';
import { LedgersService } from './areas/ledgers/ledgers.service';
import { MoveInsService } from './areas/move-ins/move-ins.service';
import { NotesService } from './areas/notes/notes.service';
import type { OutboxRepository } from './areas/outbox/outbox.ports';
import { OutboxService } from './areas/outbox/outbox.service';
import type { PaymentGateway } from './areas/payments/gateway';
import { PaymentsService } from './areas/payments/payments.service';
import { DocumentPdfsService } from './areas/documents/document-pdfs.service';
import { RateAppliedActionsService } from './areas/rate-applied-actions/rate-applied-actions.service';
import { RateChangesService } from './areas/rate-changes/rate-changes.service';
import { TenantsService } from './areas/tenants/tenants.service';
import type { ContractUpstream } from './gateway/upstream.ports';
import type { Store } from './store/database';
import { SqlClientsRepository } from './store/repositories/clients.repository';
import { SqlDocumentsRepository } from './areas/documents/documents.repository';
import { SqlEsignRepository } from './areas/esign/esign.repository';
import { SqlEventsRepository } from './areas/documents/events.repository';
import { SqlFacilitiesRepository } from './areas/facilities/facilities.repository';
import { SqlFlippersRepository } from './areas/flippers/flippers.repository';
import { SqlInvoiceableItemsRepository } from './areas/invoiceable-items/invoiceable-items.repository';
import { SqlLedgersRepository } from './areas/ledgers/ledgers.repository';
import { SqlMoveInsRepository } from './areas/move-ins/move-ins.repository';
import { SqlNotesRepository } from './areas/notes/notes.repository';
import { outboxRows, SqlOutboxRepository } from './areas/outbox/outbox.repository';
import { SqlPaymentsRepository } from './areas/payments/payments.repository';
import { SqlRateAppliedActionsRepository } from './areas/rate-applied-actions/rate-applied-actions.repository';
import { SqlRateChangesRepository } from './areas/rate-changes/rate-changes.repository';
import { SqlSealingKeysRepository } from './areas/esign/sealing-keys.repository';
import { RevisionsRepository, TOKEN_READ_DEADLINE_MS } from './store/repositories/revisions.repository';
import { noticeTimes, RevisionNotices, type RevisionNoticeLog } from './store/revision-notices';
import { SqlTenantsRepository } from './areas/tenants/tenants.repository';
import { HttpUpstream, type UpstreamLog } from './gateway/http-upstream';
import { DnsHostResolver } from './adapters/webhooks/http-webhook.transport';
import type { HostResolver, WebhookEndpointsRepository } from './areas/webhooks/webhooks.ports';
import { WebhooksService } from './areas/webhooks/webhooks.service';
import { SqlWebhookEndpointsRepository } from './areas/webhooks/webhooks.repository';
import { SqlTrustedDocumentsRepository } from './store/repositories/trusted-documents.repository';
import type { TrustedDocumentsRepository } from './auth/trusted-documents.ports';
import { PgLiveNotifications, SqlLiveJournal } from './areas/live/live-events.repository';
import { LiveHub } from './live/live-hub';
import { LiveGroups } from './live/live-groups';
import { UpstreamPollers } from './live/upstream-pollers';
import { PgNotifySource, PollingSource, type SourceLog } from './live/live-sources';
import type { LoaderSource } from './graphql/loaders';
import { domainEventBus, loaderSource, WEBHOOK_EVENT_TYPES } from './modules';
import type { DomainEventBus } from './kernel/domain-events';
import type { Db } from './store/database';
import type { DeliveryEvents } from './areas/outbox/outbox.ports';
import { esignDeliveryEvents, esignEvents } from './areas/esign/esign.events';
import { documentsEvents } from './areas/documents/documents.events';
import { moveInsEvents } from './areas/move-ins/move-ins.events';
import { notesEvents } from './areas/notes/notes.events';
import { paymentsEvents } from './areas/payments/payments.events';

/** Every domain service, built once per process over one store; both transports use these. */
export interface Services {
  readonly clock: Clock;
  /** Seals and opens the secrets the store keeps (SECRETS_KEY), or keeps them in clear. */
  readonly secrets: SecretBox;
  readonly auth: AuthService;
  /** The GraphQL documents each client application's front end is known to send. */
  readonly trustedDocuments: TrustedDocumentsRepository;
  readonly facilities: FacilitiesService;
  readonly flippers: FlippersService;
  readonly rateAppliedActions: RateAppliedActionsService;
  readonly ledgers: LedgersService;
  readonly notes: NotesService;
  readonly documents: DocumentsService;
  readonly documentPdfs: DocumentPdfsService;
  readonly moveIns: MoveInsService;
  readonly invoiceableItems: InvoiceableItemsService;
  readonly rateChanges: RateChangesService;
  readonly payments: PaymentsService;
  readonly tenants: TenantsService;
  readonly events: EventsService;
  readonly outbox: OutboxService;
  /** The outbox's messages, as delivery workers claim them. */
  readonly outboxQueue: OutboxRepository;
  readonly esign: EsignService;
  /** The public signing page's work: a link's token opens, shows and signs its documents. */
  readonly signing: SigningService;
  /** The worker threads that decode drawn signatures; closed with the app. */
  readonly signatureReader: WorkerSignatureReader;
  /** The worker threads that stamp and seal signed PDFs; closed with the app. */
  readonly pdfSigner: WorkerPdfSigner;
  /** The certificate and key that seal signed PDFs, loaded once. */
  readonly seal: DocumentSeal;
  /** Webhook endpoints of companies, and their deliveries. */
  readonly webhooks: WebhooksService;
  /** Where the delivery worker finds endpoints and their secrets. */
  readonly webhookEndpoints: WebhookEndpointsRepository;
  /**
   * The areas' events, published by each change within its transaction: the live journal and the
   * webhooks' deliveries listen (src/modules.ts subscribes them).
   */
  readonly domainEvents: DomainEventBus<Db>;
  /** The events reporting an e-sign message delivered or failed, which the outbox worker writes. */
  readonly deliveryEvents: DeliveryEvents;
  /** What endpoint host names resolve to (checked at registration and before each delivery). */
  readonly hostResolver: HostResolver;
  /** Serialized list pages kept between requests while their data is unchanged. */
  readonly pages: PageCache;
  /** The revision counters kept answers are checked against. */
  readonly revisions: RevisionTokens;
  /** PostgreSQL: the tokens this instance hears of (started and closed with the app); null otherwise. */
  readonly revisionNotices: RevisionNotices | null;
  /** Memory shared by every cache of serialized answers (REST pages, GraphQL responses). */
  readonly cacheMemory: CacheMemory;
  /** Gateway mode: the deployment of the contract this instance stands in front of; null otherwise. */
  readonly upstream: ContractUpstream | null;
  /** GraphQL subscriptions' events: the live journal after commit, on every instance. */
  readonly live: LiveHub;
  /** A GraphQL request's loaders, every area's, made for its caller. */
  readonly loaders: LoaderSource;
  /** GraphQL subscriptions grouped by what they compute: one execution per event for each group. */
  readonly liveGroups: LiveGroups;
  /** Gateway mode: the upstream's resources subscriptions watch, one poller each; null otherwise. */
  readonly upstreamPollers: UpstreamPollers | null;
}

/** The processor PAYMENT_PROCESSOR names: Stripe, or the built-in test gateway (moves no money). */
function paymentGatewayFor(settings: PaymentsConfig): PaymentGateway {
  if (settings.processor === 'stripe' && settings.stripeSecretKey) {
    return new StripePaymentGateway({
      secretKey: settings.stripeSecretKey,
      apiUrl: settings.stripeApiUrl,
      timeoutMs: settings.timeoutMs,
    });
  }
  return new TestPaymentGateway({ deadlineMs: settings.timeoutMs });
}

/**
 * FACILITY_OPS_TEST_HOLD_BEFORE_RECORD (NODE_ENV=test only): an approved charge says so on stderr
 * and waits for ever before its record, so a test can kill the process at that point.
 */
function holdBeforeRecord(paymentId: string): Promise<void> {
  process.stderr.write(`payment ${paymentId}: charged, holding before its record\n`);
  return new Promise<void>(() => undefined);
}

/**
 * The composition root: the SQL store's repositories and the adapters plugged into the domain's
 * ports. A second source implements the same ports and is plugged in here.
 */
export function createServices(
  store: Store,
  clock: Clock,
  config: Pick<
    Config,
    | 'oauthWindowSeconds'
    | 'publicBaseUrl'
    | 'esignLinkTtlHours'
    | 'pageCacheBytes'
    | 'upstream'
    | 'webhooks'
    | 'seal'
    | 'secrets'
    | 'outbox'
    | 'live'
    | 'payments'
    | 'signatureWorkers'
    | 'revisions'
  >,
  options: {
    /** Resolves endpoint host names; the system resolver when none is given. */
    hostResolver?: HostResolver;
    /** The payment processor adapter; the built-in test gateway (moves no money) when none is given. */
    paymentGateway?: PaymentGateway;
    /** Where gateway mode says why an upstream call failed. */
    upstreamLog?: UpstreamLog;
    /** Where a stored secret that cannot be opened is reported (naming its row, never a secret). */
    secretsLog?: AuthLog;
    /** Where the live events' source says what failed (a lost LISTEN connection, a failed read). */
    liveLog?: SourceLog;
    /** Where the revision notices say what failed (a lost LISTEN connection, a notice not read). */
    revisionsLog?: RevisionNoticeLog;
    /** The signature workers' module and `workerData` (tests wrap the real one); the real one by default. */
    signatureWorker?: { file: string; workerData?: unknown };
    /** The PDF signing workers' module and `workerData` (tests wrap the real one); the real one by default. */
    pdfSignerWorker?: { file: string; workerData?: unknown };
    /** Where a signature or PDF signing worker that failed or ran out of time is reported. */
    signatureLog?: { warn(details: object, message: string): void };
  } = {},
): Services {
  const db = store.db;
  const secrets = secretBoxFor(config.secrets);
  // Tenants and units are looked up by several areas; one repository serves them all.
  const people = new SqlTenantsRepository(db);
  // A ledger is read by its own service and looked up by the notes' (LedgerLookup).
  const ledgersRepository = new SqlLedgersRepository(db, store.arrays);
  const pdfs = new PdfkitRenderer();
  const documentsRepository = new SqlDocumentsRepository(db);
  const documents = new DocumentsService(documentsRepository, clock);
  const domainEvents = domainEventBus();
  const outboxQueue = new SqlOutboxRepository(db, domainEvents);
  const outbox = new OutboxService(outboxQueue, clock);
  const esignRepository = new SqlEsignRepository(db, domainEvents, outboxRows);
  const documentPdfs = new DocumentPdfsService(documentsRepository, pdfs, esignRepository);
  const facilities = new FacilitiesService(new SqlFacilitiesRepository(db), clock);
  // PostgreSQL, as the system of record: tokens heard of by notification, not read per kept answer.
  const revisionNotices =
    store.dialect === 'postgres' && !config.upstream && config.revisions.leaseMs > 0
      ? new RevisionNotices(
          store.pgPool!,
          store.afterCommit,
          noticeTimes(config.revisions.leaseMs),
          options.revisionsLog ?? { warn: () => undefined },
        )
      : null;
  const revisions = new RevisionsRepository(db, store.sqlite, TOKEN_READ_DEADLINE_MS, revisionNotices);
  const cacheMemory = new CacheMemory(config.pageCacheBytes);
  const hostResolver = options.hostResolver ?? new DnsHostResolver();
  const seal = new DocumentSeal(new SqlSealingKeysRepository(db, secrets), config.seal);
  const webhookEndpoints = new SqlWebhookEndpointsRepository(db, secrets, WEBHOOK_EVENT_TYPES, outboxRows);
  const upstream = config.upstream
    ? new HttpUpstream(config.upstream, clock, options.upstreamLog ?? (() => undefined), cacheMemory)
    : null;
  const liveJournal = new SqlLiveJournal(db);
  const liveLog = options.liveLog ?? { warn: () => undefined };
  const live = new LiveHub(
    liveJournal,
    store.dialect === 'postgres'
      ? new PgNotifySource(new PgLiveNotifications(db, store.pgPool!), liveJournal, liveLog)
      : new PollingSource(liveJournal, config.live.pollMs, liveLog),
    config.live,
    clock,
    liveLog,
  );
  const signatureReader = new WorkerSignatureReader(config.signatureWorkers, {
    worker: options.signatureWorker,
    onFailure: (reason) =>
      options.signatureLog?.warn({ reason }, 'a drawn signature could not be read: its worker failed'),
  });
  // A pool of its own, bounded by the same settings: a signing decodes, then stamps and seals.
  const pdfSigner = new WorkerPdfSigner(seal, config.signatureWorkers, {
    worker: options.pdfSignerWorker,
    onFailure: (reason) =>
      options.signatureLog?.warn({ reason }, 'a document could not be signed: its PDF worker failed'),
  });
  // After a change's events committed, this process's delivery worker and live hub look at once.
  domainEvents.afterCommit(() => {
    outbox.announce();
    live.wake();
  });
  const announce = () => domainEvents.announce();
  const services: Omit<Services, 'liveGroups' | 'loaders'> = {
    clock,
    secrets,
    auth: new AuthService(
      new SqlClientsRepository(db, secrets),
      clock,
      config.oauthWindowSeconds,
      options.secretsLog,
      revisions,
    ),
    trustedDocuments: new SqlTrustedDocumentsRepository(db),
    facilities,
    flippers: new FlippersService(new SqlFlippersRepository(db)),
    rateAppliedActions: new RateAppliedActionsService(new SqlRateAppliedActionsRepository(db), clock),
    ledgers: new LedgersService(ledgersRepository, clock),
    notes: new NotesService(new SqlNotesRepository(db, domainEvents), people, ledgersRepository, clock, {
      ...notesEvents,
      announce,
    }),
    documents,
    documentPdfs,
    moveIns: new MoveInsService(new SqlMoveInsRepository(db, domainEvents), people, clock, pdfs, {
      ...moveInsEvents,
      announce,
    }),
    invoiceableItems: new InvoiceableItemsService(
      new SqlInvoiceableItemsRepository(db, store.arrays, store.bytes),
      clock,
    ),
    rateChanges: new RateChangesService(new SqlRateChangesRepository(db, store.arrays, store.bytes), clock),
    payments: new PaymentsService(
      new SqlPaymentsRepository(db, domainEvents),
      people,
      clock,
      options.paymentGateway ?? paymentGatewayFor(config.payments),
      { ...paymentsEvents, announce },
      config.payments.testHoldBeforeRecord ? holdBeforeRecord : undefined,
    ),
    tenants: new TenantsService(people),
    events: new EventsService(new SqlEventsRepository(db)),
    outbox,
    outboxQueue,
    esign: new EsignService(
      documents,
      documentPdfs,
      outbox,
      esignRepository,
      clock,
      {
        publicBaseUrl: config.publicBaseUrl,
        linkTtlMs: config.esignLinkTtlHours * 3_600_000,
        replyTo: config.outbox.smtpReplyTo,
      },
      esignEvents,
    ),
    signing: new SigningService(
      esignRepository,
      documentPdfs,
      facilities,
      outbox,
      pdfSigner,
      signatureReader,
      clock,
      {
        ...documentsEvents({ documentsByEventIds: (ids) => documents.documentsByEventIds(ids) }),
        announce,
      },
    ),
    signatureReader,
    pdfSigner,
    webhooks: new WebhooksService(webhookEndpoints, hostResolver, clock, outbox, {
      allowHosts: config.webhooks.allowHosts,
      eventTypes: WEBHOOK_EVENT_TYPES,
    }),
    seal,
    webhookEndpoints,
    domainEvents,
    deliveryEvents: esignDeliveryEvents({ facilitiesByIds: (ids) => facilities.facilitiesByIds(ids) }),
    hostResolver,
    pages: new PageCache(revisions, cacheMemory),
    revisions,
    revisionNotices,
    cacheMemory,
    upstream,
    live,
    upstreamPollers: upstream ? new UpstreamPollers(upstream, config.live.upstreamPollMs, liveLog) : null,
  };
  const withLoaders = { ...services, loaders: loaderSource(services) };
  return { ...withLoaders, liveGroups: new LiveGroups(withLoaders) };
}
