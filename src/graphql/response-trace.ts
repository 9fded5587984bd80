import type { RevisionScope, RevisionTokens } from '../kernel/revisions';

/**
 * What a kept response is checked against: each scope it read and the token read then (system of
 * record), or each upstream GET it read and the ETag answered then (gateway mode).
 */
export type Tokens = Array<[string, string]>;

/**
 * What keeping a response needs of its execution: its key, its tokens (null: not keepable), and
 * the name of the operation it ran (what a kept answer's request span is named after).
 */
export interface Keeping {
  readonly key: string;
  readonly operationName: string | null;
  tokens(): Tokens | null;
}

/**
 * The scopes one execution read, each with the token read before its data. On the context of an
 * operation that may be kept; `@Kept` fields record their scope here before reading.
 */
export class ResponseTrace implements Keeping {
  private readonly read = new Map<RevisionScope, string>();

  constructor(
    readonly key: string,
    private readonly revisions: RevisionTokens,
    readonly operationName: string | null = null,
  ) {}

  /** Reads the scope's token before the field reads its data. */
  async track(scope: RevisionScope): Promise<void> {
    if (!this.read.has(scope)) this.read.set(scope, await this.revisions.token(scope));
  }

  tokens(): Tokens {
    return [...this.read];
  }
}
