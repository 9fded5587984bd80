import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { FixedClock } from '../../src/kernel/clock';
import type { Services } from '../../src/services';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import type { Dataset } from '../../src/store/dataset/dataset.types';
import type { World } from './factories';
import { createTestStore, type Dialect } from './harness';

/**
 * A facility-ops instance in gateway mode in front of an upstream (a real facility-ops instance in
 * system-of-record mode, listening on loopback). Its own database holds only the world's companies
 * and client applications; the world's company has upstream credentials (its client's consumer key
 * and secret at the upstream), the other company none.
 */
export interface Gateway {
  app: FastifyInstance;
  services: Services;
  clock: FixedClock;
  /** Loads companies and client applications into the gateway's own database. */
  loadCallers(dataset: Pick<Dataset, 'companies' | 'client_applications'>): Promise<void>;
  close(): Promise<void>;
}

export async function startGateway(
  dialect: Dialect,
  upstreamUrl: string,
  world: World,
  env: Record<string, string> = {},
  options: {
    /** The clock the gateway reads (the upstream's, to see the same day); a new one otherwise. */
    clock?: FixedClock;
    /** Upstream credentials for the other company too (its client's), not only the world's. */
    everyCompany?: boolean;
    /** Where the gateway's log lines go (at level info); silent otherwise. */
    logLines?: string[];
    /** The consumer secrets the credentials file gives, by company id (sealed ones, say); the clients' own otherwise. */
    upstreamSecrets?: Record<string, string>;
  } = {},
): Promise<Gateway> {
  const db = await createTestStore(dialect);
  await importDataset(db.store, DATASET_PLANS, {
    version: 1,
    companies: [world.company, world.otherCompany],
    client_applications: [world.client, world.otherClient],
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-gateway-'));
  const credentials = path.join(dir, 'upstream-credentials.json');
  fs.writeFileSync(
    credentials,
    JSON.stringify({
      [world.company.id]: {
        consumer_key: world.client.consumer_key,
        consumer_secret: options.upstreamSecrets?.[world.company.id] ?? world.client.consumer_secret,
      },
      ...(options.everyCompany
        ? {
            [world.otherCompany.id]: {
              consumer_key: world.otherClient.consumer_key,
              consumer_secret: world.otherClient.consumer_secret,
            },
          }
        : {}),
    }),
  );
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: options.logLines ? 'info' : 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_CREDENTIALS_FILE: credentials,
    ...env,
  });
  const clock = options.clock ?? new FixedClock(new Date());
  const logStream = options.logLines ? { write: (line: string) => options.logLines!.push(line) } : undefined;
  const { app, services } = await buildApp({ config, store: db.store, clock, logStream });
  await app.ready();
  return {
    app,
    services,
    clock,
    loadCallers: async (dataset) => {
      await importDataset(db.store, DATASET_PLANS, { version: 1, ...dataset });
    },
    close: async () => {
      await app.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Listens on loopback (on `port` when given, to come back where it was); answers its base URL. */
export async function listenOnLoopback(app: FastifyInstance, port = 0): Promise<string> {
  await app.listen({ host: '127.0.0.1', port });
  return `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
}
