import { declareEvents, domainEvent, type DomainEvent, type EventData } from '../../kernel/domain-events';
import { formatInstant } from '../../kernel/time';
import type { Facility } from '../facilities/facilities.types';
import type { DeliveryEvents } from '../outbox/outbox.ports';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { EsignEventBuilders } from './esign.ports';

/** The events the e-sign area reports (docs/webhooks.md). */
export const ESIGN_EVENTS = declareEvents([
  {
    type: 'esign.sent',
    audience: 'webhooks',
    summary: 'e-sign documents are queued for an email address or SMS number (one per message)',
  },
  {
    type: 'esign.delivered',
    audience: 'webhooks',
    summary: 'the SMTP server or SMS provider accepted the message',
  },
  { type: 'esign.failed', audience: 'webhooks', summary: 'the message failed for good (its last attempt)' },
]);

type EsignEventType = (typeof ESIGN_EVENTS)[number]['type'];

/**
 * An e-sign message as events carry it (no REST shape: GraphQL's fields in snake_case), instants
 * in the facility's zone; never its text, which holds the signing link.
 */
export function esignMessagePayload(message: OutboxMessage, facility: Facility): EventData {
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
}

function esignEvent(
  type: EsignEventType,
  facility: Facility,
  message: OutboxMessage,
  at: string,
): DomainEvent {
  return domainEvent(type, facility.id, message.eventId, at, esignMessagePayload(message, facility));
}

/** The event of a message queued. */
export const esignEvents: EsignEventBuilders = {
  esignSent: (facility, message) => esignEvent('esign.sent', facility, message, message.createdAt),
};

/**
 * The events reporting an e-sign message's outcome, which the outbox worker writes in the
 * transaction recording it: the message as it is once delivered, or once given up on.
 */
export function esignDeliveryEvents(lookups: {
  facilitiesByIds(ids: readonly string[]): Promise<(Facility | null)[]>;
}): DeliveryEvents {
  const about = async (type: EsignEventType, message: OutboxMessage, at: string) => {
    const [facility] = await lookups.facilitiesByIds([message.facilityId]);
    return facility ? [esignEvent(type, facility, message, at)] : [];
  };
  return {
    delivered: (message) => about('esign.delivered', message, message.sentAt ?? message.nextAttemptAt),
    failed: (message) => about('esign.failed', message, message.nextAttemptAt),
  };
}
