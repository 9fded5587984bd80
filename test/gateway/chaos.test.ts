import http from 'node:http';
import type net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { buildWorld } from '../support/factories';
import { startGateway, type Gateway } from '../support/gateway';

/** What the fake upstream does with one request. */
type Behaviour = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** The contract's answer for a facility's flippers, as the system of record writes it. */
const answerProperly: Behaviour = (request, response) => {
  const body = JSON.stringify({
    flippers: { amenities_enabled: true },
    meta: {
      status_code: 200,
      status_message: 'OK',
      request_method: request.method,
      request_id: request.headers['x-request-id'],
      parameters: {},
    },
  });
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
};

/** A 200 whose body is the given text, with its true length. */
const answerWith =
  (body: string): Behaviour =>
  (_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  };

const META = '"meta":{"status_code":200,"status_message":"OK","request_id":"x","parameters":{}}';
const DEPTH = 200_000;

/**
 * A fake upstream of the test's own, on loopback: it answers each request as `behaviour` says,
 * once the test releases it when a request is `held`.
 */
class FakeUpstream {
  behaviour: Behaviour = answerProperly;
  /** Every request it received: method and URL. */
  readonly received: string[] = [];
  private held: Promise<void> | null = null;
  private readonly server = http.createServer((request, response) => {
    this.received.push(`${request.method} ${request.url}`);
    const behaviour = this.behaviour;
    void (this.held ?? Promise.resolve()).then(() => behaviour(request, response));
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Holds every request until the returned function is called. */
  hold(): () => void {
    let release = () => undefined as void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.held = null;
      release();
    };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Headers of a 200 with `Content-Length: 1000`, then `bytes`, then what `end` does to the socket. */
const cutShort =
  (bytes: string, end: (socket: net.Socket) => void): Behaviour =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': 1000 });
    response.write(bytes, () => end(response.socket!));
  };

/** One byte of a 1000-byte answer every 50 ms, until the gateway hangs up. */
const trickle: Behaviour = (request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': 1000 });
  const timer = setInterval(() => response.write(' '), 50);
  request.socket.on('close', () => clearInterval(timer));
};

const TIMEOUT_MS = 4000;

/**
 * Gateway mode against an upstream that misbehaves as a broken program or network would: every
 * request sharing the broken call gets 502 or 504 in the envelope within the deadline, nothing
 * stays pinned in the in-flight table (the next request for the page reaches the upstream and is
 * answered), and a malformed body never passes as a 200, on /v1 nor in GraphQL.
 */
describe('gateway mode against an upstream that misbehaves', () => {
  const world = buildWorld();
  const upstream = new FakeUpstream();
  let gateway: Gateway;

  beforeAll(async () => {
    await upstream.start();
    gateway = await startGateway(
      'sqlite',
      upstream.url,
      world,
      {
        UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
        UPSTREAM_BREAKER_FAILURES: '5',
        UPSTREAM_BREAKER_COOLDOWN_MS: '600000',
      },
      { everyCompany: true },
    );
  }, 60_000);
  afterEach(() => {
    upstream.behaviour = answerProperly;
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream.close();
  });

  const flippers = `/v1/${world.facility.id}/flippers`;
  const ask = (options: { method?: 'GET' | 'HEAD'; client?: typeof world.client; url?: string } = {}) =>
    gateway.app.inject({
      method: options.method ?? 'GET',
      url: options.url ?? flippers,
      headers: { authorization: `Bearer ${(options.client ?? world.client).bearer_token}` },
    });
  const askGraphql = () =>
    gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${world.client.bearer_token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `{ facility(id: "${world.facility.id}") { flippers } }` }),
    });

