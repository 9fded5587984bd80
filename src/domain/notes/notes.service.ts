import type { Clock } from '../../clock';
import type { NoteRow, NotesRepository, StoredNoteEvent } from '../../store/repositories/notes.repository';
import type { TenantsRepository } from '../../store/repositories/tenants.repository';
import type { Caller } from '../caller';
import { DomainError, type ParameterProblem } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, newId, normalizeId } from '../shared/ids';
import { toStoredInstant } from '../shared/time';
import {
  NOTE_TEXT_MAX_LENGTH,
  USER_ID_MAX_LENGTH,
  type CreateNoteInput,
  type Note,
  type NoteEvent,
} from './notes.types';

function noteRowToNote(row: NoteRow): Note {
  return { id: row.id, noteEventId: row.note_event_id, note: row.note, createdAt: row.created_at };
}

export function storedNoteEventToNoteEvent(stored: StoredNoteEvent): NoteEvent {
  const { event } = stored;
  return {
    id: event.id,
    facilityId: event.facility_id,
    tenantId: event.tenant_id,
    unitId: event.unit_id,
    ledgerId: event.ledger_id,
    userId: event.user_id,
    createdBy: { id: event.created_by_client_id, name: event.client_name, type: 'ClientApplication' },
    createdAt: event.created_at,
    notes: stored.notes.map(noteRowToNote),
  };
}

