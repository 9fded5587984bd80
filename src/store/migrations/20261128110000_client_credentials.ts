import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Client credentials that can be listed, rotated and revoked (`facility-ops clients`):
 * - `client_applications.kind` (`demo`, `created`, `imported`), `last_used_at`, `revoked_at`, and
 *   the consumer secret before a rotation with the instant it stops being accepted;
 * - `bearer_tokens.expires_at`, the end of a rotated token's grace period;
 * - the revision scope `credentials`, bumped in the writing transaction by every change of a
 *   client's credentials or state and by every change or removal of a bearer token, so an instance
 *   that reads it before trusting a caller it keeps in memory never serves a revoked credential.
 *   `last_used_at` moves no counter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('client_applications')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('created'))
    .execute();
  for (const column of [
    'revoked_at',
    'last_used_at',
    'previous_consumer_secret',
    'previous_secret_expires_at',
  ]) {
    await db.schema.alterTable('client_applications').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('bearer_tokens').addColumn('expires_at', 'text').execute();
  await sql`update client_applications set kind = 'demo' where name = 'Demo client (npm start)'`.execute(db);
  await sql`insert into data_revisions (scope, revision) values ('credentials', 0)`.execute(db);

  const run = (text: string) => sql.raw(text).execute(db);
  const watched =
    'company_id, name, consumer_key, consumer_secret, revoked_at, previous_consumer_secret, previous_secret_expires_at';
  if (isPostgres(db)) {
    await run(`create trigger data_revision_client_applications after update of ${watched} or delete
      on client_applications for each statement execute function data_revision_scopes('credentials')`);
    await run(`create trigger data_revision_bearer_tokens after update or delete on bearer_tokens
      for each statement execute function data_revision_scopes('credentials')`);
    return;
  }
  const bump = `update data_revisions set revision = revision + 1 where scope = 'credentials';`;
  await run(`create trigger data_revision_client_applications_update after update of ${watched}
    on client_applications begin ${bump} end`);
  await run(`create trigger data_revision_client_applications_delete after delete on client_applications
    begin ${bump} end`);
  for (const event of ['update', 'delete']) {
    await run(`create trigger data_revision_bearer_tokens_${event} after ${event} on bearer_tokens
      begin ${bump} end`);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  if (isPostgres(db)) {
    await run('drop trigger data_revision_client_applications on client_applications');
    await run('drop trigger data_revision_bearer_tokens on bearer_tokens');
  } else {
    for (const name of [
      'data_revision_client_applications_update',
      'data_revision_client_applications_delete',
      'data_revision_bearer_tokens_update',
      'data_revision_bearer_tokens_delete',
    ]) {
      await run(`drop trigger ${name}`);
    }
  }
  await sql`delete from data_revisions where scope = 'credentials'`.execute(db);
  await db.schema.alterTable('bearer_tokens').dropColumn('expires_at').execute();
  for (const column of [
    'kind',
    'revoked_at',
    'last_used_at',
    'previous_consumer_secret',
    'previous_secret_expires_at',
  ]) {
    await db.schema.alterTable('client_applications').dropColumn(column).execute();
  }
}
