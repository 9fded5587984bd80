import type { Db } from '../database';

export class DocumentsRepository {
  constructor(private readonly db: Db) {}
}
