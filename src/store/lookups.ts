import type { Store } from './database';

/** A company's id and name, as the command line names it back; null when there is none. */
export async function findCompany(store: Store, id: string): Promise<{ id: string; name: string } | null> {
  const company = await store.db
    .selectFrom('companies')
    .select(['id', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
  return company ?? null;
}

/** Whether the database holds any company at all. */
export async function hasAnyCompany(store: Store): Promise<boolean> {
  return (await store.db.selectFrom('companies').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Whether a client application of this id exists. */
export async function hasClientApplication(store: Store, id: string): Promise<boolean> {
  const client = await store.db
    .selectFrom('client_applications')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return client !== undefined;
}

/** Whether the database was migrated (its tables exist). */
export async function hasSchema(store: Store): Promise<boolean> {
  const tables = await store.db.introspection.getTables();
  return tables.some((table) => table.name === 'companies');
}
