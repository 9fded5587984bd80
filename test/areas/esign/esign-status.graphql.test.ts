import { createHash } from 'node:crypto';
import type { DatasetEvent, DatasetEventDocument } from '../../../src/store/dataset/dataset.types';
import type {
  EventEsignQuery,
  EventEsignQueryVariables,
  EventsByEsignStateQuery,
  EventsByEsignStateQueryVariables,
  OutboxEsignLinksQuery,
  OutboxEsignLinksQueryVariables,
} from '../../generated/graphql';
import { buildDocument, buildEvent, buildFacility } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { goodForm, postForm, sendLink } from '../../support/signing';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';

const EventEsign = operation<EventEsignQuery, EventEsignQueryVariables>('esign-status.graphql', 'EventEsign');
const EventsByEsignState = operation<EventsByEsignStateQuery, EventsByEsignStateQueryVariables>(
  'esign-status.graphql',
  'EventsByEsignState',
);
const OutboxEsignLinks = operation<OutboxEsignLinksQuery, OutboxEsignLinksQueryVariables>(
  'esign-status.graphql',
  'OutboxEsignLinks',
);

const REVOKE = `
  mutation Revoke($facilityId: UUID!, $messageId: UUID!) {
    revokeEsignLink(facilityId: $facilityId, messageId: $messageId) { messageId state revokedAt }
  }
`;

const HOUR = 3_600_000;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
// 15:00 UTC is 10:00 in New York (the facility's zone) in November.
const START = new Date('2026-11-21T15:00:00Z');

