import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import type { ClientKind, ClientListing } from '../auth/auth.ports';
import { AuthService, ROTATION_GRACE_HOURS, type NewClient } from '../auth/auth.service';
import type { SecretBox } from '../kernel/secret-box';
import type { Config } from '../config';
import { isUuid, normalizeId } from '../kernel/ids';
import type { Store } from '../store/database';
import { findCompany } from '../store/lookups';
import { SqlClientsRepository } from '../store/repositories/clients.repository';
import { SQLITE_TOKEN_MAX_AGE_MS } from '../store/repositories/revisions.repository';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock, type Clock } from '../kernel/clock';
import { CommandFailure, parseCommandArgs, UsageError, wholeNumberOption } from './args';
import { withMigratedStore } from './context';
import type { CliIo } from './io';

const MAX_NAME = 200;

const ACTIONS = ['create', 'list', 'revoke', 'rotate'] as const;
type Action = (typeof ACTIONS)[number];

/** The longest grace period `clients rotate --grace-hours` takes: a week. */
const MAX_GRACE_HOURS = 168;

/** A prefix of shell variable names, e.g. `UPSTREAM_`: letters, digits and underscores. */
const EXPORT_PREFIX = /^([A-Za-z_][A-Za-z0-9_]*)?$/;

/** `clients create|list|revoke|rotate`: client applications and their credentials. */
export async function clientsCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      action
        ? `unknown clients action "${action}" (${ACTIONS.join(', ')})`
        : `clients needs an action: ${ACTIONS.join(', ')}`,
    );
  }
  switch (action as Action) {
    case 'create':
      return createCommand(config, io, rest);
    case 'list':
      return listCommand(config, io, rest);
    case 'revoke':
      return revokeCommand(config, io, rest);
    case 'rotate':
      return rotateCommand(config, io, rest);
  }
}

/** The auth service of the command line: it issues and changes credentials, and verifies none. */
function authOf(store: Store, secrets: SecretBox, clock: Clock = systemClock): AuthService {
  // Only issuing credentials here, so the OAuth window is irrelevant.
  return new AuthService(new SqlClientsRepository(store.db, secrets), clock, 300);
}

/**
 * Returns once every running instance reads the change before it trusts a caller it keeps. On
 * PostgreSQL they read the `credentials` counter for every request already; on SQLite a service
 * reuses its read of the counters for SQLITE_TOKEN_MAX_AGE_MS while it writes nothing itself, so
 * the command waits that long (twice, for a margin) before it says the change holds.
 */
async function untilEveryInstanceSees(store: Store): Promise<void> {
  if (store.dialect !== 'postgres') await delay(2 * SQLITE_TOKEN_MAX_AGE_MS);
}

/** A client id argument: one UUID, or a usage error. */
function clientIdArgument(positionals: string[], action: string): string {
  const [id] = positionals;
  if (id === undefined) throw new UsageError(`clients ${action} needs a client id (clients list shows them)`);
  if (!isUuid(id)) throw new UsageError(`a client id is a UUID (clients list shows them), got "${id}"`);
  return normalizeId(id);
}

