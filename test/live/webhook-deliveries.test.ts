import { loadConfig } from '../../src/config';
import { createOutboxWorker } from '../../src/outbox.runtime';
import { listenOnLoopback } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import { startReceiver } from '../support/webhook-receiver';
import { bearer, codesOf, loadShop, payOverRest, subscribeWs, until, wsClient } from './live-support';

const DELIVERIES = `subscription Deliveries($endpointId: UUID!) {
  webhookDeliveries(endpointId: $endpointId) { id eventType status responseCode }
}`;

describe('Webhook deliveries live', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  it("streams an endpoint's deliveries as each attempt ends, to its company only", async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    const worker = createOutboxWorker(
      t.services,
      loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', OUTBOX_MAX_ATTEMPTS: '1' }),
      { id: 'live-test' },
    );
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    const other = wsClient(base, { Authorization: bearer(t.world.otherClient.bearer_token!) });
    try {
      const { endpoint } = await t.services.webhooks.createEndpoint(t.world.company.id, {
        url: receiver.url,
        eventTypes: ['payment.succeeded'],
        description: 'live',
      });
      const received = subscribeWs(client, DELIVERIES, { endpointId: endpoint.id });
      const foreign = subscribeWs(other, DELIVERIES, { endpointId: endpoint.id });
      await until('the refusal of the other company', () => foreign.completed);
      expect(codesOf(foreign)).toEqual(['NOT_FOUND']);
      await until('the subscription', () => t.services.live.subscriberCount === 1);

      await payOverRest(
        t.app,
        t.world.client.bearer_token!,
        t.world.facility.id,
        await loadShop(t, t.world.facility.id),
      );
      for (let run = 0; run < 50 && receiver.received.length === 0; run += 1) await worker.runOnce();
      await until('the delivery', () => received.results.length === 1);
      expect(received.results[0].data?.webhookDeliveries).toMatchObject({
        eventType: 'payment.succeeded',
        status: 'SENT',
        responseCode: 204,
      });
    } finally {
      await client.dispose();
      await other.dispose();
      await worker.stop();
      await receiver.close();
    }
  });
});
