import type { DocumentEvent, EventDocument } from './documents.types';
import { formatInstant } from '../../kernel/time';

/** An event as both transports show it: instants in its facility's zone, which it keeps for its children. */
export interface EventView extends Omit<DocumentEvent, 'createdAt'> {
  createdAt: string;
  timeZone: string;
}

/** A document as both transports show it. */
export interface DocumentView extends Omit<EventDocument, 'createdAt'> {
  createdAt: string;
  timeZone: string;
}

export function presentEvent(event: DocumentEvent, timeZone: string): EventView {
  return { ...event, createdAt: formatInstant(event.createdAt, timeZone), timeZone };
}

export function presentDocument(document: EventDocument, timeZone: string): DocumentView {
  return { ...document, createdAt: formatInstant(document.createdAt, timeZone), timeZone };
}
