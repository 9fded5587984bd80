import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { listenOnLoopback } from '../../support/gateway';
import { createTestApp, type TestApp } from '../../support/http';
import { bearer, loadShop, payOverRest } from '../../live/live-support';
import { ensureExplorerBundle } from './explorer-bundle';

/**
 * GraphiQL as a browser runs it: Debian's Chromium driven by playwright-core, headless, with every
 * request to another origin than the service's blocked and recorded (none may be attempted). A
 * query with the bearer token from the headers editor, then a subscription over graphql-ws.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const ARTIFACTS = path.join(__dirname, '../../../test-artifacts');
/** Generous: a busy 2-core machine starts a browser and renders slowly; nothing waits on a clock. */
const WAIT = 90_000;

if (!HAVE_CHROMIUM) {
  process.stdout.write(
    `\n*** Browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium, as .ci/run does, or set CHROMIUM_PATH) ***\n\n`,
  );
}
const describeBrowser = HAVE_CHROMIUM ? describe : describe.skip;

/** Replaces what a Monaco editor holds: select all, then insert as a paste does (no auto-closing). */
async function setEditor(page: Page, editor: string, text: string): Promise<void> {
  await page.locator(`${editor} .monaco-editor`).click();
  await page.keyboard.press('ControlOrMeta+KeyA');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

// Waits are the page's locators: page.waitForFunction would need eval, which the page's CSP refuses.

/** The response pane's text, with Monaco's non-breaking spaces as spaces. */
async function responseText(page: Page): Promise<string> {
  return ((await page.locator('.result-window').textContent()) ?? '').replace(/\u00a0/g, ' ');
}

describeBrowser(`the GraphQL explorer in Chromium (${CHROMIUM})`, () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  /** Every request of the page and its workers, and those to another origin (blocked). */
  const requested: string[] = [];
  const blocked: string[] = [];
  const sockets: string[] = [];
  const refusals: string[] = [];

  beforeAll(async () => {
    ensureExplorerBundle();
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestApp('sqlite');
    origin = await listenOnLoopback(t.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    context = await browser.newContext();
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      blocked.push(url);
      return route.abort('blockedbyclient');
    });
    context.on('request', (request) => requested.push(request.url()));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders, runs a query with the bearer token, and receives a subscription event, loading nothing from elsewhere', async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    page.on('websocket', (socket) => sockets.push(socket.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) refusals.push(message.text());
    });
    try {
      const answer = await page.goto(`${origin}/graphql`);
      expect(answer?.status()).toBe(200);
      await page.locator('.graphiql-query-editor .monaco-editor').waitFor();

      // The bearer token, in the headers editor as a user types it.
      await page.locator('button[data-name="headers"]').click();
      await setEditor(
        page,
        'section.graphiql-editor-tool .graphiql-editor:not(.hidden)',
        JSON.stringify({ Authorization: bearer(t.world.client.bearer_token!) }),
      );

      await setEditor(page, '.graphiql-query-editor', `{ facility(id: "${t.world.facility.id}") { name } }`);
      await page.locator('.graphiql-execute-button').click();
      await page.locator('.result-window', { hasText: 'Main Street' }).waitFor();
      expect(await responseText(page)).toMatch(/"name": "Main Street"/);

      // A subscription over graphql-ws, then a payment over REST that fires its event.
      const shop = await loadShop(t, t.world.facility.id);
      await setEditor(
        page,
        '.graphiql-query-editor',
        `subscription { facilityActivity(facilityId: "${t.world.facility.id}") { ... on LiveEvent { type facilityId } } }`,
      );
      await page.locator('.graphiql-execute-button').click();
      const started = Date.now();
      while (t.services.live.subscriberCount !== 1) {
        if (Date.now() - started > WAIT) throw new Error('waited for the subscription to start');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
      await page.locator('.result-window', { hasText: 'PAYMENT_SUCCEEDED' }).waitFor();
      expect(await responseText(page)).toMatch(/"type": "PAYMENT_SUCCEEDED"/);
      expect(sockets).toEqual([`${origin.replace(/^http/, 'ws')}/graphql`]);
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS, 'graphql-explorer.png') }).catch(() => undefined);
      await page.close();
    }
    expect(blocked).toEqual([]);
    expect(refusals).toEqual([]);
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => new URL(url).origin !== origin && !url.startsWith('data:'))).toEqual([]);
  });
});
