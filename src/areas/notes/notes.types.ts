export interface Note {
  id: string;
  noteEventId: string;
  note: string;
  /** Stored UTC instant; transports write it in the facility's zone. */
  createdAt: string;
}

export interface NoteAuthor {
  id: string;
  name: string;
  type: 'ClientApplication';
}

/** A note event: one or more notes attached to a tenant, unit and/or ledger. */
export interface NoteEvent {
  id: string;
  facilityId: string;
  tenantId: string | null;
  unitId: string | null;
  ledgerId: string | null;
  userId: string | null;
  createdBy: NoteAuthor;
  createdAt: string;
  notes: Note[];
}

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
