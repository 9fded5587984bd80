import type { Clock } from '../../clock';
import type {
  MoveInFeeRow,
  MoveInSessionRow,
  MoveInsRepository,
  SessionDocumentRow,
} from '../../store/repositories/move-ins.repository';
import { DomainError, type ParameterProblem } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { renderPdf } from '../pdf/pdf.renderer';
import { fillTemplate, personName, pdfFilename } from '../pdf/pdf.template';
import type { RenderedPdf } from '../pdf/pdf.types';
import { isUuid, newId, normalizeId } from '../shared/ids';
import { formatInstant, isValidDate, localDate, toStoredInstant } from '../shared/time';
import { MOVE_IN_TEMPLATES } from './move-in.templates';
import {
  REST_MOVE_IN_NAMES,
  SESSION_LIFETIME_MS,
  type MoveInFee,
  type MoveInFields,
  type MoveInParameterNames,
  type MoveInReview,
  type MoveInSession,
  type SessionDocument,
} from './move-ins.types';
import type { TenantsRepository } from '../../store/repositories/tenants.repository';

/** Fees as kept in a session row's `fees` column. */
interface StoredFee {
  id: string;
  description: string;
  amount_cents: number;
}

function isHash(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Blank (absent, null or empty) counts as not given, as Rails' `present?` reads form fields. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function readId(
  parameter: string,
  raw: unknown,
  required: boolean,
  problems: ParameterProblem[],
): string | undefined {
  if (isBlank(raw)) {
    if (required) problems.push({ parameter, message: 'is required' });
    return undefined;
  }
  if (typeof raw !== 'string') problems.push({ parameter, message: 'must be a string' });
  else if (!isUuid(raw)) problems.push({ parameter, message: 'must be a UUID' });
  else return normalizeId(raw);
  return undefined;
}

function readMoveInDate(
  parameter: string,
  raw: unknown,
  today: string,
  problems: ParameterProblem[],
): string {
  if (isBlank(raw)) return today;
  if (typeof raw !== 'string') problems.push({ parameter, message: 'must be a string' });
  else if (!isValidDate(raw))
    problems.push({ parameter, message: 'must be a real date in the form YYYY-MM-DD' });
  else if (raw < today) problems.push({ parameter, message: `must not be in the past (today is ${today})` });
  else return raw;
  return today;
}

function feeRowToFee(row: MoveInFeeRow): MoveInFee {
  return { id: row.id, description: row.description, amountCents: row.total_cents };
}

function storedFees(text: string): MoveInFee[] {
  const parsed = JSON.parse(text) as StoredFee[];
  return parsed.map((fee) => ({ id: fee.id, description: fee.description, amountCents: fee.amount_cents }));
}

