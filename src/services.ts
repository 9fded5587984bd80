import { PdfLibSigner } from './adapters/pdf/pdf-lib.signer';
import { PdfkitRenderer } from './adapters/pdf/pdfkit.renderer';
import { DocumentSeal } from './adapters/seal/document-seal';
import { TestPaymentGateway } from './adapters/payments/test-gateway';
import { secretBoxFor } from './adapters/secrets/aes-gcm.secret-box';
import { AuthService, type AuthLog } from './auth/auth.service';
import { CacheMemory } from './caching/cache-memory';
import { PageCache } from './caching/page-cache';
import type { Clock } from './domain/shared/clock';
import type { SecretBox } from './domain/shared/secret-box';
import type { Config } from './config';
import { DocumentsService } from './domain/documents/documents.service';
import { EsignService } from './domain/esign/esign.service';
import { SigningService } from './domain/esign/signing.service';
import { EventsService } from './domain/events/events.service';
import { FacilitiesService } from './domain/facilities/facilities.service';
import { FlippersService } from './domain/flippers/flippers.service';
import { InvoiceableItemsService } from './domain/invoiceable-items/invoiceable-items.service';
import { LedgersService } from './domain/ledgers/ledgers.service';
import { MoveInsService } from './domain/move-ins/move-ins.service';
import { NotesService } from './domain/notes/notes.service';
import type { OutboxRepository } from './domain/outbox/outbox.ports';
import { OutboxService } from './domain/outbox/outbox.service';
import type { PaymentGateway } from './domain/payments/gateway';
import { PaymentsService } from './domain/payments/payments.service';
import { DocumentPdfsService } from './domain/pdf/document-pdfs.service';
import { RateAppliedActionsService } from './domain/rate-applied-actions/rate-applied-actions.service';
import { RateChangesService } from './domain/rate-changes/rate-changes.service';
import { TenantsService } from './domain/tenants/tenants.service';
import type { ContractUpstream } from './domain/gateway/upstream.ports';
import type { Store } from './store/database';
import { SqlClientsRepository } from './store/repositories/clients.repository';
import { SqlDocumentsRepository } from './store/repositories/documents.repository';
import { SqlEsignRepository } from './store/repositories/esign.repository';
import { SqlEventsRepository } from './store/repositories/events.repository';
import { SqlFacilitiesRepository } from './store/repositories/facilities.repository';
import { SqlFlippersRepository } from './store/repositories/flippers.repository';
import { SqlInvoiceableItemsRepository } from './store/repositories/invoiceable-items.repository';
import { SqlLedgersRepository } from './store/repositories/ledgers.repository';
import { SqlMoveInsRepository } from './store/repositories/move-ins.repository';
import { SqlNotesRepository } from './store/repositories/notes.repository';
import { SqlOutboxRepository } from './store/repositories/outbox.repository';
import { SqlPaymentsRepository } from './store/repositories/payments.repository';
import { SqlRateAppliedActionsRepository } from './store/repositories/rate-applied-actions.repository';
import { SqlRateChangesRepository } from './store/repositories/rate-changes.repository';
import { SqlSealingKeysRepository } from './store/repositories/sealing-keys.repository';
import { RevisionsRepository } from './store/repositories/revisions.repository';
import { SqlTenantsRepository } from './store/repositories/tenants.repository';
import { HttpUpstream, type UpstreamLog } from './upstream/http-upstream';
import { DnsHostResolver } from './adapters/webhooks/http-webhook.transport';
import { WebhookEvents } from './domain/webhooks/webhook-events';
import type { HostResolver, WebhookEndpointsRepository } from './domain/webhooks/webhooks.ports';
import { WebhooksService } from './domain/webhooks/webhooks.service';
import { webhookPayloads } from './presenters/webhooks.presenter';
import { SqlWebhookEndpointsRepository } from './store/repositories/webhooks.repository';
import { SqlLiveJournal } from './store/repositories/live-events.repository';
import { LiveHub } from './live/live-hub';
import { UpstreamPollers } from './live/upstream-pollers';
import { PgNotifySource, PollingSource, type SourceLog } from './live/live-sources';

