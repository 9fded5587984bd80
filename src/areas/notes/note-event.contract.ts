import { Type, type Static } from '@sinclair/typebox';
import type { NoteEvent } from './notes.types';
import { formatInstant } from '../../kernel/time';
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

export function toContract(event: NoteEvent, timeZone: string): Static<typeof schema> {
  return {
    id: event.id,
    notes: event.notes.map((note) => ({
      id: note.id,
      note: note.note,
      created_at: formatInstant(note.createdAt, timeZone),
    })),
    created_by: { id: event.createdBy.id, name: event.createdBy.name, type: event.createdBy.type },
    unit_id: event.unitId,
    tenant_id: event.tenantId,
  };
}
