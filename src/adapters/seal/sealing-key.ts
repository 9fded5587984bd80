import {
  X509Certificate,
  constants,
  createHash,
  createPrivateKey,
  generateKeyPair,
  privateEncrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

/** Where a sealing certificate comes from: the operator's P12, or made by the installation itself. */
export type SealOrigin = 'operator' | 'installation';

/** Bits of the installation's own RSA keys: native generation takes about 0.2 s here (3072: 1.2 s). */
const INSTALLATION_KEY_BITS = 2048;
/** How long the installation's own certificate is valid; an expired one is replaced on load. */
const INSTALLATION_VALIDITY_YEARS = 10;

/**
 * Extended key usages that allow signing documents: document signing (RFC 9336), email
 * protection (what S/MIME and most document-signing certificates carry), any purpose, Adobe's
 * Authentic Documents and Microsoft's document signing.
 */
const SIGNING_PURPOSES = [
  '1.3.6.1.5.5.7.3.36',
  'emailProtection',
  '2.5.29.37.0',
  '1.2.840.113583.1.1.5',
  '1.3.6.1.4.1.311.10.3.12',
];

/** A problem with a sealing certificate or key, said in words that name no secret. */
export class SealingKeyProblem extends Error {
  constructor(
    message: string,
    /** True when the passphrase given does not open the key (or the P12). */
    readonly wrongPassphrase = false,
  ) {
    super(message);
  }
}

interface KeyUsage {
  digitalSignature?: boolean;
  nonRepudiation?: boolean;
}

function derOf(certificate: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
}

function certificateFromDer(der: Buffer): forge.pki.Certificate {
  return forge.pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary'))));
}

/** The DigestInfo a PKCS #1 v1.5 signature wraps around a SHA-256 digest. */
function sha256DigestInfo(digest: string): Buffer {
  const { asn1 } = forge;
  const info = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(
        asn1.Class.UNIVERSAL,
        asn1.Type.OID,
        false,
        asn1.oidToDer(forge.pki.oids.sha256).getBytes(),
      ),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, digest),
  ]);
  return Buffer.from(asn1.toDer(info).getBytes(), 'binary');
}

/**
 * The key as node-forge's signers take it, its RSA operation done by Node's crypto: forge's own
 * takes 70-100 ms of the event loop per signature here, Node's about 1 ms.
 */
function forgeKeyOf(privateKey: KeyObject): forge.pki.rsa.PrivateKey {
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(pem);
  key.sign = (md) => {
    const digest = typeof md === 'string' ? md : md.digest().getBytes();
    const info = sha256DigestInfo(digest);
    return privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, info).toString('binary');
  };
  return key;
}

/**
 * What a sealing key is made from, in a form that crosses to a worker thread (structured clone):
 * the certificates' DER bytes and the private key as Node's KeyObject (cloned by Node itself, never
 * written out as text).
 */
export interface SealingMaterial {
  certificateDer: Uint8Array;
  chainDer: Uint8Array[];
  privateKey: KeyObject;
  origin: SealOrigin;
  generation: number | null;
}

/**
 * A certificate and its private key that seal PDFs, parsed once: `cms` makes a detached CMS
 * signature (SHA-256, signing time, certificates embedded) with node-forge's PKCS #7.
 */
export class SealingKey {
  /** SHA-256 of the certificate (DER), lower-case hex. */
  readonly fingerprint: string;
  /** The certificate's subject, e.g. `CN=Facility Ops document seal, O=Facility Ops`. */
  readonly subject: string;
  readonly notAfter: Date;
  /** DER bytes of the certificate and of its issuers from the P12: what each seal embeds. */
  readonly certificateBytes: number;
  private readonly certificate: forge.pki.Certificate;
  private readonly chain: forge.pki.Certificate[];
  private readonly key: () => forge.pki.rsa.PrivateKey;
  private readonly made: () => SealingMaterial;

