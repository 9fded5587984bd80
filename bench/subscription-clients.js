'use strict';
/* global setTimeout */
/**
 * The subscribers of `bench/subscriptions.js`: bare protocol clients (graphql-transport-ws over `ws`,
 * or GraphQL over SSE over node:http) of one facility's activity, each noting when every payment's
 * event arrives. The bench runs them in its own process, or (`--clients-processes N`) forks this file
 * N times: each child runs its share of the subscribers, at a lower priority with `--clients-nice K`,
 * and answers the bench's messages (IPC, `advanced` serialization).
 *
 * Every time, here and in the bench's process, is `now()`: CLOCK_MONOTONIC, which on Linux is one
 * clock for every process of the machine (the bench checks it against each child before it starts),
 * so a receipt noted in a child compares with a payment's answer noted in the bench's process.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');

/** Milliseconds on CLOCK_MONOTONIC (process.hrtime: libuv's uv_hrtime, clock_gettime(CLOCK_MONOTONIC)). */
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Connections opened at once, over all the clients' processes: a fleet of screens does not connect in one instant either. */
const CONNECTING_AT_ONCE = 200;

const ACTIVITY = `subscription Activity($facilityId: UUID!) {
  facilityActivity(facilityId: $facilityId, types: [PAYMENT_SUCCEEDED]) {
    ... on PaymentSucceeded { cursor payment { id amount } }
  }
}`;

const PAYMENT_ID = /"payment":\{"id":"([^"]+)"/;

/**
 * One subscriber's receipts: per payment id, when it arrived (ms, `now()`), and how many times (more
 * than once is a failure the report names).
 */
class Receipts {
  constructor() {
    this.at = new Map();
    this.duplicates = 0;
  }

  note(text) {
    const at = now();
    const match = PAYMENT_ID.exec(text);
    if (!match) throw new Error(`unexpected event ${text.slice(0, 200)}`);
    if (this.at.has(match[1])) this.duplicates += 1;
    else this.at.set(match[1], at);
  }
}

/** A graphql-transport-ws subscriber over a bare WebSocket: resolves once its subscribe is sent. */
function wsSubscriber(address, token, variables, receipts, failed) {
  const WebSocket = require('ws');
  const socket = new WebSocket(`${address.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
    perMessageDeflate: false,
  });
  return new Promise((resolve, reject) => {
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })),
    );
    socket.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{"id"') && text.includes('"type":"next"')) return receipts.note(text);
      const message = JSON.parse(text);
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: ACTIVITY, variables } }));
        resolve({ close: () => socket.terminate() });
      } else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else failed(`subscriber got ${text.slice(0, 300)}`);
    });
    socket.on('error', reject);
    socket.on('close', (code, reason) => failed(`a subscriber's connection closed ${code} ${reason}`));
  });
}

