import DataLoader from 'dataloader';
import type { DocumentEvent, EventDocument } from '../areas/documents/documents.types';
import type { EventEsignStatus } from '../areas/esign/esign.state';
import type { Facility } from '../areas/facilities/facilities.types';
import type { InvoiceableAmount, InvoiceableItem } from '../areas/invoiceable-items/invoiceable-items.types';
import type { Ledger, LedgerDiscount, LedgerInsurance, LedgerService } from '../areas/ledgers/ledgers.types';
import type { NoteEvent } from '../areas/notes/notes.types';
import type { Tenant, Unit } from '../areas/tenants/tenants.types';
import type { DocumentsService } from '../areas/documents/documents.service';
import type { EsignService } from '../areas/esign/esign.service';
import type { InvoiceableItemsService } from '../areas/invoiceable-items/invoiceable-items.service';
import type { LedgersService } from '../areas/ledgers/ledgers.service';
import type { NotesService } from '../areas/notes/notes.service';
import type { TenantsService } from '../areas/tenants/tenants.service';
import { activeTracing, inSpan } from '../telemetry/tracing';

/** Keys per batch: each batch is one SQL statement with an IN list of this many values at most. */
export const MAX_BATCH_SIZE = 500;

/**
 * Loaders for the records GraphQL navigates between (ledgers, tenants, units, notes, events,
 * documents, invoiceable items and what hangs off them). Each batch function runs one SQL
 * statement. Records looked up by id are checked against the caller's facilities (through the
 * facilities loader, which the facility a query starts from primes), so a stray id never
 * reaches another company's data; lists under a record come from a record already checked.
 */
export interface RecordLoaders {
  ledgers: DataLoader<string, Ledger | null>;
  ledgersByTenant: DataLoader<string, Ledger[]>;
  ledgersByUnit: DataLoader<string, Ledger[]>;
  ledgerInsurance: DataLoader<string, LedgerInsurance | null>;
  ledgerServices: DataLoader<string, LedgerService[]>;
  ledgerDiscounts: DataLoader<string, LedgerDiscount[]>;
  tenants: DataLoader<string, Tenant | null>;
  units: DataLoader<string, Unit | null>;
  notesByTenant: DataLoader<string, NoteEvent[]>;
  notesByUnit: DataLoader<string, NoteEvent[]>;
  notesByLedger: DataLoader<string, NoteEvent[]>;
  events: DataLoader<string, DocumentEvent | null>;
  documentsByEvent: DataLoader<string, EventDocument[]>;
  /** The e-sign status of an event's documents (an event reached here was checked to be the caller's). */
  esignByEvent: DataLoader<string, EventEsignStatus>;
  invoiceableItems: DataLoader<string, InvoiceableItem | null>;
  invoiceableTiers: DataLoader<string, InvoiceableAmount[]>;
}

/** The services the record loaders read. */
export interface RecordLoaderServices {
  readonly ledgers: LedgersService;
  readonly notes: NotesService;
  readonly tenants: TenantsService;
  readonly documents: DocumentsService;
  readonly esign: EsignService;
  readonly invoiceableItems: InvoiceableItemsService;
}

const OPTIONS = { maxBatchSize: MAX_BATCH_SIZE } as const;

/** With tracing on, each batch is a span (`dataloader ledgers`, its key count); off, the function itself. */
export function traceBatches<K, V>(
  name: string,
  batch: (keys: readonly K[]) => Promise<V[]>,
): (keys: readonly K[]) => Promise<V[]> {
  const tracing = activeTracing();
  if (!tracing) return batch;
  return (keys) =>
    inSpan(
      tracing,
      `dataloader ${name}`,
      { 'dataloader.name': name, 'dataloader.batch_size': keys.length },
      () => batch(keys),
    );
}

export function createRecordLoaders(
  services: RecordLoaderServices,
  facilities: DataLoader<string, Facility | null>,
): RecordLoaders {
  /** Nulls the records whose facility is not one of the caller's company. */
  async function ownRecords<T extends { facilityId: string } | null>(records: T[]): Promise<(T | null)[]> {
    const ids = [...new Set(records.flatMap((r) => (r ? [r.facilityId] : [])))];
    const found = await facilities.loadMany(ids);
    const own = new Set(ids.filter((_id, i) => found[i] !== null && !(found[i] instanceof Error)));
    return records.map((r) => (r !== null && own.has(r.facilityId) ? r : null));
  }
  const byIds = <T extends { facilityId: string }>(
    name: string,
    batch: (ids: readonly string[]) => Promise<(T | null)[]>,
  ) =>
    new DataLoader<string, T | null>(
      traceBatches(name, async (ids) => ownRecords(await batch(ids))),
      OPTIONS,
    );
  const lists = <T>(name: string, batch: (ids: readonly string[]) => Promise<T[]>) =>
    new DataLoader<string, T>(traceBatches(name, batch), OPTIONS);

  const { ledgers, notes, tenants, documents, esign, invoiceableItems } = services;
  return {
    ledgers: byIds('ledgers', (ids) => ledgers.ledgersByIds(ids)),
    ledgersByTenant: lists('ledgersByTenant', (ids) => ledgers.ledgersByTenantIds(ids)),
    ledgersByUnit: lists('ledgersByUnit', (ids) => ledgers.ledgersByUnitIds(ids)),
    ledgerInsurance: lists('ledgerInsurance', (ids) => ledgers.insuranceByLedgerIds(ids)),
    ledgerServices: lists('ledgerServices', (ids) => ledgers.servicesByLedgerIds(ids)),
    ledgerDiscounts: lists('ledgerDiscounts', (ids) => ledgers.discountsByLedgerIds(ids)),
    tenants: byIds('tenants', (ids) => tenants.tenantsByIds(ids)),
    units: byIds('units', (ids) => tenants.unitsByIds(ids)),
    notesByTenant: lists('notesByTenant', (ids) => notes.notesByTenantIds(ids)),
    notesByUnit: lists('notesByUnit', (ids) => notes.notesByUnitIds(ids)),
    notesByLedger: lists('notesByLedger', (ids) => notes.notesByLedgerIds(ids)),
    events: byIds('events', (ids) => documents.eventsByIds(ids)),
    documentsByEvent: lists('documentsByEvent', (ids) => documents.documentsByEventIds(ids)),
    esignByEvent: lists('esignByEvent', (ids) => esign.statusOfEvents(ids)),
    invoiceableItems: byIds('invoiceableItems', (ids) => invoiceableItems.itemsByIds(ids)),
    invoiceableTiers: lists('invoiceableTiers', (ids) => invoiceableItems.tiersByItemIds(ids)),
  };
}
