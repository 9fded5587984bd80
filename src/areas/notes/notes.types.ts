import type { noteEvents, notes } from './notes.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type Note = RecordOfTable<typeof notes>;

export interface NoteAuthor {
  id: string;
  name: string;
  type: 'ClientApplication';
}

/**
 * A note event: one or more notes attached to a tenant, unit and/or ledger. Its author is the
 * client application stored by id (created_by_client_id), read with its name.
 */
export type NoteEvent = RecordOfTable<typeof noteEvents, 'created_by_client_id'> & {
  createdBy: NoteAuthor;
  notes: Note[];
};

/** A note to write: at least one of the three ids; the service checks every rule. */
export interface CreateNoteCommand {
  noteText: string | null | undefined;
  tenantId?: string | null;
  unitId?: string | null;
  ledgerId?: string | null;
  /** The user who wrote it, as the client gave it (stored). */
  userId?: string | null;
}

export const NOTE_TEXT_MAX_LENGTH = 10_000;
export const USER_ID_MAX_LENGTH = 255;
