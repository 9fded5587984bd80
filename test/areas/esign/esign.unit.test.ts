import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { PdfLibSigner } from '../../../src/adapters/pdf/pdf-lib.signer';
import { renderPdf } from '../../../src/adapters/pdf/pdfkit.renderer';
import { ConfigError, loadConfig } from '../../../src/config';
import {
  esignEmailContent,
  esignSmsContent,
  gsmLength,
  inReadingOrder,
  SMS_SEGMENT,
  toGsm,
} from '../../../src/areas/esign/esign.content';
import { signedByText } from '../../../src/areas/esign/signing.service';
import { readSignatureImage, type SignatureImage } from '../../../src/areas/esign/esign.signature';
import { eventEsignStatus } from '../../../src/areas/esign/esign.state';
import type { EsignRecords, SigningLink } from '../../../src/areas/esign/esign.types';
import { withoutSecrets } from '../../../src/areas/outbox/outbox.service';
import { redactRequestUrl } from '../../../src/kernel/sensitive';
import { pdfText } from '../../support/pdf-text';
import { testSealingKey } from '../../support/seal';
import { dataUrl, signaturePng } from '../../support/signing';

const TOKEN = 'q'.repeat(43);

describe('the e-sign text message', () => {
  const link = (base: string) => ({
    token: TOKEN,
    url: `${base}/sign/${TOKEN}`,
    shortUrl: `${base}/s/${TOKEN}`,
    expiresOn: '2026-12-08',
  });
  const documents = [{ id: 'd', description: 'Lease', url: 'x' }];

  it('fits one segment with the facility name and the short link', () => {
    const content = esignSmsContent(
      { id: 'f', name: 'Main Street' },
      'e',
      documents,
      link('https://ops.example.com'),
    );
    expect(content.text).toBe(
      `Main Street: please review and sign 1 document. https://ops.example.com/s/${TOKEN}`,
    );
    expect(gsmLength(content.text)).toBeLessThanOrEqual(SMS_SEGMENT);
    expect(content.secrets).toEqual([TOKEN]);
  });

  it('shortens a long name and keeps the link whole', () => {
    const name = 'The Very Long Named Self Storage Facility of the Greater Metropolitan Area {North}';
    const content = esignSmsContent(
      { id: 'f', name },
      'e',
      documents,
      link('https://storage-operations.example.com'),
    );
    expect(gsmLength(content.text)).toBeLessThanOrEqual(SMS_SEGMENT);
    expect(content.text).toMatch(/^The Very Long Named .*\.\.\.: please review and sign 1 document\. https:/);
    expect(content.text.endsWith(`https://storage-operations.example.com/s/${TOKEN}`)).toBe(true);
  });

  it('writes names in the GSM-7 alphabet, counting extension characters twice', () => {
    expect(toGsm('Café  Łódź\n東京 Ñandú')).toBe('Café Lodz ?? Ñandu');
    expect(gsmLength('a{b}€')).toBe(8);
  });

  it('drops its secrets once it is sent', () => {
    const content = esignSmsContent(
      { id: 'f', name: 'Main Street' },
      'e',
      documents,
      link('https://x.example'),
    );
    const kept = withoutSecrets(content);
    expect(kept.text).toBe('Main Street: please review and sign 1 document. https://x.example/s/[removed]');
    expect(kept.secrets).toBeUndefined();
  });
});

/** An RGBA PNG whose rows use each of the five filters in turn, as browsers' encoders do. */
function filteredPng(width: number, height: number, ink: (x: number, y: number) => boolean): Buffer {
  const plain = signaturePng(width, height, ink);
  // Rebuild the image data with filters 0-4 from the unfiltered pixels.
  const stride = width * 4;
  const pixels: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(stride);
    for (let x = 0; x < width; x++) {
      if (ink(x, y)) row.set([17, 17, 17, 255], x * 4);
    }
    pixels.push(row);
  }
  const paeth = (a: number, b: number, c: number) => {
    const p = a + b - c;
    const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  };
  const raw = Buffer.concat(
    pixels.map((row, y) => {
      const filter = y % 5;
      const up = y > 0 ? pixels[y - 1] : Buffer.alloc(stride);
      const out = Buffer.alloc(stride + 1);
      out[0] = filter;
      for (let i = 0; i < stride; i++) {
        const left = i >= 4 ? row[i - 4] : 0;
        const upLeft = i >= 4 ? up[i - 4] : 0;
        const predictor = [0, left, up[i], (left + up[i]) >> 1, paeth(left, up[i], upLeft)][filter];
        out[i + 1] = (row[i] - predictor) & 0xff;
      }
      return out;
    }),
  );
  // Swap the IDAT of the plain image for this one (same header, new data and CRC).
  const idatStart = plain.indexOf('IDAT') - 4;
  const data = deflateSync(raw);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from('IDAT'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([plain.subarray(0, idatStart), length, body, crc, plain.subarray(plain.length - 12)]);
}

