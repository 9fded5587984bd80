import { performance } from 'node:perf_hooks';

/**
 * Steps a slice takes at least, however long they took: on a busy machine a slice of time is often
 * mostly time the process was not running, and the work must still move on, by that many steps a
 * turn at least, whatever the machine's load.
 */
const STEPS_PER_SLICE = 32;

/**
 * Long synchronous work (offering an event to thousands of subscribers, writing to thousands of
 * members, pinging thousands of connections) cut
 * into slices of about `ms` milliseconds, the requests ready to run running between two. Timed on
 * the monotonic clock, not on the thread's CPU time: that one (getrusage) moves only at the
 * scheduler's ticks (every 4 ms here), too coarsely for slices this short. Counting steps alone
 * (the fan-out once yielded every 500 members) let a slice grow with what each step costs: 500
 * members took about 10 ms of CPU (up to 27) on a busy machine, where an idle core had taken 2.
 */
export class WorkSlices {
  /** When the slice began (ms, monotonic). */
  private started = performance.now();
  /** Steps in this slice so far. */
  private steps = 0;

  constructor(private readonly ms: number) {}

  /** Starts a slice afresh: the work resumes (or begins) in a turn of its own. */
  begin(): void {
    this.started = performance.now();
    this.steps = 0;
  }

  /** Counts a step of the work: whether the slice is spent (then `next` before the next step). */
  spent(): boolean {
    return ++this.steps >= STEPS_PER_SLICE && performance.now() - this.started >= this.ms;
  }

  /** Lets every request ready to run, run (a turn of the event loop), then begins a slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.begin();
  }
}
