import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import { DnsHostResolver } from '../adapters/webhooks/http-webhook.transport';
import type { Config } from '../config';
import { DomainError, renderProblems, renderText, type Spelling } from '../kernel/errors';
import type { Clock } from '../kernel/clock';
import { isUuid, normalizeId } from '../kernel/ids';
import { hostOf, normalizeHost } from '../areas/webhooks/webhooks.addresses';
import { WebhooksService } from '../areas/webhooks/webhooks.service';
import type { WebhookDelivery, WebhookEndpoint } from '../areas/webhooks/webhooks.types';
import type { Store } from '../store/database';
import { findCompany } from '../store/lookups';
import { SqlWebhookEndpointsRepository } from '../areas/webhooks/webhooks.repository';
import { outboxRows } from '../areas/outbox/outbox.repository';
import { WEBHOOK_EVENT_TYPES } from '../modules';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { withMigratedStore } from './context';
import type { CliIo } from './io';

const ACTIONS = ['create', 'list', 'disable', 'enable', 'rotate-secret', 'replay'] as const;
type Action = (typeof ACTIONS)[number];

/** The command line's names of the endpoint command's fields. */
const CLI_NAMES: Record<string, string> = {
  url: '--url',
  eventTypes: '--events',
  description: '--description',
  id: '<id>',
};

const CLI_SPELLING: Spelling = {
  path: (path) =>
    path.reduce<string>((name, part) => {
      if (typeof part === 'number') return `${name}[${part}]`;
      const spelled = CLI_NAMES[part] ?? part;
      return name ? `${name}.${spelled}` : spelled;
    }, ''),
  field: (name) => CLI_NAMES[name] ?? name,
};

/**
 * `webhooks create|list|disable|enable|rotate-secret|replay`: an operator's hands on the webhook
 * endpoints of any company (client applications use GraphQL for their own company's).
 */
export async function webhooksCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      action
        ? `unknown webhooks action "${action}" (${ACTIONS.join(', ')})`
        : `webhooks needs an action: ${ACTIONS.join(', ')}`,
    );
  }
  const clock: Clock = { now: () => clockNow(io) };
  const service = (store: Store) =>
    new WebhooksService(
      new SqlWebhookEndpointsRepository(
        store.db,
        secretBoxFor(config.secrets),
        WEBHOOK_EVENT_TYPES,
        outboxRows,
      ),
      new DnsHostResolver(),
      clock,
      // A running server's worker finds replayed deliveries on its next poll.
      { announce: () => undefined },
      { allowHosts: config.webhooks.allowHosts, eventTypes: WEBHOOK_EVENT_TYPES },
    );
  try {
    switch (action as Action) {
      case 'create':
        return await create(config, io, rest, service);
      case 'list':
        return await list(config, io, rest, service);
      case 'disable':
      case 'enable':
      case 'rotate-secret':
        return await change(config, io, action as 'disable' | 'enable' | 'rotate-secret', rest, service);
      case 'replay':
        return await replay(config, io, rest, service);
    }
  } catch (error) {
    if (error instanceof DomainError) throw refusal(error);
    throw error;
  }
}

type ServiceOf = (store: Store) => WebhooksService;

function clockNow(io: CliIo): Date {
  return io.now?.() ?? new Date();
}

async function create(config: Config, io: CliIo, argv: string[], service: ServiceOf): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      company: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      json: { type: 'boolean' },
    },
    0,
  );
  const companyId = companyOption(values.company);
  if (typeof values.url !== 'string') throw new UsageError('--url <url> is required');
  if (typeof values.events !== 'string') throw new UsageError('--events <type,type,...> is required');
  const eventTypes = values.events.split(',').map((type) => type.trim());
  const description = typeof values.description === 'string' ? values.description : null;
  const { created, companyName } = await withMigratedStore(config, io, async (store) => {
    const company = await requireCompany(store, companyId);
    const made = await service(store).createEndpoint(company.id, {
      url: values.url as string,
      eventTypes,
      description,
    });
    return { created: made, companyName: company.name };
  });
  const note = allowHostsNote(created.endpoint, config.webhooks.allowHosts);
  if (note) io.err(note);
  if (values.json) {
    io.out(JSON.stringify({ ...endpointJson(created.endpoint), secret: created.secret }));
    return 0;
  }
  io.out(`webhook endpoint ${created.endpoint.id} of ${companyName} (company ${created.endpoint.companyId})`);
  for (const line of endpointLines(created.endpoint, clockNow(io))) io.out(line);
  io.out(`  secret       ${created.secret}`);
  io.out('The secret is shown only now: keep it somewhere safe; receivers verify each delivery with it.');
  return 0;
}

async function list(config: Config, io: CliIo, argv: string[], service: ServiceOf): Promise<number> {
  const { values } = parseCommandArgs(argv, { company: { type: 'string' }, json: { type: 'boolean' } }, 0);
  const companyId = companyOption(values.company);
  const endpoints = await withMigratedStore(config, io, async (store) => {
    const company = await requireCompany(store, companyId);
    return service(store).endpointsOfCompany(company.id);
  });
  if (values.json) {
    io.out(JSON.stringify(endpoints.map(endpointJson)));
    return 0;
  }
  if (endpoints.length === 0) io.out(`no webhook endpoints for company ${normalizeId(companyId)}`);
  for (const endpoint of endpoints) {
    io.out(`webhook endpoint ${endpoint.id}`);
    for (const line of endpointLines(endpoint, clockNow(io))) io.out(line);
  }
  return 0;
}

