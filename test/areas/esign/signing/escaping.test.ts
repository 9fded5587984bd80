import type { DatasetEvent, DatasetEventDocument } from '../../../../src/store/dataset/dataset.types';
import { markup } from '../../../../src/kernel/markup';
import {
  buildDocument,
  buildEvent,
  buildFacility,
  buildLedger,
  buildTenant,
  buildUnit,
} from '../../../support/factories';
import { describeEachDialect } from '../../../support/harness';
import { createTestApp, type TestApp } from '../../../support/http';
import { callerOf, goodForm, postForm, sendLink } from '../../../support/signing';

const HOUR = 3_600_000;

/** Markup that would run script, end an attribute or open a tag if a page put it in as it is. */
const MARKUP = `<img src=x onerror="alert('x')">&amp;</p>`;
const ESCAPED = '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;&lt;/p&gt;';

/** What each field set by a tenant, an operator or a signer carries: its own mark and the markup. */
const field = (mark: string) => `${mark} ${MARKUP}`;

/** The page holds `mark`'s field only escaped, and nothing of the markup as markup. */
function expectEscaped(page: string, ...marks: string[]): void {
  expect(page).not.toContain('<img');
  expect(page).not.toContain("alert('x')");
  for (const mark of marks) expect(page).toContain(`${mark} ${ESCAPED}`);
}

describe('the markup tag', () => {
  it('escapes text and numbers, and inserts only the markup it made', () => {
    const inner = markup`<b>${MARKUP}</b>`;
    expect(markup`<p title="${MARKUP}">${inner}${[inner, inner]}${7}</p>`.toString()).toBe(
      `<p title="${ESCAPED}"><b>${ESCAPED}</b><b>${ESCAPED}</b><b>${ESCAPED}</b>7</p>`,
    );
  });
});

describeEachDialect('markup in every field the signing pages show', (dialect) => {
  let t: TestApp;
  let event: DatasetEvent;
  let lease: DatasetEventDocument;
  let facilityId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility = buildFacility({ company_id: t.world.company.id, name: field('Facility') });
    facilityId = facility.id;
    const tenant = buildTenant({
      facility_id: facility.id,
      first_name: field('First'),
      last_name: field('Last'),
    });
    const unit = buildUnit({ facility_id: facility.id, name: field('Unit') });
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    event = buildEvent({ facility_id: facility.id, ledger_id: ledger.id });
    lease = buildDocument({
      event_id: event.id,
      description: field('Title'),
      body: `${field('Body')}\n\nBetween {{facility_name}} and {{tenant_name}} for unit {{unit_name}}.`,
    });
    await t.load({
      facilities: [facility],
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [event],
      event_documents: [lease],
    });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(new Date('2026-11-24T15:00:00Z')));

  const open = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: `/sign/${token}`, headers: { 'user-agent': 'test' } })).body;

  it('escapes them on the signing page, the form shown again, the signed page and the email', async () => {
    const { message, token } = await sendLink(t, event.id, undefined, facilityId);
    expectEscaped(message.content?.html ?? '', 'Facility', 'Title');
    expectEscaped(await open(token), 'Facility', 'Title', 'Body', 'First', 'Last', 'Unit');

    const again = await postForm(t, token, { ...goodForm(), consent: undefined, name: field('Signer') });
    expect(again.statusCode).toBe(422);
    expectEscaped(again.body, 'Facility', 'Title', 'Signer');

    expect((await postForm(t, token, { ...goodForm(), name: field('Signer') })).statusCode).toBe(303);
    expectEscaped(await open(token), 'Facility', 'Title', 'Signer');
  });

  it('escapes them on the pages of an expired and of a withdrawn link', async () => {
    const { token: expiring } = await sendLink(t, event.id, undefined, facilityId);
    t.clock.advance(400 * HOUR);
    expectEscaped(await open(expiring), 'Facility');

    t.clock.set(new Date('2026-11-24T15:00:00Z'));
    const { message, token } = await sendLink(t, event.id, undefined, facilityId);
    const facility = await t.services.facilities.facilityFor(callerOf(t), facilityId);
    await t.services.esign.revokeLink(facility, message.id);
    expectEscaped(await open(token), 'Facility');
  });
});
