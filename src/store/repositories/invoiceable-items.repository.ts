import type { Db } from '../database';

export class InvoiceableItemsRepository {
  constructor(private readonly db: Db) {}
}
