import { cash, line, payment } from '../support/payments';
import { buildFacility, buildItem, buildRateChange, buildTenant, buildUnit } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { postGraphql } from './graphql-client';

const ITEMS = `query Items($id: UUID!) {
  facility(id: $id) {
    id
    invoiceableItems(list: RETAIL) {
      entries { id description ... on RetailItem { quantity } invoiceableAmounts { amount } }
      pagination { totalEntries }
    }
  }
}`;

const UPDATES = `query Updates($id: UUID!) {
  company(id: $id) {
    rateChangeUpdates(updatedAfter: "2026-01-01T00:00:00Z", updatedBefore: "2027-01-01T00:00:00Z") {
      entries { id tenantName unitName facilityName changedAt }
      pagination { totalEntries }
    }
  }
}`;

/** Navigates from a rate change to its tenant record: read by a loader, not kept. */
const UPDATES_WITH_TENANTS = `query UpdatesWithTenants($id: UUID!) {
  company(id: $id) {
    rateChangeUpdates(updatedAfter: "2026-01-01T00:00:00Z", updatedBefore: "2027-01-01T00:00:00Z") {
      entries { id tenant { id firstName } }
    }
  }
}`;

describeEachDialect('GraphQL responses kept between requests', (dialect) => {
  let t: TestApp;
  let item: ReturnType<typeof buildItem>;
  let tenant: ReturnType<typeof buildTenant>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility = t.world.facility;
    tenant = buildTenant({ facility_id: facility.id, first_name: 'Ada', last_name: 'Lovelace' });
    const unit = buildUnit({ facility_id: facility.id, name: 'A-1' });
    item = buildItem({ facility_id: facility.id, description: 'Disc lock', quantity: 10 });
    await t.load({
      tenants: [tenant],
      units: [unit],
      invoiceable_items: [item],
      rate_changes: [buildRateChange({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id })],
    });
  });
  afterAll(() => t.close());

  interface ItemsData {
    facility: { id: string; invoiceableItems: { entries: Array<{ id: string; quantity?: number }> } };
  }
  interface UpdatesData {
    company: { rateChangeUpdates: { entries: Array<{ tenantName: string }> } };
  }
  const ask = <T = ItemsData>(query: string, id: string, bearer = t.world.client.bearer_token) =>
    postGraphql<T>(t.app, { query, variables: { id } }, { bearer });
  const itemQueries = () => t.db.queries.filter((q) => /invoiceable_/.test(q));

  it('answers a repeated query byte for byte, with the same headers, without reading the items again', async () => {
    const first = await ask(ITEMS, t.world.facility.id);
    expect(first.errors).toBeUndefined();
    t.db.queries.length = 0;
    const again = await ask(ITEMS, t.world.facility.id);
    expect(again.raw.body).toBe(first.raw.body);
    expect(again.raw.headers['content-type']).toBe(first.raw.headers['content-type']);
    expect(itemQueries()).toEqual([]);
  });

  it('shows the stock a retail payment took at once', async () => {
    const quantity = async () =>
      (await ask(ITEMS, t.world.facility.id)).data!.facility.invoiceableItems.entries.find(
        (entry) => entry.id === item.id,
      )?.quantity ?? NaN;
    const before = await quantity();
    const paid = await t.postJson(
      `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`,
      payment([line(item, 3)], cash('100'), { tenant_id: tenant.id }),
    );
    expect(paid.statusCode).toBe(200);
    expect(await quantity()).toBe(before - 3);
  });

  it("shows a tenant's imported new name at once", async () => {
    const name = async () =>
      (await ask<UpdatesData>(UPDATES, t.world.company.id)).data!.company.rateChangeUpdates.entries[0]
        .tenantName;
    expect(await name()).toBe('Ada Lovelace');
    await t.load({ tenants: [{ ...tenant, first_name: 'Augusta' }] });
    expect(await name()).toBe('Augusta Lovelace');
  });

  it('still refuses a form-encoded POST of a kept query (CSRF prevention)', async () => {
    const query = `{ facility(id: "${t.world.facility.id}") { id invoiceableItems { entries { id } } } }`;
    const kept = await postGraphql(t.app, { query }, { bearer: t.world.client.bearer_token });
    expect(kept.errors).toBeUndefined();
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${t.world.client.bearer_token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({ query }).toString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/Cross-Site Request Forgery/);
  });

  it("shows a facility's flags as imported at once", async () => {
    const query = `query Flags($id: UUID!) { facility(id: $id) { id flippers } }`;
    const flags = async () =>
      (await ask<{ facility: { flippers: string[] } }>(query, t.world.facility.id)).data!.facility.flippers;
    expect(await flags()).not.toContain('graph_flag');
    await t.load({ flippers: [{ name: 'graph_flag', company_ids: [t.world.company.id] }] });
    expect(await flags()).toContain('graph_flag');
  });

  it('runs a query that navigates to other records every time', async () => {
    await ask(UPDATES_WITH_TENANTS, t.world.company.id);
    t.db.queries.length = 0;
    const again = await ask(UPDATES_WITH_TENANTS, t.world.company.id);
    expect(again.errors).toBeUndefined();
    expect(t.db.queries.some((q) => /from "tenants"/.test(q))).toBe(true);
  });

  it("never answers another company's client from a kept response", async () => {
    expect((await ask(ITEMS, t.world.facility.id)).errors).toBeUndefined();
    const other = await ask(ITEMS, t.world.facility.id, t.world.otherClient.bearer_token);
    expect(other.data?.facility ?? null).toBeNull();
    expect(other.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('keeps no response with errors: a failed query runs again, and succeeds once it can', async () => {
    const missing = buildFacility({ company_id: t.world.company.id, name: 'Not yet' });
    const before = await ask(ITEMS, missing.id);
    expect(before.errors?.[0].extensions.code).toBe('NOT_FOUND');
    await t.load({ facilities: [missing] });
    const after = await ask(ITEMS, missing.id);
    expect(after.errors).toBeUndefined();
    expect(after.data!.facility.id).toBe(missing.id);
  });

  it('stops answering a facility moved to another company from the responses kept for its old one', async () => {
    const moving = buildFacility({ company_id: t.world.company.id, name: 'Moving' });
    await t.load({ facilities: [moving], invoiceable_items: [buildItem({ facility_id: moving.id })] });
    expect((await ask(ITEMS, moving.id)).errors).toBeUndefined();
    await t.load({ facilities: [{ ...moving, company_id: t.world.otherCompany.id }] });
    const after = await ask(ITEMS, moving.id);
    expect(after.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('answers what an instance with the cache turned off answers', async () => {
    const uncached = await createInstance(t.db.store, { env: { PAGE_CACHE_MB: '0' }, clock: t.clock });
    try {
      for (const [query, id] of [
        [ITEMS, t.world.facility.id],
        [UPDATES, t.world.company.id],
      ]) {
        await ask(query, id);
        const kept = await ask(query, id);
        const built = await postGraphql(
          uncached.app,
          { query, variables: { id } },
          { bearer: t.world.client.bearer_token },
        );
        expect(kept.raw.body).toBe(built.raw.body);
        expect(kept.raw.headers['content-type']).toBe(built.raw.headers['content-type']);
      }
    } finally {
      await uncached.app.close();
    }
  });
});
