import zlib from 'node:zlib';
import type { DatasetEvent } from '../../src/store/dataset/dataset.types';
import { buildDocument, buildEvent } from '../support/factories';
import { HeldWorkerGate } from '../support/held-worker-gate';
import { describeEachDialect, type Dialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { dataUrl, goodForm, postForm, sendLink, signaturePng, signingState } from '../support/signing';

/**
 * The largest drawing the page exports (1800 x 900, twice its pad): a signature of two loops
 * across it, three pixels wide.
 */
const LARGEST = signaturePng(1800, 900, (x, y) => {
  const line = 450 + Math.round(300 * Math.sin(x / 90));
  return Math.abs(y - line) <= 1 || Math.abs(y - (900 - line)) <= 1;
});
const largest = () => ({ ...goodForm(), signature: dataUrl(LARGEST) });

/** The page's text without tags, spaces collapsed: what a reader sees. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** Waits until `condition` holds, looking on each turn of the event loop; fails after a generous deadline. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within a minute: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A move-in with an esignable document, and a link to it: one signing each. */
async function newLink(t: TestApp): Promise<string> {
  const event: DatasetEvent = buildEvent({ facility_id: t.world.facility.id });
  await t.load({ events: [event], event_documents: [buildDocument({ event_id: event.id })] });
  return (await sendLink(t, event.id)).token;
}

async function heldApp(dialect: Dialect, gate: HeldWorkerGate, env: Record<string, string> = {}) {
  return createTestApp(dialect, { signatureWorker: gate.worker, env });
}

describeEachDialect('drawn signatures decoded by worker threads', (dialect) => {
  afterEach(() => jest.restoreAllMocks());

  it('answers /healthz while 8 of the largest drawings are being signed, each decoded off the event loop', async () => {
    const gate = new HeldWorkerGate();
    const t = await heldApp(dialect, gate, { SIGNATURE_WORKERS: '2', SIGNATURE_QUEUE: '8' });
    try {
      const tokens = await Promise.all(Array.from({ length: 8 }, () => newLink(t)));
      // The event loop never inflates a drawing: the workers do (theirs is another zlib module).
      const inflatedHere = jest.spyOn(zlib, 'inflate');
      let settled = 0;
      const signings = tokens.map((token) =>
        postForm(t, token, largest()).finally(() => {
          settled += 1;
        }),
      );
      // Decoding has started, and is held, in the workers.
      await until(() => gate.started >= 1, 'a worker took a drawing');
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(settled).toBe(0);
      gate.release();
      const answers = await Promise.all(signings);
      expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(303));
      expect(gate.started).toBe(8);
      expect(inflatedHere).not.toHaveBeenCalled();
      expect((await signingState(t)).signed).toBe(8);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('answers 503 with Retry-After when every worker is busy and no drawing may wait, writing nothing', async () => {
    const gate = new HeldWorkerGate();
    const t = await heldApp(dialect, gate, { SIGNATURE_WORKERS: '1', SIGNATURE_QUEUE: '0' });
    try {
      const [first, second] = [await newLink(t), await newLink(t)];
      const signing = postForm(t, first, largest());
      await until(() => gate.started === 1, 'the worker took the first drawing');
      const before = await signingState(t);
      const refused = await postForm(t, second, largest());
      expect(refused.statusCode).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(visibleText(refused.body)).toContain('Nothing was signed.');
      expect(await signingState(t)).toEqual(before);
      gate.release();
      expect((await signing).statusCode).toBe(303);
      // Once the worker is free, the refused link signs.
      expect((await postForm(t, second, largest())).statusCode).toBe(303);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('fails only the signing whose worker dies, and the next one signs on a new worker', async () => {
    const gate = new HeldWorkerGate();
    const t = await heldApp(dialect, gate, { SIGNATURE_WORKERS: '1', SIGNATURE_QUEUE: '8' });
    try {
      const [first, second] = [await newLink(t), await newLink(t)];
      gate.release();
      gate.crashNext();
      const before = await signingState(t);
      const failed = await postForm(t, first, largest());
      expect(failed.statusCode).toBe(503);
      expect(visibleText(failed.body)).toContain('Nothing was signed.');
      expect(await signingState(t)).toEqual(before);
      expect((await postForm(t, second, largest())).statusCode).toBe(303);
      // The failed link is as it was: it signs now.
      expect((await postForm(t, first, largest())).statusCode).toBe(303);
    } finally {
      await t.close();
    }
  }, 120_000);
});
