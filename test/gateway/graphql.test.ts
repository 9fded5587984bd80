import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Kind, OperationTypeNode, parse } from 'graphql';
import { gatewayGraphqlSchema } from '../../src/modules';
import { buildItem, buildRateAppliedAction } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { cutToSchema } from '../support/gateway-cut';
import { createTestApp, type TestApp } from '../support/http';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';
import { loadRichWorld, type RichWorld } from '../support/rich-world';

const PAGINATION = 'pagination { currentPage totalPages perPage totalEntries previousPage nextPage }';
const ITEM = `id productCode kind description requiredAtMoveIn requiredAtTransfer amount amountIsVariable
  shortDescription showInSalesCenter taxTotal total invoiceableAmounts { id amount kind limit }
  ... on InsuranceItem { coverageAmount coveragePercentage providerName providerKey }
  ... on RetailItem { quantity isRentalCenterLock }`;
const LEDGER = `id
  insurance { id effectiveDate cancelDate amount data { description retainType productCode policyNumber
    retainAmount coverageAmount coveragePercentage insuranceProviderKey } }
  services { id effectiveDate cancelDate amount data { description productCode } }
  discounts { id name kind description startDate endDate minOccupancyMonths }`;

/**
 * GraphQL in gateway mode over a real facility-ops upstream: every query of the gateway's schema
 * answers the same data as the system of record's own GraphQL, each distinct upstream resource is
 * read once per request, and the fields the contract cannot feed are not in the schema.
 */
