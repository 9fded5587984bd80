// The PDF signing worker as tests run it (the real pdf-signer.worker.ts), with the gate of
// held-worker-gate.ts in front: each job first says it started, then fails its worker when the test
// asked for a crash, or waits until the test releases the gate; then the real worker signs it.
// Started by the pool like the real one (TypeScript, through swc); `workerData` is the gate's
// SharedArrayBuffer.
import { parentPort, workerData } from 'node:worker_threads';
import { CRASH_NEXT, RELEASED, STARTED } from './held-worker-gate';

const gate = new Int32Array(workerData as SharedArrayBuffer);

// Listens before the real worker does, so it runs first on every job.
parentPort!.on('message', () => {
  Atomics.add(gate, STARTED, 1);
  if (Atomics.compareExchange(gate, CRASH_NEXT, 1, 0) === 1) {
    // Thrown outside any promise: the worker dies as one that hit a bug or ran out of memory would.
    throw new Error('the PDF signing worker failed (on purpose)');
  }
  Atomics.wait(gate, RELEASED, 0);
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../../src/adapters/workers/pdf-signer.worker');