async function listCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { company: { type: 'string' }, json: { type: 'boolean' } }, 0);
  const company = values.company;
  if (company !== undefined && (typeof company !== 'string' || !isUuid(company)))
    throw new UsageError(`--company must be a company id (a UUID), got "${String(company)}"`);
  const clients = await withMigratedStore(config, io, (store) =>
    authOf(store, secretBoxFor(config.secrets), clockOf(io)).listClients(
      company === undefined ? undefined : normalizeId(company),
    ),
  );
  if (values.json) {
    io.out(JSON.stringify(clients.map(clientJson)));
    return 0;
  }
  if (clients.length === 0) {
    io.out(company === undefined ? 'no client applications' : `no client applications of company ${company}`);
    return 0;
  }
  const rows = [
    ['ID', 'NAME', 'COMPANY', 'KIND', 'CREATED', 'LAST USED', 'STATE'],
    ...clients.map((c) => [
      c.id,
      c.name,
      c.companyName,
      c.kind,
      minute(c.createdAt),
      c.lastUsedAt === null ? 'never' : minute(c.lastUsedAt),
      stateOf(c),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    io.out(
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
  return 0;
}

async function revokeCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, 1);
  const id = clientIdArgument(positionals, 'revoke');
  const revoked = await withMigratedStore(config, io, async (store) => {
    const auth = authOf(store, secretBoxFor(config.secrets), clockOf(io));
    const client = await auth.findClient(id);
    if (!client)
      throw new CommandFailure(`no client application ${id}: nothing was revoked (clients list shows them)`);
    if (client.revokedAt !== null)
      throw new CommandFailure(
        `client application ${id} was already revoked at ${client.revokedAt}: nothing changed`,
      );
    if (!(await auth.revokeClient(id)))
      throw new CommandFailure(`client application ${id} was revoked meanwhile: nothing changed`);
    await untilEveryInstanceSees(store);
    return (await auth.findClient(id))!;
  });
  if (values.json) io.out(JSON.stringify(clientJson(revoked)));
  else
    io.out(
      `revoked client application "${revoked.name}" (${revoked.id}) of ${revoked.companyName}: its bearer tokens and OAuth signatures are refused from now on, on every instance`,
    );
  return 0;
}

async function rotateCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { 'grace-hours': { type: 'string' }, json: { type: 'boolean' } },
    1,
  );
  const id = clientIdArgument(positionals, 'rotate');
  const graceHours =
    wholeNumberOption(values['grace-hours'], '--grace-hours', 0, MAX_GRACE_HOURS) ?? ROTATION_GRACE_HOURS;
  const { client, rotated } = await withMigratedStore(config, io, async (store) => {
    const auth = authOf(store, secretBoxFor(config.secrets), clockOf(io));
    const found = await auth.findClient(id);
    if (!found)
      throw new CommandFailure(`no client application ${id}: nothing was rotated (clients list shows them)`);
    if (found.revokedAt !== null)
      throw new CommandFailure(
        `client application ${id} was revoked at ${found.revokedAt}: a revoked client cannot be rotated; make a new one with clients create`,
      );
    const result = await auth.rotateClient(id, graceHours);
    if (!result) throw new CommandFailure(`client application ${id} changed meanwhile: nothing was rotated`);
    await untilEveryInstanceSees(store);
    return { client: (await auth.findClient(id))!, rotated: result };
  });
  if (values.json) {
    io.out(
      JSON.stringify({
        ...clientJson(client),
        consumer_secret: rotated.consumerSecret,
        bearer_token: rotated.bearerToken,
        previous_valid_until: graceHours === 0 ? null : rotated.graceUntil,
      }),
    );
    return 0;
  }
  io.out(`new credentials of client application "${client.name}" (${client.id}) of ${client.companyName}`);
  io.out(`  consumer key     ${client.consumerKey} (unchanged)`);
  io.out(`  consumer secret  ${rotated.consumerSecret}`);
  io.out(`  bearer token     ${rotated.bearerToken}`);
  if (graceHours === 0) io.out('The previous secret and bearer tokens are refused from now on.');
  else if (client.previousValidUntil === null)
    io.out(
      `The previous bearer tokens are accepted until ${rotated.graceUntil}; the previous secret could not be read (SECRETS_KEY) and is refused from now on.`,
    );
  else
    io.out(`The previous secret and bearer tokens are accepted until ${rotated.graceUntil}, then refused.`);
  io.out('The secret and the bearer token are shown only now: keep them somewhere safe.');
  return 0;
}

/** The command's clock: the io's "now" when it has one (tests fix it). */
function clockOf(io: CliIo): Clock {
  const now = io.now;
  return now === undefined ? systemClock : { now: () => now() };
}

function minute(instant: string): string {
  return `${instant.slice(0, 16).replace('T', ' ')}Z`;
}

function stateOf(client: ClientListing): string {
  if (client.revokedAt !== null) return `revoked ${minute(client.revokedAt)}`;
  if (client.previousValidUntil !== null)
    return `rotated, old credentials until ${minute(client.previousValidUntil)}`;
  return 'active';
}

