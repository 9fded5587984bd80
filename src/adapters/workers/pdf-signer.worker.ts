// A worker thread of the PDF signing pool (pdf-signer.ts): a document's bytes, the stamp, the
// certificate, the seal's key material and the signing time in; the signed PDF out. It loads pdf-lib,
// the sealer and node-forge only: no database driver, no app.
import { parentPort } from 'node:worker_threads';
import { signedPdf } from '../pdf/pdf-lib.signer';
import { SealingKey } from '../seal/sealing-key';
import type { WorkerReply } from './worker-pool';
import type { PdfSigningJob } from './pdf-signer';

/** The seal's key as last made here: rebuilt only when the seal changes (a rotation). */
let kept: { fingerprint: string; key: SealingKey } | null = null;

function keyOf(job: PdfSigningJob): SealingKey {
  if (kept?.fingerprint !== job.fingerprint) {
    kept = { fingerprint: job.fingerprint, key: SealingKey.fromMaterial(job.seal) };
  }
  return kept.key;
}

parentPort!.on('message', ({ id, input }: { id: number; input: PdfSigningJob }) => {
  Promise.resolve()
    .then(() =>
      signedPdf(input.original, input.placement, input.certificate, keyOf(input), new Date(input.at)),
    )
    .then(
      (output) => parentPort!.postMessage({ id, ok: true, output } satisfies WorkerReply<Uint8Array>),
      (error: unknown) =>
        parentPort!.postMessage({ id, ok: false, error: String(error) } satisfies WorkerReply<Uint8Array>),
    );
});
