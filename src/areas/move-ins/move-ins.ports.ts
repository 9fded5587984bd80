import type { Facility } from '../facilities/facilities.types';
import type { DomainEvent } from '../../kernel/domain-events';
import type { RenderedPdf } from '../documents/pdf.types';
import type {
  MoveInFee,
  MoveInReview,
  MoveInSession,
  SessionDocument,
  SessionDocumentQuery,
} from './move-ins.types';

/** A session document with the filled-in text its PDF prints. */
export interface SessionDocumentWithBody extends SessionDocument {
  body: string;
}

/** Where move-in sessions and their documents are kept; lists come in key order. */
export interface MoveInsRepository {
  /** The facility's fee items required at move-in, by description (case-insensitive), then id. */
  moveInFees(facilityId: string): Promise<MoveInFee[]>;
  /** Writes a session, its documents and the webhook events reporting the review together. */
  insertSession(
    session: MoveInSession,
    documents: readonly SessionDocumentWithBody[],
    events?: readonly DomainEvent[],
  ): Promise<void>;
  findSession(facilityId: string, sessionId: string): Promise<MoveInSession | undefined>;
  findSessionDocument(sessionId: string, documentId: string): Promise<SessionDocumentWithBody | undefined>;
  /** Sessions by id, null for a missing id. */
  sessionsByIds(ids: readonly string[]): Promise<(MoveInSession | null)[]>;
  /** Documents of each session ([] for none), by created_at, description, then id. */
  documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocument[][]>;
}

/** The events a move-in reports (built by `move-ins.events.ts`), and the announcement after commit. */
export interface MoveInsEventBuilders {
  moveInReviewed(facility: Facility, review: MoveInReview): DomainEvent;
}
export type MoveInsEvents = MoveInsEventBuilders & { announce(): void };

/** What the other areas ask of the move-ins (`MoveInsService` implements it). */
export interface SessionDocumentPdfs {
  /** A move-in session document's PDF. */
  sessionDocumentPdf(facility: Facility, query: SessionDocumentQuery): Promise<RenderedPdf>;
}
