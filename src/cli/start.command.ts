import path from 'node:path';
import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import type { NewClient } from '../auth/auth.service';
import type { Config } from '../config';
import { openStore, type Store } from '../store/database';
import { findCompany, hasAnyCompany } from '../store/lookups';
import { demoDirectory, type DemoCompany } from '../store/seed/demo-data';
import { createClient, credentialLines } from './clients.command';
import { describeDatabase, migrate, secretsStorageLine } from './context';
import { writeFirstRequests } from './first-requests';
import type { CliIo } from './io';
import { startConfiguredTracing } from './tracing';
import { asOfNow, printSeedResult, seed, utcToday } from './seed.command';
import { servingStore, startServer, waitAndStop, type RunningServer } from './serve.command';

const DEMO_CLIENT_NAME = 'Demo client (npm start)';
const DAY_MS = 86_400_000;

interface DemoState {
  company: DemoCompany;
  /** Made on this start (the first one); later starts cannot show its secret or token again. */
  client: NewClient | null;
}

/**
 * `start`: migrate; on an empty database outside production, load the demo data (scale 1) and make a
 * demo client application, printing its credentials and two curl commands; then serve.
 */
export async function startCommand(config: Config, io: CliIo): Promise<number> {
  // Before the store opens: its statements become spans only when tracing is on by then.
  const tracing = startConfiguredTracing(config);
  let store = openStore(config.databaseUrl);
  let server: RunningServer;
  let demo: DemoState | null;
  try {
    await migrate(store, config, io);
    demo = await ensureDemoData(store, config, io);
    store = await servingStore(config, store);
    server = await startServer(config, store, io);
  } catch (error) {
    await store.close();
    await tracing?.stop();
    throw error;
  }
  const today = utcToday(io);
  const requestsFile = demo ? await writeFirstRequests(store, config, demo.company, server.url, today) : null;
  // Heard from before the banner: whoever reads it may stop the service at once (Ctrl-C).
  void io.stopRequested();
  io.out(secretsStorageLine(config));
  for (const line of bannerLines(server.url, demo, today, requestsFile)) io.out(line);
  await waitAndStop(server, io);
  // Spans of the last requests leave before the process does.
  await tracing?.stop();
  return 0;
}

async function ensureDemoData(store: Store, config: Config, io: CliIo): Promise<DemoState | null> {
  if (config.upstream) {
    // The upstream keeps the data; this database holds only the callers.
    io.out(
      `gateway mode: /v1 answers from ${config.upstream.url}; load your companies and client ` +
        'applications with `facility-ops import <file>` (the rest of the file is skipped)',
    );
    return null;
  }
  const [demoCompany] = demoDirectory();
  if (!(await hasAnyCompany(store))) {
    if (config.nodeEnv === 'production') {
      io.out(`${describeDatabase(config)} holds no data; load some with \`facility-ops import <file>\``);
      return null;
    }
    const today = utcToday(io);
    io.out(
      `empty database: loading the demo data (reference date ${today}) into ${describeDatabase(config)}`,
    );
    printSeedResult(io, await seed(store, { scale: 1, today, now: asOfNow(io, today) }, io));
    const { client } = await createClient(
      store,
      secretBoxFor(config.secrets),
      demoCompany.id,
      DEMO_CLIENT_NAME,
      'demo',
    );
    return { company: demoCompany, client };
  }
  const hasDemo = await findCompany(store, demoCompany.id);
  return hasDemo ? { company: demoCompany, client: null } : null;
}

/** What a user needs to make a first request. */
export function bannerLines(
  url: string,
  demo: DemoState | null,
  today: string,
  requestsFile: string | null = null,
): string[] {
  const lines = [
    '',
    `facility-ops is running at ${url}`,
    `  GraphQL (GraphiQL in a browser): ${url}/graphql`,
    '',
  ];
  if (!demo) return [...lines, 'Stop it with Ctrl-C.', ''];

  const facility = demo.company.facilities[0];
  const token = demo.client?.bearerToken ?? '$TOKEN';
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
  const query = new URLSearchParams({
    updated_after: `${day(-3 * 365)}T00:00:00+00:00`,
    updated_before: `${day(1)}T00:00:00+00:00`,
    per_page: '5',
  });
  const curls = [
    `  curl -s -H "Authorization: Bearer ${token}" ${url}/v1/${facility.id}/flippers`,
    `  curl -s -H "Authorization: Bearer ${token}" '${url}/v1/companies/${demo.company.id}/rate_change_updates?${query.toString()}'`,
  ];
  if (requestsFile) {
    const shown = path.relative(process.cwd(), requestsFile) || requestsFile;
    curls.push(
      `A curl command for every endpoint, and a GraphQL query, with real demo ids: ${shown.startsWith('..') ? requestsFile : shown}`,
      `  (they read $BASE and $TOKEN: export BASE=${url} TOKEN=${token})`,
    );
  }

  if (demo.client) {
    return [
      ...lines,
      `Demo data is loaded. A client application of ${demo.company.name} was made for you;`,
      'its secret and bearer token are shown only this once:',
      ...credentialLines(demo.client, demo.company.name).slice(1),
      '  (REST callers sign with OAuth 1.0, HMAC-SHA1, using the consumer key and secret;',
      '   the bearer token works for REST and GraphQL alike.)',
      '',
      'Try:',
      ...curls,
      '',
      'Stop it with Ctrl-C.',
      '',
    ];
  }
  return [
    ...lines,
    `Demo data: ${demo.company.name} (company ${demo.company.id}), facility ${facility.name} (${facility.id}).`,
    'Demo credentials are printed only on the first start. Make a client application with',
    `  npx facility-ops clients create --company ${demo.company.id} --name "My client"`,
    'then put its bearer token in $TOKEN and try:',
    ...curls,
    '',
    'Stop it with Ctrl-C.',
    '',
  ];
}
