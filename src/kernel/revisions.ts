/**
 * The data a kept answer reads, named by scope: every write that could change such an answer
 * moves its scope's revision counter in the writing transaction.
 */
export type RevisionScope =
  | 'rate_changes'
  | 'flippers'
  | 'facilities'
  | 'credentials'
  | `items:${string}`
  | `ledgers:${string}`
  | `actions:${string}`;

/** Reads a scope's revision token: equal tokens, unchanged data. */
export interface RevisionTokens {
  token(scope: RevisionScope): Promise<string>;
  /**
   * The token when it can be had without waiting (SQLite, outside a transaction), else null:
   * `token` then answers. Lets a kept answer be sent without a promise.
   */
  tokenNow(scope: RevisionScope): string | null;
  /**
   * Whether each scope's token is the one given, told without waiting: false when one is not, or
   * when one cannot be read at once. Tells what tokenNow would of each, at one reading's cost.
   */
  currentNow(tokens: Iterable<readonly [string, string]>): boolean;
}
