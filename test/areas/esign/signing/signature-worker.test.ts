import zlib from 'node:zlib';
import { SignPdf } from '@signpdf/signpdf';
import { PDFDocument } from 'pdf-lib';
import { PdfLibSigner } from '../../../../src/adapters/pdf/pdf-lib.signer';
import { renderPdf } from '../../../../src/adapters/pdf/pdfkit.renderer';
import { SealingKey } from '../../../../src/adapters/seal/sealing-key';
import { WorkerPdfSigner } from '../../../../src/adapters/workers/pdf-signer';
import { readSignatureImage } from '../../../../src/areas/esign/esign.signature';
import type { DatasetEvent } from '../../../../src/store/dataset/dataset.types';
import { buildDocument, buildEvent } from '../../../support/factories';
import { HeldWorkerGate } from '../../../support/held-worker-gate';
import { describeEachDialect, type Dialect } from '../../../support/harness';
import { createTestApp, type TestApp } from '../../../support/http';
import { pdfsig, testSealingKey } from '../../../support/seal';
import { dataUrl, goodForm, postForm, sendLink, signaturePng, signingState } from '../../../support/signing';

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

async function heldPdfApp(dialect: Dialect, gate: HeldWorkerGate, env: Record<string, string> = {}) {
  return createTestApp(dialect, { pdfSignerWorker: gate.pdfSignerWorker, env });
}

/**
 * Signs 8 new links with the largest drawing while `gate` holds the workers: `/healthz` answers and
 * no signing has been answered meanwhile; released, all 8 are signed. `watch` runs once the links
 * are made, before the first submission (to spy on what the event loop does from then on).
 */
async function signEightWhileHeld(
  t: TestApp,
  gate: HeldWorkerGate,
  held: string,
  watch: () => void,
): Promise<void> {
  const tokens = await Promise.all(Array.from({ length: 8 }, () => newLink(t)));
  watch();
  let settled = 0;
  const signings = tokens.map((token) =>
    postForm(t, token, largest()).finally(() => {
      settled += 1;
    }),
  );
  await until(() => gate.started >= 1, held);
  const health = await t.app.inject({ method: 'GET', url: '/healthz' });
  expect(health.statusCode).toBe(200);
  expect(settled).toBe(0);
  gate.release();
  const answers = await Promise.all(signings);
  expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(303));
  expect(gate.started).toBe(8);
}

/**
 * The next job's worker dies: that signing answers the 503 page and writes nothing; the next link
 * signs on a new worker, and the failed link, as it was, signs after it.
 */
async function crashOneThenSign(t: TestApp, gate: HeldWorkerGate): Promise<void> {
  const [first, second] = [await newLink(t), await newLink(t)];
  gate.release();
  gate.crashNext();
  const before = await signingState(t);
  const failed = await postForm(t, first, largest());
  expect(failed.statusCode).toBe(503);
  expect(Number(failed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(visibleText(failed.body)).toContain('Nothing was signed.');
  expect(await signingState(t)).toEqual(before);
  expect((await postForm(t, second, largest())).statusCode).toBe(303);
  // The failed link is as it was: it signs now.
  expect((await postForm(t, first, largest())).statusCode).toBe(303);
}

describeEachDialect('drawn signatures decoded by worker threads', (dialect) => {
  afterEach(() => jest.restoreAllMocks());

  it('answers /healthz while 8 of the largest drawings are being signed, each decoded off the event loop', async () => {
    const gate = new HeldWorkerGate();
    const t = await heldApp(dialect, gate, { SIGNATURE_WORKERS: '2', SIGNATURE_QUEUE: '8' });
    try {
      // The event loop never inflates a drawing: the workers do (theirs is another zlib module).
      let inflatedHere: jest.SpyInstance | undefined;
      // Decoding starts, and is held, in the workers.
      await signEightWhileHeld(t, gate, 'a worker took a drawing', () => {
        inflatedHere = jest.spyOn(zlib, 'inflate');
      });
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
      await crashOneThenSign(t, gate);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describeEachDialect('signed PDFs stamped and sealed by worker threads', (dialect) => {
  afterEach(() => jest.restoreAllMocks());

  it('stamps and seals every document of 8 signings of the largest drawing off the event loop', async () => {
    const gate = new HeldWorkerGate();
    const t = await heldPdfApp(dialect, gate, { SIGNATURE_WORKERS: '2', SIGNATURE_QUEUE: '8' });
    try {
      // The event loop never opens a PDF with pdf-lib, never seals one: the workers do (with
      // modules of their own).
      const spies: jest.SpyInstance[] = [];
      // Stamping starts, and is held, in the workers.
      await signEightWhileHeld(t, gate, 'a worker took a document', () => {
        spies.push(jest.spyOn(PDFDocument, 'load'));
        spies.push(jest.spyOn(SignPdf.prototype, 'sign'));
        spies.push(jest.spyOn(SealingKey.prototype, 'cms'));
      });
      expect(spies).toHaveLength(3);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      expect((await signingState(t)).signed).toBe(8);
      // What the workers made is a sealed PDF, as kept.
      const [row] = await t.db.store.db
        .selectFrom('esign_signed_documents')
        .select(['pdf'])
        .limit(1)
        .execute();
      expect(await pdfsig(Buffer.from(row.pdf))).toMatch(/Signature Validation: Signature is Valid\./);
    } finally {
      await t.close();
    }
  }, 180_000);

  it('fails only the signing whose PDF worker dies, with the 503 page, and the next one signs on a new worker', async () => {
    const gate = new HeldWorkerGate();
    const t = await heldPdfApp(dialect, gate, { SIGNATURE_WORKERS: '1', SIGNATURE_QUEUE: '8' });
    try {
      await crashOneThenSign(t, gate);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('the PDF signing worker', () => {
  it('makes byte for byte the file the in-process signer makes from the same inputs', async () => {
    const key = await testSealingKey();
    const seal = { current: () => Promise.resolve(key) };
    const at = new Date('2026-11-24T15:05:00.000Z');
    const reading = await readSignatureImage(dataUrl(LARGEST));
    if (!reading.ok) throw new Error('the largest drawing does not decode');
    const original = await renderPdf({ header: 'Main Street', title: 'Lease', body: 'Text.', createdAt: at });
    const inputs = [
      original,
      { signerName: 'Grace Hopper', signedAtText: '2026-11-24 10:05 EST', signature: reading.image },
      {
        facilityName: 'Main Street',
        documentTitle: 'Lease',
        documentId: 'd1',
        details: [{ label: 'Signer', value: 'Grace Hopper' }],
        trail: [{ at: '2026-11-24 10:00 EST', event: 'sent', details: 'to grace@example.com' }],
        consent: 'Consent.',
      },
    ] as const;
    const here = await new PdfLibSigner(seal, () => at).sign(...inputs);
    const workers = new WorkerPdfSigner(seal, { size: 1, queue: 1, deadlineMs: 60_000 }, { now: () => at });
    try {
      const there = await workers.sign(...inputs);
      expect(there).toBeInstanceOf(Buffer);
      expect(Buffer.compare(there as Buffer, here)).toBe(0);
    } finally {
      await workers.close();
    }
  }, 120_000);
});
