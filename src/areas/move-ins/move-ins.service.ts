import type { Clock } from '../../kernel/clock';
import { DomainError, problem, type Problem } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import type { PdfRenderer } from '../documents/pdf.ports';
import { fillTemplate, personName, pdfFilename } from '../../kernel/templates';
import type { RenderedPdf } from '../documents/pdf.types';
import { isBlank, isUuid, newId, normalizeId, storedKeys } from '../../kernel/ids';
import { formatInstant, isValidDate, localDate, toStoredInstant } from '../../kernel/time';
import type { TenantsRepository } from '../tenants/tenants.ports';
import { MOVE_IN_TEMPLATES } from './move-in.templates';
import type {
  MoveInsEvents,
  MoveInsRepository,
  SessionDocumentPdfs,
  SessionDocumentWithBody,
} from './move-ins.ports';
import {
  SESSION_LIFETIME_MS,
  type MoveInReview,
  type MoveInSession,
  type ReviewMoveInCommand,
  type SessionDocument,
  type SessionDocumentQuery,
} from './move-ins.types';

function readId(
  name: 'unitId' | 'tenantId',
  raw: string | null | undefined,
  required: boolean,
  problems: Problem[],
): string | undefined {
  if (isBlank(raw)) {
    if (required) problems.push(problem([name], 'is required'));
    return undefined;
  }
  if (isUuid(raw)) return normalizeId(raw);
  problems.push(problem([name], 'must be a UUID'));
  return undefined;
}

function readMoveInDate(raw: string | null | undefined, today: string, problems: Problem[]): string {
  if (isBlank(raw)) return today;
  if (!isValidDate(raw)) problems.push(problem(['moveInDate'], 'must be a real date in the form YYYY-MM-DD'));
  else if (raw < today) problems.push(problem(['moveInDate'], `must not be in the past (today is ${today})`));
  else return raw;
  return today;
}

/** Amounts in documents: two decimals, no currency symbol (the store keeps none). */
function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Move-in review (DESIGN 6): the cost of renting a unit, and its documents for 24 hours. */
export class MoveInsService implements SessionDocumentPdfs {
  constructor(
    private readonly repository: MoveInsRepository,
    private readonly people: TenantsRepository,
    private readonly clock: Clock,
    private readonly pdfs: PdfRenderer,
    /** Writes `move_in.reviewed` with each review; none when absent. */
    private readonly events?: MoveInsEvents,
  ) {}

  /**
   * Checks the unit (and tenant) belong to the facility and the date is today or later, then saves
   * a session with the cost and the filled-in move-in documents. Nothing else is written.
   */
  async review(facility: Facility, command: ReviewMoveInCommand): Promise<MoveInReview> {
    const now = this.clock.now();
    const today = localDate(now, facility.timeZone);
    const problems: Problem[] = [];
    const unitId = readId('unitId', command.unitId, true, problems);
    const tenantId = readId('tenantId', command.tenantId, false, problems);
    const moveInDate = readMoveInDate(command.moveInDate, today, problems);
    if (problems.length > 0 || unitId === undefined) throw DomainError.invalid(problems);

    const unit = await this.people.unitInFacility(facility.id, unitId);
    if (!unit) throw DomainError.notFound(['unitId'], 'unit', unitId);
    const tenant =
      tenantId === undefined ? undefined : await this.people.tenantInFacility(facility.id, tenantId);
    if (tenantId !== undefined && !tenant) throw DomainError.notFound(['tenantId'], 'tenant', tenantId);

    const fees = await this.repository.moveInFees(facility.id);
    const totalCents = unit.rateCents + fees.reduce((sum, fee) => sum + fee.amountCents, 0);
    const createdAt = toStoredInstant(now);
    const session: MoveInSession = {
      id: newId(),
      facilityId: facility.id,
      unitId: unit.id,
      tenantId: tenant?.id ?? null,
      moveInDate,
      rentCents: unit.rateCents,
      fees,
      totalCents,
      createdAt,
      expiresAt: toStoredInstant(new Date(now.getTime() + SESSION_LIFETIME_MS)),
    };
    const values = {
      tenant_name: tenant ? personName(tenant.firstName, tenant.lastName) : null,
      unit_name: unit.name,
      facility_name: facility.name,
      date: moveInDate,
      move_in_date: moveInDate,
      rent: money(unit.rateCents),
      // One charge a line; the template indents the first (a filled-in value loses its leading
      // spaces), these the rest alike.
      move_in_charges: [
        `First month's rent: ${money(unit.rateCents)}`,
        ...fees.map((fee) => `    ${fee.description}: ${money(fee.amountCents)}`),
      ].join('\n'),
      total: money(totalCents),
    };
    const documents: SessionDocumentWithBody[] = MOVE_IN_TEMPLATES.map((template) => ({
      id: newId(),
      sessionId: session.id,
      description: template.description,
      type: template.type,
      isRelevant: template.isRelevant,
      esignable: template.esignable,
      createdAt,
      body: fillTemplate(template.body, values),
    }));
    const review = { session, documents: documents.map(({ body: _body, ...document }) => document) };
    await this.repository.insertSession(
      session,
      documents,
      this.events ? [this.events.moveInReviewed(facility, review)] : [],
    );
    this.events?.announce();
    return review;
  }

  /**
   * A document of a move-in session as a PDF: 404/9 for an unknown session of this facility or a
   * document of another session, 410 once the session has expired.
   */
  async sessionDocumentPdf(facility: Facility, query: SessionDocumentQuery): Promise<RenderedPdf> {
    const { sessionDocumentId: documentId, sessionId } = query;
    if (!isUuid(sessionId)) throw DomainError.notFound(['sessionId'], 'move-in session', sessionId);
    if (!isUuid(documentId))
      throw DomainError.notFound(['sessionDocumentId'], 'session document', documentId);
    const session = await this.repository.findSession(facility.id, normalizeId(sessionId));
    if (!session) throw DomainError.notFound(['sessionId'], 'move-in session', sessionId);
    const document = await this.repository.findSessionDocument(session.id, normalizeId(documentId));
    if (!document) throw DomainError.notFound(['sessionDocumentId'], 'session document', documentId);
    if (this.clock.now().getTime() >= new Date(session.expiresAt).getTime()) {
      const expiredAt = formatInstant(session.expiresAt, facility.timeZone);
      throw new DomainError('gone', [['sessionId'], `: the move-in session expired at ${expiredAt}`], {
        problems: [problem(['sessionId'], `expired at ${expiredAt}`)],
      });
    }
    const content = await this.pdfs.render({
      header: facility.name,
      title: document.description,
      body: document.body,
      createdAt: new Date(document.createdAt),
    });
    return { filename: pdfFilename(document.description), content };
  }

  /** Sessions by id, in key order, null for a missing id (DataLoader batch shape). */
  sessionsByIds(ids: readonly string[]): Promise<(MoveInSession | null)[]> {
    return this.repository.sessionsByIds(storedKeys(ids));
  }

  /** Documents of each session, in key order, [] for none (DataLoader batch shape). */
  documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocument[][]> {
    return this.repository.documentsBySessionIds(storedKeys(sessionIds));
  }
}