describe('the drawn signature', () => {
  const stroke = (x: number, y: number) => Math.abs(y - Math.round(x / 3)) <= 1;

  it('takes a PNG with ink, whatever filters its rows use', async () => {
    expect(await readSignatureImage(dataUrl(signaturePng(120, 40, stroke)))).toMatchObject({
      ok: true,
      image: { width: 120, colour: 'rgb' },
    });
    expect(await readSignatureImage(dataUrl(filteredPng(120, 40, stroke)))).toMatchObject({
      ok: true,
      image: { height: 40 },
    });
  });

  it.each<[string, string, string]>([
    ['nothing', '', 'missing'],
    ['a blank drawing', dataUrl(signaturePng(120, 40, () => false)), 'empty'],
    ['a stray dot', dataUrl(signaturePng(120, 40, (x, y) => x < 3 && y < 3)), 'empty'],
    ['another image type', 'data:image/jpeg;base64,/9j/4AAQ', 'not_png'],
    [
      'bytes that are not a PNG',
      `data:image/png;base64,${Buffer.from('hello').toString('base64')}`,
      'not_png',
    ],
    ['a PNG cut short', dataUrl(signaturePng(120, 40, stroke).subarray(0, 60)), 'not_png'],
    ['over 256 KiB', `data:image/png;base64,${'A'.repeat(360_000)}`, 'too_large'],
  ])('refuses %s', async (_name, value, problem) => {
    expect(await readSignatureImage(value)).toEqual({ ok: false, problem });
  });

  it('refuses a PNG whose pixels inflate beyond its size (a decompression bomb)', async () => {
    const png = signaturePng(1000, 1000, () => false);
    const forged = Buffer.from(png);
    forged.writeUInt32BE(100, 16); // IHDR width: far fewer pixels than the data holds
    expect(await readSignatureImage(dataUrl(forged))).toEqual({ ok: false, problem: 'not_png' });
  });
});

describe('e-sign states', () => {
  const NOW = '2026-11-24T15:00:00.000Z';
  const link = (overrides: Partial<SigningLink>): SigningLink => ({
    messageId: 'm1',
    facilityId: 'f',
    eventId: 'e',
    channel: 'email',
    recipient: 'a@example.com',
    createdAt: '2026-11-20T15:00:00.000Z',
    expiresAt: '2026-12-04T15:00:00.000Z',
    firstViewedAt: null,
    revokedAt: null,
    completedAt: null,
    documents: [
      { documentId: 'd1', description: 'Lease', documentSha256: 'h1' },
      { documentId: 'd2', description: 'Addendum', documentSha256: 'h2' },
    ],
    ...overrides,
  });
  const status = (records: Partial<EsignRecords>) =>
    eventEsignStatus('e', { links: [], signed: [], audit: [], ...records }, NOW);

  it('is null for an event never sent', () => {
    expect(status({}).state).toBeNull();
  });

  it.each<[string, Partial<SigningLink>, string]>([
    ['sent', {}, 'sent'],
    ['viewed', { firstViewedAt: '2026-11-21T15:00:00.000Z' }, 'viewed'],
    ['expired', { expiresAt: NOW }, 'expired'],
    [
      'revoked',
      { revokedAt: '2026-11-21T15:00:00.000Z', firstViewedAt: '2026-11-21T14:00:00.000Z' },
      'revoked',
    ],
  ])('follows one link: %s', (_name, overrides, state) => {
    const result = status({ links: [link(overrides)] });
    expect(result.state).toBe(state);
    expect(result.documents.get('d1')!.state).toBe(state);
  });

  it('is signed once every document is, through whichever link', () => {
    const signed = (documentId: string) => ({
      documentId,
      messageId: 'm2',
      facilityId: 'f',
      eventId: 'e',
      signedAt: NOW,
      filename: 'x.pdf',
      sha256: 's',
    });
    const links = [
      link({ expiresAt: NOW }),
      link({ messageId: 'm2', createdAt: '2026-11-21T15:00:00.000Z' }),
    ];
    expect(status({ links, signed: [signed('d1')] }).state).toBe('sent');
    const both = status({ links, signed: [signed('d1'), signed('d2')] });
    expect(both.state).toBe('signed');
    expect(both.linkStates.get('m1')).toBe('expired');
  });

  it('shows the liveliest link of several, and the newest when all are dead', () => {
    const expired = link({ expiresAt: NOW });
    const viewed = link({ messageId: 'm2', firstViewedAt: NOW, createdAt: '2026-11-21T15:00:00.000Z' });
    expect(status({ links: [expired, viewed] }).state).toBe('viewed');
    const revokedLater = link({ messageId: 'm3', revokedAt: NOW, createdAt: '2026-11-22T15:00:00.000Z' });
    expect(status({ links: [expired, revokedLater] }).state).toBe('revoked');
    const expiredLater = link({ messageId: 'm4', expiresAt: NOW, createdAt: '2026-11-23T15:00:00.000Z' });
    expect(status({ links: [revokedLater, expiredLater] }).state).toBe('expired');
  });
});

