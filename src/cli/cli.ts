import { ConfigError, loadConfig, redactUrl, type Config } from '../config';
import { DatasetError } from '../store/dataset/dataset.import';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { backupCommand, restoreCommand } from './backup.command';
import { clientsCommand } from './clients.command';
import { configCommand } from './config.command';
import { documentsCommand } from './documents.command';
import { importCommand } from './import.command';
import { asksForHelp, COMMAND_HELP, commandUsage } from './help';
import type { CliIo } from './io';
import { listingsCommand } from './listings.command';
import { migrateCommand } from './migrate.command';
import { sealCommand } from './seal.command';
import { secretsCommand } from './secrets.command';
import { seedCommand } from './seed.command';
import { serveCommand } from './serve.command';
import { signCommand } from './sign.command';
import { startCommand } from './start.command';
import { webhooksCommand } from './webhooks.command';

export const USAGE = `Usage: facility-ops <command> [options]

Commands:
  start [--port N] [--host H]
                             Migrate; on an empty database (outside production) load the demo data
                             and make a demo client application, printing its credentials and two
                             curl commands (first start only: later starts say how to make new
                             credentials); then serve.
  serve [--port N] [--host H]
                             Serve HTTP on HOST:PORT (--host, --port) until SIGTERM or SIGINT, which let requests in
                             flight finish before the database is closed.
  migrate                    Bring the database to the latest schema.
  import <file>              Load a dataset file (dataset.schema.json), validated as a whole; a bad
                             file changes nothing. Records are keyed by id: importing again updates.
  seed [--scale N] [--today YYYY-MM-DD] [--out <file>]
                             Generate the deterministic demo data (the same for the same scale and
                             date; --today defaults to the current UTC date) and load it, or with
                             --out write it as a dataset file instead. --scale multiplies it.
  clients create --company <id> --name <name> [--json | --export <prefix>]
                             Make a client application; prints its consumer key and secret and a
                             bearer token, shown only this once.
  clients list [--company <id>] [--json]
  clients revoke|rotate <client id> [--grace-hours N] [--json]
                             List client applications (kind, created, last used, state); refuse
                             one's credentials from now on, on every instance; or make it a new
                             secret and token (the old ones are accepted for 24 hours more).
  documents load --client <id> <manifest.json>
  documents list --client <id> [--json]
                             Load a client application's persisted-documents manifest (GraphQL
                             Code Generator's client preset writes it), each document checked
                             against the schema first; list the documents it holds.
  webhooks create --company <id> --url <url> --events <type,...> [--description <text>] [--json]
                             Register a webhook endpoint of a company; prints its signing secret,
                             shown only this once.
  webhooks list --company <id> [--json]
  webhooks disable|enable|rotate-secret <endpoint id> [--json]
  webhooks replay <delivery id>
                             List, disable, enable an endpoint, make it a new secret (the old one
                             signs too for 24 hours), or send a delivery again.
  seal show|rotate [--json] [--discard-unreadable]
                             Show the certificate that seals signed PDFs and its SHA-256 fingerprint
                             (the installation's own is made if there is none yet), or make the
                             installation's next one, which seals new files from then on;
                             --discard-unreadable recovers from a lost SECRETS_KEY.
  secrets status|rotate-key  How stored secrets are kept (SECRETS_KEY); seal every stored secret
                             again under the current key, while the service runs.
  secrets encrypt [--company <id>]
                             Seal a gateway upstream secret read from standard input.
  backup <file>              Copy the SQLite database to <file> while it is in use (SQLite's online
                             backup); on PostgreSQL use pg_dump (docs/operations.md#backups).
  restore <file>             Put a backup in place of the SQLite database; the service must be
                             stopped. Run \`migrate\` after it.
  listings status|rebuild [--all]
                             The version of the stored listings (each record's contract JSON) and
                             the one this release writes; rebuild the stale ones (--all: every one)
                             in batches, while the service runs. \`migrate\` and \`serve\` do it too.
  sign [--method M] [--json <body>] <url>
                             Print a curl line for the URL signed with OAuth 1.0 (HMAC-SHA1), with
                             CONSUMER_KEY and CONSUMER_SECRET (or --consumer-key, --consumer-secret).
  config                     Print every setting as serve would take it (secrets masked), and
                             whether it was set or defaulted; a bad one is refused as at start.
  help [<command>]           Show this text, or one command's help (also <command> --help).

import, seed, clients, documents, webhooks and seal bring the schema up to date first.

Environment: DATABASE_URL (sqlite:<path> or postgres://..., default sqlite:./data/facility-ops.db),
HOST (127.0.0.1), PORT (3000), LOG_LEVEL, NODE_ENV, SECRETS_KEY or SECRETS_KEY_FILE (the key
stored secrets are encrypted under; docs/operations.md#secrets-at-rest).

Exit status: 0 done, 1 failed (refused data, unknown company, ...), 2 bad usage or configuration.`;

/** Problems of a refused dataset shown before "... and N more". */
const SHOWN_PROBLEMS = 50;