describeEachDialect('GraphQL in gateway mode', (dialect) => {
  let upstream: TestApp;
  let w: RichWorld;
  let gateway: Gateway;
  let calls: string[] = [];
  let answered: string[] = [];

  beforeAll(async () => {
    upstream = await createTestApp(dialect, {
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      prepare: (app: FastifyInstance) => {
        app.addHook('onRequest', async (request) => {
          calls.push(`${request.method} ${request.url}`);
        });
        app.addHook('onResponse', async (request, reply) => {
          answered.push(`${request.method} ${request.url} ${reply.statusCode}`);
        });
      },
    });
    w = await loadRichWorld(upstream);
    gateway = await startGateway(dialect, await listenOnLoopback(upstream.app), upstream.world);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const graphql = async (app: FastifyInstance, query: string, variables: Record<string, unknown> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${upstream.world.client.bearer_token}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ query, variables }),
    });
    return res.json() as {
      data?: Record<string, unknown>;
      errors?: Array<{ message: string; path?: unknown[]; extensions: { code: string } }>;
    };
  };

  /** The query through the gateway and on the upstream's own GraphQL: the same answer. */
  async function same(query: string, variables: Record<string, unknown> = {}) {
    const viaGateway = await graphql(gateway.app, query, variables);
    const direct = await graphql(upstream.app, query, variables);
    expect(viaGateway.errors).toBeUndefined();
    expect(direct.errors).toBeUndefined();
    expect(viaGateway.data).toEqual(direct.data);
    return viaGateway.data!;
  }

  it('answers flippers, rate applied actions with their ledgers, as the system of record does', async () => {
    const data = await same(
      `query ($id: UUID!, $day: LocalDate!) { facility(id: $id) {
        id flippers on: flipper(name: "online_payments") off: flipper(name: "nothing_here")
        rateAppliedActions(startDate: $day, endDate: $day) {
          rateInfo { appliedRate { name amount } standardRate } source completedOn completedBy employeeId
          userId timeCompleted event oldLedgerId newLedgerId unitId leadId
          newLedger { ${LEDGER} } oldLedger { id }
        } } }`,
      { id: upstream.world.facility.id, day: w.rateAppliedActionsOn },
    );
    const facility = data.facility as { rateAppliedActions: Array<{ newLedger: { insurance: unknown } }> };
    expect(facility.rateAppliedActions).toHaveLength(1);
    expect(facility.rateAppliedActions[0].newLedger.insurance).not.toBeNull();
  });

  it("answers every invoiceable item list, the fees, an event's documents and rate change updates alike", async () => {
    await same(
      `query ($id: UUID!, $event: UUID!) { facility(id: $id) {
        all: invoiceableItems { entries { ${ITEM} } ${PAGINATION} }
        insurance: invoiceableItems(list: INSURANCE) { entries { ${ITEM} } ${PAGINATION} }
        services: invoiceableItems(list: SERVICES) { entries { ${ITEM} } ${PAGINATION} }
        retail: invoiceableItems(list: RETAIL, page: 1, perPage: 1) { entries { ${ITEM} } ${PAGINATION} }
        rentalCenter: invoiceableItems(list: RENTAL_CENTER) { entries { ${ITEM} } ${PAGINATION} }
        invoiceableItemFees { securityDeposit { id } onlinePayment { id } reservation { id }
          moveInFees { ${ITEM} } transferFees { id } other { id } }
        event(id: $event) { id documents { entries { id description type isRelevant createdAt } ${PAGINATION} } }
      } }`,
      { id: upstream.world.facility.id, event: w.eventId },
    );
    await same(
      `query ($id: UUID!, $after: DateTime!, $before: DateTime!) { company(id: $id) { id
        rateChangeUpdates(updatedAfter: $after, updatedBefore: $before, perPage: 10) {
          entries { id facilityName tenantId tenantName unitId unitName changedAt oldRate newRate effectiveOnDate }
          ${PAGINATION} } } }`,
      {
        id: upstream.world.company.id,
        after: w.rateChanges.updatedAfter,
        before: w.rateChanges.updatedBefore,
      },
    );
  });

  it('reads each distinct upstream resource once per request: 50 actions on one ledger, one ledger read', async () => {
    const day = '2026-11-18';
    await upstream.load({
      rate_applied_actions: Array.from({ length: 50 }, () =>
        buildRateAppliedAction({
          facility_id: upstream.world.facility.id,
          new_ledger_id: w.ledgerId,
          unit_id: w.unitId,
          completed_on: day,
        }),
      ),
    });
    calls = [];
    const res = await graphql(
      gateway.app,
      `query ($id: UUID!, $day: LocalDate!) { facility(id: $id) { flippers
        rateAppliedActions(startDate: $day, endDate: $day) { newLedger { ${LEDGER} } } } }`,
      { id: upstream.world.facility.id, day },
    );
    expect(res.errors).toBeUndefined();
    expect((res.data!.facility as { rateAppliedActions: unknown[] }).rateAppliedActions).toHaveLength(50);
    const f = upstream.world.facility.id;
    expect(calls.sort()).toEqual(
      [
        `GET /v1/${f}/flippers`,
        `GET /v1/${f}/ledgers/${w.ledgerId}/insurance_services_and_discounts`,
        `GET /v1/${f}/rate_applied_actions?end_date=${day}&start_date=${day}`,
      ].sort(),
    );
  });

  it("asks the upstream with a read its fields need anyway: one call for a facility's item list", async () => {
    calls = [];
    const f = upstream.world.facility.id;
    const res = await graphql(
      gateway.app,
      `
        query ($id: UUID!) {
          facility(id: $id) {
            id
            invoiceableItems(list: RETAIL) {
              entries {
                id
              }
            }
          }
        }
      `,
      { id: f },
    );
    expect(res.errors).toBeUndefined();
    expect(calls).toEqual([`GET /v1/${f}/invoiceable_items/retail`]);
    // A refusal of the field itself stays at its path; an unknown facility at the facility's.
    const outOfRange = await graphql(
      gateway.app,
      `
        query ($id: UUID!) {
          facility(id: $id) {
            id
            invoiceableItems(page: 0) {
              entries {
                id
              }
            }
          }
        }
      `,
      { id: f },
    );
    expect(outOfRange.errors?.map((e) => e.path)).toEqual(
      (
        await graphql(
          upstream.app,
          `
            query ($id: UUID!) {
              facility(id: $id) {
                id
                invoiceableItems(page: 0) {
                  entries {
                    id
                  }
                }
              }
            }
          `,
          { id: f },
        )
      ).errors?.map((e) => e.path),
    );
  });

  it('sends a kept response again while the upstream answers 304 to its every read, and a change at once', async () => {
    const f = upstream.world.facility.id;
    const query = `query ($id: UUID!) { facility(id: $id) { invoiceableItems(list: RETAIL, perPage: 100) {
      entries { id description total } pagination { totalEntries } } } }`;
    const ask = () =>
      gateway.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: {
          authorization: `Bearer ${upstream.world.client.bearer_token}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ query, variables: { id: f } }),
      });
    const first = await ask();
    answered = [];
    const again = await ask();
    expect(again.body).toBe(first.body);
    expect(answered).toEqual([`GET /v1/${f}/invoiceable_items/retail?per_page=100 304`]);

    await upstream.load({
      invoiceable_items: [buildItem({ facility_id: f, description: 'Padlock, brass' })],
    });
    answered = [];
    const changed = JSON.parse((await ask()).body) as {
      data: { facility: { invoiceableItems: { entries: Array<{ description: string }> } } };
    };
    expect(changed.data.facility.invoiceableItems.entries.map((e) => e.description)).toContain(
      'Padlock, brass',
    );
    expect(answered).toEqual([`GET /v1/${f}/invoiceable_items/retail?per_page=100 200`]);
  });

  it('writes through the upstream: createNote and reviewMoveInCost', async () => {
    const note = await graphql(
      gateway.app,
      `
        mutation ($f: UUID!, $t: UUID!) {
          createNote(facilityId: $f, input: { noteText: "Via the gateway", tenantId: $t }) {
            id
            tenantId
            unitId
            notes {
              id
              note
              createdAt
            }
            createdBy {
              id
              name
              type
            }
          }
        }
      `,
      { f: upstream.world.facility.id, t: w.tenantId },
    );
    expect(note.errors).toBeUndefined();
    expect(note.data!.createNote).toMatchObject({
      tenantId: w.tenantId,
      notes: [{ note: 'Via the gateway' }],
      createdBy: { id: upstream.world.client.id, type: 'ClientApplication' },
    });
    const review = await graphql(
      gateway.app,
      `
        mutation ($f: UUID!, $u: UUID!) {
          reviewMoveInCost(facilityId: $f, input: { unitId: $u }) {
            sessionId
            expiresAt
            unitId
            cost {
              rent
              total
              fees {
                id
                description
                amount
              }
            }
            documents {
              sessionDocumentId
              description
              type
              isRelevant
              createdAt
            }
          }
        }
      `,
      { f: upstream.world.facility.id, u: w.unitId },
    );
    expect(review.errors).toBeUndefined();
    expect(review.data!.reviewMoveInCost).toMatchObject({ unitId: w.unitId });

    const pay = () =>
      graphql(
        gateway.app,
        `
          mutation ($f: UUID!, $item: UUID!) {
            payRetail(
              facilityId: $f
              idempotencyKey: "gw-graphql-1"
              input: {
                invoiceableItems: [{ invoiceableItemId: $item, quantity: 2 }]
                paymentMethod: {
                  kind: CREDIT_CARD
                  firstName: "Ada"
                  lastName: "Lovelace"
                  cardNumber: "4111111111111111"
                  cardType: VISA
                  securityCode: "123"
                  expirationDate: "12/39"
                  billingAddress: { address1: "1 Main St", city: "Springfield", postal: "62701" }
                }
              }
            ) {
              id
              amount
              success
              date
              changeDue
              paymentMethod {
                id
                kind
                firstName
                lastName
                reuseable
                cardNumber
                cardType
                expirationDate
                billingAddress {
                  address1
                  city
                  postal
                }
              }
            }
          }
        `,
        { f: upstream.world.facility.id, item: w.retailItemId },
      );
    const paid = await pay();
    expect(paid.errors).toBeUndefined();
    expect(paid.data!.payRetail).toMatchObject({
      success: true,
      amount: 21.6,
      paymentMethod: {
        kind: 'CREDIT_CARD',
        cardNumber: '************1111',
        billingAddress: { city: 'Springfield' },
      },
    });
    // The key went upstream: the same payment again, not a second charge.
    expect((await pay()).data).toEqual(paid.data);
  });

  /** Every operation the GraphQL tests keep, cut to the gateway's schema: name, kind and text. */
  function storedOperations() {
    const schema = gatewayGraphqlSchema();
    const dir = join(__dirname, '../graphql/operations');
    return readdirSync(dir).flatMap((file) => {
      const document = parse(readFileSync(join(dir, file), 'utf8'));
      const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
      return document.definitions.flatMap((d) =>
        d.kind === Kind.OPERATION_DEFINITION
          ? [{ name: d.name!.value, kind: d.operation, text: cutToSchema(schema, d, fragments) }]
          : [],
      );
    });
  }

  /** The values a front end would send for an operation's variables, by name. */
  function variablesFor(name: string, text: string): Record<string, unknown> {
    const world = upstream.world;
    const onCompany = /^\s*(query|mutation) \w+[^{]*\{\s*company\(/.test(text);
    const inputs: Record<string, unknown> = {
      ReviewMoveInCost: { unitId: w.unitId, tenantId: w.tenantId },
      CreateNote: { noteText: 'Through both', tenantId: w.tenantId, unitId: w.unitId },
      PayRetail: {
        invoiceableItems: [{ invoiceableItemId: w.retailItemId, quantity: 1 }],
        paymentMethod: {
          kind: 'CREDIT_CARD',
          firstName: 'Ada',
          lastName: 'Lovelace',
          cardNumber: '4111111111111111',
          cardType: 'VISA',
          securityCode: '123',
          expirationDate: '12/39',
          billingAddress: { address1: '1 Main St', city: 'Springfield', postal: '62701' },
        },
      },
    };
    const byName: Record<string, unknown> = {
      id: onCompany ? world.company.id : world.facility.id,
      facilityId: world.facility.id,
      companyId: world.company.id,
      eventId: w.eventId,
      name: 'online_payments',
      email: 'tenant@example.com',
      startDate: w.rateAppliedActionsOn,
      endDate: w.rateAppliedActionsOn,
      after: w.rateChanges.updatedAfter,
      before: w.rateChanges.updatedBefore,
      updatedAfter: w.rateChanges.updatedAfter,
      updatedBefore: w.rateChanges.updatedBefore,
      input: inputs[name],
    };
    const declared = [...text.matchAll(/\$(\w+):/g)].map((m) => m[1]);
    return Object.fromEntries(declared.filter((v) => byName[v] !== undefined).map((v) => [v, byName[v]]));
  }

  /** What differs between two runs of one mutation by design: new ids and instants. */
  const MINTED = new Set(['id', 'sessionId', 'sessionDocumentId', 'createdAt', 'expiresAt', 'date']);
  const withoutMinted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(withoutMinted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, MINTED.has(k) ? typeof v : withoutMinted(v)]),
          )
        : value;

  it('answers every stored test operation, cut to its schema, with the same data as the system of record', async () => {
    const operations = storedOperations();
    const served = operations.filter((o) => o.text !== null);
    // The operations a front end keeps reach the gateway, all but those made only of what the
    // contract cannot feed (tenants, units, ledgers by id, notes read back, the outbox), and the
    // cursor connections, which the contract's offset pages cannot keep (docs/gateway.md).
    expect(
      operations
        .filter((o) => o.text === null)
        .map((o) => o.name)
        .sort(),
    ).toEqual(
      [
        'FacilityPaymentEvents',
        'InvoiceableItemsConnection',
        'LedgerInsuranceServicesAndDiscounts',
        'LedgerRecords',
        'LedgerTenantNotes',
        'PaymentLineItems',
        'RateChangeUpdatesConnection',
        'TenantAndUnit',
      ].sort(),
    );
    for (const operation of served) {
      const variables = variablesFor(operation.name, operation.text!);
      const viaGateway = await graphql(gateway.app, operation.text!, variables);
      const direct = await graphql(upstream.app, operation.text!, variables);
      expect({ operation: operation.name, errors: viaGateway.errors }).toEqual({
        operation: operation.name,
        errors: direct.errors,
      });
      expect(direct.errors).toBeUndefined();
      const [a, b] =
        operation.kind === OperationTypeNode.MUTATION
          ? [withoutMinted(viaGateway.data), withoutMinted(direct.data)]
          : [viaGateway.data, direct.data];
      expect({ operation: operation.name, data: a }).toEqual({ operation: operation.name, data: b });
    }
  });

  it("answers the upstream's refusals with their codes, and leaves out what the contract cannot feed", async () => {
    const unknown = await graphql(
      gateway.app,
      '{ facility(id: "00000000-0000-4000-8000-000000000000") { id } }',
    );
    expect(unknown.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const other = await graphql(gateway.app, `{ facility(id: "${upstream.world.otherFacility.id}") { id } }`);
    expect(other.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const both = await graphql(
      gateway.app,
      `
        mutation ($f: UUID!, $e: UUID!) {
          sendEsignableDocuments(
            facilityId: $f
            eventId: $e
            email: "a@example.com"
            smsNumber: "+15555550100"
          ) {
            eventId
          }
        }
      `,
      { f: upstream.world.facility.id, e: w.eventId },
    );
    expect(both.errors?.[0].extensions.code).toBe('CONFLICT');
    const absent = await graphql(gateway.app, `{ facility(id: "${upstream.world.facility.id}") { name } }`);
    expect(absent.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(absent.errors?.[0].message).toContain('Cannot query field "name" on type "Facility"');
  });
});
