import type { Clock } from '../../kernel/clock';
import type { Caller } from '../../kernel/caller';
import { DomainError, field, problem, type Problem } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { isBlank, isUuid, newId, normalizeId, storedKeys } from '../../kernel/ids';
import { toStoredInstant } from '../../kernel/time';
import type { LedgerLookup } from '../ledgers/ledgers.ports';
import type { TenantsRepository } from '../tenants/tenants.ports';
import type { NoteReads, NotesEvents, NotesRepository } from './notes.ports';
import {
  NOTE_TEXT_MAX_LENGTH,
  USER_ID_MAX_LENGTH,
  type CreateNoteCommand,
  type NoteEvent,
} from './notes.types';

/** An optional id: undefined when blank, the stored form when a UUID, else a problem. */
function readId(
  name: 'tenantId' | 'unitId' | 'ledgerId',
  raw: string | null | undefined,
  problems: Problem[],
) {
  if (isBlank(raw)) return undefined;
  if (isUuid(raw)) return normalizeId(raw);
  problems.push(problem([name], 'must be a UUID'));
  return undefined;
}

function readNoteText(raw: string | null | undefined, problems: Problem[]): string {
  if (raw === undefined || raw === null) {
    problems.push(problem(['noteText'], 'is required'));
    return '';
  }
  const text = raw.trim();
  if (text === '') problems.push(problem(['noteText'], 'must not be blank'));
  else if ([...text].length > NOTE_TEXT_MAX_LENGTH) {
    problems.push(problem(['noteText'], `must be at most ${NOTE_TEXT_MAX_LENGTH} characters`));
  }
  return text;
}

/** The user who wrote the note: free text (legacy callers send integers too); blank means none. */
function readUserId(raw: string | null | undefined, problems: Problem[]): string | null {
  if (isBlank(raw)) return null;
  const value = raw.trim();
  if (value === '') return null;
  if (value.length > USER_ID_MAX_LENGTH) {
    problems.push(problem(['userId'], `must be at most ${USER_ID_MAX_LENGTH} characters`));
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

function validate(command: CreateNoteCommand): ValidNote {
  const problems: Problem[] = [];
  const text = readNoteText(command.noteText, problems);
  const tenantId = readId('tenantId', command.tenantId, problems);
  const unitId = readId('unitId', command.unitId, problems);
  const ledgerId = readId('ledgerId', command.ledgerId, problems);
  if (isBlank(command.tenantId) && isBlank(command.unitId) && isBlank(command.ledgerId)) {
    problems.push(
      problem(
        ['note'],
        ['must name at least one of ', field('tenantId'), ', ', field('unitId'), ' or ', field('ledgerId')],
      ),
    );
  }
  const userId = readUserId(command.userId, problems);
  if (problems.length > 0) throw DomainError.invalid(problems);
  return { text, tenantId, unitId, ledgerId, userId };
}

export class NotesService implements NoteReads {
  constructor(
    private readonly repository: NotesRepository,
    private readonly people: TenantsRepository,
    private readonly ledgers: LedgerLookup,
    private readonly clock: Clock,
    /** Writes `note.created` with each note event; none when absent. */
    private readonly events?: NotesEvents,
  ) {}

  /**
   * Creates a note event with one note on a tenant, unit and/or ledger of the facility. A ledger
   * fills in its unit and tenant; an explicit tenantId or unitId that differs from the ledger's
   * is a conflict. Nothing is written unless every check passes.
   */
  async createNote(facility: Facility, caller: Caller, command: CreateNoteCommand): Promise<NoteEvent> {
    const valid = validate(command);
    let { tenantId, unitId } = valid;

    // Every given id must exist here (404) before a disagreement with the ledger is a conflict (400/5).
    const ledger =
      valid.ledgerId === undefined
        ? undefined
        : await this.ledgers.ledgerInFacility(facility.id, valid.ledgerId);
    if (valid.ledgerId !== undefined && !ledger) {
      throw DomainError.notFound(['ledgerId'], 'ledger', valid.ledgerId);
    }
    if (tenantId !== undefined && !(await this.people.tenantInFacility(facility.id, tenantId))) {
      throw DomainError.notFound(['tenantId'], 'tenant', tenantId);
    }
    if (unitId !== undefined && !(await this.people.unitInFacility(facility.id, unitId))) {
      throw DomainError.notFound(['unitId'], 'unit', unitId);
    }
    if (ledger) {
      const conflicts: Problem[] = [];
      if (tenantId !== undefined && tenantId !== ledger.tenantId) {
        conflicts.push(problem(['tenantId'], "differs from the ledger's tenant"));
      }
      if (unitId !== undefined && unitId !== ledger.unitId) {
        conflicts.push(problem(['unitId'], "differs from the ledger's unit"));
      }
      if (conflicts.length > 0) throw DomainError.conflicting(conflicts);
      tenantId = ledger.tenantId;
      unitId = ledger.unitId;
    }

    const createdAt = toStoredInstant(this.clock.now());
    const id = newId();
    const event: NoteEvent = {
      id,
      facilityId: facility.id,
      tenantId: tenantId ?? null,
      unitId: unitId ?? null,
      ledgerId: valid.ledgerId ?? null,
      userId: valid.userId,
      createdBy: { id: caller.clientId, name: caller.name, type: 'ClientApplication' },
      createdAt,
      notes: [{ id: newId(), noteEventId: id, note: valid.text, createdAt }],
    };
    await this.repository.insertNoteEvent(
      event,
      this.events ? [this.events.noteCreated(facility, event)] : [],
    );
    this.events?.announce();
    return event;
  }

  /** Note events by id, in key order, null for a missing id (DataLoader batch shape). */
  noteEventsByIds(ids: readonly string[]): Promise<(NoteEvent | null)[]> {
    return this.repository.noteEventsByIds(storedKeys(ids));
  }

  /** Each tenant's note events with their notes, in key order, oldest first. */
  notesByTenantIds(tenantIds: readonly string[]): Promise<NoteEvent[][]> {
    return this.repository.noteEventsByTenantIds(storedKeys(tenantIds));
  }

  /** Each unit's note events with their notes, in key order, oldest first. */
  notesByUnitIds(unitIds: readonly string[]): Promise<NoteEvent[][]> {
    return this.repository.noteEventsByUnitIds(storedKeys(unitIds));
  }

  /** Each ledger's note events with their notes, in key order, oldest first. */
  notesByLedgerIds(ledgerIds: readonly string[]): Promise<NoteEvent[][]> {
    return this.repository.noteEventsByLedgerIds(storedKeys(ledgerIds));
  }
}
