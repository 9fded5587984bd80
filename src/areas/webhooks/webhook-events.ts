import type { EventDocument } from '../documents/documents.types';
import type { Facility } from '../facilities/facilities.types';
import type { MoveInReview } from '../move-ins/move-ins.types';
import type { NoteEvent } from '../notes/notes.types';
import type { DeliveryEvents } from '../outbox/outbox.worker';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { PaymentEvent } from '../payments/payments.types';
import { formatInstant } from '../../kernel/time';
import type { WebhookPayloads } from './webhooks.ports';
import type { WebhookData, WebhookEvent, WebhookEventType } from './webhooks.types';

/** The e-sign link an event about a document came through. */
export interface DocumentSigningContext {
  messageId: string;
  facilityId: string;
  eventId: string;
  channel: string;
  recipient: string;
}

/** What happened to a document through its link, and when. */
export type DocumentHappening =
  | { kind: 'viewed'; documentId: string; at: string }
  | {
      kind: 'signed';
      documentId: string;
      at: string;
      signerName: string | null;
      signedSha256: string | null;
    };

interface Lookups {
  facilitiesByIds(ids: readonly string[]): Promise<(Facility | null)[]>;
  documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]>;
}

/**
 * Builds the webhook events a change reports, for the service that writes the change to pass to its
 * repository (which writes them in the same transaction). Each body is
 * `{"type","timestamp","data"}`, `data` being the resource as the REST contract shows it.
 */
export class WebhookEvents implements DeliveryEvents {
  constructor(
    private readonly payloads: WebhookPayloads,
    private readonly lookups: Lookups,
    private readonly wake: () => void = () => undefined,
  ) {}

  /** Wakes this process's delivery worker after events were written. */
  announce(): void {
    this.wake();
  }

  paymentSucceeded(facility: Facility, payment: PaymentEvent): WebhookEvent {
    return event(
      'payment.succeeded',
      facility,
      payment.id,
      payment.paidAt,
      this.payloads.payment(payment, facility),
    );
  }

  noteCreated(facility: Facility, note: NoteEvent): WebhookEvent {
    return event('note.created', facility, null, note.createdAt, this.payloads.note(note, facility));
  }

  moveInReviewed(facility: Facility, review: MoveInReview): WebhookEvent {
    return event(
      'move_in.reviewed',
      facility,
      null,
      review.session.createdAt,
      this.payloads.moveInReview(review, facility),
    );
  }

  esignSent(facility: Facility, message: OutboxMessage): WebhookEvent {
    return event(
      'esign.sent',
      facility,
      message.eventId,
      message.createdAt,
      this.payloads.esignMessage(message, facility),
    );
  }

  /** The message as it is once delivered. */
  async delivered(message: OutboxMessage): Promise<WebhookEvent[]> {
    return this.aboutMessage('esign.delivered', message, message.sentAt ?? message.nextAttemptAt);
  }

  /** The message as it is once given up on. */
  async failed(message: OutboxMessage): Promise<WebhookEvent[]> {
    return this.aboutMessage('esign.failed', message, message.nextAttemptAt);
  }

  /** One event per document: `document.viewed` or `document.signed`, with the link it came through. */
  async aboutDocuments(
    facility: Facility,
    link: DocumentSigningContext,
    happenings: readonly DocumentHappening[],
  ): Promise<WebhookEvent[]> {
    if (happenings.length === 0) return [];
    const [documents] = await this.lookups.documentsByEventIds([link.eventId]);
    const byId = new Map(documents.map((document) => [document.id, document]));
    const events: WebhookEvent[] = [];
    const local = (at: string) => formatInstant(at, facility.timeZone);
    for (const happening of happenings) {
      const document = byId.get(happening.documentId);
      if (!document) continue;
      const esign: WebhookData = {
        message_id: link.messageId,
        channel: link.channel,
        recipient: link.recipient,
        ...(happening.kind === 'viewed'
          ? { viewed_at: local(happening.at) }
          : {
              signed_at: local(happening.at),
              signer_name: happening.signerName,
              signed_sha256: happening.signedSha256,
            }),
      };
      events.push(
        event(`document.${happening.kind}`, facility, link.eventId, happening.at, {
          ...this.payloads.document(document, facility),
          esign,
        }),
      );
    }
    return events;
  }

  private async aboutMessage(
    type: WebhookEventType,
    message: OutboxMessage,
    at: string,
  ): Promise<WebhookEvent[]> {
    const [facility] = await this.lookups.facilitiesByIds([message.facilityId]);
    if (!facility) return [];
    return [event(type, facility, message.eventId, at, this.payloads.esignMessage(message, facility))];
  }
}

function event(
  type: WebhookEventType,
  facility: Facility,
  eventId: string | null,
  occurredAt: string,
  data: WebhookData,
): WebhookEvent {
  return {
    type,
    facilityId: facility.id,
    eventId,
    occurredAt,
    body: JSON.stringify({ type, timestamp: occurredAt, data }),
  };
}
