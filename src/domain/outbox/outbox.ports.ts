import type { OutboxChannel, OutboxContent, OutboxMessage, OutboxStatus } from './outbox.types';

/** What a claim needs: who claims, the time now, and until when the claim holds. */
export interface ClaimRequest {
  workerId: string;
  now: string;
  leaseUntil: string;
  channels: readonly OutboxChannel[];
  limit: number;
}

/** The outcome of a failed attempt: another try later, or given up. */
export interface AttemptFailure {
  status: 'pending' | 'failed';
  nextAttemptAt: string;
  lastError: string;
  /** A message that failed for good is kept with this content (its secrets removed). */
  keptContent?: OutboxContent;
}

/** The durable outbox: messages written with the request that queues them, claimed by workers. */
export interface OutboxRepository {
  /** Writes the messages in one transaction: all of them or none. */
  insertMessages(messages: readonly OutboxMessage[]): Promise<void>;
  /** Claims up to `limit` due messages for one worker; a message is claimed by exactly one worker. */
  claimDue(request: ClaimRequest): Promise<OutboxMessage[]>;
  /**
   * Records a delivery, whoever holds the claim now; `keptContent`, when given, replaces the stored
   * content (the message's secrets removed).
   */
  markSent(id: string, sentAt: string, keptContent?: OutboxContent): Promise<void>;
  /** Records a failed attempt if this worker still holds the claim; true when recorded. */
  markAttemptFailed(id: string, workerId: string, failure: AttemptFailure): Promise<boolean>;
  countForFacility(facilityId: string, filter: { status?: OutboxStatus }): Promise<number>;
  /** One page of the facility's messages, newest first. */
  pageForFacility(
    facilityId: string,
    filter: { status?: OutboxStatus },
    limit: number,
    offset: number,
  ): Promise<OutboxMessage[]>;
  /** Messages by id, in key order, null for a missing id. */
  messagesByIds(ids: readonly string[]): Promise<(OutboxMessage | null)[]>;
}
