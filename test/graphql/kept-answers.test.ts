import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule } from '../../src/graphql/limits';
import { KeptBodies } from '../../src/graphql/kept-bodies';
import { GraphqlResponseCache } from '../../src/graphql/response-cache';
import { MAX_TOKENS } from '../../src/graphql/server';
import { checkManifest } from '../../src/graphql/trusted-documents';
import { graphqlSchema } from '../../src/modules';
import { SqlTrustedDocumentsRepository } from '../../src/store/repositories/trusted-documents.repository';
import { buildClient, buildItem, buildTenant } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { cash, line, payment } from '../support/payments';
import { waitFor } from '../support/wait';
import { codesOf, postGraphql } from './graphql-client';

const ITEMS = `query KeptItems($id: UUID!) {
  facility(id: $id) {
    id
    invoiceableItems(list: RETAIL) {
      entries { id description ... on RetailItem { quantity } invoiceableAmounts { amount } }
      pagination { totalEntries }
    }
  }
}`;

interface ItemsData {
  facility: { id: string; invoiceableItems: { entries: Array<{ id: string; quantity?: number }> } };
}

/** The manifest GraphQL Code Generator's client preset writes for the test operations (npm run codegen). */
const MANIFEST = fs.readFileSync(
  path.join(__dirname, '../generated/persisted/persisted-documents.json'),
  'utf8',
);

/** The headers of an answer that are the same for every request of it (not its request id or date). */
function sameHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
}

/**
 * A repeated operation whose kept answer is current is answered before Apollo's pipeline, without
 * a promise where the revision tokens can be read at once (SQLite); each rule of the request still
 * applies: its caller's company, the trusted documents, the rate limit.
 */
