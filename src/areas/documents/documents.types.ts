/** The events that own documents. */
export type EventType = 'move_in_unit_event' | 'move_out_unit_event' | 'successful_payment_event';

/** Events whose documents can be listed (contract 4.8): all three kinds. */
export const DOCUMENT_EVENT_TYPES: readonly EventType[] = [
  'move_in_unit_event',
  'move_out_unit_event',
  'successful_payment_event',
];

/** A move-in, move-out or successful payment event: the owner of event documents. */
export interface DocumentEvent {
  id: string;
  facilityId: string;
  type: EventType;
  ledgerId: string | null;
  /** Stored UTC instant. */
  createdAt: string;
}

/** A PDF document of an event (contract 2.6). */
export interface EventDocument {
  id: string;
  eventId: string;
  description: string;
  type: string;
  isRelevant: boolean;
  esignable: boolean;
  /** Stored UTC instant; transports write it in the facility's zone. */
  createdAt: string;
}
