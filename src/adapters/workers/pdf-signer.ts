import path from 'node:path';
import type { PdfSigner, SignaturePlacement, SigningCertificate } from '../../areas/esign/esign.ports';
import type { DocumentSeal } from '../seal/document-seal';
import type { SealingMaterial } from '../seal/sealing-key';
import type { SignaturePoolSettings } from './signature-reader';
import { WorkerPool, type JobFailure } from './worker-pool';

/** The worker module beside this one: `.js` in the build, `.ts` when the sources run as such. */
export const PDF_SIGNER_WORKER = path.join(__dirname, `pdf-signer.worker${path.extname(__filename)}`);

/** One document to sign, as it crosses to a worker (structured clone: Buffers arrive as Uint8Arrays). */
export interface PdfSigningJob {
  original: Uint8Array;
  placement: SignaturePlacement;
  certificate: SigningCertificate;
  /** The seal's SHA-256: the worker keeps the key it made for it until the seal changes. */
  fingerprint: string;
  seal: SealingMaterial;
  /** The signing time (ms since the epoch): the seal's signing time. */
  at: number;
}

/**
 * The PDF signer port over a pool of worker threads (pdf-signer.worker.ts), each running what
 * PdfLibSigner runs (signedPdf: stamping with pdf-lib, then sealing): the event loop only takes the
 * seal's current key, hands the bytes over and takes the signed PDF back, so the same inputs give
 * the same file. 'unavailable' when the pool is full, or the worker failed or ran out of time: the
 * signing answers 503 and writes nothing. Workers start with the first signing.
 */
export class WorkerPdfSigner implements PdfSigner {
  private readonly pool: WorkerPool<PdfSigningJob, Uint8Array>;

  private readonly onFailure: (reason: Exclude<JobFailure, 'busy' | 'closed'>) => void;

  /** The signing time each seal carries. */
  private readonly now: () => Date;

  constructor(
    private readonly seal: Pick<DocumentSeal, 'current'>,
    settings: SignaturePoolSettings,
    options: {
      /** The worker's module and its `workerData`: tests run one wrapping the real worker. */
      worker?: { file: string; workerData?: unknown };
      /** Told of a document whose worker failed or ran out of time (not of one turned away). */
      onFailure?: (reason: Exclude<JobFailure, 'busy' | 'closed'>) => void;
      /** The clock of the seals' signing time (tests fix it); the system's by default. */
      now?: () => Date;
    } = {},
  ) {
    this.pool = new WorkerPool({ ...settings, ...(options.worker ?? { file: PDF_SIGNER_WORKER }) });
    this.onFailure = options.onFailure ?? (() => undefined);
    this.now = options.now ?? (() => new Date());
  }

  async sign(
    original: Buffer,
    placement: SignaturePlacement,
    certificate: SigningCertificate,
  ): Promise<Buffer | 'unavailable'> {
    const seal = await this.seal.current();
    const result = await this.pool.run({
      original,
      placement,
      certificate,
      fingerprint: seal.fingerprint,
      seal: seal.material(),
      at: this.now().getTime(),
    });
    if (result.ok) {
      const { value } = result;
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
    if (result.reason === 'timeout' || result.reason === 'crashed') this.onFailure(result.reason);
    return 'unavailable';
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
