import { Extensions, Field, InputType, ObjectType } from 'type-graphql';
import type { NoteEvent } from '../domain/notes/notes.types';
import { formatInstant } from '../domain/shared/time';
import { DateTimeScalar, UUIDScalar } from './scalars';

@ObjectType('Note', { simpleResolvers: true })
export class NoteObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  note: string;

  @Field(() => DateTimeScalar)
  createdAt: string;
}

@ObjectType('NoteAuthor', { simpleResolvers: true, description: 'Who wrote a note: a client application.' })
export class NoteAuthorObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'ClientApplication.' })
  type: string;
}

@ObjectType('NoteEvent', {
  simpleResolvers: true,
  description: 'Notes written together on a tenant, unit and/or ledger (REST 2.5).',
})
export class NoteEventObject {
  @Field(() => UUIDScalar)
  id: string;

  // A note event written through the API holds one note; imported ones a few.
  @Field(() => [NoteObject], { description: 'Oldest first.' })
  @Extensions({ cost: { listSize: 3 } })
  notes: NoteObject[];

  @Field(() => NoteAuthorObject)
  createdBy: NoteAuthorObject;

  @Field(() => UUIDScalar, { nullable: true })
  unitId: string | null;

  @Field(() => UUIDScalar, { nullable: true })
  tenantId: string | null;

  @Field(() => UUIDScalar, { nullable: true })
  ledgerId: string | null;

  @Field(() => String, { nullable: true, description: 'The user who wrote it, as the client gave it.' })
  userId: string | null;

  @Field(() => DateTimeScalar)
  createdAt: string;
}

export interface NoteEventView extends NoteEventObject {
  facilityId: string;
}

/** Instants written in the facility's zone, as REST writes them. */
export function noteEventView(event: NoteEvent, timeZone: string): NoteEventView {
  return {
    ...event,
    createdAt: formatInstant(event.createdAt, timeZone),
    notes: event.notes.map((note) => ({
      id: note.id,
      note: note.note,
      createdAt: formatInstant(note.createdAt, timeZone),
    })),
  };
}

@InputType('CreateNoteInput', {
  description: 'A note on a tenant, unit and/or ledger of the facility: at least one of the three ids.',
})
export class CreateNoteInput {
  @Field(() => String, { description: '1-10,000 characters after trimming.' })
  noteText: string;

  @Field(() => UUIDScalar, { nullable: true })
  tenantId?: string | null;

  @Field(() => UUIDScalar, { nullable: true })
  unitId?: string | null;

  @Field(() => UUIDScalar, {
    nullable: true,
    description: "Fills in the ledger's tenant and unit; a different tenantId or unitId is a CONFLICT.",
  })
  ledgerId?: string | null;

  @Field(() => String, { nullable: true, description: 'The user writing the note (optional, stored).' })
  userId?: string | null;
}
