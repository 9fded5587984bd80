import { Type, type Static } from '@sinclair/typebox';
import type { NoteEvent } from './notes.types';
import { formatInstant } from '../../kernel/time';
import { cases, type ViewOf } from '../../contract/cases';
import { Instant, Nullable, StringEnum, Text, Uuid } from '../../contract/kit';

/** Contract 2.5 note event. */
export const schema = Type.Object(
  {
    id: Uuid(),
    notes: Type.Array(Type.Object({ id: Uuid(), note: Text(), created_at: Instant() })),
    created_by: Type.Object({ id: Uuid(), name: Text(), type: StringEnum(['ClientApplication']) }),
    unit_id: Nullable(Uuid()),
    tenant_id: Nullable(Uuid()),
  },
  { $id: 'NoteEvent' },
);

const noteEventCases = cases(schema);

/**
 * A note event as both transports show it: the contract's fields, and for GraphQL its facility,
 * ledger, user and instant; instants in the facility's zone.
 */
export type NoteEventView = ViewOf<typeof schema> &
  Pick<NoteEvent, 'facilityId' | 'ledgerId' | 'userId' | 'createdAt'>;

/** A note as both transports show it. */
export type NoteView = NoteEventView['notes'][number];

export function present(event: NoteEvent, timeZone: string): NoteEventView {
  return {
    ...event,
    notes: event.notes.map((note) => ({
      id: note.id,
      note: note.note,
      createdAt: formatInstant(note.createdAt, timeZone),
    })),
    createdAt: formatInstant(event.createdAt, timeZone),
  };
}

export function toContract(event: NoteEvent, timeZone: string): Static<typeof schema> {
  return noteEventCases.toContract(present(event, timeZone));
}
