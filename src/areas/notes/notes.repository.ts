import type { NotesRepository } from './notes.ports';
import { noteEvents, notes } from './notes.tables';
import type { NoteEvent } from './notes.types';
import { compareCodePoints } from '../../kernel/compare';
import type { Db, StoreEvents } from '../../store/database';
import { rowCodec } from '../../store/rows';
import type { DomainEvent } from '../../kernel/domain-events';

// The author is stored by id and read with its client application's name (NoteEvent.createdBy).
const noteEventCodec = rowCodec(noteEvents, ['created_by_client_id']);
const noteCodec = rowCodec(notes);

// Sorted by code point here, so the order never depends on a PostgreSQL collation.
const byCreatedAtThenId = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  compareCodePoints(a.createdAt, b.createdAt) || compareCodePoints(a.id, b.id);

type NoteEventKey = 'id' | 'tenant_id' | 'unit_id' | 'ledger_id';

/** The record's field of each column a list is grouped by. */
const GROUPED_BY = { tenant_id: 'tenantId', unit_id: 'unitId', ledger_id: 'ledgerId' } as const;

export class SqlNotesRepository implements NotesRepository {
  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {}

  async insertNoteEvent(event: NoteEvent, events: readonly DomainEvent[] = []): Promise<void> {
    const eventRow = { ...noteEventCodec.write(event), created_by_client_id: event.createdBy.id };
    const noteRows = event.notes.map(noteCodec.write);
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('note_events').values(eventRow).execute();
      if (noteRows.length > 0) await trx.insertInto('notes').values(noteRows).execute();
      await this.events.publish(trx, events);
    });
  }

  /**
   * Note events whose `key` column is one of `values`, each with its notes, by created_at then id:
   * one statement (notes joined in), so a loader's batch is one round trip.
   */
  private async noteEventsWhere(key: NoteEventKey, values: readonly string[]): Promise<NoteEvent[]> {
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
    const byEvent = new Map<string, NoteEvent>();
    for (const row of rows) {
      let event = byEvent.get(row.id);
      if (!event) {
        event = {
          ...noteEventCodec.read(row),
          createdBy: { id: row.created_by_client_id, name: row.client_name, type: 'ClientApplication' },
          notes: [],
        };
        byEvent.set(row.id, event);
      }
      if (row.note_id !== null && row.note_text !== null && row.note_created_at !== null) {
        event.notes.push({
          id: row.note_id,
          noteEventId: row.id,
          note: row.note_text,
          createdAt: row.note_created_at,
        });
      }
    }
    const found = [...byEvent.values()];
    for (const event of found) event.notes.sort(byCreatedAtThenId);
    return found.sort(byCreatedAtThenId);
  }

  /** Note events by id, in key order, null for a missing id. */
  async noteEventsByIds(ids: readonly string[]): Promise<(NoteEvent | null)[]> {
    const found = await this.noteEventsWhere('id', ids);
    const byId = new Map(found.map((event) => [event.id, event]));
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
    const field = GROUPED_BY[key];
    const groups = new Map<string, NoteEvent[]>();
    for (const event of found) {
      const value = event[field];
      if (value === null) continue;
      const list = groups.get(value);
      if (list) list.push(event);
      else groups.set(value, [event]);
    }
    return values.map((value) => groups.get(value) ?? []);
  }
}
