import type { FastifyInstance } from 'fastify';
import { buildDocument, buildEvent } from '../support/factories';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import { bearer, codesOf, subscribeWs, until, wsClient, type Received } from './live-support';

const EVENT_DOCUMENTS = `subscription Watch($facilityId: UUID!, $eventId: UUID!) {
  eventDocuments(facilityId: $facilityId, eventId: $eventId) { id documents { entries { id description } } }
}`;

const descriptionsOf = (received: Received) =>
  received.results.map((result) =>
    (
      result.data?.eventDocuments as { documents: { entries: Array<{ description: string }> } } | undefined
    )?.documents.entries.map((entry) => entry.description),
  );

describe('Subscriptions in gateway mode, fed by polling the upstream', () => {
  let upstream: TestApp;
  let gateway: Gateway;
  let gatewayBase: string;
  const answers = { polls: 0 };
  const event = { id: '' };

  beforeAll(async () => {
    upstream = await createTestApp('sqlite', {
      prepare: (app: FastifyInstance) =>
        app.addHook('onResponse', (request, reply, done) => {
          if (request.url.endsWith(`/events/${event.id}/documents`)) {
            if (reply.statusCode === 200) answers.polls += 1;
          }
          done();
        }),
    });
    const built = buildEvent({ facility_id: upstream.world.facility.id });
    event.id = built.id;
    await upstream.load({
      events: [built],
      event_documents: [buildDocument({ event_id: built.id, description: 'Lease agreement' })],
    });
    gateway = await startGateway('sqlite', await listenOnLoopback(upstream.app), upstream.world, {
      UPSTREAM_POLL_MS: '100',
    });
    gatewayBase = await listenOnLoopback(gateway.app);
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('polls one resource once for all its subscribers, emits only changes, and stops with the last', async () => {
    const clients = [0, 1].map(() =>
      wsClient(gatewayBase, { Authorization: bearer(upstream.world.client.bearer_token!) }),
    );
    const variables = { facilityId: upstream.world.facility.id, eventId: event.id };
    const pollers = () => gateway.services.upstreamPollers!.pollerCount;
    try {
      const watchers = clients.map((client) => subscribeWs(client, EVENT_DOCUMENTS, variables));
      await until('the current state on both', () => watchers.every((w) => w.results.length === 1));
      expect(descriptionsOf(watchers[0])).toEqual([['Lease agreement']]);
      expect(pollers()).toBe(1);

      // Unchanged answers emit nothing (this resource has no ETag in the contract, so the poller
      // compares what the answers say; a kept list's ETag would make each poll a 304).
      const before = answers.polls;
      await until('a few more polls', () => answers.polls >= before + 3);
      expect(watchers.map((w) => w.results.length)).toEqual([1, 1]);

      await upstream.load({
        event_documents: [
          buildDocument({ event_id: event.id, description: 'Addendum', created_at: '2026-11-21T15:00:00Z' }),
        ],
      });
      await until('the change on both', () => watchers.every((w) => w.results.length === 2));
      expect(descriptionsOf(watchers[1])).toEqual([['Lease agreement'], ['Lease agreement', 'Addendum']]);

      watchers[0].stop();
      await until('the first to leave', () => gateway.services.upstreamPollers!.pollerCount === 1);
      watchers[1].stop();
      await until('the poller to stop with the last subscriber', () => pollers() === 0);
      const after = answers.polls;
      // Nothing polls now: a new subscriber starts a poller anew, which reads once at once.
      const again = subscribeWs(clients[0], EVENT_DOCUMENTS, variables);
      await until('the state again', () => again.results.length === 1);
      expect(answers.polls).toBeGreaterThan(after);
      again.stop();
      await until('the poller to stop', () => pollers() === 0);
    } finally {
      for (const client of clients) await client.dispose();
    }
  });

  it("refuses an unknown event (NOT_FOUND) and another company's facility (FORBIDDEN) before streaming", async () => {
    const client = wsClient(gatewayBase, { Authorization: bearer(upstream.world.client.bearer_token!) });
    try {
      const unknown = subscribeWs(client, EVENT_DOCUMENTS, {
        facilityId: upstream.world.facility.id,
        eventId: '00000000-0000-4000-8000-000000000000',
      });
      const foreign = subscribeWs(client, EVENT_DOCUMENTS, {
        facilityId: upstream.world.otherFacility.id,
        eventId: event.id,
      });
      await until('both refusals', () => unknown.completed && foreign.completed);
      expect(codesOf(unknown)).toEqual(['NOT_FOUND']);
      expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
      expect(gateway.services.upstreamPollers!.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});
