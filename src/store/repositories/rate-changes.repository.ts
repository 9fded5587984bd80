import type { Db } from '../database';

export class RateChangesRepository {
  constructor(private readonly db: Db) {}
}
