// A worker for the worker pool's own tests (plain JavaScript: it starts at once, with no loader).
// A job `{ echo }` answers its value and this worker's thread id; `{ hold: true }` first waits until
// the test releases the gate (workerData, a SharedArrayBuffer: slot 0 released, slot 1 jobs held);
// `{ crash: true }` kills the worker; `{ fail: true }` throws inside the job.
const { parentPort, threadId, workerData } = require('node:worker_threads');

const gate = new Int32Array(workerData);

parentPort.on('message', ({ id, input }) => {
  if (input.crash) throw new Error('crashed on purpose');
  if (input.fail) {
    parentPort.postMessage({ id, ok: false, error: 'failed on purpose' });
    return;
  }
  if (input.hold) {
    Atomics.add(gate, 1, 1);
    Atomics.wait(gate, 0, 0);
  }
  parentPort.postMessage({ id, ok: true, output: { echo: input.echo, threadId } });
});
