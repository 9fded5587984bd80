import type { Note, NoteEvent } from './notes.types';
import { formatInstant } from '../../kernel/time';

/** A note as both transports show it: the record, its instant in the facility's zone. */
export type NoteView = Note;

/** A note event as both transports show it: the record, its instants in the facility's zone. */
export type NoteEventView = NoteEvent;

export function presentNoteEvent(event: NoteEvent, timeZone: string): NoteEventView {
  return {
    ...event,
    notes: event.notes.map((note) => ({ ...note, createdAt: formatInstant(note.createdAt, timeZone) })),
    createdAt: formatInstant(event.createdAt, timeZone),
  };
}
