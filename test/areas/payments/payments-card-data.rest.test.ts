import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { up as clearEarlierFingerprints } from '../../../src/store/migrations/20261127120000_idempotency_fingerprint_v2';
import { isPostgres } from '../../../src/store/dialect';
import { postGraphql } from '../../graphql/graphql-client';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import {
  DECLINED_VISA,
  PAY_AT,
  ROUTING,
  VISA,
  creditCard,
  gatewayOf,
  line,
  loadPaymentWorld,
  payment,
  type PaymentWorld,
} from '../../support/payments';
import { showsShortSecret } from '../../support/leaks';

// Values that must never be kept or logged: typed card, swiped card, security code, tracks, account.
const TYPED_PAN = '371449635398431';
const SECURITY_CODE = '9163';
const SWIPED_PAN = '5105105105105100';
const TRACK_1 = `%B${SWIPED_PAN}^LOVELACE/ADA^2912101123456789012?`;
const TRACK_2 = `;${SWIPED_PAN}=29121015432112345678?`;
const ACCOUNT = '0009876543210';
const GRAPHQL_PAN = '6011000990139424';
const GRAPHQL_ACCOUNT = '0001357924680';

const SECRETS = [
  TYPED_PAN,
  SWIPED_PAN,
  TRACK_1,
  TRACK_2,
  ACCOUNT,
  GRAPHQL_PAN,
  GRAPHQL_ACCOUNT,
  DECLINED_VISA,
];

/** Each secret wherever it stands; the short security code only as a token of its own. */
function leaks(text: string): string[] {
  const found = SECRETS.filter((secret) => text.includes(secret));
  if (showsShortSecret(text, SECURITY_CODE)) found.push(SECURITY_CODE);
  return found;
}

async function everyTableAsText(t: TestApp): Promise<Record<string, string>> {
  const db = t.db.store.db;
  const names = isPostgres(db)
    ? (
        await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
      ).rows
    : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
  const tables: Record<string, string> = {};
  for (const { name } of names) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    tables[name] = JSON.stringify(rows.rows);
  }
  return tables;
}

