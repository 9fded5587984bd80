import { randomUUID } from 'node:crypto';
import { buildDocument, buildEvent, buildTenant, buildUnit } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { postGraphql } from './graphql-client';

interface Connection {
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount: number;
}

const CONNECTION =
  'edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount';

/**
 * The connections over the other page lists: each walked by 7 both ways gives its page list's
 * items in order, on lists read by a keyset query (events, outbox messages) and on lists loaded
 * whole through a loader (an event's documents, the notes of a tenant or unit).
 */
describeEachDialect('GraphQL connections of the other lists', (dialect) => {
  let t: TestApp;
  const events = Array.from({ length: 23 }, (_, n) => ({ id: randomUUID(), n }));
  const tenant = { id: randomUUID() };
  const unit = { id: randomUUID() };

  async function ask<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await postGraphql<T>(
      t.app,
      { query, variables },
      { bearer: t.world.client.bearer_token },
    );
    expect(response.errors).toBeUndefined();
    return response.data!;
  }

  /** Walks a connection by `size`, forward or backward, to its end; the ids in list order. */
  async function walk(
    read: (slice: string) => Promise<Connection>,
    direction: 'forward' | 'backward',
    size = 7,
  ): Promise<{ ids: string[]; totals: Set<number> }> {
    const ids: string[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    for (let step = 0; step < 100; step++) {
      const position =
        cursor === null ? '' : `, ${direction === 'forward' ? 'after' : 'before'}: "${cursor}"`;
      const connection = await read(`${direction === 'forward' ? 'first' : 'last'}: ${size}${position}`);
      totals.add(connection.totalCount);
      const met = connection.edges.map((edge) => edge.node.id);
      if (direction === 'forward') ids.push(...met);
      else ids.unshift(...met);
      const more =
        direction === 'forward' ? connection.pageInfo.hasNextPage : connection.pageInfo.hasPreviousPage;
      if (!more) return { ids, totals };
      cursor = direction === 'forward' ? connection.pageInfo.endCursor : connection.pageInfo.startCursor;
    }
    throw new Error('the walk did not end');
  }

  async function expectWalks(read: (slice: string) => Promise<Connection>, listed: string[]) {
    expect(listed.length).toBeGreaterThan(7);
    const forward = await walk(read, 'forward');
    expect(forward.ids).toEqual(listed);
    expect([...forward.totals]).toEqual([listed.length]);
    expect((await walk(read, 'backward')).ids).toEqual(listed);
    expect((await read('last: 2')).edges.map((edge) => edge.node.id)).toEqual(listed.slice(-2));
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility_id = t.world.facility.id;
    await t.load({
      tenants: [buildTenant({ facility_id, ...tenant })],
      units: [buildUnit({ facility_id, ...unit })],
      // Instants shared by several: the id breaks the tie.
      events: events.map(({ id, n }) =>
        buildEvent({
          facility_id,
          id,
          type: n % 3 === 0 ? 'move_out_unit_event' : 'move_in_unit_event',
          created_at: `2026-11-${String(10 + (n % 5)).padStart(2, '0')}T15:00:00Z`,
        }),
      ),
      event_documents: Array.from({ length: 12 }, (_, n) =>
        buildDocument({ event_id: events[0].id, created_at: `2026-11-20T15:00:0${n % 4}Z` }),
      ),
    });
    const rows = Array.from({ length: 17 }, (_, n) => ({
      id: randomUUID(),
      facility_id,
      event_id: null,
      channel: 'email' as const,
      recipient: 'someone@example.com',
      payload: JSON.stringify({
        kind: 'esign_documents',
        facility: { id: facility_id, name: 'Main Street' },
        eventId: null,
        documents: [],
        subject: 'Documents',
        text: 'Sign them',
        html: null,
      }),
      status: n % 4 === 0 ? ('sent' as const) : ('pending' as const),
      attempts: 0,
      next_attempt_at: '2026-11-20T15:00:00.000Z',
      claimed_by: null,
      claimed_until: null,
      last_error: null,
      created_at: `2026-11-2${n % 3}T15:00:00.000Z`,
      sent_at: null,
      response_code: null,
    }));
    await t.db.store.db.insertInto('outbox_messages').values(rows).execute();
    for (let n = 0; n < 26; n++) {
      await ask(
        `mutation($f: UUID!, $input: CreateNoteInput!) { createNote(facilityId: $f, input: $input) { id } }`,
        { f: facility_id, input: { noteText: `note ${n}`, tenantId: tenant.id, unitId: unit.id } },
      );
    }
  });

  afterAll(() => t.close());

  const facility = (field: string) => `query($id: UUID!) { facility(id: $id) { ${field} } }`;

  it.each([null, 'MOVE_IN_UNIT_EVENT'])(
    "walks the facility's events (type %s) as the page list has them",
    async (type) => {
      const typed = type ? `type: ${type}, ` : '';
      type Page = { facility: { events: { entries: Array<{ id: string }> } } };
      const page = await ask<Page>(facility(`events(${typed}perPage: 100) { entries { id } }`), {
        id: t.world.facility.id,
      });
      await expectWalks(
        async (slice) =>
          (
            await ask<{ facility: { eventsConnection: Connection } }>(
              facility(`eventsConnection(${typed}${slice}) { ${CONNECTION} }`),
              { id: t.world.facility.id },
            )
          ).facility.eventsConnection,
        page.facility.events.entries.map((entry) => entry.id),
      );
    },
  );

  it("walks an event's documents as the page list has them", async () => {
    const event = (field: string) =>
      `query($id: UUID!, $e: UUID!) { facility(id: $id) { event(id: $e) { ${field} } } }`;
    const variables = { id: t.world.facility.id, e: events[0].id };
    type Page = { facility: { event: { documents: { entries: Array<{ id: string }> } } } };
    const page = await ask<Page>(event('documents(perPage: 100) { entries { id } }'), variables);
    await expectWalks(
      async (slice) =>
        (
          await ask<{ facility: { event: { documentsConnection: Connection } } }>(
            event(`documentsConnection(${slice}) { ${CONNECTION} }`),
            variables,
          )
        ).facility.event.documentsConnection,
      page.facility.event.documents.entries.map((entry) => entry.id),
    );
  });

  it.each([null, 'PENDING'])(
    'walks the outbox messages (status %s), newest first, as the page list has them',
    async (status) => {
      const filtered = status ? `status: ${status}, ` : '';
      type Page = { facility: { outboxMessages: { entries: Array<{ id: string }> } } };
      const page = await ask<Page>(facility(`outboxMessages(${filtered}perPage: 100) { entries { id } }`), {
        id: t.world.facility.id,
      });
      await expectWalks(
        async (slice) =>
          (
            await ask<{ facility: { outboxMessagesConnection: Connection } }>(
              facility(`outboxMessagesConnection(${filtered}${slice}) { ${CONNECTION} }`),
              { id: t.world.facility.id },
            )
          ).facility.outboxMessagesConnection,
        page.facility.outboxMessages.entries.map((entry) => entry.id),
      );
    },
  );

  it.each(['tenant', 'unit'])("walks a %s's notes as its sliced list has them", async (parent) => {
    const query = (field: string) =>
      `query($id: UUID!, $p: UUID!) { facility(id: $id) { ${parent}(id: $p) { ${field} } } }`;
    const variables = { id: t.world.facility.id, p: parent === 'tenant' ? tenant.id : unit.id };
    type Slice = { facility: Record<string, { notes: Array<{ id: string }> }> };
    const listed: string[] = [];
    for (const offset of [0, 20]) {
      const slice = await ask<Slice>(query(`notes(first: 20, offset: ${offset}) { id }`), variables);
      listed.push(...slice.facility[parent].notes.map((note) => note.id));
    }
    expect(listed).toHaveLength(26);
    await expectWalks(
      async (slice) =>
        (
          await ask<{ facility: Record<string, { notesConnection: Connection }> }>(
            query(`notesConnection(${slice}) { ${CONNECTION} }`),
            variables,
          )
        ).facility[parent].notesConnection,
      listed,
    );
    // 20 when neither first nor last is given, as the sliced list.
    const first = await ask<{ facility: Record<string, { notesConnection: Connection }> }>(
      query(`notesConnection { ${CONNECTION} }`),
      variables,
    );
    expect(first.facility[parent].notesConnection.edges.map((edge) => edge.node.id)).toEqual(
      listed.slice(0, 20),
    );
  });

  it("walks a webhook endpoint's deliveries, newest first, as its list has them", async () => {
    type Made = { createWebhookEndpoint: { endpoint: { id: string } } };
    const made = await ask<Made>(
      `mutation($c: UUID!, $input: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(companyId: $c, input: $input) { endpoint { id } } }`,
      {
        c: t.world.company.id,
        input: { url: 'https://hooks.example.com/walk', eventTypes: ['note.created'] },
      },
    );
    const endpointId = made.createWebhookEndpoint.endpoint.id;
    await t.db.store.db.deleteFrom('outbox_messages').where('channel', '=', 'webhook').execute();
    await t.db.store.db
      .insertInto('outbox_messages')
      .values(
        Array.from({ length: 19 }, (_, n) => ({
          id: randomUUID(),
          facility_id: t.world.facility.id,
          event_id: null,
          channel: 'webhook' as const,
          recipient: endpointId,
          payload: JSON.stringify({ kind: 'webhook', type: 'note.created', body: '{}' }),
          status: n % 3 === 0 ? ('failed' as const) : ('sent' as const),
          attempts: 1,
          next_attempt_at: '2026-11-20T15:00:00.000Z',
          claimed_by: null,
          claimed_until: null,
          last_error: null,
          created_at: `2026-11-2${n % 4}T15:00:00.000Z`,
          sent_at: null,
          response_code: 200,
        })),
      )
      .execute();
    const query = (field: string) =>
      `query($c: UUID!) { company(id: $c) { webhookEndpoints { id ${field} } } }`;
    type Endpoints<F extends string, T> = {
      company: { webhookEndpoints: Array<{ id: string } & Record<F, T>> };
    };
    const mine = <F extends string, T>(answer: Endpoints<F, T>, field: F): T =>
      (answer.company.webhookEndpoints.find((endpoint) => endpoint.id === endpointId) as Record<F, T>)[field];
    for (const status of ['', 'status: SENT, ']) {
      const listed = mine(
        await ask<Endpoints<'deliveries', Array<{ id: string }>>>(
          query(`deliveries(${status}first: 100) { id }`),
          {
            c: t.world.company.id,
          },
        ),
        'deliveries',
      ).map((delivery) => delivery.id);
      await expectWalks(
        async (slice) =>
          mine(
            await ask<Endpoints<'deliveriesConnection', Connection>>(
              query(`deliveriesConnection(${status}${slice}) { ${CONNECTION} }`),
              { c: t.world.company.id },
            ),
            'deliveriesConnection',
          ),
        listed,
      );
    }
  });

  it("reads the documents' connections of a page of events in as many statements as their pages", async () => {
    const statements = async (field: string) => {
      t.db.queries.length = 0;
      await ask(facility(`events(perPage: 100) { entries { id ${field} } }`), { id: t.world.facility.id });
      return t.db.queries.length;
    };
    const pages = await statements('documents(perPage: 3) { entries { id } }');
    expect(await statements('documentsConnection(first: 3) { edges { node { id } } }')).toBe(pages);
    expect(await statements('documentsConnection(last: 3) { edges { node { id } } totalCount }')).toBe(pages);
  });

  it("refuses another list's cursor on a loaded list, naming the argument", async () => {
    const tenantCursor = (
      await ask<{ facility: { tenant: { notesConnection: Connection } } }>(
        `query($id: UUID!, $p: UUID!) { facility(id: $id) { tenant(id: $p) { notesConnection(first: 1) { ${CONNECTION} } } } }`,
        { id: t.world.facility.id, p: tenant.id },
      )
    ).facility.tenant.notesConnection.edges[0].cursor;
    const response = await postGraphql<unknown>(
      t.app,
      {
        query: `query($id: UUID!, $p: UUID!, $c: String) { facility(id: $id) { unit(id: $p) { notesConnection(after: $c) { totalCount } } } }`,
        variables: { id: t.world.facility.id, p: unit.id, c: tenantCursor },
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(response.errors?.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
    expect(response.errors?.[0].message).toMatch(/after/);
  });
});
