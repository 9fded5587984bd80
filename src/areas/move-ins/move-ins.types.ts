import type { moveInSessions, sessionDocuments, storedFee } from './move-ins.tables';
import type { RecordOfTable } from '../../kernel/columns';

/** A fee charged at move-in: one of the facility's fee items required at move-in. */
export type MoveInFee = RecordOfTable<typeof storedFee>;

/** A document of a move-in review, downloadable while its session lives; its kind is its template's. */
export type SessionDocument = RecordOfTable<typeof sessionDocuments, 'body'> & {
  type: string;
  isRelevant: boolean;
};

/** A reviewed move-in: what it costs and for how long its documents can be downloaded. */
export type MoveInSession = RecordOfTable<typeof moveInSessions, 'fees'> & { fees: MoveInFee[] };

export interface MoveInReview {
  session: MoveInSession;
  documents: SessionDocument[];
}

/** A move-in to price: the unit (required), and optionally the tenant and the date. */
export interface ReviewMoveInCommand {
  unitId?: string | null;
  tenantId?: string | null;
  /** YYYY-MM-DD, today or later at the facility (default: today there). */
  moveInDate?: string | null;
}

/** A move-in session document asked for by its ids. */
export interface SessionDocumentQuery {
  sessionDocumentId: string;
  sessionId: string;
}

/** A review session and its documents live this long after the review (contract section 8). */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