function isHash(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Blank (absent, null or empty) counts as not given, as Rails' `present?` reads form fields. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** An optional id field: undefined when blank, the stored form when a UUID, else a problem. */
function readId(parameter: string, raw: unknown, problems: ParameterProblem[]): string | undefined {
  if (isBlank(raw)) return undefined;
  if (typeof raw !== 'string') problems.push({ parameter, message: 'must be a string' });
  else if (!isUuid(raw)) problems.push({ parameter, message: 'must be a UUID' });
  else return normalizeId(raw);
  return undefined;
}

function readNoteText(raw: unknown, problems: ParameterProblem[]): string {
  const parameter = 'note.note_text';
  if (raw === undefined || raw === null) {
    problems.push({ parameter, message: 'is required' });
    return '';
  }
  if (typeof raw !== 'string') {
    problems.push({ parameter, message: 'must be a string' });
    return '';
  }
  const text = raw.trim();
  if (text === '') problems.push({ parameter, message: 'must not be blank' });
  else if ([...text].length > NOTE_TEXT_MAX_LENGTH) {
    problems.push({ parameter, message: `must be at most ${NOTE_TEXT_MAX_LENGTH} characters` });
  }
  return text;
}

/** user_id is a free-form string (legacy callers send integers too); blank means none. */
function readUserId(parameter: string, raw: unknown, problems: ParameterProblem[]): string | null {
  if (isBlank(raw)) return null;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  if (typeof raw !== 'string') {
    problems.push({ parameter, message: 'must be a string' });
    return null;
  }
  const value = raw.trim();
  if (value === '') return null;
  if (value.length > USER_ID_MAX_LENGTH) {
    problems.push({ parameter, message: `must be at most ${USER_ID_MAX_LENGTH} characters` });
    return null;
  }
  return value;
}

interface ValidNote {
  text: string;
  tenantId?: string;
  unitId?: string;
  ledgerId?: string;
  userId: string | null;
}

function validate(input: CreateNoteInput): ValidNote {
  const note = input.note;
  if (note === undefined || note === null) throw DomainError.invalidParameter('note', 'is required');
  if (!isHash(note)) throw DomainError.invalidParameter('note', 'must be an object');

  const problems: ParameterProblem[] = [];
  const text = readNoteText(note.note_text, problems);
  const tenantId = readId('note.tenant_id', note.tenant_id, problems);
  const unitId = readId('note.unit_id', note.unit_id, problems);
  const ledgerId = readId('note.ledger_id', note.ledger_id, problems);
  if (isBlank(note.tenant_id) && isBlank(note.unit_id) && isBlank(note.ledger_id)) {
    problems.push({
      parameter: 'note',
      message: 'must name at least one of tenant_id, unit_id or ledger_id',
    });
  }
  const topUserId = readUserId('user_id', input.user_id, problems);
  const noteUserId = readUserId('note.user_id', note.user_id, problems);
  if (problems.length > 0) throw DomainError.invalid(problems);
  if (topUserId !== null && noteUserId !== null && topUserId !== noteUserId) {
    throw new DomainError('conflicting_parameters', 'user_id and note.user_id differ', {
      problems: [{ parameter: 'note.user_id', message: 'differs from user_id' }],
    });
  }
  return { text, tenantId, unitId, ledgerId, userId: topUserId ?? noteUserId };
}

export class NotesService {
  constructor(
    private readonly repository: NotesRepository,
    private readonly people: TenantsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a note event with one note on a tenant, unit and/or ledger of the facility. A ledger
   * fills in its unit and tenant; an explicit tenant_id or unit_id that differs from the ledger's
   * is a conflict. Nothing is written unless every check passes.
   */
  async createNote(facility: Facility, caller: Caller, input: CreateNoteInput): Promise<NoteEvent> {
    const valid = validate(input);
    let { tenantId, unitId } = valid;

    // Every given id must exist here (404) before a disagreement with the ledger is a conflict (400/5).
    const ledger =
      valid.ledgerId === undefined
        ? undefined
        : await this.repository.findLedger(facility.id, valid.ledgerId);
    if (valid.ledgerId !== undefined && !ledger) {
      throw DomainError.notFound('note.ledger_id', 'ledger', valid.ledgerId);
    }
    if (tenantId !== undefined && !(await this.people.tenantInFacility(facility.id, tenantId))) {
      throw DomainError.notFound('note.tenant_id', 'tenant', tenantId);
    }
    if (unitId !== undefined && !(await this.people.unitInFacility(facility.id, unitId))) {
      throw DomainError.notFound('note.unit_id', 'unit', unitId);
    }
    if (ledger) {
      const conflicts: ParameterProblem[] = [];
      if (tenantId !== undefined && tenantId !== ledger.tenant_id) {
        conflicts.push({ parameter: 'note.tenant_id', message: "differs from the ledger's tenant" });
      }
      if (unitId !== undefined && unitId !== ledger.unit_id) {
        conflicts.push({ parameter: 'note.unit_id', message: "differs from the ledger's unit" });
      }
      if (conflicts.length > 0) {
        throw new DomainError(
          'conflicting_parameters',
          conflicts.map((c) => `${c.parameter} ${c.message}`).join('; '),
          { problems: conflicts },
        );
      }
      tenantId = ledger.tenant_id;
      unitId = ledger.unit_id;
    }

    const createdAt = toStoredInstant(this.clock.now());
    const event = {
      id: newId(),
      facility_id: facility.id,
      tenant_id: tenantId ?? null,
      unit_id: unitId ?? null,
      ledger_id: valid.ledgerId ?? null,
      user_id: valid.userId,
      created_by_client_id: caller.clientId,
      created_at: createdAt,
    };
    const note = { id: newId(), note_event_id: event.id, note: valid.text, created_at: createdAt };
    await this.repository.insertNoteEvent(event, [note]);
    return storedNoteEventToNoteEvent({ event: { ...event, client_name: caller.name }, notes: [note] });
  }

  /** Note events by id, in key order, null for a missing id (DataLoader batch shape). */
  async noteEventsByIds(ids: readonly string[]): Promise<(NoteEvent | null)[]> {
    const found = await this.repository.noteEventsByIds(storedKeys(ids));
    return found.map((stored) => (stored ? storedNoteEventToNoteEvent(stored) : null));
  }

  /** Each tenant's note events with their notes, in key order, oldest first. */
  async notesByTenantIds(tenantIds: readonly string[]): Promise<NoteEvent[][]> {
    const groups = await this.repository.noteEventsByTenantIds(storedKeys(tenantIds));
    return groups.map((list) => list.map(storedNoteEventToNoteEvent));
  }

  /** Each unit's note events with their notes, in key order, oldest first. */
  async notesByUnitIds(unitIds: readonly string[]): Promise<NoteEvent[][]> {
    const groups = await this.repository.noteEventsByUnitIds(storedKeys(unitIds));
    return groups.map((list) => list.map(storedNoteEventToNoteEvent));
  }

  /** Each ledger's note events with their notes, in key order, oldest first. */
  async notesByLedgerIds(ledgerIds: readonly string[]): Promise<NoteEvent[][]> {
    const groups = await this.repository.noteEventsByLedgerIds(storedKeys(ledgerIds));
    return groups.map((list) => list.map(storedNoteEventToNoteEvent));
  }
}

/** Ids as stored (lower-case); a malformed id becomes a key that matches nothing. */
function storedKeys(ids: readonly string[]): string[] {
  return ids.map((id) => (isUuid(id) ? normalizeId(id) : ''));
}
