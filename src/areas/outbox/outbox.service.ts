import { parseSlice, type ConnectionArgs, type Slice } from '../../kernel/connections';
import type { Clock } from '../../kernel/clock';
import { DomainError } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { newId, normalizeId, storedKeys } from '../../kernel/ids';
import { offsetOf, pageMeta, parsePageRequest, type Page, type PageInput } from '../../kernel/pagination';
import type { OutboxAccess, OutboxRepository } from './outbox.ports';
import { toStoredInstant } from '../../kernel/time';
import {
  OUTBOX_STATUSES,
  type NewOutboxMessage,
  type OutboxChannel,
  type OutboxContent,
  type OutboxDocument,
  type OutboxMessage,
  type OutboxStatus,
  type OutboxWebhook,
} from './outbox.types';

/** The list a cursor of a facility's outbox messages names. */
export const OUTBOX_CURSOR_LIST = 'Facility.outboxMessages';

/** Outbox lists: 50 a page by default, at most 200. */
export const OUTBOX_PAGE_LIMITS = { defaultPerPage: 50, maxPerPage: 200 } as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDocument(value: unknown): value is OutboxDocument {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.description === 'string' &&
    typeof value.url === 'string'
  );
}

/** The stored payload read back; null when it is not what this service wrote. */
export function parseOutboxContent(payload: string): OutboxContent | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.kind !== 'esign_documents') return null;
  const { facility, eventId, documents, subject, text, html, secrets } = value;
  if (!isRecord(facility) || typeof facility.id !== 'string' || typeof facility.name !== 'string')
    return null;
  if (!(eventId === null || typeof eventId === 'string')) return null;
  if (!Array.isArray(documents) || !documents.every(isDocument)) return null;
  if (typeof subject !== 'string' || typeof text !== 'string') return null;
  if (!(html === null || typeof html === 'string')) return null;
  if (secrets !== undefined && !(Array.isArray(secrets) && secrets.every((s) => typeof s === 'string'))) {
    return null;
  }
  return {
    kind: 'esign_documents',
    facility: { id: facility.id, name: facility.name },
    eventId,
    documents: documents.map((d) => ({ id: d.id, description: d.description, url: d.url })),
    subject,
    text,
    html,
    ...(secrets && secrets.length > 0 ? { secrets: [...(secrets as string[])] } : {}),
  };
}

/** A stored webhook delivery read back; null when it is not what this service wrote. */
export function parseOutboxWebhook(payload: string): OutboxWebhook | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.kind !== 'webhook') return null;
  const { type, body } = value;
  if (typeof type !== 'string' || typeof body !== 'string') return null;
  return { kind: 'webhook', type, body };
}

/** What stays stored of a message once it is sent or has failed for good: its secrets removed. */
export function withoutSecrets(content: OutboxContent): OutboxContent {
  const { secrets = [], ...rest } = content;
  const scrub = (text: string) =>
    secrets.reduce((out, secret) => (secret === '' ? out : out.split(secret).join(REMOVED_SECRET)), text);
  return { ...rest, text: scrub(rest.text), html: rest.html === null ? null : scrub(rest.html) };
}

/** Stands where a secret was in a message that was sent. */
export const REMOVED_SECRET = '[removed]';

function readStatus(raw: string | null | undefined): OutboxStatus | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const status = OUTBOX_STATUSES.find((s) => s === raw);
  if (!status) throw DomainError.invalidParameter(['status'], `must be one of ${OUTBOX_STATUSES.join(', ')}`);
  return status;
}

/** The durable outbox: messages are queued here in the request's transaction and sent by a worker. */
export class OutboxService implements OutboxAccess {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: Clock,
  ) {}

  /** Calls `listener` after each enqueue (an in-process worker wakes up); returns the unsubscribe. */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Queues the messages in one transaction, due at once; all are written or none. */
  async enqueue(
    facility: Facility,
    eventId: string | null,
    messages: readonly NewOutboxMessage[],
  ): Promise<OutboxMessage[]> {
    const queued = messages.map((message) => this.prepare(facility, eventId, message));
    await this.repository.insertMessages(queued);
    this.announce();
    return queued;
  }

  /**
   * A message ready to be written, due at once, for a caller that writes it together with records
   * of its own (in one transaction); `announce()` after writing it.
   */
  prepare(
    facility: Facility,
    eventId: string | null,
    message: NewOutboxMessage,
    id = newId(),
  ): OutboxMessage & { channel: OutboxChannel } {
    const now = toStoredInstant(this.clock.now());
    return {
      id,
      facilityId: facility.id,
      eventId,
      channel: message.channel,
      recipient: message.recipient,
      content: message.content,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      claimedBy: null,
      claimedUntil: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
      responseCode: null,
    };
  }

  /** Wakes the listeners (an in-process worker) after messages were written. */
  announce(): void {
    for (const listener of this.listeners) listener();
  }

  /** One page of the facility's messages, newest first, optionally of one status. */
  async messagesOfFacility(
    facility: Facility,
    query: PageInput & { status?: string | null },
  ): Promise<Page<OutboxMessage>> {
    const request = parsePageRequest(query, OUTBOX_PAGE_LIMITS);
    const filter = { status: readStatus(query.status) };
    const [total, entries] = await Promise.all([
      this.repository.countForFacility(facility.id, filter),
      this.repository.pageForFacility(facility.id, filter, request.perPage, offsetOf(request)),
    ]);
    return { entries, pagination: pageMeta(total, request) };
  }

  /** The same list walked by cursor (created_at, then id, newest first), bound to the list and the facility. */
  async messagesConnection(
    facility: Facility,
    query: { status?: string | null },
    args: ConnectionArgs,
  ): Promise<Slice<OutboxMessage>> {
    const slice = parseSlice(args, { list: OUTBOX_CURSOR_LIST, owner: normalizeId(facility.id) }, 2);
    return this.repository.sliceForFacility(facility.id, { status: readStatus(query.status) }, slice);
  }

  /** Messages by id, in key order, null for a missing id (DataLoader batch shape). */
  messagesByIds(ids: readonly string[]): Promise<(OutboxMessage | null)[]> {
    return this.repository.messagesByIds(storedKeys(ids));
  }
}
