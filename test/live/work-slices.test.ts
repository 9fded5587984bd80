import { performance } from 'node:perf_hooks';
import { WorkSlices } from '../../src/live/work-slices';

/** Busy for `ms` milliseconds (a step of work that takes that long). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('WorkSlices', () => {
  it('ends a slice once its time is spent, after 32 steps at least', () => {
    const slices = new WorkSlices(1);
    slices.begin();
    busy(2);
    const spent = Array.from({ length: 32 }, () => slices.spent());
    // The time was spent at once, but a slice moves the work on by 32 steps first.
    expect(spent.indexOf(true)).toBe(31);
  });

  it('does not end a slice before its time, however many steps', () => {
    const slices = new WorkSlices(60_000);
    expect(Array.from({ length: 10_000 }, () => slices.spent()).some(Boolean)).toBe(false);
  });

  it('lets what waits for a turn of the event loop run before the next slice', async () => {
    const slices = new WorkSlices(1);
    const order: string[] = [];
    setImmediate(() => order.push('waiting'));
    await slices.next();
    order.push('next slice');
    expect(order).toEqual(['waiting', 'next slice']);
  });
});
