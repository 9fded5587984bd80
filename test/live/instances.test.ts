import type { App } from '../../src/app';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { buildWorld, worldDataset } from '../support/factories';
import { listenOnLoopback } from '../support/gateway';
import { createTestStore, itOnPostgres, type TestStore } from '../support/harness';
import { createInstance } from '../support/http';
import { buildItem, buildTenant } from '../support/factories';
import { ACTIVITY, bearer, payOverRest, paymentIds, subscribeWs, until, wsClient } from './live-support';

describe('Across instances on PostgreSQL', () => {
  itOnPostgres(
    'delivers a payment made on one instance to a subscriber of another, after commit',
    async () => {
      const world = buildWorld();
      let db: TestStore | null = null;
      const apps: App[] = [];
      try {
        db = await createTestStore('postgres');
        const tenant = buildTenant({ facility_id: world.facility.id });
        const item = buildItem({ facility_id: world.facility.id, quantity: 100 });
        await importDataset(db.store, DATASET_PLANS, {
          ...worldDataset(world),
          tenants: [tenant],
          invoiceable_items: [item],
        });
        const [listening, paying] = [await createInstance(db.store), await createInstance(db.store)];
        apps.push(listening, paying);
        const base = await listenOnLoopback(listening.app);
        const client = wsClient(base, { Authorization: bearer(world.client.bearer_token!) });
        try {
          const received = subscribeWs(client, ACTIVITY, { facilityId: world.facility.id });
          await until('the subscription', () => listening.services.live.subscriberCount === 1);
          // A payment refused (declined stock: more than there is) commits nothing, and sends nothing.
          const refused = await paying.app.inject({
            method: 'POST',
            url: `/v1/${world.facility.id}/invoiceable_items/retail_payment`,
            headers: {
              authorization: bearer(world.client.bearer_token!),
              'content-type': 'application/json',
            },
            payload: JSON.stringify({
              retail_payment: {
                tenant_id: tenant.id,
                invoiceable_items: [{ invoiceable_item_id: item.id, quantity: 1000 }],
              },
              payment_method: {
                first_name: 'A',
                last_name: 'B',
                kind: 'cash',
                amount_tendered: '100000',
                billing_address_attributes: {},
              },
            }),
          });
          expect(refused.statusCode).toBe(400);
          const paid = await payOverRest(paying.app, world.client.bearer_token!, world.facility.id, {
            tenant,
            item,
          });
          await until('the payment made on the other instance', () => paymentIds(received).includes(paid));
          expect(paymentIds(received)).toEqual([paid]);
        } finally {
          await client.dispose();
        }
      } finally {
        for (const app of apps) await app.app.close();
        await db?.close();
      }
    },
  );
});
