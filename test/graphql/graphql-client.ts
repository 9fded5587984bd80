import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { parse } from 'graphql';
import { FixedClock } from '../../src/kernel/clock';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { createTestStore, type Dialect } from '../support/harness';
import { buildWorld, worldDataset, type World } from '../support/factories';

/** One named operation of a file in test/graphql/operations, typed by the codegen output. */
export interface Operation<TData, TVariables> {
  document: string;
  operationName: string;
  /** Carries the types only. */
  readonly types?: { data: TData; variables: TVariables };
}

const OPERATIONS = path.join(__dirname, 'operations');

export function operation<TData, TVariables>(
  file: string,
  operationName: string,
): Operation<TData, TVariables> {
  const document = readFileSync(path.join(OPERATIONS, file), 'utf8');
  const known = parse(document).definitions.some(
    (d) => d.kind === 'OperationDefinition' && d.name?.value === operationName,
  );
  if (!known) throw new Error(`${file} has no operation ${operationName}`);
  return { document, operationName };
}

export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; [key: string]: unknown };
}

export interface GraphqlResponse<TData> {
  status: number;
  data?: TData | null;
  errors?: GraphqlError[];
  raw: LightMyRequestResponse;
}

function toResponse<TData>(raw: LightMyRequestResponse): GraphqlResponse<TData> {
  const body = raw.json() as { data?: TData | null; errors?: GraphqlError[] };
  return { status: raw.statusCode, data: body.data, errors: body.errors, raw };
}

/** POSTs a JSON body to /graphql as the given bearer token (none: no Authorization header). */
export async function postGraphql<TData = unknown>(
  app: FastifyInstance,
  body: unknown,
  options: { bearer?: string | null; headers?: Record<string, string> } = {},
): Promise<GraphqlResponse<TData>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const raw = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return toResponse<TData>(raw);
}

/** Runs a typed operation as the world's client (bearer token). */
export function run<TData, TVariables>(
  t: { app: FastifyInstance; world: World },
  op: Operation<TData, TVariables>,
  variables: TVariables,
): Promise<GraphqlResponse<TData>> {
  return postGraphql<TData>(
    t.app,
    { query: op.document, operationName: op.operationName, variables },
    { bearer: t.world.client.bearer_token },
  );
}

export function codesOf(response: GraphqlResponse<unknown>): string[] {
  return (response.errors ?? []).map((e) => e.extensions.code);
}

/** An app as `NODE_ENV` (and any other settings) would configure it, over a fresh test database. */
export async function createConfiguredApp(
  dialect: Dialect,
  env: NodeJS.ProcessEnv,
): Promise<{ app: FastifyInstance; world: World; close(): Promise<void> }> {
  const db = await createTestStore(dialect);
  const world = buildWorld();
  await importDataset(db.store, DATASET_PLANS, worldDataset(world));
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const { app } = await buildApp({ config, store: db.store, clock: new FixedClock(new Date()) });
  await app.ready();
  return {
    app,
    world,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
