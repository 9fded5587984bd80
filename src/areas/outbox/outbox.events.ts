import { declareEvents, type DomainEvent } from '../../kernel/domain-events';

/** The events the outbox reports: none a webhook carries (docs/subscriptions.md). */
export const OUTBOX_EVENTS = declareEvents([
  {
    type: 'webhook.delivery',
    audience: 'live',
    summary: "a webhook message's delivery changed: sent, failed or queued again",
  },
]);

/**
 * The event saying a webhook message's delivery changed: `eventId` the endpoint, `body` the
 * message's id.
 */
export function webhookDeliveryChanged(
  facilityId: string,
  endpointId: string,
  messageId: string,
  at: string,
): DomainEvent {
  return { type: 'webhook.delivery', facilityId, eventId: endpointId, occurredAt: at, body: messageId };
}
