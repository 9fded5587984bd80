import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig } from '../../../../src/config';
import { outboxTransportsFrom, createOutboxWorker } from '../../../../src/outbox.runtime';
import type { DatasetEvent } from '../../../../src/store/dataset/dataset.types';
import type { EventEsignQuery, EventEsignQueryVariables } from '../../../generated/graphql';
import { operation, run } from '../../../graphql/graphql-client';
import { startSmtpServer, type TestSmtpServer } from '../../../support/outbox-servers';
import { buildDocument, buildEvent, buildLedger, buildTenant, buildUnit } from '../../../support/factories';
import { createTestApp, type TestApp } from '../../../support/http';
import { pdfText } from '../../../support/pdf-text';

/**
 * The signing page in a real browser: Debian's Chromium driven by playwright-core, headless. The
 * link comes from an email the loopback SMTP server received. Screenshots go to test-artifacts/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const ARTIFACTS = path.join(__dirname, '../../../../test-artifacts');
const PUBLIC_BASE_URL = 'https://storage.example.test';
/** Generous: a busy 2-core machine starts a browser and renders slowly; nothing waits on a clock. */
const WAIT = 60_000;

if (!HAVE_CHROMIUM) {
  process.stdout.write(
    `\n*** Browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium, as .ci/run does, or set CHROMIUM_PATH) ***\n\n`,
  );
}
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;

const EventEsign = operation<EventEsignQuery, EventEsignQueryVariables>('esign-status.graphql', 'EventEsign');