function clientJson(client: ClientListing) {
  return {
    id: client.id,
    company_id: client.companyId,
    company_name: client.companyName,
    name: client.name,
    kind: client.kind,
    consumer_key: client.consumerKey,
    created_at: client.createdAt,
    last_used_at: client.lastUsedAt,
    revoked_at: client.revokedAt,
    previous_valid_until: client.previousValidUntil,
  };
}

/** `clients create --company <id> --name <name> [--json | --export <prefix>]`. */
async function createCommand(config: Config, io: CliIo, rest: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    rest,
    {
      company: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
      export: { type: 'string' },
    },
    0,
  );
  const exportPrefix = values.export;
  if (typeof exportPrefix === 'string' && !EXPORT_PREFIX.test(exportPrefix)) {
    throw new UsageError(
      `--export must be a prefix of shell variable names (A-Z, 0-9, _), got "${exportPrefix}"`,
    );
  }
  if (exportPrefix !== undefined && values.json)
    throw new UsageError('--json and --export cannot be used together');
  if (typeof values.company !== 'string' || values.company === '')
    throw new UsageError('--company <id> is required');
  if (typeof values.name !== 'string') throw new UsageError('--name <name> is required');
  const name = values.name.trim();
  if (name === '' || name.length > MAX_NAME) {
    throw new UsageError(`--name must be 1 to ${MAX_NAME} characters`);
  }
  if (!isUuid(values.company))
    throw new UsageError(`--company must be a company id (a UUID), got "${values.company}"`);

  const companyId = values.company;
  const created = await withMigratedStore(config, io, (store) =>
    createClient(store, secretBoxFor(config.secrets), companyId, name),
  );
  if (typeof exportPrefix === 'string') {
    io.out(exportLine(created.client, exportPrefix));
  } else if (values.json) {
    io.out(
      JSON.stringify({
        id: created.client.id,
        company_id: created.client.companyId,
        name: created.client.name,
        consumer_key: created.client.consumerKey,
        consumer_secret: created.client.consumerSecret,
        bearer_token: created.client.bearerToken,
      }),
    );
  } else {
    for (const line of credentialLines(created.client, created.companyName)) io.out(line);
    io.out('The secret and the bearer token are shown only now: keep them somewhere safe.');
  }
  return 0;
}

/** Makes a client application for an existing company; an unknown company is a CommandFailure. */
export async function createClient(
  store: Store,
  secrets: SecretBox,
  companyId: string,
  name: string,
  kind: ClientKind = 'created',
): Promise<{ client: NewClient; companyName: string }> {
  const id = normalizeId(companyId);
  const company = await findCompany(store, id);
  if (!company) throw new CommandFailure(`no company ${companyId}: load or seed data first, or check the id`);
  return {
    client: await authOf(store, secrets).createClient(company.id, name, kind),
    companyName: company.name,
  };
}

/**
 * One shell line for `eval "$(...)"`: the credentials as exported variables, e.g. with the prefix
 * `UPSTREAM_` the UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET a gateway reads.
 */
export function exportLine(client: NewClient, prefix: string): string {
  const pairs: Array<[string, string]> = [
    ['CONSUMER_KEY', client.consumerKey],
    ['CONSUMER_SECRET', client.consumerSecret],
  ];
  // A gateway signs with the key and secret and reads no UPSTREAM_BEARER_TOKEN; others may use it.
  if (prefix !== 'UPSTREAM_') pairs.push(['BEARER_TOKEN', client.bearerToken]);
  // The values are URL-safe tokens; quoted all the same, so the line stays one shell word each.
  return `export ${pairs.map(([name, value]) => `${prefix}${name}='${value}'`).join(' ')}`;
}

export function credentialLines(client: NewClient, companyName: string): string[] {
  return [
    `client application "${client.name}" of ${companyName} (company ${client.companyId})`,
    `  client id        ${client.id}`,
    `  consumer key     ${client.consumerKey}`,
    `  consumer secret  ${client.consumerSecret}`,
    `  bearer token     ${client.bearerToken}`,
  ];
}
