import { randomUUID } from 'node:crypto';
import { buildLedger, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDialect('POST /v1/:facility_id/notes', (dialect) => {
  let t: TestApp;
  let url: string;
  let tenantId: string;
  let unitId: string;
  let ledgerId: string;
  let otherTenantId: string;
  let otherUnitId: string;
  let foreignTenantId: string;
  let foreignLedgerId: string;

  // Summer time in New York: the facility writes instants at -04:00.
  const at = new Date('2026-07-04T16:30:00Z');

  const counts = async () => {
    const db = t.db.store.db;
    const events = await db
      .selectFrom('note_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const notes = await db
      .selectFrom('notes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { events: Number(events.n), notes: Number(notes.n) };
  };

  const storedEvent = (id: string) =>
    t.db.store.db.selectFrom('note_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    url = `/v1/${facility.id}/notes`;
    const tenant = buildTenant({ facility_id: facility.id });
    const otherTenant = buildTenant({ facility_id: facility.id, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facility.id });
    const otherUnit = buildUnit({ facility_id: facility.id, name: 'B-202' });
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    const foreignTenant = buildTenant({ facility_id: otherFacility.id });
    const foreignUnit = buildUnit({ facility_id: otherFacility.id });
    const foreignLedger = buildLedger({
      facility_id: otherFacility.id,
      tenant_id: foreignTenant.id,
      unit_id: foreignUnit.id,
    });
    await t.load({
      tenants: [tenant, otherTenant, foreignTenant],
      units: [unit, otherUnit, foreignUnit],
      ledgers: [ledger, foreignLedger],
    });
    tenantId = tenant.id;
    unitId = unit.id;
    ledgerId = ledger.id;
    otherTenantId = otherTenant.id;
    otherUnitId = otherUnit.id;
    foreignTenantId = foreignTenant.id;
    foreignLedgerId = foreignLedger.id;
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(at));

  it('creates a note on a tenant and answers the note event of 2.5', async () => {
    const before = await counts();
    const note = { note_text: '  Prefers calls after 5pm.  ', tenant_id: tenantId };
    const res = await t.postJson(url, { note }, { 'x-request-id': 'note-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['note_event', 'meta']);
    const event = body.note_event;
    expect(event).toEqual({
      id: expect.stringMatching(UUID),
      notes: [
        {
          id: expect.stringMatching(UUID),
          note: 'Prefers calls after 5pm.',
          created_at: '2026-07-04T12:30:00-04:00',
        },
      ],
      created_by: { id: t.world.client.id, name: 'Front Desk', type: 'ClientApplication' },
      unit_id: null,
      tenant_id: tenantId,
    });
    expect(Object.keys(event)).toEqual(['id', 'notes', 'created_by', 'unit_id', 'tenant_id']);
    expect(body.meta).toEqual({
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'POST',
      request_id: 'note-1',
      parameters: { note, facility_id: t.world.facility.id },
    });
    expect(await counts()).toEqual({ events: before.events + 1, notes: before.notes + 1 });
    expect(await storedEvent(event.id)).toMatchObject({
      facility_id: t.world.facility.id,
      tenant_id: tenantId,
      unit_id: null,
      ledger_id: null,
      user_id: null,
      created_by_client_id: t.world.client.id,
      created_at: '2026-07-04T16:30:00.000Z',
    });
  });

  it('fills in the unit and tenant of a ledger and stores a top-level user_id', async () => {
    const userId = randomUUID();
    const res = await t.postJson(url, {
      note: { note_text: 'Gate code reset', ledger_id: ledgerId },
      user_id: userId,
    });
    expect(res.statusCode).toBe(200);
    const event = res.json().note_event;
    expect(event).toMatchObject({ unit_id: unitId, tenant_id: tenantId });
    expect(res.json().meta.parameters).toEqual({
      note: { note_text: 'Gate code reset', ledger_id: ledgerId },
      user_id: userId,
      facility_id: t.world.facility.id,
    });
    expect(await storedEvent(event.id)).toMatchObject({ ledger_id: ledgerId, user_id: userId });
  });

  it('accepts user_id inside note, and the same user_id in both places', async () => {
    const inside = await t.postJson(url, { note: { note_text: 'x', unit_id: unitId, user_id: 'clerk-7' } });
    expect(inside.statusCode).toBe(200);
    expect(await storedEvent(inside.json().note_event.id)).toMatchObject({
      user_id: 'clerk-7',
      unit_id: unitId,
    });
    const both = await t.postJson(url, {
      note: { note_text: 'y', unit_id: unitId, user_id: 42 },
      user_id: 42,
    });
    expect(both.statusCode).toBe(200);
    expect(await storedEvent(both.json().note_event.id)).toMatchObject({ user_id: '42' });
  });

  it('accepts a ledger with the same tenant_id and unit_id, and upper-case ids', async () => {
    const res = await t.postJson(url, {
      note: {
        note_text: 'All three',
        ledger_id: ledgerId.toUpperCase(),
        tenant_id: tenantId.toUpperCase(),
        unit_id: unitId,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().note_event).toMatchObject({ unit_id: unitId, tenant_id: tenantId });
    expect(await storedEvent(res.json().note_event.id)).toMatchObject({ ledger_id: ledgerId });
  });

  it('accepts a tenant and a unit together without a ledger', async () => {
    const res = await t.postJson(url, {
      note: { note_text: 'Both', tenant_id: otherTenantId, unit_id: otherUnitId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().note_event).toMatchObject({ unit_id: otherUnitId, tenant_id: otherTenantId });
  });

  it('stores quotes, SQL fragments and 10,000 characters after trimming verbatim', async () => {
    const sqlish = `Robert'); DROP TABLE notes; -- "quoted" \\ back`;
    const res = await t.postJson(url, { note: { note_text: sqlish, tenant_id: tenantId } });
    expect(res.statusCode).toBe(200);
    expect(res.json().note_event.notes[0].note).toBe(sqlish);
    const longest = 'é'.repeat(10_000);
    const long = await t.postJson(url, { note: { note_text: `\n ${longest} \t`, tenant_id: tenantId } });
    expect(long.statusCode).toBe(200);
    const stored = await t.db.store.db
      .selectFrom('notes')
      .select('note')
      .where('id', '=', long.json().note_event.notes[0].id)
      .executeTakeFirstOrThrow();
    expect(stored.note).toBe(longest);
  });

  it('accepts a Rails-style form-encoded body signed with OAuth 1.0 over the form parameters', async () => {
    t.clock.set(new Date());
    const data = {
      'note[note_text]': 'Paid in cash & left a key',
      'note[ledger_id]': ledgerId,
      user_id: 'desk-3',
    };
    const payload = new URLSearchParams(data).toString();
    const signed = oauthHeader(t.world.client, { method: 'POST', url, data });
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: signed, 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().note_event).toMatchObject({
      notes: [{ note: 'Paid in cash & left a key' }],
      unit_id: unitId,
      tenant_id: tenantId,
    });
    expect(res.json().meta.parameters).toEqual({
      note: { note_text: 'Paid in cash & left a key', ledger_id: ledgerId },
      user_id: 'desk-3',
      facility_id: t.world.facility.id,
    });

    // The signature covers the form parameters: a changed body no longer matches, and writes nothing.
    const before = await counts();
    const resigned = oauthHeader(t.world.client, { method: 'POST', url, data });
    const tampered = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: resigned, 'content-type': 'application/x-www-form-urlencoded' },
      payload: payload.replace('cash', 'card'),
    });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().meta.error_code).toBe(2);
    expect(await counts()).toEqual(before);
  });

  const longId = 'x'.repeat(10_000);
  it.each<[string, unknown, string]>([
    ['no body keys', {}, 'note'],
    ['note as a string', { note: 'hello' }, 'note'],
    ['note as a list', { note: ['hello'] }, 'note'],
    ['note null', { note: null }, 'note'],
    ['note_text missing', { note: { tenant_id: 'TENANT' } }, 'note.note_text'],
    ['note_text null', { note: { note_text: null, tenant_id: 'TENANT' } }, 'note.note_text'],
    ['note_text blank', { note: { note_text: ' \n\t ', tenant_id: 'TENANT' } }, 'note.note_text'],
    ['note_text a number', { note: { note_text: 12, tenant_id: 'TENANT' } }, 'note.note_text'],
    ['note_text an object', { note: { note_text: { a: 1 }, tenant_id: 'TENANT' } }, 'note.note_text'],
    [
      'note_text of 10,001 characters',
      { note: { note_text: 'a'.repeat(10_001), tenant_id: 'TENANT' } },
      'note.note_text',
    ],
    ['no tenant, unit or ledger', { note: { note_text: 'orphan' } }, 'note'],
    ['only blank ids', { note: { note_text: 'orphan', tenant_id: '', unit_id: null } }, 'note'],
    ['a malformed tenant_id', { note: { note_text: 'x', tenant_id: 'tenant-1' } }, 'note.tenant_id'],
    [
      'an SQL fragment as tenant_id',
      { note: { note_text: 'x', tenant_id: "1' OR '1'='1" } },
      'note.tenant_id',
    ],
    ['a 10,000-character tenant_id', { note: { note_text: 'x', tenant_id: longId } }, 'note.tenant_id'],
    ['a numeric unit_id', { note: { note_text: 'x', unit_id: 12 } }, 'note.unit_id'],
    ['a ledger_id hash', { note: { note_text: 'x', ledger_id: { id: 'LEDGER' } } }, 'note.ledger_id'],
    ['a malformed ledger_id', { note: { note_text: 'x', ledger_id: 'ledger"; --' } }, 'note.ledger_id'],
    ['a user_id hash', { note: { note_text: 'x', tenant_id: 'TENANT' }, user_id: { id: 1 } }, 'user_id'],
    [
      'a 300-character user_id',
      { note: { note_text: 'x', tenant_id: 'TENANT' }, user_id: 'u'.repeat(300) },
      'user_id',
    ],
    ['a fractional user_id', { note: { note_text: 'x', tenant_id: 'TENANT' }, user_id: 1.5 }, 'user_id'],
    ['a list as body', ['note'], 'body'],
  ])('answers 400/4 naming the parameter and writes nothing for %s', async (_label, rawBody, parameter) => {
    const body = JSON.parse(JSON.stringify(rawBody).replaceAll('TENANT', tenantId));
    const before = await counts();
    const res = await t.postJson(url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ status_code: 400, error_code: 4 });
    expect(res.json().meta.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    expect(res.json().meta.message).toContain(parameter);
    expect(await counts()).toEqual(before);
  });

  it('answers 400/4 naming body for malformed JSON and for no body, writing nothing', async () => {
    const before = await counts();
    const malformed = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}`, 'content-type': 'application/json' },
      payload: '{"note": {"note_text": "x",',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'body' }] });
    const empty = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'body' }] });
    expect(await counts()).toEqual(before);
  });

  it('answers 400/4 for a bad form-encoded body, writing nothing', async () => {
    const before = await counts();
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${t.world.client.bearer_token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `note[note_text]=&note[tenant_id]=${tenantId}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'note.note_text' }] });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['tenant_id differs', () => ({ ledger_id: ledgerId, tenant_id: otherTenantId }), ['note.tenant_id']],
    ['unit_id differs', () => ({ ledger_id: ledgerId, unit_id: otherUnitId }), ['note.unit_id']],
    [
      'both differ',
      () => ({ ledger_id: ledgerId, tenant_id: otherTenantId, unit_id: otherUnitId }),
      ['note.tenant_id', 'note.unit_id'],
    ],
  ])("answers 400/5 when the ledger's %s, writing nothing", async (_label, ids, parameters) => {
    const before = await counts();
    const res = await t.postJson(url, { note: { note_text: 'conflict', ...ids() } });
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ status_code: 400, error_code: 5 });
    expect(res.json().meta.errors.map((e: { parameter: string }) => e.parameter)).toEqual(parameters);
    expect(await counts()).toEqual(before);
  });

  it('answers 400/5 when user_id and note.user_id differ, writing nothing', async () => {
    const before = await counts();
    const res = await t.postJson(url, {
      note: { note_text: 'x', tenant_id: tenantId, user_id: 'a' },
      user_id: 'b',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().meta.error_code).toBe(5);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['an unknown tenant', () => ({ tenant_id: randomUUID() }), 'note.tenant_id'],
    ['a tenant of another facility', () => ({ tenant_id: foreignTenantId }), 'note.tenant_id'],
    ['an unknown unit', () => ({ unit_id: randomUUID() }), 'note.unit_id'],
    ['an unknown ledger', () => ({ ledger_id: randomUUID() }), 'note.ledger_id'],
    ['a ledger of another facility', () => ({ ledger_id: foreignLedgerId }), 'note.ledger_id'],
    [
      'an unknown tenant next to a ledger',
      () => ({ ledger_id: ledgerId, tenant_id: randomUUID() }),
      'note.tenant_id',
    ],
  ])('answers 404/9 naming the id for %s, writing nothing', async (_label, ids, parameter) => {
    const before = await counts();
    const res = await t.postJson(url, { note: { note_text: 'lost', ...ids() } });
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ status_code: 404, error_code: 9, errors: [{ parameter }] });
    expect(await counts()).toEqual(before);
  });

  it('answers 401/2 without credentials or with an unknown token, writing nothing', async () => {
    const before = await counts();
    const payload = JSON.stringify({ note: { note_text: 'x', tenant_id: tenantId } });
    const none = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(none.statusCode).toBe(401);
    expect(none.json().meta).toMatchObject({ status_code: 401, error_code: 2 });
    const unknown = await t.postJson(url, JSON.parse(payload), { authorization: `Bearer ${'z'.repeat(40)}` });
    expect(unknown.statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('answers 403/13 for a facility of another company, writing nothing', async () => {
    const before = await counts();
    const res = await t.postJson(`/v1/${t.world.otherFacility.id}/notes`, {
      note: { note_text: 'x', tenant_id: foreignTenantId },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().meta.error_code).toBe(13);
    expect(await counts()).toEqual(before);
  });

  it('answers 404/9 naming facility_id for an unknown facility', async () => {
    const res = await t.postJson(`/v1/${randomUUID()}/notes`, {
      note: { note_text: 'x', tenant_id: tenantId },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
  });

  it('answers 405 for GET on the notes path', async () => {
    const res = await t.get(url);
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describeEachDialect('notes service batch lookups', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('reads note events back by tenant, unit, ledger and id, in key order, oldest first', async () => {
    const { facility } = t.world;
    const tenant = buildTenant({ facility_id: facility.id });
    const unit = buildUnit({ facility_id: facility.id });
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    await t.load({ tenants: [tenant], units: [unit], ledgers: [ledger] });
    const caller = { clientId: t.world.client.id, companyId: t.world.company.id, name: t.world.client.name };
    const facilityDomain = await t.services.facilities.facilityFor(caller, facility.id);
    t.clock.set(new Date('2026-11-01T10:00:00Z'));
    const onLedger = await t.services.notes.createNote(facilityDomain, caller, {
      noteText: 'first',
      ledgerId: ledger.id,
    });
    t.clock.set(new Date('2026-11-02T10:00:00Z'));
    const onTenant = await t.services.notes.createNote(facilityDomain, caller, {
      noteText: 'second',
      tenantId: tenant.id,
      userId: 'u-1',
    });
    const missing = randomUUID();

    const byTenant = await t.services.notes.notesByTenantIds([missing, tenant.id]);
    expect(byTenant[0]).toEqual([]);
    expect(byTenant[1].map((e) => e.id)).toEqual([onLedger.id, onTenant.id]);
    expect(byTenant[1][1]).toEqual({
      id: onTenant.id,
      facilityId: facility.id,
      tenantId: tenant.id,
      unitId: null,
      ledgerId: null,
      userId: 'u-1',
      createdBy: { id: t.world.client.id, name: t.world.client.name, type: 'ClientApplication' },
      createdAt: '2026-11-02T10:00:00.000Z',
      notes: [
        {
          id: onTenant.notes[0].id,
          noteEventId: onTenant.id,
          note: 'second',
          createdAt: '2026-11-02T10:00:00.000Z',
        },
      ],
    });

    const byUnit = await t.services.notes.notesByUnitIds([unit.id, 'not-a-uuid']);
    expect(byUnit.map((list) => list.map((e) => e.id))).toEqual([[onLedger.id], []]);
    const byLedger = await t.services.notes.notesByLedgerIds([ledger.id.toUpperCase()]);
    expect(byLedger[0].map((e) => e.notes[0].note)).toEqual(['first']);
    const byIds = await t.services.notes.noteEventsByIds([onTenant.id, missing, onLedger.id]);
    expect(byIds.map((e) => e?.id ?? null)).toEqual([onTenant.id, null, onLedger.id]);
  });
});