/** Runs one command line (without `node` and the script) and answers the exit status. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command !== undefined && Object.hasOwn(COMMAND_HELP, command) && asksForHelp(rest)) {
      io.out(COMMAND_HELP[command]);
      return 0;
    }
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      case 'help': {
        const { positionals } = parseCommandArgs(rest, {}, 1);
        const topic = positionals[0];
        if (topic === undefined) io.out(USAGE);
        else if (Object.hasOwn(COMMAND_HELP, topic)) io.out(COMMAND_HELP[topic]);
        else throw new UsageError(`no help for "${topic}": it is not a command`);
        return 0;
      }
      case 'migrate':
        parseCommandArgs(rest, {}, 0);
        return await migrateCommand(config(io), io);
      case 'import': {
        const { positionals } = parseCommandArgs(rest, {}, 1);
        if (positionals.length === 0) throw new UsageError('import needs a file: facility-ops import <file>');
        return await importCommand(config(io), io, positionals[0]);
      }
      case 'seed':
        return await seedCommand(config(io), io, rest);
      case 'backup':
        return await backupCommand(config(io), io, rest);
      case 'restore':
        return await restoreCommand(config(io), io, rest);
      case 'listings':
        return await listingsCommand(config(io), io, rest);
      case 'clients':
        return await clientsCommand(config(io), io, rest);
      case 'webhooks':
        return await webhooksCommand(config(io), io, rest);
      case 'documents':
        return await documentsCommand(config(io), io, rest);
      case 'seal':
        return await sealCommand(config(io), io, rest);
      case 'secrets':
        return await secretsCommand(config(io), io, rest);
      case 'sign':
        return signCommand(io, rest);
      case 'config':
        return configCommand(io, rest);
      case 'serve':
        return await serveCommand(listenConfig(io, rest), io);
      case 'start':
        return await startCommand(listenConfig(io, rest), io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return report(error, io, command);
  }
}

/** `serve` and `start`: `--port` and `--host` stand for PORT and HOST, and are checked as they are. */
function listenConfig(io: CliIo, argv: string[]): Config {
  const { values } = parseCommandArgs(argv, { port: { type: 'string' }, host: { type: 'string' } }, 0);
  const env = { ...io.env };
  if (typeof values.port === 'string') env.PORT = values.port;
  if (typeof values.host === 'string') env.HOST = values.host;
  return config({ ...io, env }, false);
}

/** The settings; `local`: the command writes only the local database, so it needs no upstream credentials. */
function config(io: CliIo, local = true): Config {
  return loadConfig(io.env, { upstreamCredentials: !local });
}

/** Says what went wrong; a usage error shows the command's own usage, or the global one. */
function report(error: unknown, io: CliIo, command: string | undefined): number {
  if (error instanceof UsageError) {
    io.err(`facility-ops: ${error.message}`);
    io.err('');
    io.err(commandUsage(command) ?? USAGE);
    return 2;
  }
  if (error instanceof ConfigError) {
    io.err('facility-ops: invalid configuration:');
    for (const problem of error.problems) io.err(`  ${problem}`);
    return 2;
  }
  if (error instanceof DatasetError) {
    const count = error.problems.length;
    io.err(`facility-ops: dataset refused, nothing was written (${count} problem${count === 1 ? '' : 's'}):`);
    for (const problem of error.problems.slice(0, SHOWN_PROBLEMS)) io.err(`  ${problem}`);
    if (count > SHOWN_PROBLEMS) io.err(`  ... and ${count - SHOWN_PROBLEMS} more`);
    return 1;
  }
  if (error instanceof CommandFailure) {
    io.err(`facility-ops: ${error.message}`);
    for (const detail of error.details) io.err(`  ${detail}`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  const database = io.env.DATABASE_URL ?? '';
  if (/^postgres(ql)?:/i.test(database) && databaseUnreachable(error)) {
    io.err(
      `facility-ops: DATABASE_URL: PostgreSQL at ${redactUrl(database)} does not answer (${message.replace(/^Error: /, '')}): is it running, and is DATABASE_URL right?`,
    );
    return 1;
  }
  io.err(`facility-ops: ${message}`);
  const hint = nativeModuleHint(error);
  if (hint !== null) io.err(hint);
  if (io.env.DEBUG && error instanceof Error && error.stack) io.err(error.stack);
  return 1;
}

/** Network failures of a connection (an AggregateError of several addresses included). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

/** Whether the error is a database that could not be reached, not one that answered. */
function databaseUnreachable(error: unknown): boolean {
  const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;
  const code = codeOf(error);
  if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some((e) => UNREACHABLE.has(String(codeOf(e))));
  return error instanceof Error && /timeout expired|connection timeout/i.test(error.message);
}

/**
 * After a change of Node.js, `npm ci` can keep a native addon (better-sqlite3's) built for another
 * ABI, which fails to load with ERR_DLOPEN_FAILED naming NODE_MODULE_VERSION: says what to run.
 */
export function nativeModuleHint(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (
    code !== 'ERR_DLOPEN_FAILED' &&
    !/NODE_MODULE_VERSION|was compiled against a different Node\.js/.test(message)
  )
    return null;
  return `  a native module was built for another Node.js than this one (${process.version}, NODE_MODULE_VERSION ${process.versions.modules}): run \`npm rebuild\` with this Node.js, then try again`;
}