/** Undoes the quoted-printable line wrapping and escapes of a text part. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describeBrowser(`the signing page in Chromium (${CHROMIUM})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let browser: Browser;
  let origin: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    smtp = await startSmtpServer();
    t = await createTestApp('sqlite', { env: { PUBLIC_BASE_URL } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    while (contexts.length > 0) await contexts.pop()!.close();
  });

  /** A move-in of Grace Hopper with a lease and an addendum to sign. */
  async function moveIn(): Promise<DatasetEvent> {
    const facilityId = t.world.facility.id;
    const tenant = buildTenant({ facility_id: facilityId, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facilityId, name: 'B-207' });
    const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
    const event = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
    await t.load({
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [event],
      event_documents: [
        buildDocument({
          event_id: event.id,
          description: 'Lease agreement',
          created_at: '2026-11-20T15:00:00Z',
          body:
            'This lease is between {{facility_name}} and {{tenant_name}} for unit {{unit_name}}.\n\n' +
            'Rent is due on the first day of each month. The tenant keeps the unit clean and dry.\n\n' +
            'Either party may end this lease with thirty days of written notice.',
        }),
        buildDocument({
          event_id: event.id,
          description: 'Gate code addendum',
          created_at: '2026-11-20T15:30:00Z',
          body: 'The gate code is personal to {{tenant_name}} and must not be shared.',
        }),
      ],
    });
    return event;
  }

  /** Sends the event's documents as staff do (REST), delivers the email, and answers the link in it. */
  async function emailedLink(eventId: string, email = 'grace@example.com'): Promise<string> {
    const sent = await t.postJson(
      `/v1/${t.world.facility.id}/documents/${eventId}/send_esignable_documents`,
      {
        email,
      },
    );
    expect(sent.statusCode).toBe(200);
    const config = loadConfig({ NODE_ENV: 'test', SMTP_URL: smtp.url, OUTBOX_SEND_TIMEOUT_MS: '60000' });
    const transports = outboxTransportsFrom(config.outbox);
    try {
      const worker = createOutboxWorker(t.services, config, { transports });
      expect(await worker.runOnce()).toMatchObject({ sent: 1 });
    } finally {
      transports.email?.close();
    }
    const email_ = smtp.received.filter((m) => m.to.includes(email)).pop()!;
    const link = /https:\/\/storage\.example\.test\/sign\/[A-Za-z0-9_-]{43}/.exec(
      decodeQuotedPrintable(email_.raw),
    );
    expect(link).not.toBeNull();
    // The link starts with PUBLIC_BASE_URL; this test's service listens on a loopback port instead.
    return link![0].replace(PUBLIC_BASE_URL, origin);
  }

  async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    const context = await browser.newContext({ acceptDownloads: true, ...options });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    return page;
  }

  /** Draws a zigzag across the pad with a mouse: pointerdown, pointermoves, pointerup. */
  async function drawWithMouse(page: Page): Promise<void> {
    await page.locator('#signature-pad').scrollIntoViewIfNeeded();
    const box = (await page.locator('#signature-pad').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) {
      await page.mouse.move(box.x + 20 + i * 25, y + (i % 2 === 0 ? -30 : 30), { steps: 3 });
    }
    await page.mouse.up();
  }

  /**
   * The same with a finger, through Chromium's touch input: a stroke at 60 touch events a second
   * that comes to rest before the finger lifts (a finger lifted while moving starts a fling, and
   * Chromium takes the next tap as the fling's stop, not as a tap).
   */
  async function drawWithFinger(page: Page): Promise<void> {
    const box = (await page.locator('#signature-pad').boundingBox())!;
    const session = await page.context().newCDPSession(page);
    const y = box.y + box.height / 2;
    const at = (i: number) => [{ x: box.x + 15 + i * 18, y: y + (i % 2 === 0 ? -25 : 25) }];
    let timestamp = Date.now() / 1000;
    const touch = (
      type: 'touchStart' | 'touchMove' | 'touchEnd',
      touchPoints: Array<{ x: number; y: number }>,
    ) => session.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp: (timestamp += 1 / 60) });
    await touch('touchStart', at(0));
    for (let i = 1; i <= 14; i++) await touch('touchMove', at(i));
    for (let rest = 0; rest < 6; rest++) await touch('touchMove', at(14));
    await touch('touchEnd', []);
    await session.detach();
  }

  /** The answer to the form's submission (303 to the page when signed). */
  const submitted = (page: Page) => page.waitForResponse((r) => r.request().method() === 'POST');

  /**
   * What the element with keyboard focus is, and whether its focus ring shows. Code run in the page
   * is written as text: this project's TypeScript has no DOM types.
   */
  const focused = (page: Page) =>
    page.evaluate<{ name: string; ring: boolean }>(`(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return { name: 'body', ring: false };
      const style = getComputedStyle(element);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      return { name: element.id || element.tagName.toLowerCase() + ':' + element.textContent.trim(), ring };
    })()`);

  it('shows the emailed documents, takes the form by keyboard and a drawn signature, and answers the signed PDF', async () => {
    const event = await moveIn();
    const link = await emailedLink(event.id);
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    const response = await page.goto(link);
    expect(response!.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Sign 2 documents from Main Street');
    await page.getByRole('heading', { name: '1. Lease agreement' }).waitFor();
    await page.getByRole('heading', { name: '2. Gate code addendum' }).waitFor();
    await page.getByText('This lease is between Main Street and Grace Hopper for unit B-207.').waitFor();
    await page.getByRole('link', { name: /Download Lease agreement \(PDF, \d+ KB\)/ }).waitFor();
    await page
      .getByText('You have the right to receive these documents on paper instead.', { exact: false })
      .waitFor();
    await page.screenshot({
      path: path.join(ARTIFACTS, 'signing-page-1280.png'),
      fullPage: true,
      scale: 'css',
    });

    // Tab through the page: every stop shows its focus ring, and the form's fields come in order.
    const stops: string[] = [];
    for (let i = 0; i < 16 && !stops.includes('submit'); i++) {
      await page.keyboard.press('Tab');
      const stop = await focused(page);
      expect({ stop: stop.name, ring: stop.ring }).toEqual({ stop: stop.name, ring: true });
      stops.push(stop.name);
    }
    const order = ['consent', 'name', 'clear-signature', 'type-signature', 'submit'];
    expect(stops.filter((s) => order.includes(s))).toEqual(order);
    expect(stops[0]).toBe('a:Skip to the documents');

    // Fill it in by keyboard, and draw the signature with the mouse.
    await page.locator('#consent').focus();
    await page.keyboard.press('Space');
    await expect(page.locator('#consent').isChecked()).resolves.toBe(true);
    await page.locator('#name').focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Grace Brewster Hopper');
    await drawWithMouse(page);
    await page.getByText('Signature drawn. Press Clear to start again.').waitFor();
    await page.locator('#submit').focus();
    const [posted] = await Promise.all([submitted(page), page.keyboard.press('Enter')]);
    expect(posted.status()).toBe(303);
    await page.getByRole('heading', { name: 'Signed', exact: true }).waitFor();
    await page.getByText('as Grace Brewster Hopper', { exact: false }).waitFor();

    // The signed copy, downloaded from the page, carries the name and the certificate.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the signed Lease agreement (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lease-agreement-signed.pdf');
    const text = pdfText(readFileSync((await download.path())!));
    expect(text).toContain('Signed electronically by Grace Brewster Hopper');
    expect(text).toContain('Certificate of completion');
    expect(text).toContain('Signed by Grace Brewster Hopper');
    expect(text).toContain('Sent to grace@example.com (email)');

    const state = await run(t, EventEsign, { facilityId: t.world.facility.id, eventId: event.id });
    expect(state.data!.facility!.event!.esignState).toBe('SIGNED');
    const lease = state.data!.facility!.event!.documents.entries.find(
      (d) => d.description === 'Lease agreement',
    )!;
    expect(lease.esign).toMatchObject({ state: 'SIGNED', signerName: 'Grace Brewster Hopper' });
    expect(lease.esign!.auditTrail.map((e) => e.kind)).toEqual(['SENT', 'VIEWED', 'SIGNED']);
    expect(lease.esign!.auditTrail[2].userAgent).toContain('Chrome');
  });

  it('fits a 360 px phone and signs with a finger', async () => {
    const event = await moveIn();
    const link = await emailedLink(event.id, 'ada@example.com');
    const page = await newPage({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Documents to sign' }).waitFor();
    // Nothing wider than the screen: no sideways scrolling.
    const widths = await page.evaluate<{ page: number; pad: number; button: number }>(`({
      page: document.documentElement.scrollWidth,
      pad: document.getElementById('signature-pad').getBoundingClientRect().width,
      button: document.getElementById('submit').getBoundingClientRect().width,
    })`);
    expect(widths.page).toBeLessThanOrEqual(360);
    expect(widths.pad).toBeGreaterThan(250);
    expect(widths.button).toBeGreaterThan(250);
    await page.screenshot({
      path: path.join(ARTIFACTS, 'signing-page-360.png'),
      fullPage: true,
      scale: 'css',
    });

    await page.locator('#consent').tap();
    await page.locator('#name').fill('Ada Lovelace');
    await page.locator('#signature-pad').scrollIntoViewIfNeeded();
    await drawWithFinger(page);
    await page.getByText('Signature drawn. Press Clear to start again.').waitFor();
    const [posted] = await Promise.all([submitted(page), page.locator('#submit').tap()]);
    expect(posted.status()).toBe(303);
    await page.getByText('You signed 2 documents from Main Street', { exact: false }).waitFor();
    await page.screenshot({
      path: path.join(ARTIFACTS, 'signing-page-360-signed.png'),
      fullPage: true,
      scale: 'css',
    });
  });

  it("keeps a drawing on a wide pad within the service's pixel budget, and signs", async () => {
    const event = await moveIn();
    const link = await emailedLink(event.id);
    const page = await newPage({ viewport: { width: 1900, height: 900 } });
    await page.goto(link);
    // A pad 1500 px wide (the page's own is at most about 700): twice a stroke across it is 3000 px.
    await page.evaluate(`(() => {
      document.getElementById('main').style.maxWidth = 'none';
      document.getElementById('signature-pad').style.width = '1500px';
      window.dispatchEvent(new Event('resize'));
    })()`);
    await page.locator('#consent').check();
    await page.locator('#signature-pad').scrollIntoViewIfNeeded();
    const box = (await page.locator('#signature-pad').boundingBox())!;
    expect(box.width).toBe(1500);
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 10, y);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) {
      await page.mouse.move(box.x + 10 + i * 73, y + (i % 2 === 0 ? -40 : 40), { steps: 2 });
    }
    await page.mouse.up();
    await page.getByText('Signature drawn. Press Clear to start again.').waitFor();
    const [posted] = await Promise.all([submitted(page), page.locator('#submit').click()]);
    expect(posted.status()).toBe(303);
    // The PNG's own header: scaled down to the budget the page renders (1800 x 900), not doubled.
    const png = Buffer.from(
      new URLSearchParams(posted.request().postData()!).get('signature')!.split(',')[1],
      'base64',
    );
    expect(png.readUInt32BE(16)).toBeGreaterThan(1500);
    expect(png.readUInt32BE(16)).toBeLessThanOrEqual(1800);
    expect(png.readUInt32BE(20)).toBeLessThanOrEqual(900);
    await page.getByRole('heading', { name: 'Signed', exact: true }).waitFor();
  });

  it('points at what is missing, and signs with the typed name when no drawing is made', async () => {
    const event = await moveIn();
    const link = await emailedLink(event.id);
    const page = await newPage();
    await page.goto(link);
    await expect(page.locator('#name').inputValue()).resolves.toBe('Grace Hopper');
    await page.locator('#name').fill('');
    const [refused] = await Promise.all([submitted(page), page.locator('#submit').click()]);
    expect(refused.status()).toBe(422);
    const summary = page.getByRole('alert');
    await summary.getByText('Type your full name.').waitFor();
    await summary.getByText('Tick the box to agree to sign electronically.').waitFor();
    await summary.getByText('Draw your signature in the box.').waitFor();
    await expect(page.evaluate<string>('document.activeElement.id')).resolves.toBe('errors');

    await page.locator('#consent').check();
    await page.locator('#name').fill('Katherine Johnson');
    await page.locator('#type-signature').click();
    await page.getByText('Signature made from your typed name: Katherine Johnson.').waitFor();
    const [posted] = await Promise.all([submitted(page), page.locator('#submit').click()]);
    expect(posted.status()).toBe(303);
    await page.getByRole('heading', { name: 'Signed', exact: true }).waitFor();
  });

  it('at 360 px: the name as sent, the skip link, the packet in reading order, bullets on first lines, and a certificate that says who signed as whom', async () => {
    const facilityId = t.world.facility.id;
    const tenant = buildTenant({ facility_id: facilityId, first_name: 'Ada', last_name: 'Lovelace' });
    const unit = buildUnit({ facility_id: facilityId, name: 'C-12' });
    const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
    const event = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
    const clause = 'The tenant keeps the unit clean and dry and pays the rent on the first of the month.';
    const titles = ['Addendum 10', 'Insurance Addendum', 'Rental Agreement', 'Addendum 2'];
    await t.load({
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [event],
      event_documents: titles.map((description) =>
        buildDocument({ event_id: event.id, description, body: Array(6).fill(clause).join('\n\n') }),
      ),
    });
    const inOrder = ['Rental Agreement', 'Addendum 2', 'Addendum 10', 'Insurance Addendum'];
    const link = await emailedLink(event.id, 'ada@example.com');

    // The email: the same order in its list and its attachments; no "Reply" without SMTP_REPLY_TO.
    const raw = smtp.received.filter((m) => m.to.includes('ada@example.com')).pop()!.raw;
    const text = decodeQuotedPrintable(raw);
    const listed = inOrder.map((title) => text.indexOf(`- ${title}`));
    expect(listed.every((at, i) => at >= 0 && (i === 0 || at > listed[i - 1]))).toBe(true);
    const attached = ['rental-agreement', 'addendum-2', 'addendum-10', 'insurance-addendum'].map((name) =>
      raw.indexOf(`${name}.pdf`),
    );
    expect(attached.every((at, i) => at >= 0 && (i === 0 || at > attached[i - 1]))).toBe(true);
    expect(text).not.toContain('Reply to this email');
    expect(text).toContain('Questions? Contact Main Street.');

    const page = await newPage({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(link);
    await expect(page.locator('section.document h2').allTextContents()).resolves.toEqual(
      inOrder.map((title, i) => `${i + 1}. ${title}`),
    );
    await expect(page.locator('.contents li').allTextContents()).resolves.toEqual(inOrder);
    // The name the documents were sent to is there already.
    await expect(page.locator('#name').inputValue()).resolves.toBe('Ada Lovelace');

    // The skip link takes focus to the documents; the next Tab goes on from there.
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toMatchObject({ name: 'a:Skip to the documents' });
    await page.keyboard.press('Enter');
    await expect(page.evaluate<string>('document.activeElement.id')).resolves.toBe('documents');
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toMatchObject({ name: 'a:Rental Agreement' });

    // Signed under another name than the one it was sent to.
    await page.locator('#consent').tap();
    await page.locator('#name').fill('Ada King');
    await page.locator('#type-signature').tap();
    const [posted] = await Promise.all([submitted(page), page.locator('#submit').tap()]);
    expect(posted.status()).toBe(303);
    await page.getByText('You signed 4 documents from Main Street', { exact: false }).waitFor();
    await page.screenshot({
      path: path.join(ARTIFACTS, 'signing-page-360-signed-packet.png'),
      fullPage: true,
      scale: 'css',
    });
    await expect(page.locator('.downloads li').allTextContents()).resolves.toEqual(
      inOrder.map((title) => `Download the signed ${title} (PDF)`),
    );
    // Each bullet sits on its link's first line: a letter put where the bullet is stands level
    // with the first line of the link's text (not with its last, as beside an inline block).
    const lines = await page.evaluate<Array<{ bulletLine: number; firstLine: number; lines: number }>>(
      `[...document.querySelectorAll('.downloads li')].map((li) => {
        const probe = document.createElement('span');
        probe.textContent = 'X';
        li.insertBefore(probe, li.firstChild);
        const text = document.createRange();
        text.selectNodeContents(li.querySelector('a'));
        const tops = [...new Set([...text.getClientRects()].map((r) => Math.round(r.top)))];
        const bulletLine = Math.round(probe.getBoundingClientRect().top);
        probe.remove();
        return { bulletLine, firstLine: Math.min(...tops), lines: tops.length };
      })`,
    );
    // The longer titles wrap at 360 px: some links run over two lines.
    expect(lines.some((link) => link.lines > 1)).toBe(true);
    for (const link of lines) expect(Math.abs(link.bulletLine - link.firstLine)).toBeLessThan(4);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the signed Rental Agreement (PDF)' }).click(),
    ]);
    const pdf = readFileSync((await download.path())!);
    writeFileSync(path.join(ARTIFACTS, 'signed-packet-rental-agreement.pdf'), pdf);
    expect(pdfText(pdf)).toContain('Signed by Ada King (signed as Ada King, sent to Ada Lovelace)');
    expect(pdfText(pdf)).toContain('Signed electronically by Ada King');
    const layout = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], {
      input: pdf,
    }).toString();
    const pages = layout.split('\f').filter((p) => p.includes('Certificate of completion, page'));
    const bodyLines = pages.map(
      (p) =>
        p
          .split('\n')
          .map((line) => line.trim())
          .filter(
            (line) =>
              line !== '' && line !== 'Main Street' && !/^Certificate of completion, page \d+$/.test(line),
          ).length,
    );
    expect(bodyLines.filter((n) => n < 2)).toEqual([]);
    expect(layout.split('\n').filter((line) => /^\s*[0-9a-f]{64}\s*$/.test(line))).toEqual([]);
  });

  it('refuses a reused, an expired and a forged link with a page saying what to do', async () => {
    const event = await moveIn();
    const link = await emailedLink(event.id);
    // The same link open in two tabs: the first signs, the second's submit changes nothing.
    const first = await newPage();
    const second = await newPage();
    await first.goto(link);
    await second.goto(link);
    for (const page of [first, second]) {
      await page.locator('#consent').check();
      await page.locator('#name').fill('Grace Hopper');
      await drawWithMouse(page);
    }
    const [signed] = await Promise.all([submitted(first), first.locator('#submit').click()]);
    expect(signed.status()).toBe(303);
    await first.getByRole('heading', { name: 'Signed', exact: true }).waitFor();
    const [answer] = await Promise.all([submitted(second), second.locator('#submit').click()]);
    expect(answer.status()).toBe(409);
    await second.getByRole('heading', { name: 'These documents are signed already' }).waitFor();

    // Expired: a new link, opened after its time ran out.
    const later = await emailedLink((await moveIn()).id);
    t.clock.advance(337 * 3_600_000);
    try {
      const page = await newPage();
      const expired = await page.goto(later);
      expect(expired!.status()).toBe(410);
      await page.getByRole('heading', { name: 'This signing link has expired' }).waitFor();
      await page.getByText('Contact Main Street and ask them to send you a new link.').waitFor();
    } finally {
      t.clock.advance(-337 * 3_600_000);
    }

    const page = await newPage();
    const forged = await page.goto(`${origin}/sign/${'A'.repeat(43)}`);
    expect(forged!.status()).toBe(404);
    await page.getByRole('heading', { name: 'This signing link does not work' }).waitFor();
    await page.getByText('contact the facility that sent it', { exact: false }).waitFor();
  });
});
