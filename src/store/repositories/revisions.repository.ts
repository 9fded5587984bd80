import type { Db } from '../database';

/** Scopes of migration 20261121150000 whose counters triggers bump. */
export type RevisionScope = 'rate_changes' | `items:${string}`;

/** Reads the revision counters that cached pages are validated against. */
export class RevisionsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The scope's revision token: the bulk-load counter (`*`) and the scope's own. A scope never
   * written has no row yet and counts as 0. One statement, so both come from one snapshot.
   */
  async token(scope: RevisionScope): Promise<string> {
    const rows = await this.db
      .selectFrom('data_revisions')
      .select(['scope', 'revision'])
      .where('scope', 'in', ['*', scope])
      .execute();
    let all = 0;
    let own = 0;
    for (const row of rows) {
      if (row.scope === '*') all = Number(row.revision);
      else own = Number(row.revision);
    }
    return `${all}.${own}`;
  }
}
