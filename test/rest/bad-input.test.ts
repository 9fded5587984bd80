import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';

describeEachDialect('bad input at the HTTP edge', (dialect) => {
  let t: TestApp;
  let notesUrl: string;
  let tenantId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    notesUrl = `/v1/${t.world.facility.id}/notes`;
    tenantId = '0c8f6a0e-8a43-4f55-9e7c-2f4d7f3f8a11';
    await t.load({
      tenants: [{ id: tenantId, facility_id: t.world.facility.id, first_name: 'Ada', last_name: 'Lovelace' }],
    });
  });
  afterAll(() => t.close());

  const post = (payload: string | Buffer, contentType: string | undefined) =>
    t.app.inject({
      method: 'POST',
      url: notesUrl,
      headers: {
        authorization: `Bearer ${t.world.client.bearer_token}`,
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      payload,
    });

  const noteCount = async () =>
    Number(
      (
        await t.db.store.db
          .selectFrom('note_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.each([
    ['malformed JSON', '{"note": {"note_text": "hi"', 'application/json'],
    ['an empty JSON body', '', 'application/json'],
    ['a JSON array', '[1,2,3]', 'application/json'],
    ['a JSON string', '"note"', 'application/json'],
    [
      'a prototype-poisoning body',
      '{"__proto__": {"admin": true}, "note": {"note_text": "x"}}',
      'application/json',
    ],
  ])('answers 400/4 for %s and writes nothing', async (_label, payload, type) => {
    const before = await noteCount();
    const res = await post(payload, type);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ status_code: 400, error_code: 4 });
    expect(res.json().meta.message.length).toBeGreaterThan(0);
    expect(await noteCount()).toBe(before);
  });

  it('tells a body refused for a __proto__ key from malformed JSON', async () => {
    for (const payload of [
      '{"__proto__": {"admin": true}, "note": {"note_text": "x"}}',
      '{"note": {"constructor": {"prototype": {"admin": true}}, "note_text": "x"}}',
    ]) {
      const res = await post(payload, 'application/json');
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        error_code: 4,
        message: 'body must not hold a "__proto__" or "constructor.prototype" key',
        errors: [
          { parameter: 'body', message: 'must not hold a "__proto__" or "constructor.prototype" key' },
        ],
      });
    }
    const malformed = await post('{"__proto__": {"admin": true}', 'application/json');
    expect(malformed.json().meta.message).toBe('body is not valid JSON');
  });

  it('answers 415 in the envelope for a content type it does not read', async () => {
    const res = await post('<note>hi</note>', 'application/xml');
    expect(res.statusCode).toBe(415);
    expect(res.json().meta).toMatchObject({
      status_code: 415,
      error_code: 4,
      errors: [{ parameter: 'Content-Type' }],
    });
  });

  it('answers 413 in the envelope for a body over 1 MiB', async () => {
    const huge = JSON.stringify({ note: { note_text: 'x'.repeat(1024 * 1024 + 10), tenant_id: tenantId } });
    const before = await noteCount();
    const res = await post(huge, 'application/json');
    expect(res.statusCode).toBe(413);
    expect(res.json().meta).toMatchObject({ status_code: 413, error_code: null });
    expect(await noteCount()).toBe(before);
  });

  it('replaces a request id that is not 1-128 safe characters with a fresh UUID', async () => {
    for (const given of ['x'.repeat(129), 'has space', 'quote"s', '']) {
      const res = await t.get(`/v1/${t.world.facility.id}/flippers`, { 'x-request-id': given });
      expect(res.json().meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-request-id']).toBe(res.json().meta.request_id);
    }
  });

  it('echoes card and account values as [FILTERED] on any route, in the query or the body, at any depth', async () => {
    const card = '4111111111111111';
    const query = `card_number=${card}&extra[account_number]=000123456789&list[][security_code]=987`;
    const got = await t.get(`/v1/${t.world.facility.id}/flippers?${query}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().meta.parameters).toEqual({
      card_number: '[FILTERED]',
      extra: { account_number: '[FILTERED]' },
      list: [{ security_code: '[FILTERED]' }],
      facility_id: t.world.facility.id,
    });
    const posted = await post(
      JSON.stringify({
        note: { note_text: 'x', tenant_id: tenantId },
        magnetic_track: `%B${card}^A/B^2912?`,
      }),
      'application/json',
    );
    expect(posted.statusCode).toBe(200);
    expect(posted.json().meta.parameters.magnetic_track).toBe('[FILTERED]');
    for (const res of [got, posted]) {
      expect(res.body).not.toContain(card);
      expect(res.body).not.toContain('000123456789');
    }
  });

  it('keeps the envelope for quotes and SQL in the path and query, and stays healthy', async () => {
    const injected = "x'; DROP TABLE flippers; --";
    const flag = await t.get(`/v1/${t.world.facility.id}/flippers/${encodeURIComponent(injected)}`);
    expect(flag.statusCode).toBe(200);
    expect(flag.json()[injected]).toBe(false);
    const probes = [
      `/v1/${t.world.facility.id}/rate_applied_actions?start_date=${encodeURIComponent("2026-01-01' OR '1'='1")}`,
      `/v1/${encodeURIComponent('" OR 1=1 --')}/flippers`,
      `/v1/${t.world.facility.id}/invoiceable_items?page=${encodeURIComponent('1; DELETE FROM invoiceable_items')}`,
      `/v1/${t.world.facility.id}/flippers?a[b][c][d][e][f][g][h][i][j]=1`,
      `/v1/${'y'.repeat(5000)}/flippers`,
    ];
    for (const url of probes) {
      const res = await t.get(url);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().meta.status_code).toBe(res.statusCode);
    }
    const health = await t.get(`/v1/${t.world.facility.id}/flippers`);
    expect(health.statusCode).toBe(200);
  });
});