describe('logged URLs of the signing pages', () => {
  it.each([
    [`/sign/${TOKEN}`, '/sign/[token]'],
    [`/sign/${TOKEN}?a=1`, '/sign/[token]?a=1'],
    [`/s/${TOKEN}`, '/s/[token]'],
    [`/sign/${TOKEN}/documents/abc`, '/sign/[token]/documents/abc'],
    [`//sign//${TOKEN}`, '//sign//[token]'],
    ['/sign/assets/page.0123.css', '/sign/assets/page.0123.css'],
    ['/signature/abc', '/signature/abc'],
    ['/v1/f/documents/abc?oauth_signature=x', '/v1/f/documents/abc?oauth_signature=[FILTERED]'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactRequestUrl(url)).toBe(logged);
  });
});

describe('ESIGN_LINK_TTL_HOURS', () => {
  it('defaults to 336 hours and takes 1 to 8784', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).esignLinkTtlHours).toBe(336);
    expect(loadConfig({ NODE_ENV: 'test', ESIGN_LINK_TTL_HOURS: '48' }).esignLinkTtlHours).toBe(48);
  });

  it.each(['0', '-1', '1.5', 'two days', '9000'])('refuses %s', (value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', ESIGN_LINK_TTL_HOURS: value })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'test', ESIGN_LINK_TTL_HOURS: value });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        `ESIGN_LINK_TTL_HOURS: expected a whole number from 1 to 8784, got "${value}"`,
      ]);
    }
  });
});

describe('the PDF signer', () => {
  const decoded = async (): Promise<SignatureImage> => {
    const reading = await readSignatureImage(dataUrl(signaturePng()));
    if (!reading.ok) throw new Error(`the test signature does not decode: ${reading.problem}`);
    return reading.image;
  };

  it('keeps a hash whole on its line, and prints any name the fonts cannot show as best it can', async () => {
    const original = await renderPdf({
      header: 'Main Street',
      title: 'Lease',
      body: 'Text.',
      createdAt: new Date('2026-11-20T15:00:00Z'),
    });
    const hash = 'd'.repeat(64);
    const signed = await new PdfLibSigner({ current: testSealingKey }).sign(
      original,
      {
        signerName: 'Łukasz Żółw 東',
        signedAtText: '2026-11-24 10:05:00 (UTC-05:00)',
        signature: await decoded(),
      },
      {
        facilityName: 'Main Street',
        documentTitle: 'Lease',
        documentId: 'd1',
        details: [
          { label: 'Signed by', value: 'Łukasz Żółw 東' },
          { label: 'SHA-256 of the document shown', value: hash },
        ],
        trail: [{ at: '2026-11-24 10:05:00 (UTC-05:00)', event: 'Signed', details: 'by someone' }],
        consent: 'Consent to sign electronically\n\nParagraph.',
      },
    );
    const text = pdfText(signed);
    expect(text).toContain(`SHA-256 of the document shown ${hash}`);
    expect(text).toContain('Signed electronically by Lukasz Zólw ?');
    expect(text).toContain('Certificate of completion');
  });
});

