import path from 'node:path';

/** Slots of the gate: 1 once released; how many jobs the workers started; 1 to crash the next job. */
export const RELEASED = 0;
export const STARTED = 1;
export const CRASH_NEXT = 2;

/** A gate shared with held-signature.worker.ts (or held-pdf-signer.worker.ts): the test holds, releases or breaks the worker's jobs. */
export class HeldWorkerGate {
  readonly buffer = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  private readonly slots = new Int32Array(this.buffer);

  /** What buildApp takes to run the held worker in place of the real one. */
  get worker(): { file: string; workerData: SharedArrayBuffer } {
    return { file: path.join(__dirname, 'held-signature.worker.ts'), workerData: this.buffer };
  }

  /** The same, to run the held PDF signing worker (held-pdf-signer.worker.ts) in place of the real one. */
  get pdfSignerWorker(): { file: string; workerData: SharedArrayBuffer } {
    return { file: path.join(__dirname, 'held-pdf-signer.worker.ts'), workerData: this.buffer };
  }

  /** Jobs the workers have started (each held until release). */
  get started(): number {
    return Atomics.load(this.slots, STARTED);
  }

  /** Lets every held job, and every later one, run. */
  release(): void {
    Atomics.store(this.slots, RELEASED, 1);
    Atomics.notify(this.slots, RELEASED);
  }

  /** Makes the next job's worker fail (it throws outside the job, and exits). */
  crashNext(): void {
    Atomics.store(this.slots, CRASH_NEXT, 1);
  }
}
