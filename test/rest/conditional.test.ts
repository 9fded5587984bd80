import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { buildItem, buildRateAppliedAction, buildService } from '../support/factories';
import { loadRichWorld, type RichWorld } from '../support/rich-world';

/**
 * Conditional requests: the kept GET answers (flippers, invoiceable item lists, rate change
 * updates, a ledger's insurance, services and discounts, rate applied actions) carry a weak ETag, and a caller that sends it back in If-None-Match gets 304 without a
 * body while the data and the parameters are unchanged; any change of either answers 200 anew.
 */
describeEachDialect('ETag and If-None-Match on the kept GET answers', (dialect) => {
  let t: TestApp;
  let w: RichWorld;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    w = await loadRichWorld(t);
  }, 60_000);
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}`, ...headers },
    });

  const urls = () => {
    const f = `/v1/${t.world.facility.id}`;
    const window = `updated_after=${w.rateChanges.updatedAfter}&updated_before=${w.rateChanges.updatedBefore}`;
    return [
      `${f}/flippers`,
      `${f}/invoiceable_items`,
      `${f}/invoiceable_items/retail?per_page=5`,
      `/v1/companies/${t.world.company.id}/rate_change_updates?${window}`,
      `${f}/ledgers/${w.ledgerId}/insurance_services_and_discounts`,
      `${f}/rate_applied_actions?start_date=${w.rateAppliedActionsOn}&end_date=${w.rateAppliedActionsOn}`,
      `${f}/rate_applied_actions`,
    ];
  };

  it.each([0, 1, 2, 3, 4, 5, 6])(
    'answers 304 without a body to a matching If-None-Match (url %i)',
    async (index) => {
      const url = urls()[index];
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      const tag = first.headers.etag as string;
      expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);

      const again = await get(url, { 'if-none-match': tag, 'x-request-id': 'conditional-1' });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(tag);
      expect(again.headers['x-request-id']).toBe('conditional-1');

      // A list of tags, or the tag without W/, match too; another tag does not.
      expect((await get(url, { 'if-none-match': `"nope", ${tag}` })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': tag.slice(2) })).statusCode).toBe(304);
      const other = await get(url, { 'if-none-match': 'W/"another"' });
      expect(other.statusCode).toBe(200);
      expect(other.headers.etag).toBe(tag);
    },
  );

  it('answers 200 with a new tag once the data changed', async () => {
    const url = `/v1/${t.world.facility.id}/invoiceable_items`;
    const first = await get(url);
    const tag = first.headers.etag as string;
    await t.load({ invoiceable_items: [buildItem({ facility_id: t.world.facility.id, kind: 'service' })] });
    const changed = await get(url, { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    expect(changed.json().meta.pagination.total_entries).toBe(first.json().meta.pagination.total_entries + 1);
  });

  it('tells pages and parameters apart: another page or page size has another tag', async () => {
    const f = `/v1/${t.world.facility.id}/invoiceable_items`;
    const tags = await Promise.all(
      [`${f}?per_page=1`, `${f}?per_page=1&page=2`, `${f}?per_page=2`, f].map(
        async (url) => (await get(url)).headers.etag,
      ),
    );
    expect(new Set(tags).size).toBe(4);
  });

  it('answers each request of a kept page with its own request id and its own echo', async () => {
    const f = `/v1/${t.world.facility.id}/invoiceable_items`;
    // One page (page 1 of 100) asked three ways: by default, and with the defaults spelled out.
    const ways = [f, `${f}?per_page=100`, `${f}?page=1&per_page=100`];
    const answers = [];
    for (let round = 0; round < 2; round++) {
      for (const [index, url] of ways.entries()) {
        const res = await get(url, { 'x-request-id': `echo-${round}-${index}` });
        expect(res.statusCode).toBe(200);
        answers.push({ round, index, res });
      }
    }
    const wanted = [
      { page: 1, per_page: 100, facility_id: t.world.facility.id, invoiceable_item: {} },
      { per_page: '100', page: 1, facility_id: t.world.facility.id, invoiceable_item: {} },
      { page: '1', per_page: '100', facility_id: t.world.facility.id, invoiceable_item: {} },
    ];
    for (const { round, index, res } of answers) {
      const meta = res.json().meta;
      expect(meta.request_id).toBe(`echo-${round}-${index}`);
      expect(res.headers['x-request-id']).toBe(`echo-${round}-${index}`);
      expect(meta.parameters).toEqual(wanted[index]);
      expect(Object.keys(meta.parameters)).toEqual(Object.keys(wanted[index]));
    }
    // The second round answers the first's bytes and tags, but for the request id.
    for (const index of ways.keys()) {
      const [first, second] = answers.filter((answer) => answer.index === index).map(({ res }) => res);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body.replace('echo-1-', 'echo-0-')).toBe(first.body);
    }
    // Without X-Request-Id each answer gets a new one.
    const [a, b] = [await get(f), await get(f)];
    expect(a.json().meta.request_id).not.toBe(b.json().meta.request_id);
    expect(a.json().meta.request_id).toBe(a.headers['x-request-id']);
  });

  it('answers a ledger or the rate applied actions anew once any of their rows changed', async () => {
    const f = t.world.facility.id;
    const ledgerUrl = `/v1/${f}/ledgers/${w.ledgerId}/insurance_services_and_discounts`;
    const actionsUrl = `/v1/${f}/rate_applied_actions?start_date=${w.rateAppliedActionsOn}&end_date=${w.rateAppliedActionsOn}`;
    const ledgerTag = (await get(ledgerUrl)).headers.etag as string;
    const actionsTag = (await get(actionsUrl)).headers.etag as string;
    await t.load({
      ledger_services: [
        buildService({
          ledger_id: w.ledgerId,
          data: { description: 'Pest control', product_code: 'SVC-PEST' },
        }),
      ],
    });
    const ledger = await get(ledgerUrl, { 'if-none-match': ledgerTag });
    expect(ledger.statusCode).toBe(200);
    expect(
      ledger.json().services.map((s: { data: { description: string } }) => s.data.description),
    ).toContain('Pest control');
    // The actions did not change: still 304.
    expect((await get(actionsUrl, { 'if-none-match': actionsTag })).statusCode).toBe(304);
    await t.load({
      rate_applied_actions: [
        buildRateAppliedAction({
          facility_id: f,
          new_ledger_id: w.ledgerId,
          unit_id: w.unitId,
          completed_on: w.rateAppliedActionsOn,
        }),
      ],
    });
    const actions = await get(actionsUrl, { 'if-none-match': actionsTag });
    expect(actions.statusCode).toBe(200);
    expect(actions.json().rate_applied_actions).toHaveLength(2);
  });

  it('sends no ETag on answers that are not kept (a single flipper, a write)', async () => {
    const flipper = await get(`/v1/${t.world.facility.id}/flippers/online_payments`);
    expect(flipper.statusCode).toBe(200);
    expect(flipper.headers.etag).toBeUndefined();
    const note = await t.postJson(`/v1/${t.world.facility.id}/notes`, {
      note: { note_text: 'No tag', tenant_id: w.tenantId },
    });
    expect(note.statusCode).toBe(200);
    expect(note.headers.etag).toBeUndefined();
  });
});
