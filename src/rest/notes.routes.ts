import type { FastifyInstance } from 'fastify';
import type { NoteEvent } from '../domain/notes/notes.types';
import { formatInstant } from '../domain/shared/time';
import type { Services } from '../services';
import { sendOk } from './envelope';
import { facilityIdParam } from './schemas';

interface FacilityParams {
  facility_id: string;
}

interface CreateNoteBody {
  note?: unknown;
  user_id?: unknown;
}

/** Contract 2.5 note event. */
export function serializeNoteEvent(event: NoteEvent, timeZone: string) {
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

const optionalId = (description: string) => ({ type: 'string', nullable: true, description }) as const;
// A string or an integer: checked by the notes service, since ajv's union messages name no rule.
const userId = { description: 'User who wrote the note (optional; here or inside note)' } as const;

export function registerNotesRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Params: FacilityParams; Body: CreateNoteBody }>(
    '/v1/:facility_id/notes',
    {
      schema: {
        summary: 'Create a note on a tenant, unit or ledger (JSON or form-encoded body)',
        tags: ['notes'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: { type: 'object', properties: { facility_id: facilityIdParam }, required: ['facility_id'] },
        // Types only, for the OpenAPI document; the notes service checks every rule.
        body: {
          type: 'object',
          properties: {
            note: {
              type: 'object',
              properties: {
                note_text: { type: 'string', nullable: true, description: 'Note text, 1-10,000 characters' },
                tenant_id: optionalId('Tenant id (UUID)'),
                unit_id: optionalId('Unit id (UUID)'),
                ledger_id: optionalId('Ledger id (UUID); fills in its unit and tenant'),
                user_id: userId,
              },
            },
            user_id: userId,
          },
        },
      },
    },
    async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const body = request.body ?? {};
      const event = await services.notes.createNote(facility, request.caller!, {
        note: body.note,
        user_id: body.user_id,
      });
      return sendOk(request, reply, { note_event: serializeNoteEvent(event, facility.timeZone) });
    },
  );
}
