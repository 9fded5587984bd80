/** A fee charged at move-in: one of the facility's fee items required at move-in. */
export interface MoveInFee {
  id: string;
  description: string;
  /** The item's total, tax included. */
  amountCents: number;
}

export interface MoveInCost {
  /** The unit's monthly rate. */
  rentCents: number;
  fees: MoveInFee[];
  /** Rent plus every fee: what is due at move-in. */
  totalCents: number;
}

/** A document of a move-in review, downloadable while its session lives. */
export interface SessionDocument {
  /** The session_document_id. */
  id: string;
  sessionId: string;
  description: string;
  type: string;
  isRelevant: boolean;
  esignable: boolean;
  /** Stored UTC instant. */
  createdAt: string;
}

/** A reviewed move-in: what it costs and for how long its documents can be downloaded. */
export interface MoveInSession {
  id: string;
  facilityId: string;
  unitId: string;
  tenantId: string | null;
  moveInDate: string;
  cost: MoveInCost;
  /** Stored UTC instants. */
  createdAt: string;
  expiresAt: string;
}

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
