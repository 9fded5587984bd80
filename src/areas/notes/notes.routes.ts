import { Type, type Static } from '@sinclair/typebox';
import * as NoteEvent from './note-event.contract';
import { Nullable, RefTo } from '../../contract/kit';
import { DomainError, problem, type Problem } from '../../kernel/errors';
import type { CreateNoteCommand } from './notes.types';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk } from '../../rest/envelope';
import { jsonResponses } from '../../rest/responses';
import { facilityParams } from '../../rest/schemas';
import type { NotesService } from './notes.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly notes: NotesService;
}

const optionalId = (description: string) => Type.Optional(Nullable(Type.String({ description })));
// A string or an integer: read by noteCommand, since ajv's union messages name no rule.
const userId = Type.Optional(
  Type.Unknown({ description: 'User who wrote the note (optional; here or inside note)' }),
);

const createNoteBody = Type.Object({
  note: Type.Object({
    note_text: Type.Optional(Nullable(Type.String({ description: 'Note text, 1-10,000 characters' }))),
    tenant_id: optionalId('Tenant id (UUID)'),
    unit_id: optionalId('Unit id (UUID)'),
    ledger_id: optionalId('Ledger id (UUID); fills in its unit and tenant'),
    user_id: userId,
  }),
  user_id: userId,
});
type CreateNoteBody = Static<typeof createNoteBody>;

/** REST's names of the note command's fields. */
const NOTE_NAMES = {
  noteText: 'note.note_text',
  tenantId: 'note.tenant_id',
  unitId: 'note.unit_id',
  ledgerId: 'note.ledger_id',
  userId: 'note.user_id',
};

/** A user id as legacy callers send it: a string, or an integer; blank means none. */
function readUserId(name: string, raw: unknown, problems: Problem[]): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  if (typeof raw === 'string') return raw.trim() === '' ? null : raw;
  problems.push(problem([name], 'must be a string'));
  return null;
}

/**
 * The body as a command. `user_id` may stand at the top or inside `note` (as clients of both
 * generations send it); both given must agree.
 */
function noteCommand(body: CreateNoteBody): { command: CreateNoteCommand; userIdName: string } {
  const problems: Problem[] = [];
  const top = readUserId('user_id', body.user_id, problems);
  const inNote = readUserId('note.user_id', body.note.user_id, problems);
  if (problems.length > 0) throw DomainError.invalid(problems);
  if (top !== null && inNote !== null && top.trim() !== inNote.trim()) {
    throw new DomainError('conflicting_parameters', 'user_id and note.user_id differ', {
      problems: [problem(['note.user_id'], 'differs from user_id')],
    });
  }
  const { note } = body;
  return {
    command: {
      noteText: note.note_text,
      tenantId: note.tenant_id,
      unitId: note.unit_id,
      ledgerId: note.ledger_id,
      userId: top ?? inNote,
    },
    userIdName: top !== null ? 'user_id' : 'note.user_id',
  };
}

/** The contract's routes of this area (see ContractRoute). */
export const NOTES_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'POST',
    '/v1/:facility_id/notes',
    {
      config: { names: NOTE_NAMES },
      schema: {
        summary: 'Create a note on a tenant, unit or ledger (JSON or form-encoded body)',
        tags: ['notes'],
        operationId: 'createNote',
        response: jsonResponses('The note event written', { note_event: RefTo(NoteEvent.schema) }),
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: facilityParams,
        body: createNoteBody,
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const { command, userIdName } = noteCommand(request.body);
      request.restNames = { userId: userIdName };
      const event = await services.notes.createNote(facility, request.caller!, command);
      return sendOk(request, reply, {
        note_event: NoteEvent.toContract(event, facility.timeZone),
      });
    },
  ),
];
