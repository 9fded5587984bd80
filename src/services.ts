import { AuthService } from './auth/auth.service';
import type { Clock } from './clock';
import type { Config } from './config';
import { FacilitiesService } from './domain/facilities/facilities.service';
import { FlippersService } from './domain/flippers/flippers.service';
import { RateAppliedActionsService } from './domain/rate-applied-actions/rate-applied-actions.service';
import { RateAppliedActionsRepository } from './store/repositories/rate-applied-actions.repository';
import { LedgersService } from './domain/ledgers/ledgers.service';
import { LedgersRepository } from './store/repositories/ledgers.repository';
import { NotesService } from './domain/notes/notes.service';
import { NotesRepository } from './store/repositories/notes.repository';
import { DocumentsService } from './domain/documents/documents.service';
import { DocumentsRepository } from './store/repositories/documents.repository';
import { InvoiceableItemsService } from './domain/invoiceable-items/invoiceable-items.service';
import { InvoiceableItemsRepository } from './store/repositories/invoiceable-items.repository';
import { RateChangesService } from './domain/rate-changes/rate-changes.service';
import { RateChangesRepository } from './store/repositories/rate-changes.repository';
import { TenantsService } from './domain/tenants/tenants.service';
import { TenantsRepository } from './store/repositories/tenants.repository';
import { EventsService } from './domain/events/events.service';
import { EventsRepository } from './store/repositories/events.repository';
import { DocumentPdfsService } from './domain/pdf/document-pdfs.service';
import { MoveInsService } from './domain/move-ins/move-ins.service';
import { MoveInsRepository } from './store/repositories/move-ins.repository';
import { PaymentsService } from './domain/payments/payments.service';
import { TestPaymentGateway, type PaymentGateway } from './domain/payments/gateway';
import { PaymentsRepository } from './store/repositories/payments.repository';
import type { Store } from './store/database';
import { ClientsRepository } from './store/repositories/clients.repository';
import { FacilitiesRepository } from './store/repositories/facilities.repository';
import { FlippersRepository } from './store/repositories/flippers.repository';
import { OutboxService } from './domain/outbox/outbox.service';
import { OutboxRepository } from './store/repositories/outbox.repository';
import { EsignService } from './domain/esign/esign.service';
import { CacheMemory } from './domain/cache/cache-memory';
import { PageCache } from './domain/cache/page-cache';
import { RevisionsRepository } from './store/repositories/revisions.repository';

/** Every domain service, built once per process over one store; both transports use these. */
export interface Services {
  readonly store: Store;
  readonly clock: Clock;
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
  readonly esign: EsignService;
  /** Serialized list pages kept between requests while their data is unchanged. */
  readonly pages: PageCache;
  /** The revision counters kept answers are checked against. */
  readonly revisions: RevisionsRepository;
  /** Memory shared by every cache of serialized answers (REST pages, GraphQL responses). */
  readonly cacheMemory: CacheMemory;
}

export function createServices(
  store: Store,
  clock: Clock,
  config: Pick<Config, 'oauthWindowSeconds' | 'publicBaseUrl' | 'pageCacheBytes'>,
  /** The payment processor adapter; the built-in test gateway (moves no money) when none is given. */
  options: { paymentGateway?: PaymentGateway } = {},
): Services {
  const db = store.db;
  // Tenants and units are looked up by several areas; one repository serves them all.
  const people = new TenantsRepository(db);
  const documents = new DocumentsService(new DocumentsRepository(db), clock);
  const outbox = new OutboxService(new OutboxRepository(db), clock);
  const revisions = new RevisionsRepository(db, store.sqlite);
  const cacheMemory = new CacheMemory(config.pageCacheBytes);
  return {
    store,
    clock,
    auth: new AuthService(new ClientsRepository(db), clock, config.oauthWindowSeconds),
    facilities: new FacilitiesService(new FacilitiesRepository(db), clock),
    flippers: new FlippersService(new FlippersRepository(db)),
    rateAppliedActions: new RateAppliedActionsService(new RateAppliedActionsRepository(db), clock),
    ledgers: new LedgersService(new LedgersRepository(db), clock),
    notes: new NotesService(new NotesRepository(db), people, clock),
    documents,
    documentPdfs: new DocumentPdfsService(new DocumentsRepository(db)),
    moveIns: new MoveInsService(new MoveInsRepository(db), people, clock),
    invoiceableItems: new InvoiceableItemsService(new InvoiceableItemsRepository(db), clock),
    rateChanges: new RateChangesService(new RateChangesRepository(db), clock),
    payments: new PaymentsService(
      new PaymentsRepository(db),
      people,
      clock,
      options.paymentGateway ?? new TestPaymentGateway(),
    ),
    tenants: new TenantsService(people),
    events: new EventsService(new EventsRepository(db)),
    outbox,
    esign: new EsignService(documents, outbox, { publicBaseUrl: config.publicBaseUrl }),
    pages: new PageCache(revisions, cacheMemory),
    revisions,
    cacheMemory,
  };
}
