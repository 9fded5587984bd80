import { sql } from 'kysely';
import type { Db } from '../../store/database';
import type { FlippersRepository } from './flippers.ports';
import { compareCodePoints } from '../../kernel/compare';

export class SqlFlippersRepository implements FlippersRepository {
  constructor(private readonly db: Db) {}

  /**
   * Flags enabled globally, for the facility's company or for the facility itself, maybe only the
   * one named. Written as SQL text rather than with the query builder: this runs on every flipper
   * request, and building and compiling the query cost twice as much as running it.
   */
  private enabledFor(facilityId: string, companyId: string, name: string | null) {
    return sql<{ name: string }>`
      select f.name from flippers f
      where (f.enabled_globally = 1 or exists (
          select 1 from flipper_actors a
          where a.flipper_name = f.name
            and ((a.actor_type = 'company' and a.actor_id = ${companyId})
              or (a.actor_type = 'facility' and a.actor_id = ${facilityId}))))
        ${name === null ? sql`` : sql`and f.name = ${name}`}`.execute(this.db);
  }

  /** Names of the enabled flags, sorted by code point on both dialects. */
  async enabledNames(facilityId: string, companyId: string): Promise<string[]> {
    const { rows } = await this.enabledFor(facilityId, companyId, null);
    return rows.map((row) => row.name).sort(compareCodePoints);
  }

  async isEnabled(name: string, facilityId: string, companyId: string): Promise<boolean> {
    const { rows } = await this.enabledFor(facilityId, companyId, name);
    return rows.length > 0;
  }
}