async function change(
  config: Config,
  io: CliIo,
  action: 'disable' | 'enable' | 'rotate-secret',
  argv: string[],
  service: ServiceOf,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, 1);
  const id = positionals[0];
  if (id === undefined) throw new UsageError(`webhooks ${action} needs an endpoint id`);
  const result = await withMigratedStore(config, io, async (store) => {
    const webhooks = service(store);
    if (action === 'rotate-secret') return webhooks.rotateSecret('operator', id);
    const endpoint =
      action === 'disable' ? await webhooks.disable('operator', id) : await webhooks.enable('operator', id);
    return { endpoint, secret: null };
  });
  if (values.json) {
    io.out(
      JSON.stringify({
        ...endpointJson(result.endpoint),
        ...(result.secret ? { secret: result.secret } : {}),
      }),
    );
    return 0;
  }
  io.out(`webhook endpoint ${result.endpoint.id}`);
  for (const line of endpointLines(result.endpoint, clockNow(io))) io.out(line);
  if (result.secret) {
    io.out(`  secret       ${result.secret}`);
    io.out(
      `The new secret is shown only now. Until ${result.endpoint.previousSecretExpiresAt} each delivery is signed with the old one too.`,
    );
  }
  return 0;
}

async function replay(config: Config, io: CliIo, argv: string[], service: ServiceOf): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, 1);
  const id = positionals[0];
  if (id === undefined) throw new UsageError('webhooks replay needs a delivery id (the webhook-id)');
  const delivery = await withMigratedStore(config, io, (store) => service(store).replay('operator', id));
  if (values.json) io.out(JSON.stringify(deliveryJson(delivery)));
  else
    io.out(
      `delivery ${delivery.id} (${delivery.eventType}) queued again for endpoint ${delivery.endpointId}`,
    );
  return 0;
}

function companyOption(raw: string | boolean | undefined): string {
  if (typeof raw !== 'string' || raw === '') throw new UsageError('--company <id> is required');
  if (!isUuid(raw)) throw new UsageError(`--company must be a company id (a UUID), got "${raw}"`);
  return raw;
}

async function requireCompany(store: Store, companyId: string): Promise<{ id: string; name: string }> {
  const company = await findCompany(store, normalizeId(companyId));
  if (!company) throw new CommandFailure(`no company ${companyId}: load or seed data first, or check the id`);
  return company;
}

function refusal(error: DomainError): CommandFailure {
  const problems = renderProblems(error.problems, CLI_SPELLING).map((p) => `${p.parameter}: ${p.message}`);
  if (error.kind === 'not_found') {
    // "no webhook endpoint <id>": the id is the command's only argument.
    return new CommandFailure(renderText(error.text, { ...CLI_SPELLING, path: () => '' }).replace(/^: /, ''));
  }
  return new CommandFailure(
    error.kind === 'invalid_parameter' ? 'refused, nothing was written:' : 'refused:',
    problems.length > 0 ? problems : [error.message],
  );
}

/** Enabled or not, and why: failing since when, disabled by hand or by the service for failing. */
function stateOf(endpoint: WebhookEndpoint): string {
  if (endpoint.disabledAt === null) {
    return endpoint.failingSince ? `enabled, failing since ${endpoint.failingSince}` : 'enabled';
  }
  if (endpoint.disabledReason !== 'failing') return `disabled by hand at ${endpoint.disabledAt}`;
  const since = endpoint.failingSince ? ` since ${endpoint.failingSince}` : '';
  return `disabled at ${endpoint.disabledAt} after failing${since} (WEBHOOK_DISABLE_AFTER_HOURS); \`enable\` delivers again`;
}

/** The secret rotation still under way at `now`: the old secret signs too until it expires. */
function rotationOf(endpoint: WebhookEndpoint, now: Date): string | null {
  const until = endpoint.previousSecretExpiresAt;
  if (until === null || Date.parse(until) <= now.getTime()) return null;
  return `rotated at ${endpoint.secretRotatedAt}; the old secret signs too until ${until}`;
}

function endpointLines(endpoint: WebhookEndpoint, now: Date): string[] {
  const rotation = rotationOf(endpoint, now);
  return [
    `  url          ${endpoint.url}`,
    `  events       ${endpoint.eventTypes.join(', ')}`,
    ...(endpoint.description ? [`  description  ${endpoint.description}`] : []),
    `  state        ${stateOf(endpoint)}`,
    ...(rotation ? [`  rotation     ${rotation}`] : []),
    `  created      ${endpoint.createdAt}`,
  ];
}

/**
 * The note after an endpoint that WEBHOOK_ALLOW_HOSTS let in (plain http, a private address): the
 * command read this environment's list, but each delivery is checked by the running service's.
 */
function allowHostsNote(endpoint: WebhookEndpoint, allowHosts: readonly string[]): string | null {
  const host = hostOf(new URL(endpoint.url));
  if (!allowHosts.some((allowed) => normalizeHost(allowed) === host)) return null;
  return (
    `note: ${host} is in WEBHOOK_ALLOW_HOSTS of this command's environment; deliveries go only if ` +
    `the running service's WEBHOOK_ALLOW_HOSTS names it too (set it there and restart it, or they fail)`
  );
}

function endpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    company_id: endpoint.companyId,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    enabled: endpoint.disabledAt === null,
    disabled_at: endpoint.disabledAt,
    disabled_reason: endpoint.disabledReason,
    failing_since: endpoint.failingSince,
    created_at: endpoint.createdAt,
    secret_rotated_at: endpoint.secretRotatedAt,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt,
  };
}

function deliveryJson(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt,
  };
}