/** A GraphQL-over-SSE subscriber over node:http: resolves once the stream answered 200. */
function sseSubscriber(address, token, variables, receipts, failed) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${address}/graphql`, {
      method: 'POST',
      agent: false,
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
    });
    request.on('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`SSE answered ${response.statusCode}`));
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('event: next')) receipts.note(block);
          else if (block.includes('event: complete')) failed('a stream completed');
        }
      });
      response.on('end', () => failed('a stream ended'));
      resolve({ close: () => request.destroy() });
    });
    request.on('error', reject);
    request.end(JSON.stringify({ query: ACTIVITY, variables }));
  });
}

/**
 * Subscribers in this process: those numbered `from` to `to` (excluded) of the whole fleet, the
 * k-th of which subscribes at `addresses[k % addresses.length]` (the services, in turn).
 */
class Clients {
  constructor({ addresses, token, variables, transport, from, to, atOnce }) {
    this.plan = { addresses, token, variables, transport, from, atOnce };
    this.receipts = Array.from({ length: to - from }, () => new Receipts());
    this.subscribers = [];
    this.failures = [];
    /** The first subscriber that had fewer events than `reachedCount` when last looked at. */
    this.reachedUpTo = 0;
    this.reachedCount = 0;
  }

  failed(why) {
    if (this.failures.length < 5) this.failures.push(why);
  }

  async connect() {
    const { addresses, token, variables, transport, from, atOnce } = this.plan;
    const subscribe = transport === 'ws' ? wsSubscriber : sseSubscriber;
    const failed = (why) => this.failed(why);
    for (let i = 0; i < this.receipts.length; i += atOnce) {
      this.subscribers.push(
        ...(await Promise.all(
          this.receipts
            .slice(i, i + atOnce)
            .map((r, k) =>
              subscribe(addresses[(from + i + k) % addresses.length], token, variables, r, failed),
            ),
        )),
      );
    }
  }

  /** Whether every subscriber has received `count` distinct events (looks on from where it stopped). */
  reached(count) {
    if (count !== this.reachedCount) [this.reachedUpTo, this.reachedCount] = [0, count];
    while (this.reachedUpTo < this.receipts.length && this.receipts[this.reachedUpTo].at.size >= count)
      this.reachedUpTo += 1;
    return this.reachedUpTo === this.receipts.length;
  }

  /** Waits until every subscriber has received `count` distinct events; throws on a failure, or after `ms`. */
  async until(count, ms) {
    const since = Date.now();
    while (!this.reached(count)) {
      if (this.failures.length > 0) throw new Error(this.failures.join('; '));
      if (Date.now() - since > ms) throw new Error(`waited ${ms} ms for ${count} events at every subscriber`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (this.failures.length > 0) throw new Error(this.failures.join('; '));
  }

  /**
   * The receipts of the events `ids`: `times[s * ids.length + e]` is when subscriber s received event
   * e (NaN: never); duplicates; events received that are none of `ids`.
   */
  report(ids) {
    const times = new Float64Array(this.receipts.length * ids.length);
    let duplicates = 0;
    let unexpected = 0;
    this.receipts.forEach((r, s) => {
      let found = 0;
      ids.forEach((id, e) => {
        const at = r.at.get(id);
        times[s * ids.length + e] = at ?? NaN;
        if (at !== undefined) found += 1;
      });
      duplicates += r.duplicates;
      unexpected += r.at.size - found;
    });
    return { times, duplicates, unexpected };
  }

  close() {
    for (const subscriber of this.subscribers) subscriber.close();
  }
}

/**
 * Lowers this process's priority to `nice`: every thread of it, as Linux gives each thread its own
 * nice value (`os.setPriority` on the process's id alone would lower its main thread only); threads
 * made later inherit their maker's.
 */
function lowerPriority(nice) {
  let threads;
  try {
    threads = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  for (const thread of threads) os.setPriority(thread, nice);
}

/** A forked clients' process: its subscribers, as the bench's messages direct. */
function child() {
  let clients = null;
  const send = (message) => process.send(message);
  const answer = (type, work) =>
    Promise.resolve()
      .then(work)
      .then(
        (value) => send({ type, ...value }),
        (error) => send({ type: 'error', message: String(error?.stack ?? error) }),
      );
  process.on('message', (message) => {
    switch (message.type) {
      case 'clock':
        return send({ type: 'clock', at: now() });
      case 'start':
        return answer('connected', async () => {
          if (message.nice > 0) lowerPriority(message.nice);
          clients = new Clients(message.plan);
          await clients.connect();
        });
      case 'until':
        return answer('reached', () => clients.until(message.count, message.ms));
      case 'report':
        return answer('report', () => clients.report(message.ids));
      case 'close':
        return process.disconnect();
      default:
        return send({ type: 'error', message: `unknown message ${message.type}` });
    }
  });
  // The bench's process gone: nothing to report to.
  process.on('disconnect', () => {
    clients?.close();
    process.exit(0);
  });
}

if (require.main === module) child();

module.exports = { Clients, CONNECTING_AT_ONCE, now };
