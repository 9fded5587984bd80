import type { Db } from '../database';
import { compareCodePoints } from '../../domain/shared/compare';

export class FlippersRepository {
  constructor(private readonly db: Db) {}

  /** Flags enabled globally, for the facility's company or for the facility itself. */
  private enabledFor(facilityId: string, companyId: string) {
    return this.db
      .selectFrom('flippers as f')
      .select('f.name')
      .where((eb) =>
        eb.or([
          eb('f.enabled_globally', '=', 1),
          eb.exists(
            eb
              .selectFrom('flipper_actors as a')
              .select('a.flipper_name')
              .whereRef('a.flipper_name', '=', 'f.name')
              .where((inner) =>
                inner.or([
                  inner.and([inner('a.actor_type', '=', 'company'), inner('a.actor_id', '=', companyId)]),
                  inner.and([inner('a.actor_type', '=', 'facility'), inner('a.actor_id', '=', facilityId)]),
                ]),
              ),
          ),
        ]),
      );
  }

  /** Names of the enabled flags, sorted by code point on both dialects. */
  async enabledNames(facilityId: string, companyId: string): Promise<string[]> {
    const rows = await this.enabledFor(facilityId, companyId).execute();
    return rows.map((row) => row.name).sort(compareCodePoints);
  }

  async isEnabled(name: string, facilityId: string, companyId: string): Promise<boolean> {
    const row = await this.enabledFor(facilityId, companyId).where('f.name', '=', name).executeTakeFirst();
    return row !== undefined;
  }
}
