import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import { AuthService, type NewClient } from '../auth/auth.service';
import type { SecretBox } from '../kernel/secret-box';
import type { Config } from '../config';
import { isUuid, normalizeId } from '../kernel/ids';
import type { Store } from '../store/database';
import { findCompany } from '../store/lookups';
import { SqlClientsRepository } from '../store/repositories/clients.repository';
import { systemClock } from '../kernel/clock';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { withMigratedStore } from './context';
import type { CliIo } from './io';

const MAX_NAME = 200;

/** A prefix of shell variable names, e.g. `UPSTREAM_`: letters, digits and underscores. */
const EXPORT_PREFIX = /^([A-Za-z_][A-Za-z0-9_]*)?$/;

/** `clients create --company <id> --name <name> [--json | --export <prefix>]`. */
export async function clientsCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== 'create') {
    throw new UsageError(
      action ? `unknown clients action "${action}" (only "create")` : 'clients needs an action: create',
    );
  }
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
): Promise<{ client: NewClient; companyName: string }> {
  const id = normalizeId(companyId);
  const company = await findCompany(store, id);
  if (!company) throw new CommandFailure(`no company ${companyId}: load or seed data first, or check the id`);
  // Only issuing credentials here, so the OAuth window is irrelevant.
  const auth = new AuthService(new SqlClientsRepository(store.db, secrets), systemClock, 300);
  return { client: await auth.createClient(company.id, name), companyName: company.name };
}

/**
 * One shell line for `eval "$(...)"`: the credentials as exported variables, e.g. with the prefix
 * `UPSTREAM_` the UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET a gateway reads.
 */
export function exportLine(client: NewClient, prefix: string): string {
  const pairs: Array<[string, string]> = [
    ['CONSUMER_KEY', client.consumerKey],
    ['CONSUMER_SECRET', client.consumerSecret],
    ['BEARER_TOKEN', client.bearerToken],
  ];
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