describe('the certificate pages', () => {
  const signWith = async (consent: string, hash: string) => {
    const reading = await readSignatureImage(dataUrl(signaturePng()));
    if (!reading.ok) throw new Error(`the test signature does not decode: ${reading.problem}`);
    const original = await renderPdf({
      header: 'Main Street',
      title: 'Lease',
      body: 'Text.',
      createdAt: new Date('2026-11-20T15:00:00Z'),
    });
    return new PdfLibSigner({ current: testSealingKey }).sign(
      original,
      { signerName: 'Ada King', signedAtText: '2026-11-24 10:05:00 (UTC-05:00)', signature: reading.image },
      {
        facilityName: 'Main Street',
        documentTitle: 'Lease',
        documentId: 'd1',
        details: [
          { label: 'Signed by', value: 'Ada King' },
          { label: 'SHA-256 of the document shown', value: hash },
        ],
        trail: [{ at: '2026-11-24 10:05:00 (UTC-05:00)', event: 'Signed', details: 'by Ada King' }],
        consent,
      },
    );
  };
  /** The lines of each certificate page as pdftotext -layout reads them, header and footer aside. */
  const certificatePages = (pdf: Buffer) =>
    execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf })
      .toString()
      .split('\f')
      .filter((page) => /Certificate of completion, page \d+/.test(page))
      .map((page) =>
        page
          .split('\n')
          .map((line) => line.trim())
          .filter(
            (line) =>
              line !== '' && line !== 'Main Street' && !/^Certificate of completion, page \d+$/.test(line),
          ),
      );

  it('keeps real SHA-256 hashes whole on their line, whatever their digits', async () => {
    for (let n = 0; n < 6; n++) {
      const hash = createHash('sha256').update(`document ${n}`).digest('hex');
      const [page] = certificatePages(await signWith('Consent to sign electronically\n\nParagraph.', hash));
      expect(page.filter((line) => /^SHA-256 of the document shown +[0-9a-f]{64}$/.test(line))).toEqual([
        expect.stringContaining(hash),
      ]);
      expect(page.filter((line) => /^[0-9a-f]+$/.test(line))).toEqual([]);
    }
  });

  it('never leaves a page holding a single line, however long the consent runs', async () => {
    const sentence =
      'You may ask for these documents on paper at any time, at no charge, before or after signing. ';
    const hash = createHash('sha256').update('lease').digest('hex');
    const lonely: string[] = [];
    for (let sentences = 20; sentences <= 60; sentences += 1) {
      const pages = certificatePages(
        await signWith(`Consent to sign electronically\n\n${sentence.repeat(sentences)}`, hash),
      );
      pages.forEach((lines, i) => {
        if (lines.length < 2) lonely.push(`${sentences} sentences, page ${i + 1}: ${JSON.stringify(lines)}`);
      });
    }
    expect(lonely).toEqual([]);
  });
});

describe('signing names, order and replies', () => {
  it('says who signed as whom when the typed name is not the one the documents were sent to', () => {
    expect(signedByText('Ada Lovelace', 'Ada Lovelace')).toBe('Ada Lovelace');
    expect(signedByText('ada  lovelace', 'Ada Lovelace')).toBe('ada  lovelace');
    expect(signedByText('Ada King', 'Ada Lovelace')).toBe(
      'Ada King (signed as Ada King, sent to Ada Lovelace)',
    );
    expect(signedByText('Ada King', null)).toBe('Ada King');
  });

  it('puts the rental agreement first and addenda by number', () => {
    const titles = ['Addendum 10', 'Insurance Addendum', 'Addendum 2', 'Rental Agreement', 'Addendum 1'];
    const ordered = inReadingOrder(titles.map((description, i) => ({ id: `id-${9 - i}`, description })));
    expect(ordered.map((d) => d.description)).toEqual([
      'Rental Agreement',
      'Addendum 1',
      'Addendum 2',
      'Addendum 10',
      'Insurance Addendum',
    ]);
  });

  it('invites replies only when they are read (SMTP_REPLY_TO)', () => {
    const link = {
      token: 't',
      url: 'https://x.test/sign/t',
      shortUrl: 'https://x.test/s/t',
      expiresOn: '2026-12-01',
    };
    const facility = { id: 'f', name: 'Main Street' };
    const documents = [{ id: 'd', description: 'Lease', url: 'https://x.test/v1/f/documents/d' }];
    const plain = esignEmailContent(facility, 'e', documents, link);
    expect(`${plain.text}${plain.html}`).not.toContain('Reply');
    expect(plain.text).toContain('Questions? Contact Main Street.');
    const replied = esignEmailContent(facility, 'e', documents, link, { repliesRead: true });
    expect(replied.text).toContain('Questions? Reply to this email or contact Main Street.');
    expect(replied.html).toContain('Questions? Reply to this email or contact Main Street.');
    expect(loadConfig({ SMTP_REPLY_TO: 'desk@example.com' }).outbox.smtpReplyTo).toBe('desk@example.com');
  });
});