  /** The answer, or a failure naming what never came once a generous deadline is past. */
  async function answered<T>(what: string, answer: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const never = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what}: no answer within ${TIMEOUT_MS + 30_000} ms`)),
        TIMEOUT_MS + 30_000,
      );
    });
    try {
      return await Promise.race([answer, never]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Polls until the check holds, or fails naming `what` once a generous deadline is past. */
  async function eventually(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
    const giveUpAt = Date.now() + TIMEOUT_MS + 30_000;
    while (!(await check())) {
      if (Date.now() > giveUpAt) throw new Error(`${what}: not so within ${TIMEOUT_MS + 30_000} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const sharedCalls = async () => {
    const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/^upstream_calls_total\{call="shared"\} (\d+)/m.exec(text)?.[1] ?? 0);
  };

  /** Three requests for the page sharing one upstream call, which then behaves as `behaviour`. */
  async function threeSharing(behaviour: Behaviour): Promise<LightMyRequestResponse[]> {
    upstream.behaviour = behaviour;
    const before = { received: upstream.received.length, shared: await sharedCalls() };
    const release = upstream.hold();
    let asked: Array<Promise<LightMyRequestResponse>> = [];
    try {
      asked.push(ask());
      await eventually('the upstream is asked', () => upstream.received.length === before.received + 1);
      asked = [...asked, ask(), ask()];
      await eventually(
        'two requests share its call',
        async () => (await sharedCalls()) === before.shared + 2,
      );
    } finally {
      release();
    }
    const answers = await answered('the shared call', Promise.all(asked));
    expect(upstream.received.length).toBe(before.received + 1);
    return answers;
  }

  /** The next request for the page reaches the upstream (nothing pinned) and is answered. */
  async function answeredAgain(): Promise<void> {
    upstream.behaviour = answerProperly;
    const before = upstream.received.length;
    const res = await answered('the next request', ask());
    expect(res.statusCode).toBe(200);
    expect(res.json().flippers).toEqual({ amenities_enabled: true });
    expect(upstream.received.length).toBe(before + 1);
  }

  const MALFORMED: Array<[string, Behaviour]> = [
    [
      'a 200 with Content-Length 1000, 9 bytes, then the connection closed',
      cutShort('{"flipper', (s) => s.end()),
    ],
    ['a 200 whose connection is reset mid-body', cutShort('{"flippers":{"amen', (s) => s.resetAndDestroy())],
    ['a body that is not JSON', answerWith(`{"x":[1,,2] garbage ${META}}`)],
    ['JSON nested 200,000 deep', answerWith(`{"flippers":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)},${META}}`)],
    ['JSON that is not an envelope (its meta is inside the data)', answerWith(`{"flippers":[{${META}}]}`)],
  ];

  it.each(MALFORMED)(
    'answers 502 to every request sharing %s, then the page again',
    async (_name, behaviour) => {
      const answers = await threeSharing(behaviour);
      for (const res of answers) {
        expect(res.statusCode).toBe(502);
        expect(res.json().meta).toMatchObject({
          status_code: 502,
          error_code: null,
          message: 'the upstream is unavailable',
        });
      }
      await answeredAgain();
    },
  );

  it.each(MALFORMED)('answers UPSTREAM_UNAVAILABLE in GraphQL to %s', async (_name, behaviour) => {
    upstream.behaviour = behaviour;
    const res = await answered('GraphQL', askGraphql());
    const body = res.json();
    expect(body.data?.facility ?? null).toBeNull();
    expect(body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'UPSTREAM_UNAVAILABLE',
    ]);
    await answeredAgain();
  });

  const SILENT: Array<[string, Behaviour]> = [
    ['never answers', () => undefined],
    ['sends headers, then its body a byte at a time', trickle],
  ];

  it.each(SILENT)(
    'answers 504 within the deadline to every request sharing a call that %s',
    async (_name, behaviour) => {
      const answers = await threeSharing(behaviour);
      for (const res of answers) {
        expect(res.statusCode).toBe(504);
        expect(res.json().meta).toMatchObject({
          status_code: 504,
          error_code: null,
          message: `the upstream did not answer within ${TIMEOUT_MS} ms`,
        });
      }
      await answeredAgain();
    },
  );

  it('never opens the breaker for answers that are not the envelope: they fail their own calls alone', async () => {
    upstream.behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>Be right back</body></html>');
    };
    for (let i = 0; i < 8; i++) expect((await answered('an HTML page', ask())).statusCode).toBe(502);
    expect(gateway.services.upstream!.health().breaker).toBe('closed');
    await answeredAgain();
  });

  it('answers HEAD as GET without a body, and HEADs never open the breaker', async () => {
    const get = await ask();
    const failureBefore = gateway.services.upstream!.health().lastFailure;
    for (let i = 0; i < 8; i++) {
      const head = await answered('HEAD', ask({ method: 'HEAD' }));
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
    }
    // The upstream was asked for the page, as a GET.
    expect(upstream.received.at(-1)).toBe(`GET ${flippers}`);
    const ready = await gateway.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().upstream).toMatchObject({ breaker: 'closed', lastFailure: failureBefore });
    // Another company's caller is served.
    const other = await ask({ client: world.otherClient, url: `/v1/${world.otherFacility.id}/flippers` });
    expect(other.statusCode).toBe(200);
  });
});
