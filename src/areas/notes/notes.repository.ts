import type { Ledger } from '../ledgers/ledgers.types';
import type { NotesRepository } from './notes.ports';
import type { NoteEvent } from './notes.types';
import { compareCodePoints } from '../../kernel/compare';
import type { Db } from '../../store/database';
import type { NoteEventsTable, NotesTable } from '../../store/schema';
import { ledgerCodec } from '../ledgers/ledgers.repository';
import type { WebhookEvent } from '../webhooks/webhooks.types';
import { insertWebhookEvents } from '../webhooks/webhook-events.writer';

export type NoteEventRow = NoteEventsTable;
export type NoteRow = NotesTable;
/** A note event with the name of the client application that wrote it. */
export type NoteEventWithClientRow = NoteEventRow & { client_name: string };

/** A note event row and its notes, as read back. */
interface StoredNoteEvent {
  event: NoteEventWithClientRow;
  notes: NoteRow[];
}

// Sorted by code point here, so the order never depends on a PostgreSQL collation.
const byCreatedAtThenId = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  compareCodePoints(a.created_at, b.created_at) || compareCodePoints(a.id, b.id);

type NoteEventKey = 'id' | 'tenant_id' | 'unit_id' | 'ledger_id';

function storedToNoteEvent(stored: StoredNoteEvent): NoteEvent {
  const { event } = stored;
  return {
    id: event.id,
    facilityId: event.facility_id,
    tenantId: event.tenant_id,
    unitId: event.unit_id,
    ledgerId: event.ledger_id,
    userId: event.user_id,
    createdBy: { id: event.created_by_client_id, name: event.client_name, type: 'ClientApplication' },
    createdAt: event.created_at,
    notes: stored.notes.map((row) => ({
      id: row.id,
      noteEventId: row.note_event_id,
      note: row.note,
      createdAt: row.created_at,
    })),
  };
}

export class SqlNotesRepository implements NotesRepository {
  constructor(private readonly db: Db) {}

  async findLedger(facilityId: string, ledgerId: string): Promise<Ledger | undefined> {
    const row = await this.db
      .selectFrom('ledgers')
      .selectAll()
      .where('id', '=', ledgerId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row && ledgerCodec.read(row);
  }

  async insertNoteEvent(event: NoteEvent, events: readonly WebhookEvent[] = []): Promise<void> {
    const eventRow: NoteEventRow = {
      id: event.id,
      facility_id: event.facilityId,
      tenant_id: event.tenantId,
      unit_id: event.unitId,
      ledger_id: event.ledgerId,
      user_id: event.userId,
      created_by_client_id: event.createdBy.id,
      created_at: event.createdAt,
    };
    const noteRows: NoteRow[] = event.notes.map((note) => ({
      id: note.id,
      note_event_id: event.id,
      note: note.note,
      created_at: note.createdAt,
    }));
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('note_events').values(eventRow).execute();
      if (noteRows.length > 0) await trx.insertInto('notes').values(noteRows).execute();
      await insertWebhookEvents(trx, events);
    });
  }

  /**
   * Note events whose `key` column is one of `values`, each with its notes, by created_at then id:
   * one statement (notes joined in), so a loader's batch is one round trip.
   */
  private async noteEventsWhere(key: NoteEventKey, values: readonly string[]): Promise<StoredNoteEvent[]> {
    if (values.length === 0) return [];
    const rows = await this.db
      .selectFrom('note_events as e')
      .innerJoin('client_applications as c', 'c.id', 'e.created_by_client_id')
      .leftJoin('notes as n', 'n.note_event_id', 'e.id')
      .selectAll('e')
      .select([
        'c.name as client_name',
        'n.id as note_id',
        'n.note as note_text',
        'n.created_at as note_created_at',
      ])
      .where(`e.${key}`, 'in', [...new Set(values)])
      .execute();
    const byEvent = new Map<string, StoredNoteEvent>();
    for (const { note_id, note_text, note_created_at, ...event } of rows) {
      let stored = byEvent.get(event.id);
      if (!stored) {
        stored = { event, notes: [] };
        byEvent.set(event.id, stored);
      }
      if (note_id !== null && note_text !== null && note_created_at !== null) {
        stored.notes.push({
          id: note_id,
          note_event_id: event.id,
          note: note_text,
          created_at: note_created_at,
        });
      }
    }
    const found = [...byEvent.values()];
    for (const stored of found) stored.notes.sort(byCreatedAtThenId);
    return found.sort((a, b) => byCreatedAtThenId(a.event, b.event));
  }

  /** Note events by id, in key order, null for a missing id. */
  async noteEventsByIds(ids: readonly string[]): Promise<(NoteEvent | null)[]> {
    const found = await this.noteEventsWhere('id', ids);
    const byId = new Map(found.map((stored) => [stored.event.id, storedToNoteEvent(stored)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Each tenant's note events, in key order. */
  async noteEventsByTenantIds(tenantIds: readonly string[]): Promise<NoteEvent[][]> {
    return this.grouped('tenant_id', tenantIds);
  }

  /** Each unit's note events, in key order. */
  async noteEventsByUnitIds(unitIds: readonly string[]): Promise<NoteEvent[][]> {
    return this.grouped('unit_id', unitIds);
  }

  /** Each ledger's note events, in key order. */
  async noteEventsByLedgerIds(ledgerIds: readonly string[]): Promise<NoteEvent[][]> {
    return this.grouped('ledger_id', ledgerIds);
  }

  private async grouped(
    key: 'tenant_id' | 'unit_id' | 'ledger_id',
    values: readonly string[],
  ): Promise<NoteEvent[][]> {
    const found = await this.noteEventsWhere(key, values);
    const groups = new Map<string, NoteEvent[]>();
    for (const stored of found) {
      const value = stored.event[key];
      if (value === null) continue;
      const list = groups.get(value);
      if (list) list.push(storedToNoteEvent(stored));
      else groups.set(value, [storedToNoteEvent(stored)]);
    }
    return values.map((value) => groups.get(value) ?? []);
  }
}
