// The signature worker as tests run it (SIGNATURE_WORKER's job, through the real decoder), with a
// gate the test holds: each job first says it started, then waits until the test releases the
// gate, or makes its worker fail when the test asked for a crash. Started by the pool like the real
// one (TypeScript, through swc); `workerData` is the gate's SharedArrayBuffer (heldWorkerGate).
import { parentPort, workerData } from 'node:worker_threads';
import { readSignatureImage } from '../../src/areas/esign/esign.signature';
import { CRASH_NEXT, RELEASED, STARTED } from './held-worker-gate';

const gate = new Int32Array(workerData as SharedArrayBuffer);

parentPort!.on('message', ({ id, input }: { id: number; input: string }) => {
  Atomics.add(gate, STARTED, 1);
  if (Atomics.compareExchange(gate, CRASH_NEXT, 1, 0) === 1) {
    // Thrown outside any promise: the worker dies as one that hit a bug or ran out of memory would.
    throw new Error('the signature worker failed (on purpose)');
  }
  Atomics.wait(gate, RELEASED, 0);
  readSignatureImage(input).then(
    (output) => parentPort!.postMessage({ id, ok: true, output }),
    (error: unknown) => parentPort!.postMessage({ id, ok: false, error: String(error) }),
  );
});
