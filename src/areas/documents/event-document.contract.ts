import { Type, type Static } from '@sinclair/typebox';
import type { EventDocument } from './documents.types';
import { formatInstant } from '../../kernel/time';
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

export function toContract(document: EventDocument, timeZone: string): Static<typeof schema> {
  return {
    id: document.id,
    description: document.description,
    type: document.type,
    is_relevant: document.isRelevant,
    created_at: formatInstant(document.createdAt, timeZone),
  };
}
