import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { activeTracing, startTracing, type ActiveTracing } from '../../src/telemetry/tracing';
import { loadConfig } from '../../src/config';
import { createOutboxWorker } from '../../src/outbox.runtime';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { openStore } from '../../src/store/database';
import { migrateToLatest } from '../../src/store/migrator';
import { tempDir } from '../cli/cli-support';
import {
  buildItem,
  buildLedger,
  buildTenant,
  buildUnit,
  buildWorld,
  worldDataset,
} from '../support/factories';
import { startGateway, listenOnLoopback, type Gateway } from '../support/gateway';
import { describeEachDialect, type Dialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { operation } from '../graphql/graphql-client';
import { startReceiver } from '../support/webhook-receiver';
import type { LedgerTenantNotesQuery, LedgerTenantNotesQueryVariables } from '../generated/graphql';

const LedgerTenantNotes = operation<LedgerTenantNotesQuery, LedgerTenantNotesQueryVariables>(
  'examples.graphql',
  'LedgerTenantNotes',
);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The spans of one trace, and the children of a span by name. */
function treeOf(spans: ReadableSpan[], traceId: string) {
  const own = spans.filter((s) => s.spanContext().traceId === traceId);
  const children = (span: ReadableSpan) => own.filter((s) => parentOf(s) === span.spanContext().spanId);
  return { own, children };
}

/** Waits for a condition with a generous deadline (spans end as responses finish). */
async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('tracing', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: ActiveTracing;
  beforeAll(() => {
    // Started before any store opens, as serve and start do.
    tracing = startTracing({ serviceName: 'facility-ops-test', exporter });
  });
  afterAll(async () => {
    await tracing.stop();
    expect(activeTracing()).toBeNull();
  });

  describeEachDialect('a GraphQL navigation query', (dialect: Dialect) => {
    let t: TestApp;
    const ids = { ledger: '' };
    beforeAll(async () => {
      t = await createTestApp(dialect);
      const facility_id = t.world.facility.id;
      const tenant = buildTenant({ facility_id, first_name: 'Grace', last_name: 'Hopper' });
      const unit = buildUnit({ facility_id, name: 'B-7' });
      const ledger = buildLedger({ facility_id, tenant_id: tenant.id, unit_id: unit.id });
      ids.ledger = ledger.id;
      await t.load({ tenants: [tenant], units: [unit], ledgers: [ledger] });
      await t.postJson(`/v1/${facility_id}/notes`, {
        note: { note_text: 'Asked about a larger unit', ledger_id: ledger.id },
      });
    });
    afterAll(() => t.close());

    it('is one server span continuing the caller trace, with loader batches and SQL statements below', async () => {
      exporter.reset();
      const res = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${t.world.client.bearer_token}`,
          traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
        },
        payload: JSON.stringify({
          query: LedgerTenantNotes.document,
          operationName: LedgerTenantNotes.operationName,
          variables: { facilityId: t.world.facility.id, ledgerId: ids.ledger },
        }),
      });
      expect(res.json()).not.toHaveProperty('errors');
      expect(res.json().data.facility.ledger.tenant.notes).toHaveLength(1);
      const server = await until(
        () => exporter.getFinishedSpans().find((s) => s.name === 'query LedgerTenantNotes'),
        'the request span',
      );
      const { own, children } = treeOf(exporter.getFinishedSpans(), TRACE_ID);
      expect(parentOf(server)).toBe(CALLER_SPAN);
      expect(server.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/graphql',
        'graphql.operation.type': 'query',
        'graphql.operation.name': 'LedgerTenantNotes',
        'http.response.status_code': 200,
      });
      const batches = children(server).filter((s) => s.name.startsWith('dataloader '));
      // The facility and the ledger are read by the root fields; what hangs off them, in batches.
      expect(batches.map((s) => s.name).sort()).toEqual([
        'dataloader ledgerInsurance',
        'dataloader notesByTenant',
        'dataloader tenants',
        'dataloader units',
      ]);
      expect(children(server).some((s) => s.attributes['db.query.text'] !== undefined)).toBe(true);
      // Each batch holds its SQL statement, written with placeholders and never the values.
      const tenants = batches.find((s) => s.name === 'dataloader tenants')!;
      expect(tenants.attributes['dataloader.batch_size']).toBe(1);
      const statements = children(tenants).filter((s) => s.attributes['db.query.text'] !== undefined);
      expect(statements.length).toBeGreaterThanOrEqual(1);
      expect(statements[0].attributes['db.system.name']).toBe(dialect === 'sqlite' ? 'sqlite' : 'postgresql');
      for (const span of own.filter((s) => s.attributes['db.query.text'] !== undefined)) {
        expect(String(span.attributes['db.query.text'])).not.toContain(ids.ledger);
        expect(String(span.attributes['db.query.text'])).not.toContain(t.world.facility.id);
      }
      // The answer goes back with the trace it joined.
      expect(own.every((s) => s.spanContext().traceId === TRACE_ID)).toBe(true);
    });

    it("names a kept GraphQL answer's span after its operation, as the executed one's", async () => {
      exporter.reset();
      const payload = JSON.stringify({
        query: 'query KeptFlags($id: UUID!) { facility(id: $id) { id flippers } }',
        variables: { id: t.world.facility.id },
      });
      // The first executes; the second is answered from memory, before Apollo; the third and
      // fourth from its text, before its body is parsed (the fourth through a socket, whose body
      // events come outside the request's context).
      const traces = [
        '4bf92f3577b34da6a3ce929d0e0e4701',
        '4bf92f3577b34da6a3ce929d0e0e4702',
        '4bf92f3577b34da6a3ce929d0e0e4703',
        '4bf92f3577b34da6a3ce929d0e0e4704',
      ];
      const headersOf = (traceId: string) => ({
        'content-type': 'application/json',
        authorization: `Bearer ${t.world.client.bearer_token}`,
        traceparent: `00-${traceId}-${CALLER_SPAN}-01`,
      });
      const bodies: string[] = [];
      for (const traceId of traces.slice(0, 3)) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: headersOf(traceId),
          payload,
        });
        expect(res.statusCode).toBe(200);
        bodies.push(res.body);
      }
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const overSocket = await fetch(`${address}/graphql`, {
        method: 'POST',
        headers: { ...headersOf(traces[3]), accept: '' },
        body: payload,
      });
      expect(overSocket.status).toBe(200);
      bodies.push(await overSocket.text());
      expect(bodies.slice(1)).toEqual([bodies[0], bodies[0], bodies[0]]);
      for (const traceId of traces) {
        const server = await until(
          () =>
            exporter
              .getFinishedSpans()
              .find((s) => s.spanContext().traceId === traceId && parentOf(s) === CALLER_SPAN),
          'the request span',
        );
        expect(server.name).toBe('query KeptFlags');
        expect(server.attributes).toMatchObject({
          'http.route': '/graphql',
          'graphql.operation.type': 'query',
          'graphql.operation.name': 'KeptFlags',
          'http.response.status_code': 200,
        });
      }
    });

    it('has the statements of a REST list page as spans, those of the row readers too', async () => {
      await t.load({
        invoiceable_items: [buildItem({ facility_id: t.world.facility.id, description: 'Lock' })],
      });
      exporter.reset();
      const res = await t.get(`/v1/${t.world.facility.id}/invoiceable_items`);
      expect(res.statusCode).toBe(200);
      const server = await until(
        () => exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/:facility_id/invoiceable_items'),
        'the request span',
      );
      const { children } = treeOf(exporter.getFinishedSpans(), server.spanContext().traceId);
      const texts = children(server).map((s) => String(s.attributes['db.query.text'] ?? ''));
      expect(texts.some((text) => /from "invoiceable_items"/.test(text))).toBe(true);
      expect(texts.join('\n')).not.toContain(t.world.facility.id);
    });

    it("follows the caller's decision not to sample", async () => {
      exporter.reset();
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/${t.world.facility.id}/flippers`,
        headers: {
          authorization: `Bearer ${t.world.client.bearer_token}`,
          traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-00`,
        },
      });
      expect(res.statusCode).toBe(200);
      // A sampled request after it is recorded; the unsampled one before it never was.
      await t.app.inject({
        method: 'GET',
        url: `/v1/${t.world.facility.id}/flippers`,
        headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
      });
      await until(
        () => exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/:facility_id/flippers'),
        'the sampled request span',
      );
      expect(exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === TRACE_ID)).toEqual([]);
    });

    it('starts a new trace when the traceparent is malformed, as W3C Trace Context says', async () => {
      exporter.reset();
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/${t.world.facility.id}/flippers`,
        headers: {
          authorization: `Bearer ${t.world.client.bearer_token}`,
          traceparent: `00-${TRACE_ID.toUpperCase()}-zz-01`,
        },
      });
      expect(res.statusCode).toBe(200);
      const server = await until(
        () => exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/:facility_id/flippers'),
        'the request span',
      );
      expect(parentOf(server)).toBeUndefined();
      expect(server.spanContext().traceId).not.toBe(TRACE_ID);
      expect(server.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    });

    it('keeps no card number in a path: the span names it by its last four digits', async () => {
      exporter.reset();
      // A card number where an id goes, plain and with percent-encoded spaces.
      const res = await t.get(`/v1/4111111111111111/flippers/4111%201111%201111%201111`);
      expect(res.statusCode).toBe(404);
      const server = await until(
        () => exporter.getFinishedSpans().find((s) => String(s.attributes['url.path']).startsWith('/v1/')),
        'the request span',
      );
      expect(server.attributes['url.path']).toBe('/v1/************1111/flippers/************1111');
    });
  });

  describe('outbox deliveries (SQLite)', () => {
    let t: TestApp;
    let unitId = '';
    beforeAll(async () => {
      t = await createTestApp('sqlite', { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
      const unit = buildUnit({ facility_id: t.world.facility.id, name: 'C-3' });
      unitId = unit.id;
      await t.load({ units: [unit] });
    });
    afterAll(() => t.close());

    it('makes each webhook delivery a trace, its HTTP attempt a span with the status', async () => {
      const hooks = await startReceiver(undefined, () => t.clock.now().getTime());
      const config = loadConfig({
        NODE_ENV: 'test',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        WEBHOOK_TIMEOUT_MS: '60000',
        OUTBOX_SEND_TIMEOUT_MS: '60000',
        OUTBOX_LEASE_MS: '200000',
      });
      const worker = createOutboxWorker(t.services, config, { id: 'traced' });
      try {
        await t.services.webhooks.createEndpoint(t.world.company.id, {
          url: hooks.url,
          eventTypes: ['note.created'],
          description: 'traced receiver',
        });
        const note = await t.postJson(`/v1/${t.world.facility.id}/notes`, {
          note: { note_text: 'Traced', unit_id: unitId },
        });
        expect(note.json()).toMatchObject({ note_event: expect.anything() });
        exporter.reset();
        await worker.runOnce();
        expect(hooks.received).toHaveLength(1);
        const delivery = await until(
          () => exporter.getFinishedSpans().find((s) => s.name === 'outbox delivery webhook'),
          'the delivery span',
        );
        expect(parentOf(delivery)).toBeUndefined();
        expect(delivery.attributes).toMatchObject({
          'messaging.destination.name': 'webhook',
          'messaging.message.id': hooks.received[0].id,
          'http.response.status_code': 204,
        });
        const { children } = treeOf(exporter.getFinishedSpans(), delivery.spanContext().traceId);
        const attempt = children(delivery).find((s) => s.name === 'webhook POST');
        expect(attempt?.attributes).toMatchObject({
          'server.address': '127.0.0.1',
          'http.response.status_code': 204,
        });
      } finally {
        await worker.stop();
        await hooks.close();
      }
    });
  });

  describeEachDialect('gateway mode', (dialect: Dialect) => {
    let upstream: TestApp;
    let gateway: Gateway;
    /** While set, the upstream holds every request until it resolves. */
    let held: Promise<void> | null = null;
    beforeAll(async () => {
      upstream = await createTestApp(dialect, {
        prepare: (app) =>
          app.addHook('onRequest', async () => {
            await held;
          }),
      });
      gateway = await startGateway(
        dialect,
        await listenOnLoopback(upstream.app),
        upstream.world,
        {},
        {
          clock: upstream.clock,
        },
      );
    });
    afterAll(async () => {
      await gateway.close();
      await upstream.close();
    });

    it('traces each upstream call, sends the trace upstream, and marks a kept answer used after a 304', async () => {
      const get = () =>
        gateway.app.inject({
          method: 'GET',
          url: `/v1/${upstream.world.facility.id}/flippers`,
          headers: {
            authorization: `Bearer ${upstream.world.client.bearer_token}`,
            traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
          },
        });
      exporter.reset();
      expect((await get()).statusCode).toBe(200);
      const first = await until(() => {
        const calls = exporter.getFinishedSpans().filter((s) => s.name === 'upstream GET');
        return calls.length === 1 ? calls[0] : undefined;
      }, 'the upstream call span');
      expect(first.attributes).toMatchObject({
        'http.request.method': 'GET',
        'url.path': `/v1/${upstream.world.facility.id}/flippers`,
        'http.response.status_code': 200,
        'facility_ops.upstream.collapsed': false,
        'facility_ops.upstream.kept_answer_used': false,
        'facility_ops.upstream.breaker_state': 'closed',
      });
      // The upstream's own request span is a child of the gateway's call: traceparent went along.
      const served = await until(
        () =>
          exporter
            .getFinishedSpans()
            .find(
              (s) => s.name === 'GET /v1/:facility_id/flippers' && parentOf(s) === first.spanContext().spanId,
            ),
        "the upstream's request span",
      );
      expect(served.spanContext().traceId).toBe(TRACE_ID);

      exporter.reset();
      expect((await get()).statusCode).toBe(200);
      const second = await until(
        () => exporter.getFinishedSpans().find((s) => s.name === 'upstream GET'),
        'the second upstream call span',
      );
      expect(second.attributes).toMatchObject({
        'http.response.status_code': 304,
        'facility_ops.upstream.kept_answer_used': true,
      });
    });

    it('marks a call that rode on the same GET on its way as collapsed', async () => {
      const shared = async () => {
        const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
        return Number(/^upstream_calls_total\{call="shared"\} (\d+)/m.exec(text)?.[1] ?? 0);
      };
      const before = await shared();
      let release: () => void = () => undefined;
      held = new Promise<void>((resolve) => (release = resolve));
      exporter.reset();
      const get = () =>
        gateway.app.inject({
          method: 'GET',
          url: `/v1/${upstream.world.facility.id}/flippers`,
          headers: { authorization: `Bearer ${upstream.world.client.bearer_token}` },
        });
      const answers = [get(), get()];
      // The second joins the first's call, held at the upstream, before it is let go.
      await until(async () => ((await shared()) > before ? true : undefined), 'the second request to join');
      held = null;
      release();
      expect((await Promise.all(answers)).map((a) => a.statusCode)).toEqual([200, 200]);
      const calls = await until(() => {
        const found = exporter.getFinishedSpans().filter((s) => s.name === 'upstream GET');
        return found.length === 2 ? found : undefined;
      }, 'both call spans');
      expect(calls.map((s) => s.attributes['facility_ops.upstream.collapsed']).sort()).toEqual([false, true]);
    });
  });
});

/**
 * The `serve` command in its own process (the OTLP exporter loads its transport as an ES module,
 * which jest's sandbox cannot), configured by the standard variables, exporting to a receiver here.
 */
describe('tracing over OTLP/HTTP', () => {
  it('serve sends the spans of its requests to the OTLP endpoint set by OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const bodies: string[] = [];
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url === '/v1/traces') bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    const { dir, remove } = tempDir();
    const databaseUrl = `sqlite:${path.join(dir, 'ops.db')}`;
    const world = buildWorld();
    const store = openStore(databaseUrl);
    await migrateToLatest(store.db);
    await importDataset(store, DATASET_PLANS, worldDataset(world));
    await store.close();
    const root = path.join(__dirname, '..', '..');
    const child = spawn(
      process.execPath,
      ['-r', path.join(root, 'scripts', 'swc-register.js'), '-e', "require('./src/main').main(['serve'])"],
      {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: databaseUrl,
          PORT: '0',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_SERVICE_NAME: 'facility-ops-otlp-test',
        },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await until(() => /listening on (\S+)/.exec(output)?.[1], `serve to listen (${output})`);
      const res = await fetch(`${url}/v1/${world.facility.id}/flippers`, {
        headers: { authorization: `Bearer ${world.client.bearer_token}` },
      });
      expect(res.status).toBe(200);
      // Stopping flushes what is left to send.
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const body = await until(
        () => bodies.find((b) => b.includes('GET /v1/:facility_id/flippers')),
        'the exported request span',
      );
      expect(body).toContain('facility-ops-otlp-test');
      expect(body).toContain('SELECT sqlite');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise((resolve) => receiver.close(resolve));
      remove();
    }
  }, 60_000);
});