  /** The key made again from `material` (what `material()` gave, e.g. in a worker thread). */
  static fromMaterial(material: SealingMaterial): SealingKey {
    const buffer = (der: Uint8Array) => Buffer.from(der.buffer, der.byteOffset, der.byteLength);
    return new SealingKey(
      buffer(material.certificateDer),
      material.chainDer.map(buffer),
      material.privateKey,
      material.origin,
      material.generation,
    );
  }

  constructor(
    certificateDer: Buffer,
    chainDer: readonly Buffer[],
    privateKey: KeyObject,
    readonly origin: SealOrigin,
    /** The installation's generation; null for the operator's. */
    readonly generation: number | null,
  ) {
    const x509 = new X509Certificate(certificateDer);
    if (x509.publicKey.asymmetricKeyType !== 'rsa' || privateKey.asymmetricKeyType !== 'rsa') {
      throw new SealingKeyProblem('its key is not an RSA key (the seal signs with RSA and SHA-256)');
    }
    if (!x509.checkPrivateKey(privateKey)) {
      throw new SealingKeyProblem('its private key does not belong to its certificate');
    }
    this.fingerprint = createHash('sha256').update(certificateDer).digest('hex');
    this.subject = x509.subject.split('\n').join(', ');
    this.notAfter = new Date(x509.validTo);
    this.certificate = certificateFromDer(certificateDer);
    this.chain = chainDer.map(certificateFromDer);
    this.certificateBytes = certificateDer.length + chainDer.reduce((sum, der) => sum + der.length, 0);
    // The key in forge's form is made on first use and kept in this closure, never on a property.
    let forgeKey: forge.pki.rsa.PrivateKey | null = null;
    this.key = () => (forgeKey ??= forgeKeyOf(privateKey));
    this.made = () => ({
      certificateDer: certificateDer,
      chainDer: [...chainDer],
      privateKey,
      origin,
      generation,
    });
  }

  /** What this key is made from, to be handed to a worker thread that seals (SealingKey.fromMaterial). */
  material(): SealingMaterial {
    return this.made();
  }

  /** Why this certificate cannot seal at `now` (expired, not yet valid, not for signing); null if it can. */
  problemAt(now: Date): string | null {
    const { notBefore, notAfter } = this.certificate.validity;
    if (now > notAfter) return `its certificate expired on ${notAfter.toISOString()}`;
    if (now < notBefore) return `its certificate is valid only from ${notBefore.toISOString()}`;
    const usage = this.certificate.getExtension('keyUsage') as KeyUsage | undefined;
    if (usage && !usage.digitalSignature && !usage.nonRepudiation) {
      return 'its certificate is not for signing (its key usage has neither digitalSignature nor nonRepudiation)';
    }
    const purposes = this.certificate.getExtension('extKeyUsage') as Record<string, unknown> | undefined;
    if (purposes && !SIGNING_PURPOSES.some((purpose) => purposes[purpose] === true)) {
      return 'its certificate is not for signing documents (its extended key usage has neither document signing, email protection nor any purpose)';
    }
    return null;
  }

  /**
   * The detached CMS (PKCS #7) signature of `content`, signed at `at`, as DER. The content's SHA-256
   * is Node's: forge would hash the whole file in JavaScript (a signed PDF with a large drawing takes
   * tens of milliseconds of the event loop that way). Forge is handed no content, and its
   * messageDigest attribute keeps the native digest whatever forge assigns to it (its own digest of
   * nothing); the signed attributes, and so the signature, cover the native digest.
   */
  cms(content: Buffer, at: Date): Buffer {
    const digest = forge.util.createBuffer(createHash('sha256').update(content).digest().toString('binary'));
    const messageDigest = { type: forge.pki.oids.messageDigest };
    Object.defineProperty(messageDigest, 'value', {
      enumerable: true,
      get: () => digest.copy(),
      set: () => undefined,
    });
    const signed = forge.pkcs7.createSignedData();
    signed.content = forge.util.createBuffer('');
    signed.addCertificate(this.certificate);
    for (const issuer of this.chain) signed.addCertificate(issuer);
    signed.addSigner({
      key: this.key(),
      certificate: this.certificate,
      digestAlgorithm: forge.pki.oids.sha256,
      // In this order (content type, signing time, digest), as the EU's DSS validator expects.
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType, value: forge.pki.oids.data },
        { type: forge.pki.oids.signingTime, value: at.toISOString() },
        messageDigest,
      ],
    });
    signed.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(signed.toAsn1()).getBytes(), 'binary');
  }
}

