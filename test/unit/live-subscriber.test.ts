import type { LiveEvent, LiveItem } from '../../src/areas/live/live.types';
import { LiveSubscriber } from '../../src/live/live-subscriber';

const FACILITY = '0c461e8e-49af-4f56-a47f-d197d9f963c6';

const event = (seq: number): LiveEvent => ({
  seq,
  facilityId: FACILITY,
  eventId: null,
  type: 'payment.succeeded',
  occurredAt: '2026-11-27T12:00:00Z',
  body: '{}',
});

/** The numbers of the events waiting, in the order the client would get them. */
async function drain(subscriber: LiveSubscriber): Promise<number[]> {
  const seqs: number[] = [];
  while (subscriber.waitingCount > 0) {
    const { value } = (await subscriber.next()) as IteratorResult<LiveItem>;
    if (value.kind === 'event') seqs.push(value.event.seq);
  }
  return seqs;
}

describe('a subscription resumed with since', () => {
  const subscribe = () => new LiveSubscriber({ facilityId: FACILITY }, 100, () => {});

  it('sends an event once when its live notice came before the replay read it', async () => {
    const subscriber = subscribe();
    subscriber.offer(event(3));
    subscriber.replay([event(2), event(3)]);
    expect(await drain(subscriber)).toEqual([2, 3]);
  });

  it('sends an event once when its live notice comes after the replay sent it', async () => {
    const subscriber = subscribe();
    subscriber.replay([event(2), event(3)]);
    subscriber.offer(event(3));
    subscriber.offer(event(4));
    expect(await drain(subscriber)).toEqual([2, 3, 4]);
  });

  it('still sends a live event numbered below the replayed ones that the replay did not hold', async () => {
    // PostgreSQL numbers events before they commit: number 5 may commit after number 6 was read.
    const subscriber = subscribe();
    subscriber.replay([event(6)]);
    subscriber.offer(event(5));
    expect(await drain(subscriber)).toEqual([6, 5]);
  });
});
