import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { WorkerPool, type JobResult } from '../../src/adapters/workers/worker-pool';

interface Input {
  echo?: string;
  hold?: boolean;
  crash?: boolean;
  fail?: boolean;
}
type Output = { echo: string | undefined; threadId: number };

const WORKER = path.join(__dirname, '../support/pool.worker.js');

/** A pool of the test worker, and the gate its held jobs wait on. */
function poolOf(options: { size: number; queue: number; deadlineMs?: number }) {
  const buffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const gate = new Int32Array(buffer);
  const pool = new WorkerPool<Input, Output>({
    file: WORKER,
    // Generous: only the tests of hung jobs wait it out, and they wait on purpose.
    deadlineMs: options.deadlineMs ?? 60_000,
    size: options.size,
    queue: options.queue,
    workerData: buffer,
  });
  return {
    pool,
    held: () => Atomics.load(gate, 1),
    release: () => {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
    },
  };
}

/** Waits until `condition` holds, checking on each turn of the event loop; fails after a generous deadline. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within a minute');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const value = <O>(result: JobResult<O>): O => {
  if (!result.ok) throw new Error(`the job failed: ${result.reason}`);
  return result.value;
};

describe('the worker pool', () => {
  it('runs jobs on worker threads, never on the event loop', async () => {
    const { pool } = poolOf({ size: 2, queue: 4 });
    try {
      const outputs = (await Promise.all(['a', 'b', 'c'].map((echo) => pool.run({ echo })))).map(value);
      expect(outputs.map((o) => o.echo)).toEqual(['a', 'b', 'c']);
      for (const output of outputs) expect(output.threadId).not.toBe(threadId);
      // At most `size` workers.
      expect(new Set(outputs.map((o) => o.threadId)).size).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  });

  it('turns a job away at once when every worker is busy and the line is full, and runs the rest', async () => {
    const { pool, held, release } = poolOf({ size: 1, queue: 1 });
    try {
      const running = pool.run({ hold: true, echo: 'first' });
      await until(() => held() === 1);
      const waiting = pool.run({ echo: 'second' });
      expect(await pool.run({ echo: 'third' })).toEqual({ ok: false, reason: 'busy' });
      release();
      expect(value(await running).echo).toBe('first');
      expect(value(await waiting).echo).toBe('second');
      // Room again once the line moved on.
      expect(value(await pool.run({ echo: 'fourth' })).echo).toBe('fourth');
    } finally {
      await pool.close();
    }
  });

  it('fails only the job of a worker that dies, and replaces the worker', async () => {
    const { pool, held, release } = poolOf({ size: 2, queue: 2 });
    try {
      const other = pool.run({ hold: true, echo: 'other' });
      await until(() => held() === 1);
      expect(await pool.run({ crash: true })).toEqual({ ok: false, reason: 'crashed' });
      // A job whose handler reports a failure fails alone too.
      expect(await pool.run({ fail: true })).toEqual({ ok: false, reason: 'crashed' });
      release();
      expect(value(await other).echo).toBe('other');
      const after = await Promise.all([pool.run({ echo: 'x' }), pool.run({ echo: 'y' })]);
      expect(after.map((r) => value(r).echo)).toEqual(['x', 'y']);
    } finally {
      await pool.close();
    }
  });

  it('answers a hung job at its deadline, stops its worker and serves the next job on a new one', async () => {
    // The gate is never released: the held job hangs for good.
    const { pool, held } = poolOf({ size: 1, queue: 1, deadlineMs: 1500 });
    try {
      const hung = pool.run({ hold: true });
      await until(() => held() === 1);
      // Waiting behind the hung job: its own deadline passes in line.
      const behind = pool.run({ echo: 'behind' });
      expect(await hung).toEqual({ ok: false, reason: 'timeout' });
      const answered = await behind;
      // Either it ran on the replacement worker in time, or its deadline (which also counts its
      // wait) passed first; it is never left waiting.
      expect(answered.ok ? answered.value.echo : answered.reason).toMatch(/^(behind|timeout)$/);
      const next = value(await pool.run({ echo: 'next' }));
      expect(next.echo).toBe('next');
    } finally {
      await pool.close();
    }
  });

  it('answers every job still waiting or running when it closes, and stops its workers', async () => {
    const { pool, held } = poolOf({ size: 1, queue: 2 });
    const running = pool.run({ hold: true });
    await until(() => held() === 1);
    const waiting = pool.run({ echo: 'waiting' });
    await pool.close();
    expect(await running).toEqual({ ok: false, reason: 'closed' });
    expect(await waiting).toEqual({ ok: false, reason: 'closed' });
    expect(await pool.run({ echo: 'late' })).toEqual({ ok: false, reason: 'closed' });
  });
});
