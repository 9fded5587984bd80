import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
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

/**
 * What poppler's `pdfsig` says of a PDF, written to a file of its own first (pdfsig reads no
 * standard input); `args` go before the file (`-dump` writes the signers' certificates beside it,
 * as `<file>.sig0`, ...). CI installs poppler-utils (.ci/run).
 */
export async function pdfsig(pdf: Buffer, args: string[] = []): Promise<{ text: string; dir: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pdfsig-'));
  const file = path.join(dir, 'signed.pdf');
  await writeFile(file, pdf);
  const text = await new Promise<string>((resolve, reject) => {
    execFile('pdfsig', [...args, file], { cwd: dir }, (error, stdout, stderr) => {
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
  return { text, dir };
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
