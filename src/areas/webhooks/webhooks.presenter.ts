import {
  EventDocument as EventDocumentContract,
  MoveInReview as MoveInReviewContract,
  NoteEvent as NoteEventContract,
  PaymentEvent as PaymentEventContract,
} from '../../contract';
import type { EventDocument } from '../documents/documents.types';
import type { Facility } from '../facilities/facilities.types';
import type { MoveInReview } from '../move-ins/move-ins.types';
import type { NoteEvent } from '../notes/notes.types';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { PaymentEvent } from '../payments/payments.types';
import { formatInstant } from '../../kernel/time';
import type { WebhookPayloads } from './webhooks.ports';
import type { WebhookData } from './webhooks.types';

/**
 * The `data` of each webhook event: the resource exactly as the REST contract answers it (the
 * records' toContract, src/contract), with `facility_id` added so a receiver knows where it happened.
 */
export const webhookPayloads: WebhookPayloads = {
  payment: (payment: PaymentEvent, facility: Facility): WebhookData => ({
    facility_id: facility.id,
    tenant_id: payment.tenantId,
    ...PaymentEventContract.toContract(payment, facility.timeZone),
  }),

  note: (note: NoteEvent, facility: Facility): WebhookData => ({
    facility_id: facility.id,
    ...NoteEventContract.toContract(note, facility.timeZone),
    ledger_id: note.ledgerId,
  }),

  moveInReview: (review: MoveInReview, facility: Facility): WebhookData => ({
    facility_id: facility.id,
    ...MoveInReviewContract.toContract(review, facility.timeZone),
  }),

  document: (document: EventDocument, facility: Facility): WebhookData => ({
    facility_id: facility.id,
    event_id: document.eventId,
    ...EventDocumentContract.toContract(document, facility.timeZone),
  }),

  esignMessage: (message: OutboxMessage, facility: Facility): WebhookData => {
    const local = (at: string | null) => (at === null ? null : formatInstant(at, facility.timeZone));
    return {
      id: message.id,
      facility_id: facility.id,
      event_id: message.eventId,
      channel: message.channel,
      recipient: message.recipient,
      status: message.status,
      attempts: message.attempts,
      last_error: message.lastError,
      created_at: local(message.createdAt),
      sent_at: local(message.sentAt),
      documents: (message.content?.documents ?? []).map((d) => ({
        id: d.id,
        description: d.description,
        url: d.url,
      })),
    };
  },
};