describeEachDialect('retail payment: card data is never stored or logged', (dialect) => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { logLines });
  });
  afterAll(() => t.close());

  it('pays by card, swipe and ACH (REST and GraphQL), then finds none of the values in any table or log line', async () => {
    // The detector itself finds what it looks for.
    expect(leaks(`{"security_code":"${SECURITY_CODE}","magnetic_track":"${TRACK_1}"}`)).toEqual([
      SWIPED_PAN,
      TRACK_1,
      SECURITY_CODE,
    ]);
    expect(leaks('"responseTime":29163.58,"id":"ab9163cd"')).toEqual([]);
    const w = await loadPaymentWorld(t);
    t.clock.set(PAY_AT);
    logLines.length = 0;
    t.db.queries.length = 0;
    const address = { address1: '1 Main St', city: 'Springfield', state: 'IL', postal: '62701' };
    const holder = { first_name: 'Ada', last_name: 'Lovelace', billing_address_attributes: address };

    const typed = await t.postJson(
      w.url,
      payment(
        [line(w.retail)],
        {
          ...holder,
          kind: 'credit_card',
          card_number: TYPED_PAN,
          card_type: 'american_express',
          security_code: SECURITY_CODE,
          expiration_date: '11/29',
          reuseable: true,
        },
        { tenant_id: w.tenant.id },
      ),
      { 'idempotency-key': 'card-data-1' },
    );
    expect(typed.statusCode).toBe(200);
    const swiped = await t.postJson(
      w.url,
      payment([line(w.cheap)], {
        ...holder,
        kind: 'card_swipe',
        magnetic_track: `${TRACK_1}${TRACK_2}`,
        reuseable: true,
      }),
      { 'idempotency-key': 'card-data-2' },
    );
    expect(swiped.statusCode).toBe(200);
    const bank = await t.postJson(
      w.url,
      payment([line(w.cheap)], {
        ...holder,
        kind: 'ach',
        account_number: ACCOUNT,
        account_number_confirmation: ACCOUNT,
        account_type: 'savings',
        bank_name: 'First Bank',
        routing_number: ROUTING,
        reuseable: true,
      }),
    );
    expect(bank.statusCode).toBe(200);
    // Refused ones too: a decline, a bad expiry, a mismatched confirmation, a gateway outage.
    const declined = await t.postJson(
      w.url,
      payment([line(w.cheap)], {
        ...holder,
        kind: 'credit_card',
        card_number: DECLINED_VISA,
        card_type: 'visa',
        security_code: '913',
        expiration_date: '11/29',
      }),
    );
    expect(declined.statusCode).toBe(400);
    const badExpiry = await t.postJson(
      w.url,
      payment([line(w.cheap)], {
        ...holder,
        kind: 'credit_card',
        card_number: TYPED_PAN,
        card_type: 'american_express',
        security_code: SECURITY_CODE,
        expiration_date: '01/20',
      }),
    );
    expect(badExpiry.statusCode).toBe(400);
    const mismatch = await t.postJson(
      w.url,
      payment([line(w.cheap)], {
        ...holder,
        kind: 'ach',
        account_number: ACCOUNT,
        account_number_confirmation: `${ACCOUNT}1`,
        account_type: 'savings',
        bank_name: 'First Bank',
        routing_number: ROUTING,
      }),
    );
    expect(mismatch.statusCode).toBe(400);
    gatewayOf(t).failNext('unavailable');
    const outage = await t.postJson(
      w.url,
      payment([line(w.cheap)], { ...holder, kind: 'card_swipe', magnetic_track: TRACK_2 }),
    );
    expect(outage.statusCode).toBe(400);

    const mutation = `mutation Pay($facilityId: UUID!, $input: RetailPaymentInput!, $key: String) {
      payRetail(facilityId: $facilityId, input: $input, idempotencyKey: $key) { id paymentMethod { cardNumber } }
    }`;
    const gqlHolder = { firstName: 'Ada', lastName: 'Lovelace', billingAddress: address };
    const gqlCard = await postGraphql(
      t.app,
      {
        query: mutation,
        variables: {
          facilityId: t.world.facility.id,
          key: 'card-data-3',
          input: {
            invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
            paymentMethod: {
              ...gqlHolder,
              kind: 'CREDIT_CARD',
              cardNumber: GRAPHQL_PAN,
              cardType: 'DISCOVER',
              securityCode: '472',
              expirationDate: '11/29',
              reuseable: true,
            },
          },
        },
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(gqlCard.errors).toBeUndefined();
    const gqlBank = await postGraphql(
      t.app,
      {
        query: mutation,
        variables: {
          facilityId: t.world.facility.id,
          input: {
            invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
            paymentMethod: {
              ...gqlHolder,
              kind: 'ACH',
              accountNumber: GRAPHQL_ACCOUNT,
              accountNumberConfirmation: GRAPHQL_ACCOUNT,
              accountType: 'CHECKING',
              bankName: 'First Bank',
              routingNumber: ROUTING,
            },
          },
        },
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(gqlBank.errors).toBeUndefined();

    // The answers show no more than the last four digits.
    for (const res of [
      typed,
      swiped,
      bank,
      declined,
      badExpiry,
      mismatch,
      outage,
      gqlCard.raw,
      gqlBank.raw,
    ]) {
      expect(leaks(res.body)).toEqual([]);
    }

    const tables = await everyTableAsText(t);
    for (const name of [
      'payments',
      'payment_lines',
      'payment_methods',
      'events',
      'event_documents',
      'idempotency_keys',
    ]) {
      expect(tables[name]).toBeDefined();
    }
    expect(tables.payment_methods).toContain('"card_last4":"8431"');
    expect(tables.payment_methods).toContain('"card_last4":"5100"');
    expect(tables.payment_methods).toContain('"card_last4":"3210"');
    for (const [name, text] of Object.entries(tables)) {
      expect({ table: name, leaks: leaks(text) }).toEqual({ table: name, leaks: [] });
    }
    if (t.db.store.sqlite) {
      // The database file itself, free pages included.
      const file = t.db.store.sqlite.serialize().toString('latin1');
      expect(leaks(file)).toEqual([]);
    }
    expect(leaks(t.db.queries.join('\n'))).toEqual([]);

    expect(logLines.length).toBeGreaterThan(10);
    for (const lineText of logLines) expect(leaks(lineText)).toEqual([]);
    expect(leaks(JSON.stringify(gatewayOf(t).charges))).toEqual([]);
  });
});

// Two Visa numbers of one length and last four digits: a receipt cannot tell them apart.
const VISA_TWIN = '4000000006001111';

describeEachDialect(
  'retail payment: the Idempotency-Key fingerprint holds a card as a receipt does',
  (dialect) => {
    let t: TestApp;
    let w: PaymentWorld;
    const logLines: string[] = [];

    beforeAll(async () => {
      t = await createTestApp(dialect, { logLines });
      w = await loadPaymentWorld(t);
      t.clock.set(PAY_AT);
    });
    afterAll(() => t.close());

    const pay = (body: unknown, key: string) => t.postJson(w.url, body, { 'idempotency-key': key });
    const storedHash = async (key: string) =>
      (
        await t.db.store.db
          .selectFrom('idempotency_keys')
          .select('request_hash')
          .where('key', '=', key)
          .executeTakeFirstOrThrow()
      ).request_hash;
    const mutation = `mutation Pay($facilityId: UUID!, $input: RetailPaymentInput!, $key: String) {
    payRetail(facilityId: $facilityId, input: $input, idempotencyKey: $key) { id }
  }`;
    const payGraphql = (key: string, securityCode: string) =>
      postGraphql<{ payRetail: { id: string } }>(
        t.app,
        {
          query: mutation,
          variables: {
            facilityId: t.world.facility.id,
            key,
            input: {
              invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
              paymentMethod: {
                kind: 'CREDIT_CARD',
                firstName: 'Ada',
                lastName: 'Lovelace',
                cardNumber: VISA,
                cardType: 'VISA',
                securityCode,
                expirationDate: '12/30',
                billingAddress: {},
              },
            },
          },
        },
        { bearer: t.world.client.bearer_token },
      );

    it('replays a retry whose security code differs, and charges once', async () => {
      const charges = gatewayOf(t).charges.length;
      const body = payment([line(w.cheap)], creditCard({ security_code: '123' }));
      const first = await pay(body, 'fp-code');
      expect(first.statusCode).toBe(200);
      const retry = await pay(payment([line(w.cheap)], creditCard({ security_code: '987' })), 'fp-code');
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);

      // GraphQL (camelCase input) alike.
      const paid = await payGraphql('fp-graphql', '123');
      expect(paid.errors).toBeUndefined();
      const again = await payGraphql('fp-graphql', '456');
      expect(again.errors).toBeUndefined();
      expect(again.data?.payRetail.id).toBe(paid.data?.payRetail.id);
      expect(gatewayOf(t).charges.length).toBe(charges + 2);
    });

    it('answers a key an earlier version kept (its fingerprint cleared) with its payment, charging nothing', async () => {
      const body = payment([line(w.cheap)], creditCard({ security_code: '321' }));
      const first = await pay(body, 'fp-earlier');
      expect(first.statusCode).toBe(200);
      // As an earlier version stored it: a SHA-256 over the whole card; then the migration clears it.
      await t.db.store.db
        .updateTable('idempotency_keys')
        .set({ request_hash: createHash('sha256').update(JSON.stringify(body)).digest('hex') })
        .where('key', '=', 'rest:fp-earlier')
        .execute();
      await clearEarlierFingerprints(t.db.store.db as Kysely<unknown>);
      expect(await storedHash('rest:fp-earlier')).toBe('cleared');
      const charges = gatewayOf(t).charges.length;
      const retry = await pay(payment([line(w.cheap)], creditCard({ security_code: '999' })), 'fp-earlier');
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);
      expect(gatewayOf(t).charges.length).toBe(charges);
    });

    it('still refuses the key for another card, told by its length or last four digits', async () => {
      const first = await pay(payment([line(w.cheap)], creditCard()), 'fp-other');
      expect(first.statusCode).toBe(200);
      for (const other of [
        creditCard({ card_number: '5555555555554444', card_type: 'mastercard' }),
        creditCard({ card_number: '4012888888881881' }),
      ]) {
        const res = await pay(payment([line(w.cheap)], other), 'fp-other');
        expect({ status: res.statusCode, errorCode: res.json().meta.error_code }).toEqual({
          status: 400,
          errorCode: 5,
        });
      }
    });

    it('keeps no more of the card than a receipt: two cards alike there, with other codes, store one fingerprint', async () => {
      const typed = (cardNumber: string, securityCode: string) =>
        payment([line(w.cheap)], creditCard({ card_number: cardNumber, security_code: securityCode }));
      expect((await pay(typed(VISA, '111'), 'fp-a')).statusCode).toBe(200);
      expect((await pay(typed(VISA_TWIN, '222'), 'fp-b')).statusCode).toBe(200);
      const hash = await storedHash('rest:fp-a');
      expect(hash).toBe(await storedHash('rest:fp-b'));

      // A swipe counts by the card its tracks hold, whatever else the stripe says.
      const swipe = (track: string) =>
        payment([line(w.cheap)], {
          first_name: 'Ada',
          last_name: 'Lovelace',
          kind: 'card_swipe',
          magnetic_track: track,
          billing_address_attributes: {},
        });
      const track = (discretionary: string) => `;${VISA}=3012101${discretionary}?`;
      expect((await pay(swipe(track('1234500000')), 'fp-swipe')).statusCode).toBe(200);
      const reswiped = await pay(swipe(track('9876500000')), 'fp-swipe');
      expect(reswiped.statusCode).toBe(200);
      expect(reswiped.headers['idempotent-replayed']).toBe('true');
      expect((await pay(swipe(`;${VISA_TWIN}=3012101000?`), 'fp-swipe-twin')).statusCode).toBe(200);
      expect(await storedHash('rest:fp-swipe-twin')).toBe(await storedHash('rest:fp-swipe'));

      // Nor any plain hash of a number, code or track in the table.
      const table = JSON.stringify(await t.db.store.db.selectFrom('idempotency_keys').selectAll().execute());
      for (const secret of [VISA, VISA_TWIN, '111', '222', track('1234500000')]) {
        for (const algorithm of ['sha256', 'sha1', 'md5']) {
          for (const encoding of ['hex', 'base64'] as const) {
            expect(table).not.toContain(createHash(algorithm).update(secret).digest(encoding));
          }
        }
      }
    });
  },
);
