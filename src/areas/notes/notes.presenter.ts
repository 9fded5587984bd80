import type { NoteEvent } from './notes.types';
import { formatInstant } from '../../kernel/time';

export interface NoteView {
  id: string;
  note: string;
  createdAt: string;
}

/** A note event as both transports show it: instants in the facility's zone. */
export interface NoteEventView {
  id: string;
  facilityId: string;
  notes: NoteView[];
  createdBy: { id: string; name: string; type: string };
  unitId: string | null;
  tenantId: string | null;
  ledgerId: string | null;
  userId: string | null;
  createdAt: string;
}

export function presentNoteEvent(event: NoteEvent, timeZone: string): NoteEventView {
  return {
    id: event.id,
    facilityId: event.facilityId,
    notes: event.notes.map((note) => ({
      id: note.id,
      note: note.note,
      createdAt: formatInstant(note.createdAt, timeZone),
    })),
    createdBy: { id: event.createdBy.id, name: event.createdBy.name, type: event.createdBy.type },
    unitId: event.unitId,
    tenantId: event.tenantId,
    ledgerId: event.ledgerId,
    userId: event.userId,
    createdAt: formatInstant(event.createdAt, timeZone),
  };
}
