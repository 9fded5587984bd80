import { randomUUID } from 'node:crypto';
import type { CreateNoteMutation, CreateNoteMutationVariables } from '../../generated/graphql';
import { buildLedger, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';
import { camelize } from '../../graphql/rest-compare';

const CreateNote = operation<CreateNoteMutation, CreateNoteMutationVariables>('notes.graphql', 'CreateNote');
type NoteInput = CreateNoteMutationVariables['input'];

describeEachDialect('GraphQL createNote', (dialect) => {
  let t: TestApp;
  const ids = { tenant: '', otherTenant: '', unit: '', ledger: '', foreignTenant: '', foreignLedger: '' };

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

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    const tenant = buildTenant({ facility_id: facility.id });
    const otherTenant = buildTenant({ facility_id: facility.id, first_name: 'Grace' });
    const unit = buildUnit({ facility_id: facility.id });
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
      units: [unit, foreignUnit],
      ledgers: [ledger, foreignLedger],
    });
    Object.assign(ids, {
      tenant: tenant.id,
      otherTenant: otherTenant.id,
      unit: unit.id,
      ledger: ledger.id,
      foreignTenant: foreignTenant.id,
      foreignLedger: foreignLedger.id,
    });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(at));

  const create = (input: NoteInput, facilityId = t.world.facility.id) =>
    run(t, CreateNote, { facilityId, input });

  it('creates the note REST creates for the same input, and answers its note event', async () => {
    const input = { noteText: '  Prefers calls after 5pm.  ', ledgerId: ids.ledger, userId: 'u-42' };
    const res = await create(input);
    expect(res.errors).toBeUndefined();
    const created = res.data?.createNote;
    const rest = await t.postJson(`/v1/${t.world.facility.id}/notes`, {
      note: { note_text: input.noteText, ledger_id: input.ledgerId, user_id: input.userId },
    });
    const restEvent = rest.json().note_event;
    // Everything REST writes is there in camelCase; only the new ids differ.
    const withIdsOf = (event: typeof restEvent) => ({
      ...(camelize(event) as object),
      id: created?.id,
      notes: [{ ...(camelize(event.notes[0]) as object), id: created?.notes[0].id }],
    });
    expect(created).toMatchObject(withIdsOf(restEvent));
    expect(created).toEqual({
      id: expect.any(String),
      notes: [
        { id: expect.any(String), note: 'Prefers calls after 5pm.', createdAt: '2026-07-04T12:30:00-04:00' },
      ],
      createdBy: { id: t.world.client.id, name: t.world.client.name, type: 'ClientApplication' },
      unitId: ids.unit,
      tenantId: ids.tenant,
      ledgerId: ids.ledger,
      userId: 'u-42',
      createdAt: '2026-07-04T12:30:00-04:00',
      // REST's note came later: the tenant had this one only when the mutation answered.
      tenant: { id: ids.tenant, notes: [{ id: created?.id }] },
      unit: { id: ids.unit },
      ledger: { id: ids.ledger },
    });
    const stored = await t.db.store.db
      .selectFrom('note_events')
      .selectAll()
      .where('id', '=', created?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      user_id: 'u-42',
      ledger_id: ids.ledger,
      created_by_client_id: t.world.client.id,
    });
  });

  it('reads a created note back through the tenant in the next query', async () => {
    const res = await create({ noteText: 'Second', tenantId: ids.otherTenant });
    t.clock.advance(1000);
    const again = await create({ noteText: 'Third', tenantId: ids.otherTenant });
    expect(again.data?.createNote.tenant?.notes.map((n) => n.id)).toEqual([
      res.data?.createNote.id,
      again.data?.createNote.id,
    ]);
  });

  it.each<[string, NoteInput, string, string, string]>([
    [
      'blank note text',
      { noteText: '   ', tenantId: randomUUID() },
      'BAD_USER_INPUT',
      'input.noteText',
      'input.noteText must not be blank',
    ],
    [
      'too long a note text',
      { noteText: 'x'.repeat(10_001), tenantId: randomUUID() },
      'BAD_USER_INPUT',
      'input.noteText',
      'input.noteText must be at most 10000 characters',
    ],
    [
      'no record to attach to',
      { noteText: 'Hi' },
      'BAD_USER_INPUT',
      'input',
      'input must name at least one of tenantId, unitId or ledgerId',
    ],
    [
      'too long a user id',
      { noteText: 'Hi', tenantId: randomUUID(), userId: 'u'.repeat(256) },
      'BAD_USER_INPUT',
      'input.userId',
      'input.userId must be at most 255 characters',
    ],
  ])(
    'answers %s with %s naming the field, and writes nothing',
    async (_label, input, code, parameter, message) => {
      const before = await counts();
      const res = await create(input);
      expect(res.data).toBeNull();
      expect(res.errors).toEqual([
        expect.objectContaining({
          message,
          path: ['createNote'],
          extensions: expect.objectContaining({ code, errorCode: 4, parameter }),
        }),
      ]);
      expect(await counts()).toEqual(before);
    },
  );

  it('answers NOT_FOUND naming input.tenantId for a tenant of another facility, and writes nothing', async () => {
    const before = await counts();
    const res = await create({ noteText: 'Hi', tenantId: ids.foreignTenant });
    expect(res.errors?.[0]).toMatchObject({
      message: `input.tenantId: no tenant ${ids.foreignTenant}`,
      extensions: { code: 'NOT_FOUND', errorCode: 9, parameter: 'input.tenantId' },
    });
    const ledger = await create({ noteText: 'Hi', ledgerId: ids.foreignLedger });
    expect(ledger.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', parameter: 'input.ledgerId' });
    expect(await counts()).toEqual(before);
  });

  it("answers CONFLICT (REST 400/5) when tenantId is not the ledger's tenant", async () => {
    const before = await counts();
    const res = await create({ noteText: 'Hi', ledgerId: ids.ledger, tenantId: ids.otherTenant });
    expect(res.errors?.[0]).toMatchObject({
      message: "input.tenantId differs from the ledger's tenant",
      extensions: {
        code: 'CONFLICT',
        errorCode: 5,
        parameter: 'input.tenantId',
        problems: [{ parameter: 'input.tenantId', message: "differs from the ledger's tenant" }],
      },
    });
    expect(await counts()).toEqual(before);
  });

  it('answers FORBIDDEN for a facility of another company, NOT_FOUND for an unknown one', async () => {
    const before = await counts();
    const forbidden = await create({ noteText: 'Hi', tenantId: ids.foreignTenant }, t.world.otherFacility.id);
    expect(codesOf(forbidden)).toEqual(['FORBIDDEN']);
    const unknown = await create({ noteText: 'Hi', tenantId: ids.tenant }, randomUUID());
    expect(unknown.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', parameter: 'facilityId' });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['a malformed tenant id', { input: { noteText: 'Hi', tenantId: 'nope' } }, 'input'],
    ['a missing note text', { input: { tenantId: randomUUID() } }, 'input'],
    ['a number as note text', { input: { noteText: 42, tenantId: randomUUID() } }, 'input'],
    ['a malformed facility id', { facilityId: "'; drop table notes; --" }, 'facilityId'],
  ])('refuses %s in the variables with BAD_USER_INPUT, writing nothing', async (_label, change, variable) => {
    const before = await counts();
    const variables = {
      facilityId: t.world.facility.id,
      input: { noteText: 'Hi', tenantId: ids.tenant },
      ...change,
    };
    const res = await postGraphql(
      t.app,
      { query: CreateNote.document, variables },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors?.[0].message).toContain(`Variable "$${variable}" got invalid value`);
    expect(await counts()).toEqual(before);
  });
});
