import path from 'node:path';
import type { SignatureReader } from '../../areas/esign/esign.ports';
import type { SignatureReading } from '../../areas/esign/esign.signature';
import { WorkerPool, type JobFailure, type WorkerPoolOptions } from './worker-pool';

/** The pool's settings (SIGNATURE_WORKERS, SIGNATURE_QUEUE, SIGNATURE_DEADLINE_MS). */
export type SignaturePoolSettings = Pick<WorkerPoolOptions, 'size' | 'queue' | 'deadlineMs'>;

/** The worker module beside this one: `.js` in the build, `.ts` when the sources run as such. */
export const SIGNATURE_WORKER = path.join(__dirname, `signature.worker${path.extname(__filename)}`);

/** A reading as it crossed the thread: its images arrive as plain Uint8Arrays, made Buffers again. */
function asBuffers(reading: SignatureReading): SignatureReading {
  if (!reading.ok) return reading;
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { image } = reading;
  return {
    ok: true,
    image: { ...image, samples: buffer(image.samples), alpha: image.alpha ? buffer(image.alpha) : null },
  };
}

/**
 * Drawn signatures decoded in a pool of worker threads (signature.worker.ts), so the event loop only
 * hands the data URL over and takes the reading back. Workers start with the first drawing.
 */
export class WorkerSignatureReader implements SignatureReader {
  private readonly pool: WorkerPool<string, SignatureReading>;

  private readonly onFailure: (reason: Exclude<JobFailure, 'busy' | 'closed'>) => void;

  constructor(
    settings: SignaturePoolSettings,
    options: {
      /** The worker's module and its `workerData`: tests run one wrapping the real worker. */
      worker?: { file: string; workerData?: unknown };
      /** Told of a drawing whose worker failed or ran out of time (not of one turned away). */
      onFailure?: (reason: Exclude<JobFailure, 'busy' | 'closed'>) => void;
    } = {},
  ) {
    this.pool = new WorkerPool({ ...settings, ...(options.worker ?? { file: SIGNATURE_WORKER }) });
    this.onFailure = options.onFailure ?? (() => undefined);
  }

  async read(dataUrl: string): Promise<SignatureReading | 'unavailable'> {
    const result = await this.pool.run(dataUrl);
    if (result.ok) return asBuffers(result.value);
    if (result.reason === 'timeout' || result.reason === 'crashed') this.onFailure(result.reason);
    return 'unavailable';
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
