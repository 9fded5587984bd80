import { DomainEventBus, domainEvent, type DomainEvent } from '../../src/kernel/domain-events';
import { DOMAIN_EVENTS, WEBHOOK_EVENT_TYPES, domainEventBus } from '../../src/modules';
import { WEBHOOK_EVENT_TYPE_COUNT } from '../../src/areas/webhooks/webhooks.types';
import { createTestStore } from '../support/harness';

const at = '2026-11-28T10:00:00.000Z';
const event = (type: string): DomainEvent => domainEvent(type, 'facility', null, at, { id: type });

describe('the domain events port', () => {
  it('builds the body every listener writes: {"type","timestamp","data"}', () => {
    expect(domainEvent('note.created', 'f1', 'e1', at, { b: 1, a: 'x' })).toEqual({
      type: 'note.created',
      facilityId: 'f1',
      eventId: 'e1',
      occurredAt: at,
      body: '{"type":"note.created","timestamp":"2026-11-28T10:00:00.000Z","data":{"b":1,"a":"x"}}',
    });
  });

  it('hands each listener, in the order they subscribed, only the events of the types it named', async () => {
    const heard: string[] = [];
    const bus = new DomainEventBus<string>()
      .subscribe('every', async (trx, events) => {
        heard.push(`every@${trx}: ${events.map((e) => e.type).join(',')}`);
      })
      .subscribe(['note.created'], async (trx, events) => {
        heard.push(`notes@${trx}: ${events.map((e) => e.type).join(',')}`);
      })
      .subscribe(['payment.succeeded'], async () => {
        heard.push('payments');
      });
    await bus.publish('trx-1', [event('note.created'), event('webhook.delivery')]);
    await bus.publish('trx-2', []);
    expect(heard).toEqual(['every@trx-1: note.created,webhook.delivery', 'notes@trx-1: note.created']);
  });

  it('tells who waits for the commit when announced, and them only', () => {
    let told = 0;
    const bus = new DomainEventBus<unknown>().afterCommit(() => told++).afterCommit(() => told++);
    bus.announce();
    expect(told).toBe(2);
  });

  it('stops a publication at the first listener that fails (its transaction then rolls back)', async () => {
    const heard: string[] = [];
    const bus = new DomainEventBus<unknown>()
      .subscribe('every', async () => {
        throw new Error('disk full');
      })
      .subscribe('every', async () => {
        heard.push('second');
      });
    await expect(bus.publish(null, [event('note.created')])).rejects.toThrow('disk full');
    expect(heard).toEqual([]);
  });
});

describe("the areas' events, composed", () => {
  it("make the webhooks' catalogue in the order it is listed and refused in", () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual([
      'payment.succeeded',
      'note.created',
      'esign.sent',
      'esign.delivered',
      'esign.failed',
      'document.viewed',
      'document.signed',
      'move_in.reviewed',
    ]);
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(WEBHOOK_EVENT_TYPE_COUNT);
  });

  it('declare each type once, the live-only ones apart', () => {
    const types = DOMAIN_EVENTS.map((declared) => declared.type);
    expect(new Set(types).size).toBe(types.length);
    expect(DOMAIN_EVENTS.filter((declared) => declared.audience === 'live').map((d) => d.type)).toEqual([
      'webhook.delivery',
    ]);
  });

  it('are written to the live journal, every one, and queued for no endpoint when none wants them', async () => {
    const { store, close } = await createTestStore('sqlite');
    try {
      const bus = domainEventBus();
      await store.db
        .transaction()
        .execute((trx) => bus.publish(trx, [event('note.created'), event('webhook.delivery')]));
      const journal = await store.db
        .selectFrom('live_events')
        .select(['type', 'body'])
        .orderBy('seq')
        .execute();
      expect(journal).toEqual([
        { type: 'note.created', body: event('note.created').body },
        { type: 'webhook.delivery', body: event('webhook.delivery').body },
      ]);
      // No endpoint wants them (there is none): no delivery is queued.
      expect(await store.db.selectFrom('outbox_messages').selectAll().execute()).toEqual([]);
    } finally {
      await close();
    }
  });
});
