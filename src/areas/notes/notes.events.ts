import { declareEvents, domainEvent, type DomainEvent } from '../../kernel/domain-events';
import type { Facility } from '../facilities/facilities.types';
import * as NoteEventContract from './note-event.contract';
import type { NotesEventBuilders } from './notes.ports';
import type { NoteEvent } from './notes.types';

/** The events the notes area reports (docs/webhooks.md). */
export const NOTES_EVENTS = declareEvents([
  { type: 'note.created', audience: 'webhooks', summary: 'a note event is created' },
]);

/** The notes' events, each's `data` the note event as the REST contract answers it, with its facility and ledger. */
export const notesEvents: NotesEventBuilders = {
  noteCreated(facility: Facility, note: NoteEvent): DomainEvent {
    return domainEvent('note.created', facility.id, null, note.createdAt, {
      facility_id: facility.id,
      ...NoteEventContract.toContract(note, facility.timeZone),
      ledger_id: note.ledgerId,
    });
  },
};
