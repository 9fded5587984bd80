import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { PdfLibSigner } from '../../../../src/adapters/pdf/pdf-lib.signer';
import { renderPdf } from '../../../../src/adapters/pdf/pdfkit.renderer';
import {
  DocumentSeal,
  SealSettingError,
  type SealSettings,
} from '../../../../src/adapters/seal/document-seal';
import {
  AesGcmSecretBox,
  ClearSecretBox,
  SecretKeys,
} from '../../../../src/adapters/secrets/aes-gcm.secret-box';
import { SecretUnreadable } from '../../../../src/kernel/secret-box';
import { resealSecrets } from '../../../../src/store/secret-columns';
import { readSignatureImage } from '../../../../src/areas/esign/esign.signature';
import type { DatasetEvent, DatasetEventDocument } from '../../../../src/store/dataset/dataset.types';
import { openStore } from '../../../../src/store/database';
import { SqlSealingKeysRepository } from '../../../../src/areas/esign/sealing-keys.repository';
import { buildDocument, buildEvent, buildLedger, buildTenant, buildUnit } from '../../../support/factories';
import { POSTGRES_URL } from '../../../support/dialects';
import { createTestStore, describeEachDialect, itOnPostgres } from '../../../support/harness';
import { createInstance, createTestApp, type TestApp } from '../../../support/http';
import { pdfText } from '../../../support/pdf-text';
import { makeP12, pdfsig, pdfsigCertificates } from '../../../support/seal';
import { dataUrl, goodForm, postForm, sendLink, signaturePng } from '../../../support/signing';
import { postGraphql } from '../../../graphql/graphql-client';