describeEachDialect('GraphQL kept answers before the pipeline', (dialect) => {
  let t: TestApp;
  let item: ReturnType<typeof buildItem>;
  let tenant: ReturnType<typeof buildTenant>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    tenant = buildTenant({ facility_id: t.world.facility.id });
    item = buildItem({ facility_id: t.world.facility.id, description: 'Padlock', quantity: 20 });
    await t.load({ tenants: [tenant], invoiceable_items: [item] });
  });
  afterAll(() => t.close());

  const ask = (
    app: FastifyInstance,
    bearer: string | null | undefined,
    headers: Record<string, string> = {},
  ) =>
    postGraphql<ItemsData>(
      app,
      { query: ITEMS, variables: { id: t.world.facility.id } },
      { bearer, headers },
    );
  /** The app's address on loopback, listening from the first test that asks on. */
  const listening = async (): Promise<string> => {
    const bound = t.app.server.address();
    if (bound !== null && typeof bound === 'object') return `http://127.0.0.1:${bound.port}`;
    return t.app.listen({ port: 0, host: '127.0.0.1' });
  };
  const quantityIn = (data: ItemsData | null | undefined) =>
    data?.facility.invoiceableItems.entries.find((entry) => entry.id === item.id)?.quantity;

  it('sends a kept answer byte for byte as the executed one, with its headers and its own request id, making no context', async () => {
    const bearer = t.world.client.bearer_token;
    const executed = await ask(t.app, bearer, { 'x-request-id': 'executed-1' });
    expect(executed.errors).toBeUndefined();
    // PostgreSQL serves the tokens it heard of once its first pulse came back.
    const notices = t.services.revisionNotices;
    if (notices) await waitFor(() => notices.current, 'the revision notices to hold a lease');
    const now = jest.spyOn(GraphqlResponseCache.prototype, 'keptAnswerNow');
    const later = jest.spyOn(GraphqlResponseCache.prototype, 'keptAnswer');
    const loaders = jest.spyOn(t.services, 'loaders');
    try {
      const kept = await ask(t.app, bearer, { 'x-request-id': 'kept-1' });
      expect(kept.raw.body).toBe(executed.raw.body);
      expect(sameHeaders(kept.raw.headers)).toEqual(sameHeaders(executed.raw.headers));
      expect(kept.raw.headers['x-request-id']).toBe('kept-1');
      // Neither Apollo's context nor a request's loaders were made for it.
      expect(loaders).not.toHaveBeenCalled();
      // Answered at once on both stores: the tokens were had without a promise.
      expect(now.mock.results.map((result) => result.value !== null)).toEqual([true]);
      expect(later).not.toHaveBeenCalled();
    } finally {
      now.mockRestore();
      later.mockRestore();
      loaders.mockRestore();
    }
  });

  it('answers the write just made: after a sale the next answer shows the stock it took', async () => {
    const bearer = t.world.client.bearer_token;
    await ask(t.app, bearer);
    const before = quantityIn((await ask(t.app, bearer)).data)!;
    const paid = await t.postJson(
      `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`,
      payment([line(item, 2)], cash('100'), { tenant_id: tenant.id }),
    );
    expect(paid.statusCode).toBe(200);
    const after = await ask(t.app, bearer);
    expect(quantityIn(after.data)).toBe(before - 2);
    // Kept anew, and answered so.
    const again = await ask(t.app, bearer);
    expect(again.raw.body).toBe(after.raw.body);
  });

  it("answers another client of the company the same bytes, and never another company's", async () => {
    const sibling = buildClient({ company_id: t.world.company.id, name: 'Second Desk' });
    await t.load({ client_applications: [sibling] });
    const kept = await ask(t.app, t.world.client.bearer_token);
    expect((await ask(t.app, t.world.client.bearer_token)).raw.body).toBe(kept.raw.body);
    expect((await ask(t.app, sibling.bearer_token)).raw.body).toBe(kept.raw.body);
    for (let i = 0; i < 2; i++) {
      const other = await ask(t.app, t.world.otherClient.bearer_token);
      expect(other.raw.body).not.toBe(kept.raw.body);
      expect(other.data?.facility ?? null).toBeNull();
      expect(codesOf(other)).toEqual(['FORBIDDEN']);
    }
  });

  it('in trusted-documents require mode, refuses the text of a document kept for another client', async () => {
    const check = checkManifest(MANIFEST, graphqlSchema(), [queryLimitsRule(DEFAULT_QUERY_LIMITS)], {
      maxTokens: MAX_TOKENS,
      now: new Date().toISOString(),
    });
    expect(check.problems).toEqual([]);
    await new SqlTrustedDocumentsRepository(t.db.store.db).add(t.world.client.id, check.documents);
    const overview = check.documents.find((document) => document.body.startsWith('query FacilityOverview('))!;
    const stranger = buildClient({ company_id: t.world.company.id, name: 'No Documents' });
    await t.load({ client_applications: [stranger] });
    const { app: required } = await createInstance(t.db.store, { env: { TRUSTED_DOCUMENTS: 'require' } });
    try {
      const variables = { facilityId: t.world.facility.id };
      const byId = { documentId: overview.documentId, variables };
      const first = await postGraphql(required, byId, { bearer: t.world.client.bearer_token });
      expect(first.errors).toBeUndefined();
      const kept = await postGraphql(required, byId, { bearer: t.world.client.bearer_token });
      expect(kept.raw.body).toBe(first.raw.body);
      // The same text, variables and company: the kept answer's key, but not this client's document.
      for (let i = 0; i < 2; i++) {
        const refused = await postGraphql(
          required,
          { query: overview.body, variables },
          { bearer: stranger.bearer_token },
        );
        expect(refused.status).toBe(400);
        expect(codesOf(refused)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
        expect(refused.data).toBeUndefined();
        const byItsId = await postGraphql(required, byId, { bearer: stranger.bearer_token });
        expect(codesOf(byItsId)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      }
      // Its own client's text is answered from memory still.
      const text = await postGraphql(
        required,
        { query: overview.body, variables },
        { bearer: t.world.client.bearer_token },
      );
      expect(text.raw.body).toBe(first.raw.body);
    } finally {
      await required.close();
    }
  });

  it('answers a trusted document sent by id from its text, for its own client only', async () => {
    const check = checkManifest(MANIFEST, graphqlSchema(), [queryLimitsRule(DEFAULT_QUERY_LIMITS)], {
      maxTokens: MAX_TOKENS,
      now: new Date().toISOString(),
    });
    expect(check.problems).toEqual([]);
    const owner = buildClient({ company_id: t.world.company.id, name: 'Front End' });
    const stranger = buildClient({ company_id: t.world.company.id, name: 'Without Documents' });
    await t.load({ client_applications: [owner, stranger] });
    await new SqlTrustedDocumentsRepository(t.db.store.db).add(owner.id, check.documents);
    const overview = check.documents.find((document) => document.body.startsWith('query FacilityOverview('))!;
    const byId = {
      documentId: `sha256:${overview.documentId}`,
      variables: { facilityId: t.world.facility.id },
    };
    const notices = t.services.revisionNotices;
    if (notices) await waitFor(() => notices.current, 'the revision notices to hold a lease');
    const executed = await postGraphql(t.app, byId, { bearer: owner.bearer_token });
    expect(executed.errors).toBeUndefined();
    // The second is answered from memory after the gate, and its text is remembered for its client.
    expect((await postGraphql(t.app, byId, { bearer: owner.bearer_token })).raw.body).toBe(executed.raw.body);
    const found = jest.spyOn(KeptBodies.prototype, 'find');
    const loaders = jest.spyOn(t.services, 'loaders');
    try {
      const third = await postGraphql(t.app, byId, { bearer: owner.bearer_token });
      expect(found.mock.results.map((result) => result.value !== undefined)).toEqual([true]);
      expect(third.raw.body).toBe(executed.raw.body);
      expect(sameHeaders(third.raw.headers)).toEqual(sameHeaders(executed.raw.headers));
      expect(loaders).not.toHaveBeenCalled();
      // The same text from a client of the same company that does not hold the document.
      for (let i = 0; i < 3; i++) {
        const refused = await postGraphql(t.app, byId, { bearer: stranger.bearer_token });
        expect(refused.status).toBe(400);
        expect(codesOf(refused)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
        expect(refused.data).toBeUndefined();
      }
      expect((await postGraphql(t.app, byId, { bearer: owner.bearer_token })).raw.body).toBe(
        executed.raw.body,
      );
    } finally {
      found.mockRestore();
      loaders.mockRestore();
    }
  });

  it('answers a text it sent from memory before without parsing it again; a text sent otherwise goes its own way', async () => {
    const bearer = t.world.client.bearer_token;
    const executed = await ask(t.app, bearer);
    const notices = t.services.revisionNotices;
    if (notices) await waitFor(() => notices.current, 'the revision notices to hold a lease');
    // The second is answered from memory after parsing, and its text is remembered.
    expect((await ask(t.app, bearer)).raw.body).toBe(executed.raw.body);
    const found = jest.spyOn(KeptBodies.prototype, 'find');
    const loaders = jest.spyOn(t.services, 'loaders');
    try {
      const third = await ask(t.app, bearer, { 'x-request-id': 'from-text-1' });
      expect(found.mock.results.map((result) => result.value !== undefined)).toEqual([true]);
      expect(third.raw.body).toBe(executed.raw.body);
      expect(sameHeaders(third.raw.headers)).toEqual(sameHeaders(executed.raw.headers));
      expect(third.raw.headers['x-request-id']).toBe('from-text-1');
      expect(loaders).not.toHaveBeenCalled();
    } finally {
      found.mockRestore();
      loaders.mockRestore();
    }
    // Another Accept is answered in its own media type, every time.
    const accept = { accept: 'application/graphql-response+json' };
    for (let i = 0; i < 3; i++) {
      const typed = await ask(t.app, bearer, accept);
      expect(typed.raw.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
      expect(typed.raw.body).toBe(executed.raw.body);
    }
    // The same operation in other text is its own request; a text with a query string is parsed.
    const spaced = JSON.stringify({ query: `${ITEMS}\n`, variables: { id: t.world.facility.id } });
    for (let i = 0; i < 3; i++) {
      const other = await t.app.inject({
        method: 'POST',
        url: i === 2 ? '/graphql?depth=1' : '/graphql',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: spaced,
      });
      expect(other.statusCode).toBe(200);
      expect(other.body).toBe(executed.raw.body);
    }
  });

  it('refuses a revoked client at once, however often its text was answered from memory', async () => {
    const desk = buildClient({ company_id: t.world.company.id, name: 'Revoked Desk' });
    await t.load({ client_applications: [desk] });
    for (let i = 0; i < 3; i++) expect((await ask(t.app, desk.bearer_token)).status).toBe(200);
    expect(await t.services.auth.revokeClient(desk.id)).toBe(true);
    const refused = await ask(t.app, desk.bearer_token);
    expect(refused.status).toBe(401);
    expect(refused.data).toBeUndefined();
  });

  it('answers a remembered text that came whole with its headers, after them, in parts or two in one write, on one kept-alive connection', async () => {
    const bearer = t.world.client.bearer_token;
    const kept = await ask(t.app, bearer);
    await ask(t.app, bearer);
    const address = await listening();
    const body = JSON.stringify({ query: ITEMS, variables: { id: t.world.facility.id } });
    const head =
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
    let received: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    /** The next whole response on the connection: its status and body. */
    const nextResponse = async (): Promise<{ status: number; body: string }> => {
      let parsed: { status: number; body: string; rest: Buffer } | null = null;
      await waitFor(() => {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return false;
        const headers = received.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(headers)?.[1]);
        if (received.length < end + 4 + length) return false;
        const status = Number(headers.split(' ')[1]);
        const text = received.subarray(end + 4, end + 4 + length).toString('utf8');
        parsed = { status, body: text, rest: received.subarray(end + 4 + length) };
        return true;
      }, 'a whole response');
      const { status, body: text, rest } = parsed!;
      received = rest;
      return { status, body: text };
    };
    const found = jest.spyOn(KeptBodies.prototype, 'find');
    // Read by the route's hook once a request's headers are parsed, before its body is read.
    const looked = jest.spyOn(KeptBodies.prototype, 'size', 'get');
    try {
      // Headers and body in one write, twice on the same connection.
      for (let i = 0; i < 2; i++) {
        socket.write(head + body);
        expect(await nextResponse()).toEqual({ status: 200, body: kept.raw.body });
      }
      // The headers first, the body once the service has read them (it answers nothing before).
      const before = looked.mock.calls.length;
      socket.write(head);
      await waitFor(() => looked.mock.calls.length > before, 'the hook to read the headers');
      expect(found.mock.calls).toHaveLength(2);
      socket.write(body);
      expect(await nextResponse()).toEqual({ status: 200, body: kept.raw.body });
      expect(found.mock.results.map((result) => result.value !== undefined)).toEqual([true, true, true]);
      // The headers with part of the body, then the rest: answered once the last part came.
      const split = looked.mock.calls.length;
      socket.write(head + body.slice(0, 100));
      await waitFor(() => looked.mock.calls.length > split, 'the hook to read the headers');
      expect(found.mock.calls).toHaveLength(3);
      socket.write(body.slice(100));
      expect(await nextResponse()).toEqual({ status: 200, body: kept.raw.body });
      // Two requests in one write: each answered, in order.
      socket.write(head + body + head + body);
      expect(await nextResponse()).toEqual({ status: 200, body: kept.raw.body });
      expect(await nextResponse()).toEqual({ status: 200, body: kept.raw.body });
      expect(found.mock.results.map((result) => result.value !== undefined)).toEqual(Array(6).fill(true));
    } finally {
      found.mockRestore();
      looked.mockRestore();
      socket.destroy();
    }
  });

  it('answers a client that stops sending its body nothing, and the next one as before', async () => {
    const bearer = t.world.client.bearer_token;
    const kept = await ask(t.app, bearer);
    await ask(t.app, bearer);
    const address = await listening();
    const { port } = new URL(address);
    const body = JSON.stringify({ query: ITEMS, variables: { id: t.world.facility.id } });
    // Half the body of a remembered text, then the connection ends.
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
            body.slice(0, 100),
          () => socket.destroy(),
        );
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const next = await fetch(`${address}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body,
    });
    expect(next.status).toBe(200);
    expect(await next.text()).toBe(kept.raw.body);
  });

  it('refuses a caller over the rate limit, however its answer is kept', async () => {
    const { app: limited } = await createInstance(t.db.store, { env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const bearer = t.world.client.bearer_token;
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await ask(limited, bearer));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers[2].raw.body).toBe(answers[0].raw.body);
      // Refused alike after the parser (the fourth) and from the text it remembered (the fifth).
      for (let i = 0; i < 2; i++) {
        const over = await ask(limited, bearer);
        expect(over.status).toBe(429);
        expect(codesOf(over)).toEqual(['RATE_LIMITED']);
        expect(over.raw.headers['retry-after']).toBeDefined();
        expect(over.data).toBeUndefined();
      }
    } finally {
      await limited.close();
    }
  });

  it('counts a request once when its remembered text finds its answer changed and goes the long way', async () => {
    const { app: limited } = await createInstance(t.db.store, { env: { RATE_LIMIT_PER_MINUTE: '4' } });
    try {
      const desk = buildClient({ company_id: t.world.company.id, name: 'Counted Desk' });
      await t.load({ client_applications: [desk] });
      const statuses = [];
      // Executed, then answered from memory (its text remembered).
      for (let i = 0; i < 2; i++) statuses.push((await ask(limited, desk.bearer_token)).status);
      const paid = await t.postJson(
        `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`,
        payment([line(item, 1)], cash('100'), { tenant_id: tenant.id }),
      );
      expect(paid.statusCode).toBe(200);
      // Known at once and counted before its body is read, then executed: the third, not the fourth.
      const changed = await ask(limited, desk.bearer_token);
      statuses.push(changed.status);
      statuses.push((await ask(limited, desk.bearer_token)).status);
      statuses.push((await ask(limited, desk.bearer_token)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
