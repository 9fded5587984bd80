import type { Db } from '../database';

export class RateAppliedActionsRepository {
  constructor(private readonly db: Db) {}
}
