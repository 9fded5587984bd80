// A worker thread of the signature pool (signature-reader.ts): a drawn signature's data URL in, its
// reading out. It loads nothing but the decoder, which needs only Node's own modules: no database
// driver, no app.
import { parentPort } from 'node:worker_threads';
import { readSignatureImage } from '../../areas/esign/esign.signature';
import type { WorkerReply } from './worker-pool';
import type { SignatureReading } from '../../areas/esign/esign.signature';

parentPort!.on('message', ({ id, input }: { id: number; input: string }) => {
  readSignatureImage(input).then(
    (output) => parentPort!.postMessage({ id, ok: true, output } satisfies WorkerReply<SignatureReading>),
    (error: unknown) =>
      parentPort!.postMessage({
        id,
        ok: false,
        error: String(error),
      } satisfies WorkerReply<SignatureReading>),
  );
});
