import type { DomainEvent } from '../../kernel/domain-events';
import type { Facility } from '../facilities/facilities.types';
import type { OutboxChannel } from './outbox.tables';
import type {
  DeliveryChannel,
  NewOutboxMessage,
  OutboxContent,
  OutboxMessage,
  OutboxStatus,
} from './outbox.types';
import type { Slice, SliceRequest } from '../../kernel/connections';

/** What a claim needs: who claims, the time now, and until when the claim holds. */
export interface ClaimRequest {
  workerId: string;
  now: string;
  leaseUntil: string;
  channels: readonly DeliveryChannel[];
  limit: number;
  /**
   * At most this many messages of one recipient in flight (claimed by any worker, lease running),
   * those claimed now included; none: no such limit.
   */
  perRecipient?: number;
  /**
   * At most this many messages of one company (its facility's) in flight, counted like
   * `perRecipient`; none: no such limit.
   */
  perCompany?: number;
}

/** The outcome of a failed attempt: another try later, or given up. */
export interface AttemptFailure {
  status: 'pending' | 'failed';
  nextAttemptAt: string;
  lastError: string;
  /** A message that failed for good is kept with this content (its secrets removed). */
  keptContent?: OutboxContent;
  /** The HTTP status the receiver answered, if it answered. */
  responseCode?: number | null;
  /** Webhook events reporting the outcome, written with it (only if this worker's record is). */
  events?: readonly DomainEvent[];
}

/** What a delivery's record holds beside its status. */
export interface SentRecord {
  /** Replaces the stored content (the message's secrets removed). */
  keptContent?: OutboxContent;
  /** The HTTP status the receiver answered. */
  responseCode?: number | null;
  /** Webhook events reporting the delivery, written with it (only by the first record of it). */
  events?: readonly DomainEvent[];
}

/** The durable outbox: messages written with the request that queues them, claimed by workers. */
export interface OutboxRepository {
  /** Writes the messages in one transaction: all of them or none. */
  insertMessages(messages: readonly OutboxMessage[]): Promise<void>;
  /**
   * Claims up to `limit` due messages for one worker; a message is claimed by exactly one worker,
   * a recipient never has more than `perRecipient` in flight, and a company (the company of the
   * message's facility) never more than `perCompany`.
   */
  claimDue(request: ClaimRequest): Promise<OutboxMessage[]>;
  /**
   * Records a delivery, whoever holds the claim now, in one transaction with `record.events`; a
   * message recorded as sent already is left as it is (and no events are written again).
   */
  markSent(id: string, sentAt: string, record?: SentRecord): Promise<void>;
  /** Records a failed attempt if this worker still holds the claim; true when recorded. */
  markAttemptFailed(id: string, workerId: string, failure: AttemptFailure): Promise<boolean>;
  /** The facility's e-sign messages (email and SMS; webhook deliveries are listed by endpoint). */
  countForFacility(facilityId: string, filter: { status?: OutboxStatus }): Promise<number>;
  /** One page of the facility's e-sign messages, newest first. */
  pageForFacility(
    facilityId: string,
    filter: { status?: OutboxStatus },
    limit: number,
    offset: number,
  ): Promise<OutboxMessage[]>;
  /** A slice of the facility's e-sign messages from a position, newest first (created_at, then id). */
  sliceForFacility(
    facilityId: string,
    filter: { status?: OutboxStatus },
    slice: SliceRequest,
  ): Promise<Slice<OutboxMessage>>;
  /** Messages by id, in key order, null for a missing id. */
  messagesByIds(ids: readonly string[]): Promise<(OutboxMessage | null)[]>;
}

/** Events that report an e-sign message's outcome, written in the transaction recording it. */
export interface DeliveryEvents {
  /** The message as it is once delivered (status sent). */
  delivered(message: OutboxMessage): Promise<DomainEvent[]>;
  /** The message as it is once given up on (status failed). */
  failed(message: OutboxMessage): Promise<DomainEvent[]>;
}

/** What the other areas ask of the outbox (`OutboxService` implements it). */
export interface OutboxAccess {
  /** A message to queue for the facility (written by whoever writes the change it belongs to). */
  prepare(
    facility: Facility,
    eventId: string | null,
    message: NewOutboxMessage,
    id?: string,
  ): OutboxMessage & { channel: OutboxChannel };
  /** Wakes this process's delivery worker after messages were queued. */
  announce(): void;
  /** Messages by id, in key order, null for a missing one (DataLoader batch shape). */
  messagesByIds(ids: readonly string[]): Promise<(OutboxMessage | null)[]>;
}

/**
 * A message as a row of the outbox's table, for another area's repository that writes one in its
 * own transaction (an e-sign link's message) or reads some in its own statements (a webhook
 * endpoint's deliveries). The outbox's repository makes it (`outboxRows`) and the composition root
 * hands it over; `Row` is the store's row, which the domain does not name.
 */
export interface OutboxRows<Row> {
  /** The stored message of a row, its payload read as its channel has it. */
  read(row: Row): OutboxMessage;
  /** The row of a message, its content (or webhook event) written as the payload. */
  write(message: OutboxMessage): Row;
}
