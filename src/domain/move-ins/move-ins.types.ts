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

/** The fields of a review request as the transport received them; the service checks each. */
export interface MoveInFields {
  unit_id?: unknown;
  tenant_id?: unknown;
  move_in_date?: unknown;
}

/** How each transport names the fields in its errors. */
export interface MoveInParameterNames {
  unitId: string;
  tenantId: string;
  moveInDate: string;
}

export const REST_MOVE_IN_NAMES: MoveInParameterNames = {
  unitId: 'move_in.unit_id',
  tenantId: 'move_in.tenant_id',
  moveInDate: 'move_in.move_in_date',
};

/** A review session and its documents live this long after the review (contract section 8). */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
