import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { FixedClock } from '../../src/kernel/clock';
import { buildApp, type App } from '../../src/app';
import type { PaymentGateway } from '../../src/areas/payments/gateway';
import { loadConfig } from '../../src/config';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import type { Dataset, DatasetClientApplication } from '../../src/store/dataset/dataset.types';
import type { Services } from '../../src/services';
import { createTestStore, type Dialect, type TestStore } from './harness';
import { buildWorld, worldDataset, type World } from './factories';
import { listenOnLoopback, startGateway } from './gateway';

/** Signs a request the way the legacy SDKs do, with a real OAuth 1.0 client library. */
export function oauthHeader(
  client: Pick<DatasetClientApplication, 'consumer_key' | 'consumer_secret'>,
  request: { method: string; url: string; data?: Record<string, string> },
  method: 'HMAC-SHA1' | 'HMAC-SHA256' = 'HMAC-SHA1',
): string {
  const oauth = new OAuth({
    consumer: { key: client.consumer_key, secret: client.consumer_secret },
    signature_method: method,
    hash_function: (base, key) =>
      createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key)
        .update(base)
        .digest('base64'),
  });
  const absolute = `http://localhost${request.url}`;
  return oauth.toHeader(oauth.authorize({ url: absolute, method: request.method, data: request.data }))
    .Authorization;
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  db: TestStore;
  world: World;
  clock: FixedClock;
  /** Imports more records into this app's database. */
  load(dataset: Omit<Dataset, 'version'>): Promise<void>;
  /** GET signed with the world's client (OAuth 1.0 header). */
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** POST a JSON body, authenticated with the world's bearer token. */
  postJson(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * Another instance of the service over the same database (its own caches and loaders), as a second
 * process or machine would run; `env` adds settings (PAGE_CACHE_MB, for instance).
 */
export async function createInstance(
  store: TestStore['store'],
  options: { env?: Record<string, string>; clock?: FixedClock; paymentGateway?: PaymentGateway } = {},
): Promise<App> {
  const config = loadConfig({ ...options.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  return buildApp({ config, store, clock: options.clock, paymentGateway: options.paymentGateway });
}

/** A built app over a fresh database holding the basic world; logs are silent. */
export async function createTestApp(
  dialect: Dialect,
  /** `env`: settings beside NODE_ENV and LOG_LEVEL (PAGE_CACHE_MB, for instance). */
  options: {
    logLines?: string[];
    env?: Record<string, string>;
    /** Adds hooks to the app before it is ready (a test's view of the requests it serves). */
    prepare?: (app: FastifyInstance) => void;
    /** The module the signature workers run (a test's holds them), and its `workerData`. */
    signatureWorker?: { file: string; workerData?: unknown };
    /** The module the PDF signing workers run (a test's holds them), and its `workerData`. */
    pdfSignerWorker?: { file: string; workerData?: unknown };
  } = {},
): Promise<TestApp> {
  const db = await createTestStore(dialect);
  const world = buildWorld();
  await importDataset(db.store, DATASET_PLANS, worldDataset(world));
  const clock = new FixedClock(new Date());
  const config = loadConfig({
    ...options.env,
    NODE_ENV: 'test',
    LOG_LEVEL: options.logLines ? 'info' : 'silent',
  });
  const logStream = options.logLines ? { write: (line: string) => options.logLines!.push(line) } : undefined;
  const { app: own, services } = await buildApp({
    config,
    store: db.store,
    clock,
    logStream,
    signatureWorker: options.signatureWorker,
    pdfSignerWorker: options.pdfSignerWorker,
  });
  options.prepare?.(own);
  await own.ready();
  // The contract's tests run a second time through a gateway in front of this instance (jest's
  // "through the gateway" project): requests go to the gateway, data is loaded into this instance.
  const gateway =
    process.env.FACILITY_OPS_TEST_THROUGH_GATEWAY === '1'
      ? await startGateway(dialect, await listenOnLoopback(own), world, options.env, {
          clock,
          everyCompany: true,
        })
      : null;
  const app = gateway?.app ?? own;
  const auth = (method: string, url: string) => oauthHeader(world.client, { method, url });
  return {
    app,
    services,
    db,
    world,
    clock,
    load: async (dataset) => {
      await importDataset(db.store, DATASET_PLANS, { version: 1, ...dataset });
      if (gateway && (dataset.companies || dataset.client_applications)) {
        await gateway.loadCallers({
          companies: dataset.companies,
          client_applications: dataset.client_applications,
        });
      }
    },
    get: (url, headers = {}) =>
      app.inject({ method: 'GET', url, headers: { authorization: auth('GET', url), ...headers } }),
    postJson: (url, body, headers = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          authorization: `Bearer ${world.client.bearer_token}`,
          'content-type': 'application/json',
          ...headers,
        },
        payload: JSON.stringify(body),
      }),
    close: async () => {
      await gateway?.close();
      await own.close();
      await db.close();
    },
  };
}