/** Every domain service, built once per process over one store; both transports use these. */
export interface Services {
  readonly store: Store;
  readonly clock: Clock;
  /** Seals and opens the secrets the store keeps (SECRETS_KEY), or keeps them in clear. */
  readonly secrets: SecretBox;
  readonly auth: AuthService;
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
  /** The certificate and key that seal signed PDFs, loaded once. */
  readonly seal: DocumentSeal;
  /** Webhook endpoints of companies, and their deliveries. */
  readonly webhooks: WebhooksService;
  /** Where the delivery worker finds endpoints and their secrets. */
  readonly webhookEndpoints: WebhookEndpointsRepository;
  /** The webhook events each change writes with itself. */
  readonly webhookEvents: WebhookEvents;
  /** What endpoint host names resolve to (checked at registration and before each delivery). */
  readonly hostResolver: HostResolver;
  /** Serialized list pages kept between requests while their data is unchanged. */
  readonly pages: PageCache;
  /** The revision counters kept answers are checked against. */
  readonly revisions: RevisionsRepository;
  /** Memory shared by every cache of serialized answers (REST pages, GraphQL responses). */
  readonly cacheMemory: CacheMemory;
  /** Gateway mode: the deployment of the contract this instance stands in front of; null otherwise. */
  readonly upstream: ContractUpstream | null;
  /** GraphQL subscriptions' events: the live journal after commit, on every instance. */
  readonly live: LiveHub;
  /** Gateway mode: the upstream's resources subscriptions watch, one poller each; null otherwise. */
  readonly upstreamPollers: UpstreamPollers | null;
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
  } = {},
): Services {
  const db = store.db;
  const secrets = secretBoxFor(config.secrets);
  // Tenants and units are looked up by several areas; one repository serves them all.
  const people = new SqlTenantsRepository(db);
  const pdfs = new PdfkitRenderer();
  const documentsRepository = new SqlDocumentsRepository(db);
  const documents = new DocumentsService(documentsRepository, clock);
  const outboxQueue = new SqlOutboxRepository(db);
  const outbox = new OutboxService(outboxQueue, clock);
  const esignRepository = new SqlEsignRepository(db);
  const documentPdfs = new DocumentPdfsService(documentsRepository, pdfs, esignRepository);
  const facilities = new FacilitiesService(new SqlFacilitiesRepository(db), clock);
  const revisions = new RevisionsRepository(db, store.sqlite);
  const cacheMemory = new CacheMemory(config.pageCacheBytes);
  const hostResolver = options.hostResolver ?? new DnsHostResolver();
  const seal = new DocumentSeal(new SqlSealingKeysRepository(db, secrets), config.seal);
  const webhookEndpoints = new SqlWebhookEndpointsRepository(db, secrets);
  const upstream = config.upstream
    ? new HttpUpstream(config.upstream, clock, options.upstreamLog ?? (() => undefined), cacheMemory)
    : null;
  const liveJournal = new SqlLiveJournal(db);
  const liveLog = options.liveLog ?? { warn: () => undefined };
  const live = new LiveHub(
    liveJournal,
    store.dialect === 'postgres'
      ? new PgNotifySource(store, liveJournal, liveLog)
      : new PollingSource(liveJournal, config.live.pollMs, liveLog),
    config.live,
    clock,
    liveLog,
  );
  const webhookEvents = new WebhookEvents(
    webhookPayloads,
    {
      facilitiesByIds: (ids) => facilities.facilitiesByIds(ids),
      documentsByEventIds: (ids) => documents.documentsByEventIds(ids),
    },
    () => {
      outbox.announce();
      live.wake();
    },
  );
  return {
    store,
    clock,
    secrets,
    auth: new AuthService(
      new SqlClientsRepository(db, secrets),
      clock,
      config.oauthWindowSeconds,
      options.secretsLog,
    ),
    facilities,
    flippers: new FlippersService(new SqlFlippersRepository(db)),
    rateAppliedActions: new RateAppliedActionsService(new SqlRateAppliedActionsRepository(db), clock),
    ledgers: new LedgersService(new SqlLedgersRepository(db), clock),
    notes: new NotesService(new SqlNotesRepository(db), people, clock, webhookEvents),
    documents,
    documentPdfs,
    moveIns: new MoveInsService(new SqlMoveInsRepository(db), people, clock, pdfs, webhookEvents),
    invoiceableItems: new InvoiceableItemsService(
      new SqlInvoiceableItemsRepository(db, store.arrays, store.bytes),
      clock,
    ),
    rateChanges: new RateChangesService(new SqlRateChangesRepository(db, store.arrays, store.bytes), clock),
    payments: new PaymentsService(
      new SqlPaymentsRepository(db),
      people,
      clock,
      options.paymentGateway ?? new TestPaymentGateway(),
      webhookEvents,
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
      webhookEvents,
    ),
    signing: new SigningService(
      esignRepository,
      documentPdfs,
      facilities,
      outbox,
      new PdfLibSigner(seal),
      clock,
      webhookEvents,
    ),
    webhooks: new WebhooksService(webhookEndpoints, hostResolver, clock, outbox, {
      allowHosts: config.webhooks.allowHosts,
    }),
    seal,
    webhookEndpoints,
    webhookEvents,
    hostResolver,
    pages: new PageCache(revisions, cacheMemory),
    revisions,
    cacheMemory,
    upstream,
    live,
    upstreamPollers: upstream ? new UpstreamPollers(upstream, config.live.upstreamPollMs, liveLog) : null,
  };
}
