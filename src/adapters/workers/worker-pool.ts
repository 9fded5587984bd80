import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * How a pool runs: at most `size` worker threads, each on one job at a time; at most `queue` more
 * jobs wait for one; every job is answered within `deadlineMs` of being handed over (its wait in
 * line included), or fails.
 */
export interface WorkerPoolOptions {
  /** The worker's module: compiled JavaScript, or TypeScript when the sources run as such (tests). */
  file: string;
  size: number;
  queue: number;
  deadlineMs: number;
  /** Given to every worker as `workerData`. */
  workerData?: unknown;
}

/**
 * Why a job got no answer: every worker was taken and the line full ('busy'), its deadline passed
 * ('timeout': its worker, if it had one, is stopped and replaced), its worker failed ('crashed':
 * the worker threw, exited or ran out of memory, and is replaced), or the pool closed.
 */
export type JobFailure = 'busy' | 'timeout' | 'crashed' | 'closed';

export type JobResult<O> = { ok: true; value: O } | { ok: false; reason: JobFailure };

/** What a worker posts back for a job: its output, or that its handler threw. */
export type WorkerReply<O> = { id: number; ok: true; output: O } | { id: number; ok: false; error: string };

interface Job<I, O> {
  id: number;
  input: I;
  done: (result: JobResult<O>) => void;
  timer: NodeJS.Timeout;
}

interface Slot<I, O> {
  worker: Worker;
  job: Job<I, O> | null;
  /** Stopped, or stopping: it takes no more jobs. */
  retired: boolean;
}

/** The swc loader of the sources (a development dependency): only a worker of TypeScript needs it. */
const SWC_REGISTER = path.resolve(__dirname, '../../../scripts/swc-register.js');

/**
 * A worker thread running `file`. A TypeScript module (the sources run by jest, through swc) cannot
 * be started as is: the worker first registers the same swc loader the build-free scripts use. The
 * build runs its compiled `.js` directly and needs no development dependency.
 */
function startWorker(file: string, workerData: unknown): Worker {
  if (file.endsWith('.ts')) {
    const code = `require(${JSON.stringify(SWC_REGISTER)}); require(${JSON.stringify(file)});`;
    return new Worker(code, { eval: true, workerData });
  }
  return new Worker(file, { workerData });
}

/**
 * A bounded pool of worker threads for CPU-bound work on bytes, so the event loop stays free: jobs
 * go to an idle worker (one is started when fewer than `size` run), else wait in a line of at most
 * `queue`; beyond that a job is refused at once ('busy'). A job past its deadline is answered
 * 'timeout' whether it waits or runs, and a running one's worker is stopped; a worker that fails
 * fails only the job it had. A stopped or failed worker is replaced when the next job needs one.
 * Idle workers do not keep the process alive; `close` stops them all.
 */
export class WorkerPool<I, O> {
  private readonly slots = new Set<Slot<I, O>>();
  private readonly line: Array<Job<I, O>> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** The job's output, or why there is none. Never rejects. */
  run(input: I): Promise<JobResult<O>> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'closed' });
    const idle = [...this.slots].find((slot) => !slot.retired && slot.job === null);
    const room = idle !== undefined || this.running() < this.options.size;
    if (!room && this.line.length >= this.options.queue) {
      return Promise.resolve({ ok: false, reason: 'busy' });
    }
    return new Promise((resolve) => {
      const job: Job<I, O> = {
        id: this.nextId++,
        input,
        done: resolve,
        timer: setTimeout(() => this.expire(job), this.options.deadlineMs),
      };
      job.timer.unref();
      this.line.push(job);
      this.dispatch();
    });
  }

  /** Stops every worker and answers every job not done yet 'closed'. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.line.splice(0)) this.finish(job, { ok: false, reason: 'closed' });
    const stopping: Array<Promise<number>> = [];
    for (const slot of this.slots) {
      if (slot.job) this.finish(slot.job, { ok: false, reason: 'closed' });
      slot.job = null;
      stopping.push(this.retire(slot));
    }
    await Promise.all(stopping);
  }

  /** Workers not retired. */
  private running(): number {
    let count = 0;
    for (const slot of this.slots) if (!slot.retired) count += 1;
    return count;
  }

  /** Hands waiting jobs to idle workers, starting workers while fewer than `size` run. */
  private dispatch(): void {
    while (this.line.length > 0 && !this.closed) {
      let slot = [...this.slots].find((s) => !s.retired && s.job === null);
      if (!slot) {
        if (this.running() >= this.options.size) return;
        slot = this.spawn();
      }
      const job = this.line.shift()!;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, input: job.input });
    }
  }

  private spawn(): Slot<I, O> {
    const worker = startWorker(this.options.file, this.options.workerData);
    const slot: Slot<I, O> = { worker, job: null, retired: false };
    this.slots.add(slot);
    worker.unref();
    worker.on('message', (reply: WorkerReply<O>) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = null;
      if (!slot.retired) worker.unref();
      this.finish(job, reply.ok ? { ok: true, value: reply.output } : { ok: false, reason: 'crashed' });
      this.dispatch();
    });
    // A throw outside a job's handler, running out of memory, or exiting: the worker is done for.
    const failed = () => {
      this.slots.delete(slot);
      slot.retired = true;
      const job = slot.job;
      slot.job = null;
      if (job) this.finish(job, { ok: false, reason: 'crashed' });
      this.dispatch();
    };
    worker.on('error', failed);
    worker.on('exit', failed);
    return slot;
  }

  /** A job past its deadline: out of the line, or its worker stopped (and replaced for the next). */
  private expire(job: Job<I, O>): void {
    const waiting = this.line.indexOf(job);
    if (waiting >= 0) {
      this.line.splice(waiting, 1);
      this.finish(job, { ok: false, reason: 'timeout' });
      return;
    }
    for (const slot of this.slots) {
      if (slot.job !== job) continue;
      slot.job = null;
      this.finish(job, { ok: false, reason: 'timeout' });
      void this.retire(slot);
      this.dispatch();
      return;
    }
  }

  private retire(slot: Slot<I, O>): Promise<number> {
    slot.retired = true;
    this.slots.delete(slot);
    return slot.worker.terminate();
  }

  private finish(job: Job<I, O>, result: JobResult<O>): void {
    clearTimeout(job.timer);
    job.done(result);
  }
}
