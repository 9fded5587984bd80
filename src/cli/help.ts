/**
 * Each command's own help (`facility-ops <command> --help`, `facility-ops help <command>`):
 * what it does, its options, what it needs and what it prints. Exit status 0.
 */
const ENVIRONMENT =
  'Environment: DATABASE_URL (sqlite:<path> or postgres://..., default sqlite:./data/facility-ops.db).';

export const COMMAND_HELP: Record<string, string> = {
  start: `Usage: facility-ops start [--port N] [--host H]

Migrates the database; when it is empty (and NODE_ENV is not production) loads the demo data,
makes a demo client application, prints its bearer token and OAuth consumer key and secret, and
writes ready-to-paste curl commands for every endpoint to data/first-requests.md (next to a SQLite
database file). Then serves HTTP like \`serve\`. Later starts keep the data and print the URL.
--port N and --host H listen there instead of on PORT and HOST.

${ENVIRONMENT}
HOST (127.0.0.1), PORT (3000), LOG_LEVEL, NODE_ENV, and the rest in docs/operations.md.`,

  serve: `Usage: facility-ops serve [--port N] [--host H]

Serves REST (/v1) and GraphQL (/graphql) on HOST:PORT until SIGTERM or SIGINT; requests in flight
finish, then the database is closed. Does not migrate: run \`migrate\` first (\`start\` does both).
Stored listings written by another release's code are rebuilt before it listens; a database
migrated by a newer release is refused in one line naming the migration.

Options:
  --port N   Listen on port N (0: any free port) instead of PORT.
  --host H   Listen on address H instead of HOST.

${ENVIRONMENT}
HOST (127.0.0.1), PORT (3000), LOG_LEVEL, NODE_ENV, and the rest in docs/operations.md.`,

  migrate: `Usage: facility-ops migrate

Brings the database to the latest schema, then rebuilds the stored listings written by another
release's code (\`listings\`); running it again changes nothing. A database migrated by a newer
release (a migration this one does not know) is refused in one line naming the migration.

${ENVIRONMENT}`,

  backup: `Usage: facility-ops backup <file>

Copies the SQLite database to <file> with SQLite's online backup API while the service runs and
writes: the copy holds every write committed before it and none half. It is written to a
temporary file in the same folder, then renamed: a failure (an unwritable folder) leaves nothing.
On PostgreSQL, use pg_dump (docs/operations.md#backups).

${ENVIRONMENT}`,

  restore: `Usage: facility-ops restore <file>

Puts a backup made by \`backup\` in place of the SQLite database. The service must be stopped: while
any process has the database open it refuses and changes nothing (exit 1). A backup made by a
newer release is refused. Run \`migrate\` after it (\`start\` does). On PostgreSQL, use pg_restore
(docs/operations.md#backups).

${ENVIRONMENT}`,

  listings: `Usage: facility-ops listings status|rebuild [--all]

The store keeps each item's and rate change's listing (its contract JSON), written by the code of
a release; each table's listings carry that code's version. \`status\` shows the version stored, the
one this release writes, and a rebuild under way or stopped. \`rebuild\` rewrites the stale ones
(--all: every one) in short batches, so the service keeps answering; a stopped rebuild resumes
where it left off, and a second run does nothing. \`migrate\` rebuilds stale listings, and \`serve\`
does before it listens.

${ENVIRONMENT}`,

  import: `Usage: facility-ops import <file>

Loads a dataset file (JSON, as dataset.schema.json describes). The whole file is checked first,
and every problem is reported in one pass (schema, references, duplicate ids); a refused file
changes nothing (exit status 1). Records are keyed by id: importing again updates them. May run
while a server uses the same database.

${ENVIRONMENT}`,

  seed: `Usage: facility-ops seed [--scale N] [--today YYYY-MM-DD] [--out <file>]

Generates the deterministic demo data (the same for the same scale and date) and loads it, or
with --out writes it as a dataset file instead.

Options:
  --scale N            Multiplies the data, 1 to 1000 (default 1; 100 is about three million records).
  --today YYYY-MM-DD   The date the data is built around (default: the current UTC date). On
                       today's date nothing is dated after now in any facility's zone.
  --out <file>         Write the dataset to <file> instead of loading it.

On SQLite the seed needs the file to itself (it loads in one fast transaction without WAL or
indexes): while a server has the file open it refuses and writes nothing (exit 1). Stop the
server first, or write the data with --out and load it with \`import\`, which can run beside it.

${ENVIRONMENT}`,

  clients: `Usage: facility-ops clients create --company <id> --name <name> [--json | --export <prefix>]
       facility-ops clients list [--company <id>] [--json]
       facility-ops clients revoke <client id> [--json]
       facility-ops clients rotate <client id> [--grace-hours N] [--json]

Client applications: their OAuth 1.0 consumer key and secret and their bearer tokens
(docs/operations.md#client-applications).

  create   Makes a client application of an existing company and prints its consumer key and
           secret and a bearer token, shown only this once.
  list     Client applications, oldest first, never their secrets: id, name, company, kind (demo,
           created, imported), created, last used (to the minute) and state (active, rotated with
           the end of the old credentials' grace period, revoked).
  revoke   Refuses the client's bearer tokens and OAuth signatures from now on, on every running
           instance at once. It cannot be undone; make a new client instead.
  rotate   Makes the client a new consumer secret and bearer token (the consumer key stays),
           printed only now; the old secret and tokens are accepted for 24 hours more (or
           --grace-hours, 0 to 168), then refused.

An unknown client, revoking a revoked client or rotating one: one line, exit status 1, nothing
changed. These commands write only the local database: no upstream credentials are needed.

Options:
  --company <id>      The company's id (a UUID); \`start\` prints the demo company's.
  --name <name>       What to call the application, 1 to 200 characters.
  --grace-hours N     rotate: how long the old credentials are still accepted (default 24).
  --json              Print one JSON object (list: an array).
  --export <prefix>   create: print one shell line for eval: export <prefix>CONSUMER_KEY=...
                      <prefix>CONSUMER_SECRET=... <prefix>BEARER_TOKEN=... (with UPSTREAM_, only
                      the key and secret, the credentials a gateway reads; docs/gateway.md).

${ENVIRONMENT}`,

  documents: `Usage: facility-ops documents load --client <id> <manifest.json>
       facility-ops documents list --client <id> [--json]

The GraphQL documents a client application's front end is known to send (docs/graphql.md#trusted-documents).

  load   Reads a persisted-documents manifest ({ "<sha256 hex>": "<document text>" }, as GraphQL
         Code Generator's client preset writes it with persistedDocuments), checks every document
         (its id is the SHA-256 of its text; it parses and validates against the schema, within
         the query limits) and adds the client's new ones. A manifest with any problem is refused
         whole and nothing is written (exit 1). Loading again adds only what is new.
  list   The client's documents: id, operation names and when each was loaded.

Options:
  --client <id>   The client application's id (facility-ops clients create prints it).
  --json          list: one JSON array.

The running service answers new documents at once, or within 5 s for an id it was asked for just
before (TRUSTED_DOCUMENTS=allow or require).

${ENVIRONMENT}`,

  webhooks: `Usage: facility-ops webhooks create --company <id> --url <url> --events <type,...>
                                  [--description <text>] [--json]
       facility-ops webhooks list --company <id> [--json]
       facility-ops webhooks disable <endpoint id> [--json]
       facility-ops webhooks enable <endpoint id> [--json]
       facility-ops webhooks rotate-secret <endpoint id> [--json]
       facility-ops webhooks replay <delivery id> [--json]

Webhook endpoints of a company: events are POSTed to them as they happen, signed per Standard
Webhooks (docs/webhooks.md).

  create          Registers an endpoint and prints its signing secret (whsec_...), shown only
                  this once. The URL must be https and reach a public address, except for hosts
                  in WEBHOOK_ALLOW_HOSTS. Nothing is written when anything is refused (exit 1).
                  Deliveries follow the running service's WEBHOOK_ALLOW_HOSTS, not this command's.
  list            The company's endpoints, oldest first (never their secrets), each with its
                  state: enabled, failing since when, disabled and why, secret rotation pending.
  disable         Stops deliveries to the endpoint.
  enable          Delivers to it again (also after the service disabled it for failing).
  rotate-secret   Makes a new secret, printed only now; for 24 hours each delivery carries a
                  signature with the old secret too.
  replay          Sends a delivery again (same webhook-id and body) on the next worker run.

Options:
  --company <id>          The company's id (a UUID).
  --url <url>             Where deliveries go.
  --events <type,...>     Comma-separated: payment.succeeded, note.created, esign.sent,
                          esign.delivered, esign.failed, document.viewed, document.signed,
                          move_in.reviewed.
  --description <text>    What the endpoint is for, at most 500 characters.
  --json                  Print the answer as JSON.

${ENVIRONMENT} WEBHOOK_ALLOW_HOSTS (hosts allowed over http and at private addresses).`,

  seal: `Usage: facility-ops seal show [--json]
       facility-ops seal rotate [--json]
       facility-ops seal rotate --discard-unreadable [--json]

The certificate that seals every signed PDF (docs/documents-and-esign.md#the-seal).

  show     Prints the sealing certificate's subject, SHA-256 fingerprint (as the certificate page
           of each signed PDF, pdfsig -dump with openssl, and Acrobat show it) and expiry: the
           operator's (SEAL_P12_FILE), or the installation's own, made now if there is none yet.
  rotate   Makes the installation's next certificate; new files are sealed with it (running
           instances take it when restarted). Files sealed before stay valid: each embeds its
           certificate. With SEAL_P12_FILE, rotate by replacing the file instead.
           --discard-unreadable: the way out of a lost SECRETS_KEY (docs/operations.md#a-lost-secrets_key).
           Discards the private keys no given key opens (their certificates stay, so files
           sealed before still verify), makes the next certificate, and names the client and
           webhook secrets to rotate. Against a healthy seal: one line, exit 1, nothing changed.

Options:
  --json                 Print the certificate as one JSON object.
  --discard-unreadable   rotate: see above.

${ENVIRONMENT} SEAL_P12_FILE, SEAL_P12_PASSPHRASE, SEAL_KEY_PASSPHRASE.`,

  sign: `Usage: facility-ops sign [--method M] [--json <body>] [--consumer-key K --consumer-secret S] <url>

Prints one curl line for the URL, signed with one-legged OAuth 1.0 (HMAC-SHA1) as the legacy SDKs
sign: a nonce and the current time, the URL's query parameters in the signature, the header ready
to paste. Run it at once (eval "$(npx facility-ops sign ...)"): the service accepts a signature for
OAUTH_WINDOW_SECONDS (300) and each nonce once. Reads no database (docs/rest.md#oauth-10).

Options:
  --method M           GET (the default; POST with --json), POST, PUT, PATCH or DELETE.
  --json <body>        A JSON body to send (JSON bodies are not part of an OAuth 1.0 signature).
  --consumer-key K     The client's consumer key; else CONSUMER_KEY.
  --consumer-secret S  The client's consumer secret; else CONSUMER_SECRET.
                       eval "$(npx facility-ops clients create --company <id> --name <name> --export '')"
                       sets CONSUMER_KEY, CONSUMER_SECRET and BEARER_TOKEN.`,

  config: `Usage: facility-ops config

Prints every setting the service reads, one a line, in the order they are checked: its name, the
value \`serve\` would take (a secret as ********, a URL's password as ***), and \`set\` (from the
environment), \`default\` or \`unused\` (read only in the other mode: gateway mode's UPSTREAM_*
settings without UPSTREAM_URL). A bad setting is refused as at start: one line naming it, exit 2.
Each setting is described in docs/operations.md#configuration.`,

  help: `Usage: facility-ops help [<command>]

Shows the commands, or one command's help (the same as \`facility-ops <command> --help\`).`,

  secrets: `Usage: facility-ops secrets status
       facility-ops secrets rotate-key
       facility-ops secrets encrypt [--company <id>] < secret.txt

Secrets at rest (docs/operations.md#secrets-at-rest): consumer secrets and webhook signing
secrets are stored encrypted (AES-256-GCM) under SECRETS_KEY.

  status       How secrets are kept, and how many stored values are in clear and under each key.
  rotate-key   Seals every stored secret again under SECRETS_KEY (opening old values with
               SECRETS_KEY_PREVIOUS), while the service runs. A value that cannot be opened is
               named (table, column, row) and nothing is written (exit 1).
  encrypt      Reads a gateway upstream consumer secret from standard input and prints it sealed
               (enc:v1:...), for UPSTREAM_CREDENTIALS_FILE (--company <id>: that company's entry)
               or, without --company, UPSTREAM_CONSUMER_SECRET. The secret is never printed.

${ENVIRONMENT} SECRETS_KEY or SECRETS_KEY_FILE, SECRETS_KEY_PREVIOUS.`,
};

/** True when the arguments ask for help (`--help` or `-h` before any `--`). */
export function asksForHelp(argv: string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * What a usage error of `command` prints: its synopsis (the help's first paragraph) and where its
 * whole help is; null for what is not a command.
 */
export function commandUsage(command: string | undefined): string | null {
  if (command === undefined || command === 'help' || !Object.hasOwn(COMMAND_HELP, command)) return null;
  const [synopsis] = COMMAND_HELP[command].split('\n\n');
  return `${synopsis}\n\nMore: facility-ops ${command} --help`;
}
