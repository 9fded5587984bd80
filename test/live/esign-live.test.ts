import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { DatasetEvent } from '../../src/store/dataset/dataset.types';
import { buildDocument, buildEvent, buildLedger, buildTenant, buildUnit } from '../support/factories';
import { listenOnLoopback } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import { goodForm, postForm, sendLink } from '../support/signing';
import { bearer, codesOf, subscribeWs, until, wsClient, type Received } from './live-support';

const ESIGN_STATUS = `subscription Status($eventId: UUID!) {
  esignStatus(eventId: $eventId) { cursor cause event { id esignState documents { entries { description esign { state } } } } }
}`;

/** graphql-ws's own browser build (its package exports do not name it). */
const GRAPHQL_WS_BROWSER_BUILD = path.join(
  path.dirname(require.resolve('graphql-ws')),
  '../umd/graphql-ws.min.js',
);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) {
  process.stdout.write(
    `\n*** Live browser test SKIPPED: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH) ***\n\n`,
  );
}

const statesOf = (received: Received) =>
  received.results.map((result) => {
    const update = result.data?.esignStatus as { cause: string | null; event: { esignState: string | null } };
    return [update.cause, update.event.esignState];
  });

describe('E-sign live', () => {
  let t: TestApp;
  let base: string;
  let moveIn: DatasetEvent;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    const facilityId = t.world.facility.id;
    const tenant = buildTenant({ facility_id: facilityId, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facilityId, name: 'B-207' });
    const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
    moveIn = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
    await t.load({
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [moveIn],
      event_documents: [buildDocument({ event_id: moveIn.id, description: 'Lease agreement' })],
    });
  });

  it("streams an event's e-sign state: first as it is, then sent, viewed and signed", async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    try {
      const received = subscribeWs(client, ESIGN_STATUS, { eventId: moveIn.id });
      await until('the state at subscription', () => received.results.length === 1);
      expect(statesOf(received)).toEqual([[null, null]]);

      const { token } = await sendLink(t, moveIn.id);
      await until('sent', () => received.results.length === 2);
      expect((await t.app.inject({ method: 'GET', url: `/sign/${token}` })).statusCode).toBe(200);
      await until('viewed', () => received.results.length === 3);
      expect((await postForm(t, token, goodForm())).statusCode).toBeLessThan(400);
      await until('signed', () => statesOf(received).some(([cause]) => cause === 'DOCUMENT_SIGNED'));
      expect(statesOf(received).slice(0, 3)).toEqual([
        [null, null],
        ['ESIGN_SENT', 'SENT'],
        ['DOCUMENT_VIEWED', 'VIEWED'],
      ]);
      expect(statesOf(received).at(-1)).toEqual(['DOCUMENT_SIGNED', 'SIGNED']);
    } finally {
      await client.dispose();
    }
  });

  it("refuses another company's event (FORBIDDEN) and an unknown one (NOT_FOUND)", async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.otherClient.bearer_token!) });
    try {
      const foreign = subscribeWs(client, ESIGN_STATUS, { eventId: moveIn.id });
      const unknown = subscribeWs(client, ESIGN_STATUS, { eventId: '00000000-0000-4000-8000-000000000000' });
      await until('both refusals', () => foreign.completed && unknown.completed);
      expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
      expect(codesOf(unknown)).toEqual(['NOT_FOUND']);
    } finally {
      await client.dispose();
    }
  });

  (HAVE_CHROMIUM ? it : it.skip)(
    'shows a signing as it happens on a small status page in a real browser',
    async () => {
      let browser: Browser | null = null;
      try {
        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
        const page = await browser.newPage();
        page.setDefaultTimeout(60_000);
        // The status page a counter screen would show: graphql-ws's own browser build, one subscription.
        await page.setContent(`<!doctype html><title>Lease status</title><p>State: <b id="state">connecting</b></p>
        <script>${readFileSync(GRAPHQL_WS_BROWSER_BUILD, 'utf8')}</script>
        <script>
          const client = graphqlWs.createClient({
            url: ${JSON.stringify(`${base.replace(/^http/, 'ws')}/graphql`)},
            connectionParams: { Authorization: ${JSON.stringify(bearer(t.world.client.bearer_token!))} },
          });
          client.subscribe(
            { query: ${JSON.stringify(ESIGN_STATUS)}, variables: { eventId: ${JSON.stringify(moveIn.id)} } },
            {
              next: (result) => { document.getElementById('state').textContent = result.data.esignStatus.event.esignState || 'not sent'; },
              error: (error) => { document.getElementById('state').textContent = 'error ' + JSON.stringify(error); },
              complete: () => undefined,
            },
          );
        </script>`);
        const state = page.locator('#state');
        await state.getByText('not sent', { exact: true }).waitFor();
        const { token } = await sendLink(t, moveIn.id);
        await state.getByText('SENT', { exact: true }).waitFor();
        expect((await postForm(t, token, goodForm())).statusCode).toBeLessThan(400);
        await state.getByText('SIGNED', { exact: true }).waitFor();
      } finally {
        await browser?.close();
      }
    },
  );
});
