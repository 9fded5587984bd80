import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { makeInstallationKey, type SealingKey } from '../../src/adapters/seal/sealing-key';

let made: Promise<SealingKey> | null = null;

/** A self-signed sealing key made once per test file, as the installation would make its own. */
export function testSealingKey(): Promise<SealingKey> {
  made ??= makeInstallationKey('Facility Ops document seal (test)', 1, new Date()).then(({ key }) => key);
  return made;
}

function run(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('pdfsig', args, { cwd }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(
          new Error(
            'pdfsig is not installed: install poppler-utils (apt-get install poppler-utils), as .ci/run does',
          ),
        );
        return;
      }
      // pdfsig exits non-zero for a file without signatures; its words are the answer.
      resolve(`${stdout}${stderr}`);
    });
  });
}

/** Runs pdfsig on the PDF written to a folder of its own (pdfsig reads no standard input). */
async function inFolder<T>(pdf: Buffer, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pdfsig-'));
  try {
    const file = path.join(dir, 'signed.pdf');
    await writeFile(file, pdf);
    return await work(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What poppler's `pdfsig` says of a PDF's signatures. CI installs poppler-utils (.ci/run). */
export function pdfsig(pdf: Buffer): Promise<string> {
  return inFolder(pdf, (file, dir) => run([file], dir));
}

/** A DER value without the zeros after it (the rest of a signature's placeholder). */
function withoutPadding(der: Buffer): Buffer {
  const first = der[1];
  if (first < 0x80) return der.subarray(0, 2 + first);
  const octets = first & 0x7f;
  return der.subarray(0, 2 + octets + der.readUIntBE(2, octets));
}

/**
 * The certificates (DER) embedded in the PDF's first signature, read from the CMS that
 * `pdfsig -dump` writes out.
 */
export function pdfsigCertificates(pdf: Buffer): Promise<Buffer[]> {
  return inFolder(pdf, async (file, dir) => {
    await run(['-dump', file], dir);
    const dumped = await readFile(path.join(dir, 'signed.pdf.sig0'));
    const message = forge.pkcs7.messageFromAsn1(
      forge.asn1.fromDer(withoutPadding(dumped).toString('binary')),
    );
    if (!('certificates' in message)) throw new Error('the signature is not CMS signed data');
    return message.certificates.map((certificate) =>
      Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary'),
    );
  });
}

export interface TestP12Options {
  commonName?: string;
  passphrase?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** forge extensions; default: key usage digitalSignature and nonRepudiation. */
  extensions?: object[];
}

/** An operator's PKCS #12 file, made with node-forge as a CA's tools would (3DES, SHA-256 MAC). */
export function makeP12(options: TestP12Options = {}): { p12: Buffer; passphrase: string } {
  const passphrase = options.passphrase ?? `pass-${randomBytes(4).toString('hex')}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  certificate.serialNumber = `01${randomBytes(8).toString('hex')}`;
  certificate.validity.notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
  certificate.validity.notAfter = options.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const name = [
    { name: 'commonName', value: options.commonName ?? 'Acme Storage Seal' },
    { name: 'organizationName', value: 'Acme Storage' },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions(
    options.extensions ?? [{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true }],
  );
  certificate.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [certificate], passphrase, {
    algorithm: '3des',
    generateLocalKeyId: true,
  });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), passphrase };
}
