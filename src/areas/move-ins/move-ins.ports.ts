import type { WebhookEvent } from '../webhooks/webhooks.types';
import type { MoveInFee, MoveInSession, SessionDocument } from './move-ins.types';

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
    events?: readonly WebhookEvent[],
  ): Promise<void>;
  findSession(facilityId: string, sessionId: string): Promise<MoveInSession | undefined>;
  findSessionDocument(sessionId: string, documentId: string): Promise<SessionDocumentWithBody | undefined>;
  /** Sessions by id, null for a missing id. */
  sessionsByIds(ids: readonly string[]): Promise<(MoveInSession | null)[]>;
  /** Documents of each session ([] for none), by created_at, description, then id. */
  documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocument[][]>;
}
