import { randomBytes } from 'node:crypto';
import zlib, { deflateSync } from 'node:zlib';
import type { App } from '../../../../src/app';
import {
  readSignatureImage,
  SIGNATURE_MAX_HEIGHT,
  SIGNATURE_MAX_WIDTH,
} from '../../../../src/areas/esign/esign.signature';
import { WorkSlots } from '../../../../src/areas/esign/esign.slots';
import type { DatasetEvent } from '../../../../src/store/dataset/dataset.types';
import { buildDocument, buildEvent } from '../../../support/factories';
import { describeEachDialect } from '../../../support/harness';
import { createInstance, createTestApp, type TestApp } from '../../../support/http';
import {
  dataUrl,
  goodForm,
  pngChunk,
  postForm,
  sendLink,
  signaturePng,
  signingState,
  type SigningForm,
} from '../../../support/signing';

/** An RGBA PNG header and the given image data: the data need not match the header. */
function png(width: number, height: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An opaque white picture, with a thin dark line when `line`: a scan or a screenshot, not a drawing. */
function whitePng(width: number, height: number, line = true): Buffer {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height, 0xff);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // no filter
    const x = Math.floor((y * width) / height);
    if (line) raw.fill(0x11, y * stride + 1 + x * 4, y * stride + 1 + x * 4 + 3);
  }
  return png(width, height, deflateSync(raw, { level: 9 }));
}

