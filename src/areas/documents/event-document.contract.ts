import { Type, type Static } from '@sinclair/typebox';
import type { DocumentEvent, EventDocument } from './documents.types';
import { formatInstant } from '../../kernel/time';
import { cases, type ViewOf } from '../../contract/cases';
import { Instant, Text, Uuid } from '../../contract/kit';

/** Contract 2.6, fields in the contract's order; body and esignable stay inside the service. */
export const schema = Type.Object(
  {
    id: Uuid(),
    description: Text(),
    type: Text(),
    is_relevant: Type.Boolean(),
    created_at: Instant(),
  },
  { $id: 'EventDocument' },
);

/**
 * A document as both transports show it: the contract's fields, and for GraphQL whether it is
 * signed, its event and its facility's zone, which its children's instants are written in.
 */
export type DocumentView = ViewOf<typeof schema> &
  Pick<EventDocument, 'eventId' | 'esignable'> & { timeZone: string };

/** An event as GraphQL shows it: instants in its facility's zone, which it keeps for its children. */
export type EventView = DocumentEvent & { timeZone: string };

const documentCases = cases(schema);

export function present(document: EventDocument, timeZone: string): DocumentView {
  return { ...document, createdAt: formatInstant(document.createdAt, timeZone), timeZone };
}

export function presentEvent(event: DocumentEvent, timeZone: string): EventView {
  return { ...event, createdAt: formatInstant(event.createdAt, timeZone), timeZone };
}

export function toContract(document: EventDocument, timeZone: string): Static<typeof schema> {
  return documentCases.toContract(present(document, timeZone));
}
