import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from '../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../support/http';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';
import { buildClient, buildItem } from '../support/factories';
import { loadRichWorld, type RichWorld } from '../support/rich-world';
import {
  encodeQuery,
  goodBody,
  goodPathValues,
  goodQuery,
  operationsOf,
  urlOf,
  type Operation,
} from '../support/operations';

/**
 * Gateway mode's /v1 in front of a real facility-ops instance (system of record, on loopback):
 * every contract operation answers through the gateway exactly what the upstream answers, status
 * and bytes, request id included.
 */
describeEachDialect('/v1 in gateway mode, in front of a real upstream', (dialect) => {
  let upstream: TestApp;
  let w: RichWorld;
  let gateway: Gateway;
  let operations: Operation[];
  let upstreamCalls = 0;
  /** The statuses the upstream answered, in order. */
  const upstreamStatuses: number[] = [];

  beforeAll(async () => {
    upstream = await createTestApp(dialect, {
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      prepare: (app) => {
        app.addHook('onRequest', async () => {
          upstreamCalls += 1;
        });
        app.addHook('onResponse', async (_request, reply) => {
          upstreamStatuses.push(reply.statusCode);
        });
      },
    });
    w = await loadRichWorld(upstream);
    const url = await listenOnLoopback(upstream.app);
    gateway = await startGateway(dialect, url, upstream.world);
    operations = operationsOf((await gateway.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json());
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const bearer = () => ({ authorization: `Bearer ${upstream.world.client.bearer_token}` });

  /** The same request to both, with the same request id; answers both. */
  async function both(request: {
    method: string;
    url: string;
    payload?: unknown;
    headers?: Record<string, string>;
  }): Promise<[LightMyRequestResponse, LightMyRequestResponse]> {
    const id = crypto.randomUUID();
    const send = (app: TestApp['app']) =>
      app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: { ...bearer(), 'x-request-id': id, ...request.headers },
        ...(request.payload === undefined ? {} : { payload: request.payload as string }),
      });
    const viaGateway = await send(gateway.app);
    const direct = await send(upstream.app);
    return [viaGateway, direct];
  }

  it('answers every GET of the contract byte for byte as the upstream does, PDFs included', async () => {
    const good = goodPathValues(upstream, w);
    const differences: string[] = [];
    for (const o of operations.filter((op) => op.method === 'GET')) {
      const [viaGateway, direct] = await both({
        method: 'GET',
        url: urlOf(o, good, encodeQuery(goodQuery(o, w))),
      });
      if (viaGateway.statusCode !== 200)
        differences.push(`${o.template}: ${viaGateway.statusCode} ${viaGateway.body}`);
      if (!viaGateway.rawPayload.equals(direct.rawPayload)) differences.push(`${o.template}: other bytes`);
      if (viaGateway.headers['content-type'] !== direct.headers['content-type'])
        differences.push(`${o.template}: content type ${viaGateway.headers['content-type']}`);
    }
    expect(differences).toEqual([]);
  });

  it('answers bad requests (unknown and malformed ids, bad bodies) as the upstream does', async () => {
    const good = goodPathValues(upstream, w);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const differences: string[] = [];
    for (const o of operations) {
      const cases = [
        { url: urlOf(o, { ...good, facility_id: unknown, company_id: unknown }) },
        { url: urlOf(o, { ...good, facility_id: 'nope', company_id: 'nope' }) },
        ...(o.hasBody ? [{ url: urlOf(o, good), payload: { surprise: { note_text: 5 } } }] : []),
        ...(o.hasBody ? [{ url: urlOf(o, good), payload: '{"broken": ', type: 'application/json' }] : []),
      ];
      for (const c of cases) {
        const [viaGateway, direct] = await both({
          method: o.method,
          url: c.url,
          payload: typeof c.payload === 'string' ? c.payload : c.payload && JSON.stringify(c.payload),
          headers: c.payload === undefined ? {} : { 'content-type': 'application/json' },
        });
        if (viaGateway.statusCode < 400) differences.push(`${o.method} ${c.url}: ${viaGateway.statusCode}`);
        if (viaGateway.statusCode !== direct.statusCode || viaGateway.body !== direct.body)
          differences.push(
            `${o.method} ${c.url}: ${viaGateway.statusCode} ${viaGateway.body} / ${direct.body}`,
          );
      }
    }
    expect(differences).toEqual([]);
  });

  it('revalidates a kept GET answer: the upstream answers 304, the caller the whole answer with its own id', async () => {
    const url = `/v1/${upstream.world.facility.id}/invoiceable_items/services?per_page=3`;
    const [first] = await both({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    const seen = upstreamStatuses.length;
    const [viaGateway, direct] = await both({ method: 'GET', url });
    // The gateway's call was answered 304 (then the test's direct call 200).
    expect(upstreamStatuses.slice(seen)).toEqual([304, 200]);
    expect(viaGateway.statusCode).toBe(200);
    expect(viaGateway.body).toBe(direct.body);
    expect(viaGateway.json().meta.request_id).toBe(direct.json().meta.request_id);

    // Changed upstream: a whole new answer.
    await upstream.load({
      invoiceable_items: [buildItem({ facility_id: upstream.world.facility.id, kind: 'service' })],
    });
    const [changed, changedDirect] = await both({ method: 'GET', url });
    expect(changed.body).toBe(changedDirect.body);
    expect(changed.json().meta.pagination.total_entries).toBe(first.json().meta.pagination.total_entries + 1);
  });

  it('writes through the gateway: a note, a move-in review, an e-sign message', async () => {
    const good = goodPathValues(upstream, w);
    for (const o of operations.filter((op) => op.hasBody && !op.template.endsWith('/retail_payment'))) {
      const res = await gateway.app.inject({
        method: 'POST',
        url: urlOf(o, good),
        headers: { ...bearer(), 'content-type': 'application/json', 'x-request-id': 'gw-write-1' },
        payload: JSON.stringify(goodBody(o, w)),
      });
      expect([o.template, res.statusCode]).toEqual([o.template, 200]);
      expect(res.json().meta.request_id).toBe('gw-write-1');
    }
  });

  it('forwards the Idempotency-Key, scoped to the caller: a retry replays, another client pays anew', async () => {
    const o = operations.find((op) => op.template.endsWith('/retail_payment'))!;
    const request = (bearer: string) => ({
      url: urlOf(o, goodPathValues(upstream, w)),
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        'idempotency-key': 'gw-order-1',
      },
      payload: JSON.stringify(goodBody(o, w)),
    });
    const first = await gateway.app.inject({
      method: 'POST',
      ...request(upstream.world.client.bearer_token!),
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await gateway.app.inject({
      method: 'POST',
      ...request(upstream.world.client.bearer_token!),
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);

    // Another client of the same company reaches the upstream with the same credentials, yet
    // its key is its own.
    const colleague = buildClient({ company_id: upstream.world.company.id });
    await gateway.loadCallers({ client_applications: [colleague] });
    const theirs = await gateway.app.inject({ method: 'POST', ...request(colleague.bearer_token!) });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().successful_payment_event.id).not.toBe(first.json().successful_payment_event.id);
  });

  it('takes OAuth 1.0 callers (header, query string or form body) and signs anew upstream', async () => {
    const url = `/v1/${upstream.world.facility.id}/flippers`;
    const viaHeader = await gateway.app.inject({
      method: 'GET',
      url,
      headers: { authorization: oauthHeader(upstream.world.client, { method: 'GET', url }) },
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json().flippers).toEqual(['online_payments']);

    const notes = `/v1/${upstream.world.facility.id}/notes`;
    const form = { 'note[note_text]': 'Signed in the body', 'note[tenant_id]': w.tenantId, user_id: '7' };
    const signed = oauthHeader(upstream.world.client, { method: 'POST', url: notes, data: form });
    const params = Object.fromEntries(
      [...signed.slice('OAuth '.length).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [
        m[1],
        decodeURIComponent(m[2]),
      ]),
    );
    const viaBody = await gateway.app.inject({
      method: 'POST',
      url: notes,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...form, ...params }).toString(),
    });
    expect(viaBody.statusCode).toBe(200);
    expect(viaBody.json().note_event.notes[0].note).toBe('Signed in the body');
    // The caller's own oauth_* parameters stay at the gateway: none reaches the upstream's echo.
    expect(Object.keys(viaBody.json().meta.parameters).filter((k) => k.startsWith('oauth_'))).toEqual([]);
  });

  it('refuses a company without upstream credentials (403/13), and lets the upstream refuse another facility', async () => {
    const other = await gateway.app.inject({
      method: 'GET',
      url: `/v1/${upstream.world.otherFacility.id}/flippers`,
      headers: { authorization: `Bearer ${upstream.world.otherClient.bearer_token}` },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().meta.error_code).toBe(13);
    expect(other.json().meta.message).toContain('no credentials at the upstream');

    const [viaGateway, direct] = await both({
      method: 'GET',
      url: `/v1/${upstream.world.otherFacility.id}/flippers`,
    });
    expect(viaGateway.statusCode).toBe(403);
    expect(viaGateway.body).toBe(direct.body);
  });

  it('authenticates its callers itself: bad credentials never reach the upstream', async () => {
    const before = upstreamCalls;
    const res = await gateway.app.inject({
      method: 'GET',
      url: `/v1/${upstream.world.facility.id}/flippers`,
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().meta.message).toMatch(/^Invalid OAuth Request/);
    expect(upstreamCalls).toBe(before);
  });
});