/** The page's text without tags, spaces collapsed: what a reader sees. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

// A mostly white 4096 x 4096 picture, about 70 KB as a PNG (67 MB of pixels once inflated).
const HUGE = whitePng(4096, 4096);
// Small on the wire, 100,000 x 100,000 pixels by its header, and its data is no deflate stream at all.
const BOMB = png(100_000, 100_000, randomBytes(2048));
// Within the budget and as heavy as it allows, without ink: decoded in full, then refused as empty.
const HEAVY = whitePng(SIGNATURE_MAX_WIDTH, SIGNATURE_MAX_HEIGHT, false);

describe('the pixel budget of a drawn signature', () => {
  afterEach(() => jest.restoreAllMocks());

  it('refuses a drawing larger than the budget from its header, inflating nothing', async () => {
    expect(HUGE.length).toBeLessThan(256 * 1024);
    const inflate = jest.spyOn(zlib, 'inflate');
    expect(await readSignatureImage(dataUrl(HUGE))).toEqual({
      ok: false,
      problem: 'too_many_pixels',
      width: 4096,
      height: 4096,
    });
    // Were it inflated, its data would make it unreadable ('not_png'), not too large.
    expect(await readSignatureImage(dataUrl(BOMB))).toEqual({
      ok: false,
      problem: 'too_many_pixels',
      width: 100_000,
      height: 100_000,
    });
    expect(inflate).not.toHaveBeenCalled();
    // A drawing within the budget is inflated (once), as the check above assumes.
    expect(await readSignatureImage(dataUrl(signaturePng()))).toMatchObject({ ok: true });
    expect(inflate).toHaveBeenCalledTimes(1);
  });

  it('takes a drawing at the edge of the budget and refuses one a pixel over it', async () => {
    const stroke = (x: number, y: number) => Math.abs(y - Math.round(x / 2)) <= 1;
    const edge = signaturePng(SIGNATURE_MAX_WIDTH, SIGNATURE_MAX_HEIGHT, stroke);
    expect(await readSignatureImage(dataUrl(edge))).toMatchObject({
      ok: true,
      image: { width: SIGNATURE_MAX_WIDTH, height: SIGNATURE_MAX_HEIGHT },
    });
    const wide = signaturePng(SIGNATURE_MAX_WIDTH + 1, 40, stroke);
    expect(await readSignatureImage(dataUrl(wide))).toMatchObject({ ok: false, problem: 'too_many_pixels' });
    const tall = signaturePng(40, SIGNATURE_MAX_HEIGHT + 1, stroke);
    expect(await readSignatureImage(dataUrl(tall))).toMatchObject({ ok: false, problem: 'too_many_pixels' });
  });

  it('lets the event loop turn while it decodes a drawing', async () => {
    let done = false;
    let turns = 0;
    const reading = readSignatureImage(dataUrl(HEAVY)).finally(() => {
      done = true;
    });
    const turn = () => {
      if (done) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    expect(await reading).toEqual({ ok: false, problem: 'empty' });
    expect(turns).toBeGreaterThan(10);
  });
});

describe('turns for submissions', () => {
  it('runs two at once, lines up the next ones in order, and turns away the rest', async () => {
    const slots = new WorkSlots(2, 2);
    const releases: Array<() => void> = [];
    const started: number[] = [];
    const job = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        releases.push(() => resolve(n));
      });
    const runs = [1, 2, 3, 4].map((n) => slots.run(job(n)));
    expect(await slots.run(job(5))).toBe('busy');
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    releases.shift()!();
    expect(await runs[0]).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([1, 2, 3, 4]);
    // Every slot is free again.
    expect(await Promise.all([slots.run(async () => 6), slots.run(async () => 7)])).toEqual([6, 7]);
  });
});

describe('a wait for a turn', () => {
  it('ends at its deadline with busy, the work not done, and the line moves on', async () => {
    const slots = new WorkSlots(1, 2, 50);
    let release = () => undefined as void;
    const first = slots.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    let ran = false;
    const late = slots.run(async () => {
      ran = true;
      return 'late';
    });
    // Nothing frees the slot: the one waiting is answered at its deadline.
    expect(await late).toBe('busy');
    expect(ran).toBe(false);
    release();
    expect(await first).toBe('first');
    // The slot is free again: the next one runs at once.
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});

describeEachDialect('the signing page under a flood', (dialect) => {
  let t: TestApp;
  let event: DatasetEvent;
  // Submissions whose handler has started, and a wait for the n-th.
  let started = 0;
  let whenStarted: { count: number; resolve: () => void } | null = null;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      prepare: (app) =>
        app.addHook('preHandler', async (request) => {
          if (request.method !== 'POST') return;
          started += 1;
          if (whenStarted && started >= whenStarted.count) whenStarted.resolve();
        }),
    });
    event = buildEvent({ facility_id: t.world.facility.id });
    await t.load({ events: [event], event_documents: [buildDocument({ event_id: event.id })] });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Deleting the messages deletes their links, audit trails and signed copies.
    await t.db.store.db.deleteFrom('outbox_messages').execute();
  });

  const signature = (image: Buffer) => ({ ...goodForm(), signature: dataUrl(image) });

  it('refuses a 4096 x 4096 picture on the page, naming the field, and the link still signs', async () => {
    const { token } = await sendLink(t, event.id);
    const before = await signingState(t);
    for (const [image, size] of [
      [HUGE, '4096 x 4096'],
      [BOMB, '100000 x 100000'],
    ] as const) {
      const res = await postForm(t, token, signature(image));
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const message = `The drawing is ${size} pixels, larger than a signature can be (2000 x 1000 at most).`;
      expect(visibleText(res.body)).toContain(message);
      // The error summary links to the signature field.
      expect(res.body).toContain(`<a href="#type-signature">${message}`);
      expect(await signingState(t)).toEqual(before);
    }
    expect((await postForm(t, token, goodForm())).statusCode).toBe(303);
  });

  it('answers /healthz while 8 heavy drawings are being decoded', async () => {
    const { token } = await sendLink(t, event.id);
    started = 0;
    const allStarted = new Promise<void>((resolve) => {
      whenStarted = { count: 8, resolve };
    });
    let settled = 0;
    const submissions = Array.from({ length: 8 }, () =>
      postForm(t, token, signature(HEAVY)).finally(() => {
        settled += 1;
      }),
    );
    // Every submission is in its handler, on its way to decoding its drawing, when the probe comes.
    await allStarted;
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(settled).toBeLessThan(8);
    const answers = await Promise.all(submissions);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(422));
    expect(visibleText(answers[0].body)).toContain('Draw your signature in the box.');
    expect((await postForm(t, token, goodForm())).statusCode).toBe(303);
  }, 60_000);

  describe('rate limits', () => {
    let limited: App;
    afterEach(() => limited.app.close());

    const from = (address: string, method: 'GET' | 'POST', url: string, payload?: string) =>
      limited.app.inject({
        method,
        url,
        remoteAddress: address,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
        },
        payload,
      });
    const form = (values: SigningForm) =>
      new URLSearchParams(
        Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ).toString();

    it('holds back repeated submissions of one link with 429 and Retry-After, writing nothing', async () => {
      limited = await createInstance(t.db.store, {
        env: { SIGNING_RATE_LIMIT_PER_TOKEN: '3' },
        clock: t.clock,
      });
      const { token } = await sendLink(t, event.id);
      const other = await sendLink(t, event.id, { email: 'ada@example.com' });
      const before = await signingState(t);
      const heavy = form(signature(HEAVY));
      for (let i = 0; i < 3; i++) {
        // From three addresses: the budget is the link's, wherever the tries come from.
        expect((await from(`198.51.100.${i + 1}`, 'POST', `/sign/${token}`, heavy)).statusCode).toBe(422);
      }
      const refused = await from('198.51.100.9', 'POST', `/sign/${token}`, form(goodForm()));
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(refused.headers['x-frame-options']).toBe('DENY');
      expect(visibleText(refused.body)).toContain('Too many tries for now');
      expect(visibleText(refused.body)).toContain('Nothing was signed.');
      expect(await signingState(t)).toEqual(before);
      // The page of that link waits too; another link does not.
      expect((await from('198.51.100.9', 'GET', `/sign/${token}`)).statusCode).toBe(429);
      expect((await from('198.51.100.9', 'GET', `/sign/${other.token}`)).statusCode).toBe(200);
    });

    it('holds back one address that tries many links, and no other', async () => {
      limited = await createInstance(t.db.store, {
        env: { SIGNING_RATE_LIMIT_PER_ADDRESS: '4' },
        clock: t.clock,
      });
      const { token } = await sendLink(t, event.id);
      const guesses = Array.from({ length: 4 }, () => randomBytes(32).toString('base64url'));
      for (const guess of guesses) {
        expect((await from('203.0.113.5', 'GET', `/sign/${guess}`)).statusCode).toBe(404);
      }
      const refused = await from('203.0.113.5', 'GET', `/sign/${token}`);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await from('203.0.113.5', 'POST', `/sign/${token}`, form(goodForm()))).statusCode).toBe(429);
      // The page's own stylesheet is not counted; another address is not held back.
      const css = /href="(\/sign\/assets\/[^"]+\.css)"/.exec(
        (await from('203.0.113.6', 'GET', `/sign/${token}`)).body,
      )![1];
      expect((await from('203.0.113.5', 'GET', css)).statusCode).toBe(200);
      expect((await from('203.0.113.6', 'POST', `/sign/${token}`, form(goodForm()))).statusCode).toBe(303);
    });
  });
});