export function sessionRowToSession(row: MoveInSessionRow): MoveInSession {
  return {
    id: row.id,
    facilityId: row.facility_id,
    unitId: row.unit_id,
    tenantId: row.tenant_id,
    moveInDate: row.move_in_date,
    cost: { rentCents: row.rent_cents, fees: storedFees(row.fees), totalCents: row.total_cents },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Type and relevance are those of the built-in template the document was made from. */
export function sessionDocumentRowToDocument(row: SessionDocumentRow): SessionDocument {
  const template = MOVE_IN_TEMPLATES.find((t) => t.description === row.description);
  return {
    id: row.id,
    sessionId: row.session_id,
    description: row.description,
    type: template?.type ?? 'PrintTemplate',
    isRelevant: template?.isRelevant ?? true,
    esignable: row.esignable === 1,
    createdAt: row.created_at,
  };
}

/** Amounts in documents: two decimals, no currency symbol (the store keeps none). */
function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Move-in review (DESIGN 6): the cost of renting a unit, and its documents for 24 hours. */
export class MoveInsService {
  constructor(
    private readonly repository: MoveInsRepository,
    private readonly people: TenantsRepository,
    private readonly clock: Clock,
  ) {}

  /** The REST body `{ move_in: { unit_id, tenant_id?, move_in_date? } }`. */
  reviewCost(facility: Facility, body: { move_in?: unknown }): Promise<MoveInReview> {
    const moveIn = body.move_in;
    if (moveIn === undefined || moveIn === null) throw DomainError.invalidParameter('move_in', 'is required');
    if (!isHash(moveIn)) throw DomainError.invalidParameter('move_in', 'must be an object');
    return this.review(facility, moveIn, REST_MOVE_IN_NAMES);
  }

  /**
   * Checks the unit (and tenant) belong to the facility and the date is today or later, then saves
   * a session with the cost and the filled-in move-in documents. Nothing else is written.
   */
  async review(
    facility: Facility,
    fields: MoveInFields,
    names: MoveInParameterNames = REST_MOVE_IN_NAMES,
  ): Promise<MoveInReview> {
    const now = this.clock.now();
    const today = localDate(now, facility.timeZone);
    const problems: ParameterProblem[] = [];
    const unitId = readId(names.unitId, fields.unit_id, true, problems);
    const tenantId = readId(names.tenantId, fields.tenant_id, false, problems);
    const moveInDate = readMoveInDate(names.moveInDate, fields.move_in_date, today, problems);
    if (problems.length > 0 || unitId === undefined) throw DomainError.invalid(problems);

    const unit = await this.people.unitInFacility(facility.id, unitId);
    if (!unit) throw DomainError.notFound(names.unitId, 'unit', unitId);
    const tenant =
      tenantId === undefined ? undefined : await this.people.tenantInFacility(facility.id, tenantId);
    if (tenantId !== undefined && !tenant) throw DomainError.notFound(names.tenantId, 'tenant', tenantId);

    const fees = (await this.repository.moveInFees(facility.id)).map(feeRowToFee);
    const totalCents = unit.rate_cents + fees.reduce((sum, fee) => sum + fee.amountCents, 0);
    const createdAt = toStoredInstant(now);
    const session: MoveInSessionRow = {
      id: newId(),
      facility_id: facility.id,
      unit_id: unit.id,
      tenant_id: tenant?.id ?? null,
      move_in_date: moveInDate,
      rent_cents: unit.rate_cents,
      fees: JSON.stringify(
        fees.map((fee): StoredFee => ({
          id: fee.id,
          description: fee.description,
          amount_cents: fee.amountCents,
        })),
      ),
      total_cents: totalCents,
      created_at: createdAt,
      expires_at: toStoredInstant(new Date(now.getTime() + SESSION_LIFETIME_MS)),
    };
    const values = {
      tenant_name: tenant ? personName(tenant.first_name, tenant.last_name) : null,
      unit_name: unit.name,
      facility_name: facility.name,
      date: moveInDate,
      move_in_date: moveInDate,
      rent: money(unit.rate_cents),
      move_in_charges: [
        `    First month's rent: ${money(unit.rate_cents)}`,
        ...fees.map((fee) => `    ${fee.description}: ${money(fee.amountCents)}`),
      ].join('\n'),
      total: money(totalCents),
    };
    const documents: SessionDocumentRow[] = MOVE_IN_TEMPLATES.map((template) => ({
      id: newId(),
      session_id: session.id,
      description: template.description,
      body: fillTemplate(template.body, values),
      esignable: template.esignable ? 1 : 0,
      created_at: createdAt,
    }));
    await this.repository.insertSession(session, documents);
    return {
      session: sessionRowToSession(session),
      documents: documents.map(sessionDocumentRowToDocument),
    };
  }

  /**
   * A document of a move-in session as a PDF: 404/9 for an unknown session of this facility or a
   * document of another session, 410 once the session has expired.
   */
  async sessionDocumentPdf(
    facility: Facility,
    ids: { session_document_id: string; session_id: string },
  ): Promise<RenderedPdf> {
    const { session_document_id: documentId, session_id: sessionId } = ids;
    if (!isUuid(sessionId)) throw DomainError.notFound('session_id', 'move-in session', sessionId);
    if (!isUuid(documentId)) {
      throw DomainError.notFound('session_document_id', 'session document', documentId);
    }
    const session = await this.repository.findSession(facility.id, normalizeId(sessionId));
    if (!session) throw DomainError.notFound('session_id', 'move-in session', sessionId);
    const document = await this.repository.findSessionDocument(session.id, normalizeId(documentId));
    if (!document) {
      throw DomainError.notFound('session_document_id', 'session document', documentId);
    }
    if (this.clock.now().getTime() >= new Date(session.expires_at).getTime()) {
      const expiredAt = formatInstant(session.expires_at, facility.timeZone);
      throw new DomainError('gone', `session_id: the move-in session expired at ${expiredAt}`, {
        problems: [{ parameter: 'session_id', message: `expired at ${expiredAt}` }],
      });
    }
    const content = await renderPdf({
      header: facility.name,
      title: document.description,
      body: document.body,
      createdAt: new Date(document.created_at),
    });
    return { filename: pdfFilename(document.description), content };
  }

  /** Sessions by id, in key order, null for a missing id (DataLoader batch shape). */
  async sessionsByIds(ids: readonly string[]): Promise<(MoveInSession | null)[]> {
    const rows = await this.repository.sessionsByIds(ids.map((id) => (isUuid(id) ? normalizeId(id) : '')));
    return rows.map((row) => (row ? sessionRowToSession(row) : null));
  }

  /** Documents of each session, in key order, [] for none (DataLoader batch shape). */
  async documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocument[][]> {
    const lists = await this.repository.documentsBySessionIds(
      sessionIds.map((id) => (isUuid(id) ? normalizeId(id) : '')),
    );
    return lists.map((rows) => rows.map(sessionDocumentRowToDocument));
  }
}
