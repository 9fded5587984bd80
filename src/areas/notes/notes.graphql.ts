import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Cost, type CostHint } from '../../graphql/cost-directives';
import { sliceCost, sliceDescriptions, type SliceLimits } from '../../graphql/pagination';
import { ConnectionType, EdgeType } from '../../graphql/connection';
import type { CreateNoteCommand } from './notes.types';
import { present, type NoteEventView, type NoteView } from './note-event.contract';
import { DateTimeScalar, UUIDScalar } from '../../graphql/scalars';

/** A note event as GraphQL shows it (the contract's view), which other areas' fields return. */
export type { NoteEventView };

/**
 * The note events a ledger, tenant or unit answers: clients write them without limit, so a list
 * answers `first` of them (at most 20) from `offset`, and its cost estimate holds.
 */
export const NOTE_LIST_LIMITS: SliceLimits = { defaultFirst: 20, maxFirst: 20 };
export const NOTE_LIST_ARGUMENTS = sliceDescriptions(NOTE_LIST_LIMITS);
export const NOTES_LIST_COST: CostHint = sliceCost(NOTE_LIST_LIMITS);

/** The arguments of a ledger's, tenant's or unit's `notes`. */
@ArgsType()
export class NoteSliceArgs {
  @Field(() => Int, { nullable: true, description: NOTE_LIST_ARGUMENTS.first })
  first?: number | null;

  @Field(() => Int, { nullable: true, description: NOTE_LIST_ARGUMENTS.offset })
  offset?: number | null;
}

@ObjectType('Note', { simpleResolvers: true })
export class NoteObject implements NoteView {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  note: string;

  @Field(() => DateTimeScalar)
  createdAt: string;
}

type NoteAuthorView = NoteEventView['createdBy'];

@ObjectType('NoteAuthor', { simpleResolvers: true, description: 'Who wrote a note: a client application.' })
export class NoteAuthorObject implements NoteAuthorView {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'ClientApplication.' })
  type: NoteAuthorView['type'];
}

@ObjectType('NoteEvent', {
  simpleResolvers: true,
  description: 'Notes written together on a tenant, unit and/or ledger (REST 2.5).',
})
export class NoteEventObject implements Omit<NoteEventView, 'facilityId'> {
  /** A note event as this type answers it, instants in its facility's zone (the contract's `present`). */
  static readonly present = present;

  @Field(() => UUIDScalar)
  id: string;

  // A note event written through the API holds one note; imported ones a few.
  @Field(() => [NoteObject], { description: 'Oldest first.' })
  @Cost({ assumedSize: 3 })
  notes: NoteView[];

  @Field(() => NoteAuthorObject)
  createdBy: NoteAuthorView;

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

@InputType('CreateNoteInput', {
  description: 'A note on a tenant, unit and/or ledger of the facility: at least one of the three ids.',
})
export class CreateNoteInput implements CreateNoteCommand {
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

@ObjectType('NoteEventEdge', { simpleResolvers: true, description: 'A note event and its cursor.' })
export class NoteEventEdgeObject extends EdgeType(NoteEventObject) {}

@ObjectType('NoteEventConnection', {
  simpleResolvers: true,
  description: 'A slice of the note events of a ledger, tenant or unit, walked by cursor.',
})
export class NoteEventConnectionObject extends ConnectionType(NoteEventEdgeObject, 'note events') {}