const sha256 = (data: Buffer | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The fingerprint the certificate page of a signed PDF names. */
function fingerprintOnPage(pdf: Buffer): string {
  const match = /Sealing certificate SHA-256\s+([0-9a-f]{64})/.exec(pdfText(pdf));
  if (!match) throw new Error('the certificate page names no sealing certificate');
  return match[1];
}

/** A move-in with two esignable documents in the test app's facility. */
async function moveInWithDocuments(
  t: TestApp,
): Promise<{ event: DatasetEvent; documents: DatasetEventDocument[] }> {
  const facilityId = t.world.facility.id;
  const tenant = buildTenant({ facility_id: facilityId, first_name: 'Grace', last_name: 'Hopper' });
  const unit = buildUnit({ facility_id: facilityId });
  const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
  const event = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
  const documents = [
    buildDocument({ event_id: event.id, description: 'Lease agreement', body: 'Rent is due on the first.' }),
    buildDocument({
      event_id: event.id,
      description: 'Gate code addendum',
      body: 'The gate code is personal.',
    }),
  ];
  await t.load({
    tenants: [tenant],
    units: [unit],
    ledgers: [ledger],
    events: [event],
    event_documents: documents,
  });
  return { event, documents };
}

/** Signs every document of the event through the public page; answers the signed PDFs as the API downloads them. */
async function signThroughPage(
  t: TestApp,
  eventId: string,
  documentIds: readonly string[],
): Promise<Buffer[]> {
  const { token } = await sendLink(t, eventId);
  expect((await postForm(t, token, goodForm())).statusCode).toBe(303);
  const pdfs: Buffer[] = [];
  for (const id of documentIds) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/${t.world.facility.id}/documents/${id}`,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    expect(res.headers['content-disposition']).toMatch(/-signed\.pdf"$/);
    pdfs.push(res.rawPayload);
  }
  return pdfs;
}

/** The offset of a byte inside a content stream that the seal covers (not the signature itself). */
function byteInsideSignedStream(pdf: Buffer): number {
  const match = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/.exec(pdf.toString('latin1'));
  if (!match) throw new Error('no /ByteRange: the file is not sealed');
  const [, , gapStart, gapEnd] = match.map(Number);
  const text = pdf.toString('latin1');
  for (let at = text.indexOf('stream\n'); at >= 0; at = text.indexOf('stream\n', at + 1)) {
    const inside = at + 'stream\n'.length + 4;
    if (text.slice(at - 3, at) !== 'end' && (inside < gapStart || inside >= gapEnd)) return inside;
  }
  throw new Error('no stream in the signed ranges');
}

describeEachDialect('sealed signed PDFs', (dialect) => {
  let t: TestApp;
  let event: DatasetEvent;
  let documents: DatasetEventDocument[];
  let pdfs: Buffer[];

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    await t.services.webhooks.createEndpoint(t.world.company.id, {
      url: 'http://127.0.0.1:9/hooks',
      eventTypes: ['document.signed'],
      description: 'seal test',
    });
    ({ event, documents } = await moveInWithDocuments(t));
    pdfs = await signThroughPage(
      t,
      event.id,
      documents.map((d) => d.id),
    );
  });
  afterAll(() => t.close());

  it('seals each signed PDF: pdfsig finds one valid signature over the whole file, SHA-256, detached CMS', async () => {
    for (const pdf of pdfs) {
      const report = await pdfsig(pdf);
      expect(report.match(/^Signature #/gm)).toHaveLength(1);
      expect(report).toContain('- Signature Validation: Signature is Valid.');
      expect(report).toContain('- Total document signed');
      expect(report).toContain('- Signing Hash Algorithm: SHA-256');
      expect(report).toContain('- Signature Type: adbe.pkcs7.detached');
      expect(report).toMatch(/- Signing Time: \w{3} \d{1,2} \d{4} \d{2}:\d{2}:\d{2}/);
      expect(report).toMatch(
        /- Signer Certificate Common Name: Facility Ops document seal \(127\.0\.0\.1:3000\)/,
      );
    }
  });

  it("names on the certificate page the installation certificate's SHA-256, which the seal embeds, the same for every file", async () => {
    const kept = await t.db.store.db.selectFrom('sealing_certificates').selectAll().execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ generation: 1 });
    for (const pdf of pdfs) {
      const [certificate] = await pdfsigCertificates(pdf);
      expect(sha256(certificate)).toBe(kept[0].fingerprint);
      expect(fingerprintOnPage(pdf)).toBe(kept[0].fingerprint);
    }
    expect((await t.services.seal.current()).fingerprint).toBe(kept[0].fingerprint);
    // Without SEAL_KEY_PASSPHRASE the key is kept in clear PKCS #8 (the docs say so).
    expect(kept[0].private_key_pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('keeps, shows in GraphQL and sends in document.signed the SHA-256 of the sealed file, byte for byte what is downloaded', async () => {
    const expected = new Map(documents.map((d, i) => [d.id, sha256(pdfs[i])]));
    const rows = await t.db.store.db
      .selectFrom('esign_signed_documents')
      .select(['document_id', 'sha256', 'pdf'])
      .execute();
    for (const row of rows) {
      expect(row.sha256).toBe(expected.get(row.document_id));
      expect(sha256(Buffer.from(row.pdf))).toBe(row.sha256);
    }
    const audit = await t.db.store.db
      .selectFrom('esign_audit_events')
      .select(['document_id', 'signed_sha256'])
      .where('kind', '=', 'signed')
      .execute();
    expect(new Map(audit.map((a) => [a.document_id, a.signed_sha256]))).toEqual(expected);

    const answer = await postGraphql<{
      facility: { event: { documents: { entries: Array<{ id: string; esign: { signedSha256: string } }> } } };
    }>(
      t.app,
      {
        query: `query ($f: UUID!, $e: UUID!) { facility(id: $f) { event(id: $e) {
          documents { entries { id esign { signedSha256 } } } } } }`,
        variables: { f: t.world.facility.id, e: event.id },
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(answer.errors).toBeUndefined();
    const shown = answer.data!.facility.event.documents.entries.filter((d) => expected.has(d.id));
    expect(new Map(shown.map((d) => [d.id, d.esign.signedSha256]))).toEqual(expected);

    const webhooks = await t.db.store.db
      .selectFrom('outbox_messages')
      .select('payload')
      .where('channel', '=', 'webhook')
      .execute();
    // Each row holds the body an endpoint receives, as sent.
    const signed = webhooks
      .map((w) => JSON.parse(w.payload) as { type: string; body: string })
      .filter((row) => row.type === 'document.signed')
      .map((row) => JSON.parse(row.body) as { data: { id: string; esign: { signed_sha256: string } } });
    expect(signed).toHaveLength(documents.length);
    expect(new Map(signed.map((body) => [body.data.id, body.data.esign.signed_sha256]))).toEqual(expected);
  });

  it('is reported modified by pdfsig when one byte of a content stream changes', async () => {
    const changed = Buffer.from(pdfs[0]);
    const at = byteInsideSignedStream(changed);
    changed[at] ^= 0x01;
    const report = await pdfsig(changed);
    expect(report).toContain('- Signature Validation: Digest Mismatch.');
    expect(report).not.toContain('Signature is Valid');
  });
});

describe('an operator-given sealing certificate (SEAL_P12_FILE)', () => {
  let t: TestApp;
  let dir: string;
  const { p12, passphrase } = makeP12({ commonName: 'Acme Storage Seal' });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seal-p12-'));
    const file = path.join(dir, 'seal.p12');
    fs.writeFileSync(file, p12);
    t = await createTestApp('sqlite', { env: { SEAL_P12_FILE: file, SEAL_P12_PASSPHRASE: passphrase } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('seals with that certificate, and the installation makes none of its own', async () => {
    const { event, documents } = await moveInWithDocuments(t);
    const [pdf] = await signThroughPage(t, event.id, [documents[0].id]);
    const report = await pdfsig(pdf);
    expect(report).toContain('- Signer Certificate Common Name: Acme Storage Seal');
    expect(report).toContain('- Signer full Distinguished Name: O=Acme Storage,CN=Acme Storage Seal');
    expect(report).toContain('- Signature Validation: Signature is Valid.');
    expect(report).toContain('- Total document signed');
    const [certificate] = await pdfsigCertificates(pdf);
    const operator = await t.services.seal.current();
    expect(operator.origin).toBe('operator');
    expect(sha256(certificate)).toBe(operator.fingerprint);
    expect(fingerprintOnPage(pdf)).toBe(operator.fingerprint);
    expect(await t.db.store.db.selectFrom('sealing_certificates').selectAll().execute()).toEqual([]);
  });
});

describe("the installation's own sealing certificate", () => {
  const settings = (keyPassphrase: string | null): SealSettings => ({
    operatorKey: null,
    keyPassphrase,
    commonName: 'Facility Ops document seal (test)',
  });

  /** A signed PDF of a one-page document, sealed by `seal`. */
  async function signedWith(seal: DocumentSeal): Promise<Buffer> {
    const reading = await readSignatureImage(dataUrl(signaturePng()));
    if (!reading.ok) throw new Error('the test signature does not decode');
    const original = await renderPdf({
      header: 'Main Street',
      title: 'Lease',
      body: 'Text.',
      createdAt: new Date(),
    });
    return new PdfLibSigner(seal).sign(
      original,
      { signerName: 'Grace Hopper', signedAtText: 'now', signature: reading.image },
      {
        facilityName: 'Main Street',
        documentTitle: 'Lease',
        documentId: 'd1',
        details: [],
        trail: [],
        consent: 'Consent.',
      },
    );
  }

  it('is kept encrypted under SEAL_KEY_PASSPHRASE, and refused with a wrong passphrase or none', async () => {
    const db = await createTestStore('sqlite');
    try {
      const keys = new SqlSealingKeysRepository(db.store.db, new ClearSecretBox());
      const made = await new DocumentSeal(keys, settings('correct horse battery')).current();
      const [row] = await db.store.db.selectFrom('sealing_certificates').selectAll().execute();
      expect(row.private_key_pem).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
      expect(row.private_key_pem).not.toContain('correct horse');

      const again = await new DocumentSeal(keys, settings('correct horse battery')).current();
      expect(again.fingerprint).toBe(made.fingerprint);
      for (const [passphrase, problem] of [
        [
          'wrong',
          "SEAL_KEY_PASSPHRASE: the passphrase does not open the installation's sealing key (generation 1)",
        ],
        [
          null,
          "SEAL_KEY_PASSPHRASE: the installation's sealing key (generation 1) is kept encrypted: set the passphrase it was made with",
        ],
      ] as const) {
        const refused = new DocumentSeal(keys, settings(passphrase)).current();
        await expect(refused).rejects.toThrow(SealSettingError);
        await expect(refused).rejects.toThrow(problem);
      }
      // Nothing was replaced by the refusals.
      expect(await db.store.db.selectFrom('sealing_certificates').select('fingerprint').execute()).toEqual([
        { fingerprint: made.fingerprint },
      ]);
    } finally {
      await db.close();
    }
  });

  it('keeps the private key sealed under SECRETS_KEY, bound to its row, and a key rotation seals it again', async () => {
    const db = await createTestStore('sqlite');
    try {
      const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
      const box = new AesGcmSecretBox(new SecretKeys([oldKey]));
      const made = await new DocumentSeal(
        new SqlSealingKeysRepository(db.store.db, box),
        settings(null),
      ).current();
      const stored = async () =>
        (
          await db.store.db
            .selectFrom('sealing_certificates')
            .select('private_key_pem')
            .executeTakeFirstOrThrow()
        ).private_key_pem;
      const first = await stored();
      expect(first).toMatch(/^enc:v1:/);
      expect(first).not.toContain('PRIVATE KEY');

      // Another key cannot open it: the refusal names the row, never a key.
      const stranger = new DocumentSeal(
        new SqlSealingKeysRepository(db.store.db, new AesGcmSecretBox(new SecretKeys([newKey]))),
        settings(null),
      ).current();
      await expect(stranger).rejects.toThrow(SecretUnreadable);
      await expect(stranger).rejects.toThrow(/sealing_certificates\.private_key_pem of 1/);

      // `secrets rotate-key` covers it: sealed again under the new key, the same certificate.
      const rotated = new AesGcmSecretBox(new SecretKeys([newKey, oldKey]));
      expect(
        (await resealSecrets(db.store.db, rotated, 'every'))['sealing_certificates.private_key_pem'],
      ).toBe(1);
      expect(await stored()).not.toBe(first);
      const onlyNew = new AesGcmSecretBox(new SecretKeys([newKey]));
      const again = await new DocumentSeal(
        new SqlSealingKeysRepository(db.store.db, onlyNew),
        settings(null),
      ).current();
      expect(again.fingerprint).toBe(made.fingerprint);
    } finally {
      await db.close();
    }
  });

  it('rotates: new files are sealed with the next certificate, files sealed before stay valid', async () => {
    const db = await createTestStore('sqlite');
    try {
      const keys = new SqlSealingKeysRepository(db.store.db, new ClearSecretBox());
      const seal = new DocumentSeal(keys, settings(null));
      const before = await signedWith(seal);
      const first = await seal.current();
      const next = await seal.rotate();
      expect(next.generation).toBe(2);
      expect(next.fingerprint).not.toBe(first.fingerprint);
      const after = await signedWith(seal);
      // Another instance started now takes the newest.
      expect((await new DocumentSeal(keys, settings(null)).current()).fingerprint).toBe(next.fingerprint);

      for (const [pdf, key] of [
        [before, first],
        [after, next],
      ] as const) {
        expect(await pdfsig(pdf)).toContain('- Signature Validation: Signature is Valid.');
        expect(sha256((await pdfsigCertificates(pdf))[0])).toBe(key.fingerprint);
        expect(fingerprintOnPage(pdf)).toBe(key.fingerprint);
      }
    } finally {
      await db.close();
    }
  });

  itOnPostgres(
    'is the same for two instances on one PostgreSQL database that start at once, and both seal with it',
    async () => {
      const world = await createTestApp('postgres');
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        world.db.store.db,
      );
      // The second instance has its own pool on the same database, as another process would.
      const otherStore = openStore(POSTGRES_URL, { pgSchema: rows[0].schema });
      try {
        const second = await createInstance(otherStore);
        const [first, other] = await Promise.all([
          world.services.seal.current(),
          second.services.seal.current(),
        ]);
        expect(other.fingerprint).toBe(first.fingerprint);
        expect(
          await world.db.store.db.selectFrom('sealing_certificates').select('generation').execute(),
        ).toEqual([{ generation: 1 }]);

        const one = await moveInWithDocuments(world);
        const two = await moveInWithDocuments(world);
        const [viaFirst] = await signThroughPage(world, one.event.id, [one.documents[0].id]);
        const secondApp = { ...world, app: second.app, services: second.services };
        const [viaSecond] = await signThroughPage(secondApp, two.event.id, [two.documents[0].id]);
        for (const pdf of [viaFirst, viaSecond]) {
          expect(await pdfsig(pdf)).toContain('- Signature Validation: Signature is Valid.');
          expect(sha256((await pdfsigCertificates(pdf))[0])).toBe(first.fingerprint);
        }
        await second.app.close();
      } finally {
        await otherStore.close();
        await world.close();
      }
    },
    60_000,
  );
});
