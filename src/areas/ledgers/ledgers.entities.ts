import type { EntityReferences } from '../../graphql/federation';

/** Federation entities: a ledger by id, null for another company's. */
export const LEDGERS_ENTITIES = {
  Ledger: (id, { loaders }) => loaders.ledgers.load(id),
} satisfies EntityReferences;