describeEachDialect('GraphQL e-sign state and audit trail', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(START));

  /** A new move-in of the facility with two esignable documents and one that is not. */
  async function newEvent(facilityId = t.world.facility.id) {
    const event: DatasetEvent = buildEvent({ facility_id: facilityId });
    const documents: DatasetEventDocument[] = [
      buildDocument({
        event_id: event.id,
        description: 'Lease agreement',
        created_at: '2026-11-20T15:00:00Z',
      }),
      buildDocument({
        event_id: event.id,
        description: 'Gate code addendum',
        created_at: '2026-11-20T16:00:00Z',
      }),
      buildDocument({ event_id: event.id, description: 'Welcome letter', esignable: false }),
    ];
    await t.load({ events: [event], event_documents: documents });
    return { event, documents };
  }

  const esignOf = async (eventId: string, facilityId = t.world.facility.id) => {
    const res = await run(t, EventEsign, { facilityId, eventId });
    expect(res.errors).toBeUndefined();
    return res.data!.facility!.event!;
  };

  /** The lease's e-sign status in an EventEsign answer. */
  const leaseOf = (event: NonNullable<NonNullable<EventEsignQuery['facility']>['event']>) =>
    event.documents.entries.find((d) => d.description === 'Lease agreement')!.esign!;

  const revoke = (messageId: string, facilityId = t.world.facility.id) =>
    postGraphql<{ revokeEsignLink: { messageId: string; state: string; revokedAt: string | null } }>(
      t.app,
      { query: REVOKE, variables: { facilityId, messageId } },
      { bearer: t.world.client.bearer_token },
    );

  it('shows nothing for an event not sent for signing', async () => {
    const { event } = await newEvent();
    const esign = await esignOf(event.id);
    expect(esign.esignState).toBeNull();
    expect(esign.documents.entries.map((d) => d.esign)).toEqual([null, null, null]);
  });

  it('follows each document from sent to viewed to signed, with its audit trail', async () => {
    const { event, documents } = await newEvent();
    const [lease, addendum] = documents;
    const { message, token } = await sendLink(t, event.id, { email: 'grace@example.com' });
    const shown = sha256(
      (await t.app.inject({ method: 'GET', url: `/sign/${token}/documents/${lease.id}` })).rawPayload,
    );

    let esign = await esignOf(event.id);
    expect(esign.esignState).toBe('SENT');
    const sentLease = esign.documents.entries.find((d) => d.id === lease.id)!.esign!;
    expect(sentLease).toEqual({
      state: 'SENT',
      sentAt: '2026-11-21T10:00:00-05:00',
      firstViewedAt: null,
      signedAt: null,
      signerName: null,
      signedSha256: null,
      links: [
        {
          messageId: message.id,
          eventId: event.id,
          channel: 'EMAIL',
          recipient: 'grace@example.com',
          state: 'SENT',
          createdAt: '2026-11-21T10:00:00-05:00',
          // 336 hours later.
          expiresAt: '2026-12-05T10:00:00-05:00',
          firstViewedAt: null,
          revokedAt: null,
          signedAt: null,
          documents: [
            { documentId: lease.id, description: 'Lease agreement', documentSha256: shown },
            {
              documentId: addendum.id,
              description: 'Gate code addendum',
              documentSha256: expect.any(String),
            },
          ],
        },
      ],
      auditTrail: [
        {
          kind: 'SENT',
          at: '2026-11-21T10:00:00-05:00',
          messageId: message.id,
          channel: 'EMAIL',
          recipient: 'grace@example.com',
          signerName: null,
          ipAddress: null,
          userAgent: null,
          consentVersion: null,
          documentSha256: shown,
          signedSha256: null,
        },
      ],
    });
    expect(esign.documents.entries.find((d) => d.description === 'Welcome letter')!.esign).toBeNull();

    t.clock.advance(HOUR);
    await t.app.inject({
      method: 'GET',
      url: `/sign/${token}`,
      headers: { 'user-agent': 'Phone Browser 1.0' },
    });
    esign = await esignOf(event.id);
    expect(esign.esignState).toBe('VIEWED');
    const viewedLease = esign.documents.entries.find((d) => d.id === lease.id)!.esign!;
    expect(viewedLease.state).toBe('VIEWED');
    expect(viewedLease.firstViewedAt).toBe('2026-11-21T11:00:00-05:00');
    expect(viewedLease.auditTrail.map((e) => [e.kind, e.ipAddress, e.userAgent])).toEqual([
      ['SENT', null, null],
      ['VIEWED', '127.0.0.1', 'Phone Browser 1.0'],
    ]);

    t.clock.advance(HOUR);
    expect((await postForm(t, token, goodForm())).statusCode).toBe(303);
    esign = await esignOf(event.id);
    expect(esign.esignState).toBe('SIGNED');
    const signedLease = esign.documents.entries.find((d) => d.id === lease.id)!.esign!;
    const download = await t.app.inject({
      method: 'GET',
      url: `/v1/${t.world.facility.id}/documents/${lease.id}`,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    expect(signedLease).toMatchObject({
      state: 'SIGNED',
      signedAt: '2026-11-21T12:00:00-05:00',
      signerName: 'Grace Hopper',
      signedSha256: sha256(download.rawPayload),
    });
    expect(signedLease.links.map((l) => [l.state, l.signedAt])).toEqual([
      ['SIGNED', '2026-11-21T12:00:00-05:00'],
    ]);
    expect(signedLease.auditTrail[2]).toEqual({
      kind: 'SIGNED',
      at: '2026-11-21T12:00:00-05:00',
      messageId: message.id,
      channel: 'EMAIL',
      recipient: 'grace@example.com',
      signerName: 'Grace Hopper',
      ipAddress: '127.0.0.1',
      userAgent: 'Mozilla/5.0 (test)',
      consentVersion: 'esign-consent-2026-11',
      documentSha256: shown,
      signedSha256: sha256(download.rawPayload),
    });
  });

  it('shows a link that ran out as EXPIRED, and the liveliest link when there are several', async () => {
    const { event } = await newEvent();
    await sendLink(t, event.id, { email: 'grace@example.com' });
    t.clock.advance(336 * HOUR);
    expect((await esignOf(event.id)).esignState).toBe('EXPIRED');
    expect(leaseOf(await esignOf(event.id)).state).toBe('EXPIRED');

    // Sent again by text message, and opened: the event is being looked at.
    const again = await sendLink(t, event.id, { smsNumber: '+15555550100' });
    expect((await esignOf(event.id)).esignState).toBe('SENT');
    await t.app.inject({ method: 'GET', url: `/sign/${again.token}` });
    const esign = await esignOf(event.id);
    expect(esign.esignState).toBe('VIEWED');
    expect(leaseOf(esign).links.map((l) => [l.channel, l.state])).toEqual([
      ['EMAIL', 'EXPIRED'],
      ['SMS', 'VIEWED'],
    ]);
  });

  it('revokes a link with revokeEsignLink, once, and never a signed one', async () => {
    const { event } = await newEvent();
    const { message, token } = await sendLink(t, event.id);
    t.clock.advance(HOUR);
    const res = await revoke(message.id);
    expect(res.errors).toBeUndefined();
    expect(res.data!.revokeEsignLink).toEqual({
      messageId: message.id,
      state: 'REVOKED',
      revokedAt: '2026-11-21T11:00:00-05:00',
    });
    const esign = await esignOf(event.id);
    expect(esign.esignState).toBe('REVOKED');
    expect(leaseOf(esign).auditTrail.map((e) => e.kind)).toEqual(['SENT', 'REVOKED']);
    expect((await t.app.inject({ method: 'GET', url: `/sign/${token}` })).statusCode).toBe(410);

    // Again: nothing changes.
    t.clock.advance(HOUR);
    const again = await revoke(message.id);
    expect(again.data!.revokeEsignLink.revokedAt).toBe('2026-11-21T11:00:00-05:00');
    expect(leaseOf(await esignOf(event.id)).auditTrail).toHaveLength(2);

    const signed = await sendLink(t, (await newEvent()).event.id);
    expect((await postForm(t, signed.token, goodForm())).statusCode).toBe(303);
    const refused = await revoke(signed.message.id);
    expect(codesOf(refused)).toEqual(['ACTION_FAILED']);
    expect(refused.errors![0].message).toContain('messageId');
  });

  it("answers NOT_FOUND for a message that is not one of the facility's e-sign links", async () => {
    const sister = buildFacility({ company_id: t.world.company.id, name: 'Sister Site' });
    await t.load({ facilities: [sister] });
    const { event } = await newEvent(sister.id);
    const { message } = await sendLink(t, event.id, undefined, sister.id);
    for (const id of [message.id, '7d1c3f7e-1111-4222-8333-944455556666']) {
      const res = await revoke(id);
      expect(codesOf(res)).toEqual(['NOT_FOUND']);
    }
    const foreign = await revoke(message.id, t.world.otherFacility.id);
    expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
  });

  it("filters the facility's events by e-sign state", async () => {
    const facility = buildFacility({ company_id: t.world.company.id, name: 'Filter Site' });
    await t.load({ facilities: [facility] });
    const sent = (await newEvent(facility.id)).event;
    const viewed = (await newEvent(facility.id)).event;
    const signed = (await newEvent(facility.id)).event;
    const revoked = (await newEvent(facility.id)).event;
    const untouched = (await newEvent(facility.id)).event;
    await sendLink(t, sent.id, undefined, facility.id);
    await t.app.inject({
      method: 'GET',
      url: `/sign/${(await sendLink(t, viewed.id, undefined, facility.id)).token}`,
    });
    await postForm(t, (await sendLink(t, signed.id, undefined, facility.id)).token, goodForm());
    await revoke((await sendLink(t, revoked.id, undefined, facility.id)).message.id, facility.id);

    const list = async (esignState: EventsByEsignStateQueryVariables['esignState']) => {
      const res = await run(t, EventsByEsignState, { facilityId: facility.id, esignState, perPage: null });
      expect(res.errors).toBeUndefined();
      return res.data!.facility!.events;
    };
    expect((await list('SENT')).entries).toEqual([{ id: sent.id, esignState: 'SENT' }]);
    expect((await list('VIEWED')).entries).toEqual([{ id: viewed.id, esignState: 'VIEWED' }]);
    expect((await list('SIGNED')).entries).toEqual([{ id: signed.id, esignState: 'SIGNED' }]);
    expect((await list('REVOKED')).entries).toEqual([{ id: revoked.id, esignState: 'REVOKED' }]);
    expect(await list('EXPIRED')).toEqual({ entries: [], pagination: { totalEntries: 0 } });
    const all = await list(null);
    expect(all.pagination.totalEntries).toBe(5);
    expect(all.entries.find((e) => e.id === untouched.id)!.esignState).toBeNull();

    t.clock.advance(400 * HOUR);
    expect((await list('EXPIRED')).entries.map((e) => e.id).sort()).toEqual([sent.id, viewed.id].sort());
    expect((await list('SIGNED')).entries.map((e) => e.id)).toEqual([signed.id]);
  });

  it('shows the link each outbox message carries', async () => {
    const facility = buildFacility({ company_id: t.world.company.id, name: 'Outbox Site' });
    await t.load({ facilities: [facility] });
    const { event } = await newEvent(facility.id);
    const { message } = await sendLink(t, event.id, { smsNumber: '+15555550100' }, facility.id);
    const res = await run(t, OutboxEsignLinks, { facilityId: facility.id });
    expect(res.errors).toBeUndefined();
    expect(res.data!.facility!.outboxMessages.entries).toEqual([
      {
        id: message.id,
        channel: 'SMS',
        esignLink: {
          messageId: message.id,
          state: 'SENT',
          recipient: '+15555550100',
          expiresAt: '2026-12-05T10:00:00-05:00',
          revokedAt: null,
        },
      },
    ]);
  });
  it("answers a document's links and audit trail in slices, however often it was sent", async () => {
    const { event } = await newEvent();
    for (let i = 0; i < 25; i++) {
      await sendLink(t, event.id, { email: `guest${i}@example.com` });
      t.clock.advance(1000);
    }
    const query = `query ($facilityId: UUID!, $eventId: UUID!, $first: Int, $offset: Int) {
      facility(id: $facilityId) { event(id: $eventId) { documents { entries { description esign {
        links { recipient }
        later: links(first: $first, offset: $offset) { recipient }
        auditTrail { kind }
        lastFive: auditTrail(first: 5, offset: 20) { kind }
      } } } } }
    }`;
    interface Lists {
      links: { recipient: string }[];
      later: { recipient: string }[];
      auditTrail: { kind: string }[];
      lastFive: { kind: string }[];
    }
    const ask = (variables: { first?: number; offset?: number }) =>
      postGraphql<{
        facility: { event: { documents: { entries: { description: string; esign: Lists | null }[] } } };
      }>(
        t.app,
        { query, variables: { facilityId: t.world.facility.id, eventId: event.id, ...variables } },
        { bearer: t.world.client.bearer_token },
      );
    const res = await ask({ offset: 20 });
    expect(res.errors).toBeUndefined();
    const lease = res.data!.facility.event.documents.entries.find(
      (d) => d.description === 'Lease agreement',
    )!.esign!;
    // 10 links and 20 entries at most by default (the estimate's sizes), oldest first.
    expect(lease.links.map((l) => l.recipient)).toEqual(
      Array.from({ length: 10 }, (_, i) => `guest${i}@example.com`),
    );
    expect(lease.later.map((l) => l.recipient)).toEqual(
      Array.from({ length: 5 }, (_, i) => `guest${20 + i}@example.com`),
    );
    expect(lease.auditTrail).toHaveLength(20);
    expect(lease.lastFive).toHaveLength(5);
    const bad = await ask({ first: 0 });
    expect(codesOf(bad)).toEqual(expect.arrayContaining(['BAD_USER_INPUT']));
    expect(bad.errors![0].extensions.parameter).toBe('first');
  });

  it("walks a document's links and audit trail by cursor, both ways, as their slices list them", async () => {
    const { event } = await newEvent();
    for (let i = 0; i < 12; i++) {
      await sendLink(t, event.id, { email: `walker${String(i).padStart(2, '0')}@example.com` });
      t.clock.advance(1000);
    }
    interface Walked {
      edges: { cursor: string; node: { recipient: string } }[];
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
      totalCount: number;
    }
    interface Esign {
      head: { recipient: string }[];
      tail: { recipient: string }[];
      trail: { recipient: string; kind: string }[];
      links: Walked;
      audit: Walked;
    }
    // The event's every document answers the fields; a cursor of the lease's is refused by the others.
    const ask = (linkArgs: string, auditArgs: string) =>
      postGraphql<{
        facility: { event: { documents: { entries: { description: string; esign: Esign | null }[] } } };
      }>(
        t.app,
        {
          query: `query ($facilityId: UUID!, $eventId: UUID!) {
            facility(id: $facilityId) { event(id: $eventId) { documents { entries { description esign {
              head: links(first: 10) { recipient }
              tail: links(first: 10, offset: 10) { recipient }
              trail: auditTrail(first: 20) { recipient kind }
              links: linksConnection(${linkArgs}) {
                edges { cursor node { recipient } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount
              }
              audit: auditTrailConnection(${auditArgs}) {
                edges { cursor node { recipient } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount
              }
            } } } } }
          }`,
          variables: { facilityId: t.world.facility.id, eventId: event.id },
        },
        { bearer: t.world.client.bearer_token },
      );
    const leaseOf = async (linkArgs: string, auditArgs: string) => {
      const res = await ask(linkArgs, auditArgs);
      const entries = res.data!.facility.event.documents.entries;
      const index = entries.findIndex((d) => d.description === 'Lease agreement');
      expect((res.errors ?? []).filter((e) => e.path?.[4] === index)).toEqual([]);
      return entries[index].esign!;
    };
    const walk = (field: 'links' | 'audit', args: string) =>
      field === 'links' ? leaseOf(args, 'first: 1') : leaseOf('first: 1', args);

    const first = await leaseOf('first: 7', 'first: 7');
    const links = [...first.head, ...first.tail].map((l) => l.recipient);
    const trail = first.trail.map((e) => e.recipient);
    expect(links).toHaveLength(12);
    expect(trail.length).toBeGreaterThanOrEqual(12);

    for (const [field, expected] of [
      ['links', links],
      ['audit', trail],
    ] as const) {
      const forward: string[] = [];
      let page: Walked = first[field];
      for (;;) {
        expect(page.totalCount).toBe(expected.length);
        forward.push(...page.edges.map((e) => e.node.recipient));
        if (!page.pageInfo.hasNextPage) break;
        page = (await walk(field, `first: 7, after: "${page.pageInfo.endCursor}"`))[field];
      }
      expect(forward).toEqual(expected);

      const backward: string[] = [];
      page = (await walk(field, 'last: 7'))[field];
      for (;;) {
        backward.push(...page.edges.map((e) => e.node.recipient).reverse());
        if (!page.pageInfo.hasPreviousPage) break;
        page = (await walk(field, `last: 7, before: "${page.pageInfo.startCursor}"`))[field];
      }
      expect(backward).toEqual([...expected].reverse());
    }

    // A cursor of the lease's links is no position in its audit trail: refused, naming the argument.
    const refused = await ask('first: 1', `first: 7, after: "${first.links.pageInfo.endCursor}"`);
    const lease = refused.data!.facility.event.documents.entries.findIndex(
      (d) => d.description === 'Lease agreement',
    );
    const own = refused.errors!.filter((e) => e.path?.[4] === lease);
    expect(own.map((e) => [e.path?.[6], e.extensions.code, e.extensions.parameter])).toEqual([
      ['audit', 'BAD_USER_INPUT', 'after'],
    ]);
  });
});
