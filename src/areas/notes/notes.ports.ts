import type { Facility } from '../facilities/facilities.types';
import type { DomainEvent } from '../../kernel/domain-events';
import type { NoteEvent } from './notes.types';

/** Where note events are written and read back; lists come in key order, oldest first. */
export interface NotesRepository {
  /** Writes the note event, its notes and the webhook events reporting it in one transaction. */
  insertNoteEvent(event: NoteEvent, events?: readonly DomainEvent[]): Promise<void>;
  /** Note events by id, null for a missing id. */
  noteEventsByIds(ids: readonly string[]): Promise<(NoteEvent | null)[]>;
  noteEventsByTenantIds(tenantIds: readonly string[]): Promise<NoteEvent[][]>;
  noteEventsByUnitIds(unitIds: readonly string[]): Promise<NoteEvent[][]>;
  noteEventsByLedgerIds(ledgerIds: readonly string[]): Promise<NoteEvent[][]>;
}

/** The events a note event reports (built by `notes.events.ts`), and the announcement after commit. */
export interface NotesEventBuilders {
  noteCreated(facility: Facility, note: NoteEvent): DomainEvent;
}
export type NotesEvents = NotesEventBuilders & { announce(): void };

/** What the other areas read of the notes (`NotesService` implements it). */
export interface NoteReads {
  /** Note events by id, in key order, null for a missing id (DataLoader batch shape). */
  noteEventsByIds(ids: readonly string[]): Promise<(NoteEvent | null)[]>;
}
