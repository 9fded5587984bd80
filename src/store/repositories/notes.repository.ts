import type { Db } from '../database';

export class NotesRepository {
  constructor(private readonly db: Db) {}
}
