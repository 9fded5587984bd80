import type { Db } from '../database';

export class LedgersRepository {
  constructor(private readonly db: Db) {}
}
