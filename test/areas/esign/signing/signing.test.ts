import { createHash, randomBytes } from 'node:crypto';
import type {
  DatasetEvent,
  DatasetEventDocument,
  DatasetFacility,
} from '../../../../src/store/dataset/dataset.types';
import {
  buildDocument,
  buildEvent,
  buildFacility,
  buildLedger,
  buildTenant,
  buildUnit,
} from '../../../support/factories';
import { describeEachDialect } from '../../../support/harness';
import { createTestApp, type TestApp } from '../../../support/http';
import { pdfText } from '../../../support/pdf-text';
import { dataUrl, goodForm, postForm, sendLink, signaturePng, signingState } from '../../../support/signing';

const HOUR = 3_600_000;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The page's text without tags, spaces collapsed: what a reader sees. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describeEachDialect('the public signing page', (dialect) => {
  let t: TestApp;
  let moveIn: DatasetEvent;
  let lease: DatasetEventDocument;
  let addendum: DatasetEventDocument;
  let sister: DatasetFacility;
  let sisterEvent: DatasetEvent;
  let sisterDocument: DatasetEventDocument;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facilityId = t.world.facility.id;
    const tenant = buildTenant({ facility_id: facilityId, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facilityId, name: 'B-207' });
    const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
    moveIn = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
    lease = buildDocument({
      event_id: moveIn.id,
      description: 'Lease agreement',
      created_at: '2026-11-20T15:00:00Z',
      body: 'This lease is between {{facility_name}} and {{tenant_name}} for unit {{unit_name}}.\n\nRent is due on the first.',
    });
    addendum = buildDocument({
      event_id: moveIn.id,
      description: 'Gate code addendum',
      created_at: '2026-11-20T15:30:00Z',
      body: 'The gate code is personal to {{tenant_name}}.',
    });
    sister = buildFacility({ company_id: t.world.company.id, name: 'Sister Site' });
    sisterEvent = buildEvent({ facility_id: sister.id });
    sisterDocument = buildDocument({ event_id: sisterEvent.id, description: 'Sister lease' });
    await t.load({
      facilities: [sister],
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [moveIn, sisterEvent],
      event_documents: [
        lease,
        addendum,
        buildDocument({ event_id: moveIn.id, description: 'Welcome letter', esignable: false }),
        sisterDocument,
      ],
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(new Date('2026-11-24T15:00:00Z'));
    // Deleting the messages deletes their links, audit trails and signed copies.
    await t.db.store.db.deleteFrom('outbox_messages').execute();
  });

  const open = (token: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/sign/${token}`,
      headers: { 'user-agent': 'Mozilla/5.0 (phone)', ...headers },
    });

  it('shows the facility, each document with its text and a download link, the consent, the name and the signature pad', async () => {
    const { token } = await sendLink(t, moveIn.id);
    const res = await open(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const text = visibleText(res.body);
    expect(text).toContain('Main Street');
    expect(text).toContain('Main Street sent you 2 documents to sign.');
    expect(text).toContain('1. Lease agreement');
    expect(text).toContain('This lease is between Main Street and Grace Hopper for unit B-207.');
    expect(text).toContain('2. Gate code addendum');
    expect(text).toContain('The gate code is personal to Grace Hopper.');
    expect(text).not.toContain('Welcome letter');
    expect(text).toContain('Consent to sign electronically');
    expect(text).toContain('Electronic Signatures in Global and National Commerce Act');
    expect(text).toContain('Uniform Electronic Transactions Act');
    expect(text).toContain('You have the right to receive these documents on paper');
    expect(res.body).toContain(`href="/sign/${token}/documents/${lease.id}"`);
    expect(res.body).toMatch(/<label for="name">Your full name<\/label>/);
    expect(res.body).toMatch(/<input type="checkbox" id="consent" name="consent"/);
    expect(res.body).toContain('<label for="consent">');
    expect(res.body).toContain('<canvas id="signature-pad"');
    expect(res.body).toContain('<button type="submit" class="primary" id="submit"');
    expect(text).toContain('Sign 2 documents');
    // Its own stylesheet and script, nothing from elsewhere.
    expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('answers with strict security headers and no caching', async () => {
    const { token } = await sendLink(t, moveIn.id);
    const res = await open(token);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/https?:/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('serves its stylesheet and script from the service', async () => {
    const { token } = await sendLink(t, moveIn.id);
    const page = (await open(token)).body;
    const css = /<link rel="stylesheet" href="(\/sign\/assets\/[^"]+\.css)">/.exec(page)![1];
    const js = /<script src="(\/sign\/assets\/[^"]+\.js)" defer>/.exec(page)![1];
    const style = await t.app.inject({ method: 'GET', url: css });
    expect(style.statusCode).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.body).toContain(':focus-visible');
    const script = await t.app.inject({ method: 'GET', url: js });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('pointerdown');
  });

  it('records the first view once, with the address and browser', async () => {
    const { message, token } = await sendLink(t, moveIn.id);
    await open(token);
    t.clock.advance(60_000);
    await open(token);
    const link = await t.db.store.db
      .selectFrom('esign_links')
      .selectAll()
      .where('message_id', '=', message.id)
      .executeTakeFirstOrThrow();
    expect(link.first_viewed_at).toBe('2026-11-24T15:00:00.000Z');
    const viewed = await t.db.store.db
      .selectFrom('esign_audit_events')
      .selectAll()
      .where('kind', '=', 'viewed')
      .orderBy('document_id')
      .execute();
    expect(viewed.map((v) => v.document_id).sort()).toEqual([lease.id, addendum.id].sort());
    for (const row of viewed) {
      expect(row).toMatchObject({
        ip_address: '127.0.0.1',
        user_agent: 'Mozilla/5.0 (phone)',
        channel: 'email',
      });
    }
  });

  it('keeps only the hash of the token', async () => {
    const { message, token } = await sendLink(t, moveIn.id);
    const link = await t.db.store.db
      .selectFrom('esign_links')
      .selectAll()
      .where('message_id', '=', message.id)
      .executeTakeFirstOrThrow();
    expect(link.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(link)).not.toContain(token);
  });

  it('leads the short link of a text message to the page', async () => {
    const { message, token } = await sendLink(t, moveIn.id, { smsNumber: '+15555550100' });
    expect(message.content!.text).toContain(`/s/${token}`);
    const res = await t.app.inject({ method: 'GET', url: `/s/${token}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/sign/${token}`);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it("downloads a document of the link as sent, and nothing else (another facility's document is 404)", async () => {
    const { token } = await sendLink(t, moveIn.id);
    const res = await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="lease-agreement.pdf"');
    expect(pdfText(res.rawPayload)).toContain('Grace Hopper');
    for (const id of [sisterDocument.id, 'not-a-uuid', 'ffffffff-ffff-4fff-8fff-ffffffffffff']) {
      const other = await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${id}` });
      expect(other.statusCode).toBe(404);
      expect(other.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(visibleText(other.body)).toContain('This link does not offer that document.');
    }
  });

  it('signs every document at once: signature records, signed PDFs, and downloads answer them from then on', async () => {
    const { message, token } = await sendLink(t, moveIn.id);
    const original = await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` });
    await open(token);
    t.clock.advance(5 * 60_000);
    const res = await postForm(t, token, goodForm(), { 'x-forwarded-for': '203.0.113.9' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/sign/${token}`);

    const signatures = await t.db.store.db
      .selectFrom('esign_audit_events')
      .selectAll()
      .where('kind', '=', 'signed')
      .execute();
    expect(signatures).toHaveLength(2);
    const signedRows = await t.db.store.db.selectFrom('esign_signed_documents').selectAll().execute();
    expect(signedRows).toHaveLength(2);
    const leaseSignature = signatures.find((s) => s.document_id === lease.id)!;
    const leasePdf = signedRows.find((s) => s.document_id === lease.id)!;
    expect(leaseSignature).toMatchObject({
      message_id: message.id,
      signer_name: 'Grace Hopper',
      channel: 'email',
      recipient: 'grace@example.com',
      at: '2026-11-24T15:05:00.000Z',
      ip_address: '127.0.0.1',
      user_agent: 'Mozilla/5.0 (test)',
      consent_version: 'esign-consent-2026-11',
      document_sha256: sha256(original.rawPayload),
      signed_sha256: sha256(Buffer.from(leasePdf.pdf)),
    });
    expect(leasePdf.filename).toBe('lease-agreement-signed.pdf');

    const text = pdfText(Buffer.from(leasePdf.pdf));
    expect(text).toContain('This lease is between Main Street and Grace Hopper');
    expect(text).toContain('Signed electronically by Grace Hopper');
    expect(text).toContain('Certificate of completion');
    expect(text).toContain(`SHA-256 of the document shown ${sha256(original.rawPayload)}`);
    expect(text).toContain('grace@example.com');
    expect(text).toContain('Consent to sign electronically');

    // The page, its download and the API download all answer the signed copy now.
    const page = await open(token);
    expect(page.statusCode).toBe(200);
    expect(visibleText(page.body)).toContain(
      'You signed 2 documents from Main Street on November 24, 2026 at 10:05 AM EST as Grace Hopper.',
    );
    const viaPage = await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` });
    expect(sha256(viaPage.rawPayload)).toBe(leaseSignature.signed_sha256);
    const viaApi = await t.app.inject({
      method: 'GET',
      url: `/v1/${t.world.facility.id}/documents/${lease.id}`,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    expect(viaApi.statusCode).toBe(200);
    expect(viaApi.headers['content-disposition']).toBe('attachment; filename="lease-agreement-signed.pdf"');
    expect(sha256(viaApi.rawPayload)).toBe(leaseSignature.signed_sha256);
  });

  it('signs once when the form is sent again, and when two submits arrive at once', async () => {
    const first = await sendLink(t, moveIn.id);
    expect((await postForm(t, first.token, goodForm())).statusCode).toBe(303);
    const after = await signingState(t);
    const again = await postForm(t, first.token, goodForm());
    expect(again.statusCode).toBe(409);
    expect(visibleText(again.body)).toContain('These documents are signed already');
    expect(await signingState(t)).toEqual(after);

    await t.db.store.db.deleteFrom('outbox_messages').execute();
    const second = await sendLink(t, moveIn.id);
    const answers = await Promise.all([1, 2, 3].map(() => postForm(t, second.token, goodForm())));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, 409, 409]);
    const signed = await t.db.store.db
      .selectFrom('esign_audit_events')
      .select('document_id')
      .where('kind', '=', 'signed')
      .execute();
    expect(signed.map((s) => s.document_id).sort()).toEqual([lease.id, addendum.id].sort());
  });

  it('does not sign through a second link what the first one signed', async () => {
    const email = await sendLink(t, moveIn.id);
    const sms = await sendLink(t, moveIn.id, { smsNumber: '+15555550100' });
    expect((await postForm(t, email.token, goodForm())).statusCode).toBe(303);
    const before = await signingState(t);
    const res = await postForm(t, sms.token, goodForm());
    expect(res.statusCode).toBe(409);
    expect(await signingState(t)).toEqual(before);
    const page = await open(sms.token);
    expect(visibleText(page.body)).toContain('You signed 2 documents from Main Street');
  });

  describe('bad input: a clear page or a 4xx, nothing written', () => {
    const blank = dataUrl(signaturePng(200, 60, () => false));
    const cases: Array<
      [
        string,
        (token: string) => Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>,
        number,
        string,
      ]
    > = [
      [
        'an empty drawing',
        (token) => postForm(t, token, { ...goodForm(), signature: blank }),
        422,
        'Draw your signature in the box.',
      ],
      [
        'no signature field',
        (token) => postForm(t, token, { ...goodForm(), signature: undefined }),
        422,
        'Draw your signature in the box.',
      ],
      [
        'a blank name',
        (token) => postForm(t, token, { ...goodForm(), name: '   ' }),
        422,
        'Type your full name.',
      ],
      [
        'a name over 200 characters',
        (token) => postForm(t, token, { ...goodForm(), name: 'A'.repeat(201) }),
        422,
        'Your name can be at most 200 characters.',
      ],
      [
        'no consent',
        (token) => postForm(t, token, { ...goodForm(), consent: undefined }),
        422,
        'Tick the box to agree to sign electronically.',
      ],
      [
        'a signature that is not a PNG',
        (token) => postForm(t, token, { ...goodForm(), signature: 'data:image/png;base64,AAAAAAAA' }),
        422,
        'The drawing could not be read.',
      ],
      [
        'a signature of another type',
        (token) => postForm(t, token, { ...goodForm(), signature: 'data:image/svg+xml;base64,PHN2Zz4=' }),
        422,
        'The drawing could not be read.',
      ],
      [
        'a JSON body',
        (token) =>
          t.app.inject({
            method: 'POST',
            url: `/sign/${token}`,
            headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
            payload: JSON.stringify(goodForm()),
          }),
        415,
        'We could not read what was sent',
      ],
      [
        'a text body',
        (token) =>
          t.app.inject({
            method: 'POST',
            url: `/sign/${token}`,
            headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin' },
            payload: 'name=Grace',
          }),
        415,
        'We could not read what was sent',
      ],
      [
        'nested fields',
        (token) => postForm(t, token, 'name[first]=Grace&consent=yes&signature=x'),
        400,
        'We could not read what was sent',
      ],
      [
        'none of the fields',
        (token) => postForm(t, token, 'hello=world'),
        400,
        'We could not read what was sent',
      ],
      [
        'a malformed body',
        (token) => postForm(t, token, 'name=%E0%A4%A&signature=%'),
        422,
        'The drawing could not be read.',
      ],
      [
        'a NUL in the name',
        (token) => postForm(t, token, { ...goodForm(), name: 'Grace\u0000Hopper' }),
        400,
        'We could not read what was sent',
      ],
      [
        'a body over the limit',
        (token) =>
          postForm(t, token, { ...goodForm(), signature: `data:image/png;base64,${'A'.repeat(700_000)}` }),
        413,
        'What was sent is too large',
      ],
      [
        'a submission from another site',
        (token) => postForm(t, token, goodForm(), { 'sec-fetch-site': 'cross-site' }),
        403,
        'This form can only be sent from its signing page',
      ],
      [
        'a submission with a foreign Origin',
        (token) => postForm(t, token, goodForm(), { 'sec-fetch-site': '', origin: 'https://evil.example' }),
        403,
        'This form can only be sent from its signing page',
      ],
    ];

    it.each(cases)('%s', async (_name, send, status, message) => {
      const { token } = await sendLink(t, moveIn.id);
      await open(token);
      const before = await signingState(t);
      const res = await send(token);
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(visibleText(res.body)).toContain(message);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(await signingState(t)).toEqual(before);
    });

    it('keeps what was typed and points at each problem', async () => {
      const { token } = await sendLink(t, moveIn.id);
      const res = await postForm(t, token, { name: 'Grace Hopper', signature: blank });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('value="Grace Hopper"');
      expect(res.body).toContain('<a href="#consent">Tick the box to agree to sign electronically.</a>');
      expect(res.body).toContain('<a href="#type-signature">Draw your signature in the box.</a>');
      expect(res.body).toContain('role="alert"');
    });

    it('takes a name of exactly 200 characters', async () => {
      const { token } = await sendLink(t, moveIn.id);
      expect((await postForm(t, token, { ...goodForm(), name: 'B'.repeat(200) })).statusCode).toBe(303);
    });
  });

  describe('links that cannot be used', () => {
    it('shows a forged or mangled link a page saying what to do', async () => {
      await sendLink(t, moveIn.id);
      for (const token of [randomBytes(32).toString('base64url'), 'short', 'x'.repeat(300), '%27%3B--']) {
        const before = await signingState(t);
        const res = await open(token);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        const text = visibleText(res.body);
        expect(text).toContain('This signing link does not work');
        expect(text).toContain('contact the facility that sent it');
        expect((await postForm(t, token, goodForm())).statusCode).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` })).statusCode,
        ).toBe(404);
        expect(await signingState(t)).toEqual(before);
      }
    });

    it('shows an expired link as expired, and signs nothing through it', async () => {
      const { token } = await sendLink(t, moveIn.id);
      t.clock.advance(336 * HOUR - 1);
      expect((await open(token)).statusCode).toBe(200);
      t.clock.advance(1);
      const before = await signingState(t);
      const res = await open(token);
      expect(res.statusCode).toBe(410);
      const text = visibleText(res.body);
      expect(text).toContain('This signing link has expired');
      expect(text).toContain('Contact Main Street and ask them to send you a new link.');
      const post = await postForm(t, token, goodForm());
      expect(post.statusCode).toBe(410);
      expect(
        (await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` })).statusCode,
      ).toBe(410);
      expect(await signingState(t)).toEqual(before);
    });

    it('shows a revoked link as withdrawn', async () => {
      const { message, token } = await sendLink(t, moveIn.id);
      const facility = await t.services.facilities.facilityFor(
        { clientId: t.world.client.id, companyId: t.world.company.id, name: 'desk' },
        t.world.facility.id,
      );
      await t.services.esign.revokeLink(facility, message.id);
      const before = await signingState(t);
      const res = await open(token);
      expect(res.statusCode).toBe(410);
      expect(visibleText(res.body)).toContain('Main Street withdrew this link');
      expect((await postForm(t, token, goodForm())).statusCode).toBe(410);
      expect(await signingState(t)).toEqual(before);
    });

    it('refuses a link whose documents were replaced after it was sent', async () => {
      const { token } = await sendLink(t, moveIn.id);
      await open(token);
      await t.load({ event_documents: [{ ...lease, body: 'A different lease altogether.' }] });
      try {
        const before = await signingState(t);
        const res = await open(token);
        expect(res.statusCode).toBe(409);
        expect(visibleText(res.body)).toContain(
          'Main Street changed the documents after sending you this link',
        );
        const post = await postForm(t, token, goodForm());
        expect(post.statusCode).toBe(409);
        expect(
          (await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` })).statusCode,
        ).toBe(409);
        expect(await signingState(t)).toEqual(before);
        // A new message offers the documents as they are now.
        const fresh = await sendLink(t, moveIn.id);
        expect((await open(fresh.token)).statusCode).toBe(200);
      } finally {
        await t.load({ event_documents: [lease] });
      }
    });

    it("does not open another facility's documents through a link", async () => {
      const { token } = await sendLink(t, sisterEvent.id, { email: 'ada@example.com' }, sister.id);
      const page = await open(token);
      expect(visibleText(page.body)).toContain('Sister Site');
      const res = await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` });
      expect(res.statusCode).toBe(404);
    });
  });
});

describeEachDialect('the signing pages in the log', (dialect) => {
  it('never write a token: request lines show /sign/[token]', async () => {
    const logLines: string[] = [];
    const t = await createTestApp(dialect, { logLines });
    try {
      const event = buildEvent({ facility_id: t.world.facility.id });
      await t.load({ events: [event], event_documents: [buildDocument({ event_id: event.id })] });
      const { token } = await sendLink(t, event.id);
      await t.app.inject({ method: 'GET', url: `/sign/${token}` });
      await t.app.inject({ method: 'GET', url: `/s/${token}` });
      await t.app.inject({ method: 'GET', url: `/sign/${token}/nothing/here` });
      await t.app.inject({ method: 'PUT', url: `/sign/${token}` });
      await postForm(t, token, 'name=%zz');
      await postForm(t, token, goodForm());
      const log = logLines.join('');
      expect(log).toContain('/sign/[token]');
      expect(log).toContain('/s/[token]');
      expect(log).not.toContain(token);
    } finally {
      await t.close();
    }
  });
});