/** Whether forge's P12 reader failed on the MAC, which is what a wrong passphrase looks like. */
function wrongPassphrase(error: unknown): boolean {
  return error instanceof Error && /MAC could not be verified|Invalid password/i.test(error.message);
}

/**
 * The certificate and key of an operator's PKCS #12 file (.p12, .pfx): the key, the certificate
 * that matches it, and the other certificates as its chain. Throws SealingKeyProblem.
 */
export function sealingKeyFromP12(bytes: Buffer, passphrase: string): SealingKey {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(bytes.toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
  } catch (error) {
    if (wrongPassphrase(error)) throw new SealingKeyProblem('the passphrase does not open it', true);
    const reason = error instanceof Error ? ` (${error.message.replace(/\s+/g, ' ').slice(0, 120)})` : '';
    throw new SealingKeyProblem(`it is not a PKCS #12 (.p12, .pfx) file this service can read${reason}`);
  }
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ??
      []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const forgeKey = keyBags.find((bag) => bag.key)?.key;
  if (!forgeKey) throw new SealingKeyProblem('it holds no RSA private key');
  const privateKey = createPrivateKey(forge.pki.privateKeyToPem(forgeKey));
  const certificates = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [])
    .flatMap((bag) => (bag.cert ? [derOf(bag.cert)] : []))
    .filter((der, i, all) => all.findIndex((other) => other.equals(der)) === i);
  const own = certificates.find((der) => new X509Certificate(der).checkPrivateKey(privateKey));
  if (!own) throw new SealingKeyProblem('it holds no certificate for its private key');
  return new SealingKey(
    own,
    certificates.filter((der) => der !== own),
    privateKey,
    'operator',
    null,
  );
}

/** A new self-signed sealing certificate and its key, for the installation's generation `generation`. */
export async function makeInstallationKey(
  commonName: string,
  generation: number,
  now: Date,
): Promise<{ certificatePem: string; privateKey: KeyObject; key: SealingKey }> {
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: INSTALLATION_KEY_BITS,
  });
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  // A positive serial of 16 random bytes.
  certificate.serialNumber = `01${randomBytes(15).toString('hex')}`;
  certificate.validity.notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + INSTALLATION_VALIDITY_YEARS);
  certificate.validity.notAfter = notAfter;
  const name = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Facility Ops' },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(forgeKeyOf(privateKey), forge.md.sha256.create());
  const der = derOf(certificate);
  return {
    certificatePem: forge.pki.certificateToPem(certificate),
    privateKey,
    key: new SealingKey(der, [], privateKey, 'installation', generation),
  };
}

/** A kept installation certificate and its key (opened with `passphrase` when it is encrypted). */
export function installationKeyFromPem(
  certificatePem: string,
  privateKeyPem: string,
  passphrase: string | null,
  generation: number,
): SealingKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: privateKeyPem, format: 'pem', passphrase: passphrase ?? undefined });
  } catch {
    throw new SealingKeyProblem(
      passphrase === null
        ? `the installation's sealing key (generation ${generation}) is kept encrypted: set the passphrase it was made with`
        : `the passphrase does not open the installation's sealing key (generation ${generation})`,
      true,
    );
  }
  return new SealingKey(new X509Certificate(certificatePem).raw, [], privateKey, 'installation', generation);
}

/** The private key as kept: PKCS #8 PEM, encrypted with AES-256 under `passphrase` when one is given. */
export function keptPrivateKey(privateKey: KeyObject, passphrase: string | null): string {
  return passphrase === null
    ? privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    : privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString();
}

/** `ab12...` as `AB:12:...`, the way openssl, Acrobat and browsers show fingerprints. */
export function colonFingerprint(fingerprint: string): string {
  return (fingerprint.toUpperCase().match(/../g) ?? []).join(':');
}
