/**
 * The data a kept answer reads, named by scope: every write that could change such an answer
 * moves its scope's revision counter in the writing transaction.
 */
export type RevisionScope =
  'rate_changes' | 'flippers' | 'facilities' | `items:${string}` | `ledgers:${string}` | `actions:${string}`;

/** Reads a scope's revision token: equal tokens, unchanged data. */
export interface RevisionTokens {
  token(scope: RevisionScope): Promise<string>;
}
