import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import {
  AMEX,
  MASTERCARD,
  PAY_AT,
  VISA,
  ach,
  cash,
  creditCard,
  gatewayOf,
  line,
  loadPaymentWorld,
  payment,
  snapshot,
  type PaymentWorld,
} from '../../support/payments';

type Body = Record<string, unknown>;
type Case = [label: string, body: (w: PaymentWorld) => Body, parameters: string[]];

const LONG = 'x'.repeat(10_000);
const LONG_DIGITS = '4'.repeat(10_000);
const UNKNOWN_ID = '0c8f6a0e-8a43-4f55-9e7c-2f4d7f3f8a11';
const SQL = "1'; DROP TABLE payments; --";

const swipe = (o: Body = {}): Body => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  kind: 'card_swipe',
  magnetic_track: `;${VISA}=30121010000000000000?`,
  billing_address_attributes: {},
  ...o,
});
const check = (o: Body = {}): Body => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  kind: 'check',
  check_number: '1042',
  name_on_check: 'Ada Lovelace',
  check_amount: '2.50',
  billing_address_attributes: {},
  ...o,
});
const moneyOrder = (o: Body = {}): Body => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  kind: 'money_order',
  reference_number: 'MO-1',
  money_order_amount: '2.50',
  billing_address_attributes: {},
  ...o,
});

/** A card payment for one packing tape (2.50), with one field of payment_method replaced. */
const withMethod =
  (method: Body) =>
  (w: PaymentWorld): Body =>
    payment([line(w.cheap)], method);
/** The card payment with the one item line replaced. */
const withLine =
  (entry: (w: PaymentWorld) => unknown) =>
  (w: PaymentWorld): Body => ({
    retail_payment: { invoiceable_items: [entry(w)] },
    payment_method: creditCard(),
  });
const quantity = (value: unknown) => withLine((w) => ({ invoiceable_item_id: w.cheap.id, quantity: value }));
const without = (body: Body, key: string): Body =>
  Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

const PM = 'payment_method';
const ITEM = 'retail_payment.invoiceable_items[0]';

const CASES: Case[] = [
  // The two objects.
  ['an empty body', () => ({}), ['retail_payment', PM]],
  [
    'retail_payment missing',
    (w) => without(payment([line(w.cheap)], creditCard()), 'retail_payment'),
    ['retail_payment'],
  ],
  [
    'retail_payment a string',
    () => ({ retail_payment: 'x', payment_method: creditCard() }),
    ['retail_payment'],
  ],
  ['retail_payment a list', () => ({ retail_payment: [], payment_method: creditCard() }), ['retail_payment']],
  ['payment_method missing', (w) => without(payment([line(w.cheap)], creditCard()), PM), [PM]],
  [
    'payment_method a number',
    (w) => ({ ...payment([line(w.cheap)], creditCard()), payment_method: 7 }),
    [PM],
  ],
  ['payment_method a list', (w) => ({ ...payment([line(w.cheap)], creditCard()), payment_method: [] }), [PM]],

  // tenant_id.
  ...(
    [
      ['a number', 42],
      ['not a UUID', 'tenant-1'],
      ['10,000 characters', LONG],
      ['an SQL fragment', SQL],
    ] as const
  ).map(([label, value]): Case => [
    `retail_payment.tenant_id ${label}`,
    (w) => payment([line(w.cheap)], creditCard(), { tenant_id: value }),
    ['retail_payment.tenant_id'],
  ]),

  // The list of items.
  [
    'invoiceable_items missing',
    () => ({ retail_payment: {}, payment_method: creditCard() }),
    ['retail_payment.invoiceable_items'],
  ],
  ['invoiceable_items empty', () => payment([], creditCard()), ['retail_payment.invoiceable_items']],
  [
    'invoiceable_items a string',
    () => ({ retail_payment: { invoiceable_items: 'lock' }, payment_method: creditCard() }),
    ['retail_payment.invoiceable_items'],
  ],
  [
    'invoiceable_items an object',
    (w) => ({ retail_payment: { invoiceable_items: line(w.cheap) }, payment_method: creditCard() }),
    ['retail_payment.invoiceable_items'],
  ],
  [
    'invoiceable_items with 101 entries',
    (w) =>
      payment(
        Array.from({ length: 101 }, () => line(w.cheap)),
        creditCard(),
      ),
    ['retail_payment.invoiceable_items'],
  ],
  ['an item entry a number', withLine(() => 5), [ITEM]],
  ['an item entry a string', withLine(() => 'lock'), [ITEM]],
  ['invoiceable_item_id missing', withLine(() => ({ quantity: 1 })), [`${ITEM}.invoiceable_item_id`]],
  [
    'invoiceable_item_id a number',
    withLine(() => ({ invoiceable_item_id: 7, quantity: 1 })),
    [`${ITEM}.invoiceable_item_id`],
  ],
  [
    'invoiceable_item_id not a UUID',
    withLine(() => ({ invoiceable_item_id: 'lock', quantity: 1 })),
    [`${ITEM}.invoiceable_item_id`],
  ],
  [
    'invoiceable_item_id an SQL fragment',
    withLine(() => ({ invoiceable_item_id: SQL, quantity: 1 })),
    [`${ITEM}.invoiceable_item_id`],
  ],
  [
    'invoiceable_item_id 10,000 characters',
    withLine(() => ({ invoiceable_item_id: LONG, quantity: 1 })),
    [`${ITEM}.invoiceable_item_id`],
  ],
  [
    'an unknown item',
    withLine(() => ({ invoiceable_item_id: UNKNOWN_ID, quantity: 1 })),
    [`${ITEM}.invoiceable_item_id`],
  ],
  ['a fee item', withLine((w) => line(w.fee)), [`${ITEM}.invoiceable_item_id`]],
  ['an insurance item', withLine((w) => line(w.insurance)), [`${ITEM}.invoiceable_item_id`]],
  ['a service item', withLine((w) => line(w.service)), [`${ITEM}.invoiceable_item_id`]],
  ["another facility's retail item", withLine((w) => line(w.foreignRetail)), [`${ITEM}.invoiceable_item_id`]],
  [
    'the same item twice',
    (w) => payment([line(w.cheap), line(w.retail), line(w.cheap, 2)], creditCard()),
    ['retail_payment.invoiceable_items[2].invoiceable_item_id'],
  ],
  [
    'two bad entries at once',
    (w) => payment([line(w.cheap, 0), line(w.retail), line(w.fee, 'two')], creditCard()),
    [`${ITEM}.quantity`, 'retail_payment.invoiceable_items[2].quantity'],
  ],

  // Quantity: a whole number from 1 to 1000, as a number or a string.
  ...(
    [
      ['missing', undefined],
      ['null', null],
      ['negative', -1],
      ['a negative string', '-1'],
      ['0', 0],
      ['"0"', '0'],
      ['fractional', 1.5],
      ['a fractional string', '1.5'],
      ['1001', 1001],
      ['"1001"', '1001'],
      ['letters', 'two'],
      ['exponent notation', '1e3'],
      ['true', true],
      ['a list', [1]],
      ['an object', { n: 1 }],
      ['10,000 digits', LONG_DIGITS],
      ['an SQL fragment', SQL],
    ] as const
  ).map(([label, value]): Case => [`quantity ${label}`, quantity(value), [`${ITEM}.quantity`]]),

  // A saved method.
  ['payment_method_id a number', withMethod({ payment_method_id: 12 }), [`${PM}.payment_method_id`]],
  ['payment_method_id not a UUID', withMethod({ payment_method_id: 'card-1' }), [`${PM}.payment_method_id`]],
  [
    'payment_method_id 10,000 characters',
    withMethod({ payment_method_id: LONG }),
    [`${PM}.payment_method_id`],
  ],
  ['payment_method_id unknown', withMethod({ payment_method_id: UNKNOWN_ID }), [`${PM}.payment_method_id`]],

  // Fields of every new method.
  ['first_name missing', withMethod(without(creditCard(), 'first_name')), [`${PM}.first_name`]],
  ['first_name blank', withMethod(creditCard({ first_name: '   ' })), [`${PM}.first_name`]],
  ['first_name a number', withMethod(creditCard({ first_name: 1 })), [`${PM}.first_name`]],
  ['last_name missing', withMethod(without(creditCard(), 'last_name')), [`${PM}.last_name`]],
  ['kind missing', withMethod(without(creditCard(), 'kind')), [`${PM}.kind`]],
  ['kind unknown', withMethod(creditCard({ kind: 'bitcoin' })), [`${PM}.kind`]],
  ['kind a number', withMethod(creditCard({ kind: 3 })), [`${PM}.kind`]],
  ['reuseable "yes"', withMethod(creditCard({ reuseable: 'yes' })), [`${PM}.reuseable`]],
  ['reuseable 1', withMethod(creditCard({ reuseable: 1 })), [`${PM}.reuseable`]],
  [
    'billing_address_attributes missing',
    withMethod(without(creditCard(), 'billing_address_attributes')),
    [`${PM}.billing_address_attributes`],
  ],
  [
    'billing_address_attributes a string',
    withMethod(creditCard({ billing_address_attributes: '1 Main St' })),
    [`${PM}.billing_address_attributes`],
  ],
  [
    'billing_address_attributes a list',
    withMethod(creditCard({ billing_address_attributes: [] })),
    [`${PM}.billing_address_attributes`],
  ],
  [
    'billing address city a number',
    withMethod(creditCard({ billing_address_attributes: { city: 5 } })),
    [`${PM}.billing_address_attributes.city`],
  ],

  // Credit card.
  ['card_number missing', withMethod(without(creditCard(), 'card_number')), [`${PM}.card_number`]],
  ['card_number a number', withMethod(creditCard({ card_number: 4111111111111111 })), [`${PM}.card_number`]],
  [
    'card_number with letters',
    withMethod(creditCard({ card_number: '4111abcd11111111' })),
    [`${PM}.card_number`],
  ],
  ['card_number too short', withMethod(creditCard({ card_number: '4111' })), [`${PM}.card_number`]],
  [
    'card_number failing Luhn',
    withMethod(creditCard({ card_number: '4111111111111112' })),
    [`${PM}.card_number`],
  ],
  [
    'card_number of no accepted brand',
    withMethod(creditCard({ card_number: '9999999999999995' })),
    [`${PM}.card_number`],
  ],
  [
    'card_type not the brand of the number',
    withMethod(creditCard({ card_number: MASTERCARD })),
    [`${PM}.card_type`],
  ],
  ['card_type missing', withMethod(without(creditCard(), 'card_type')), [`${PM}.card_type`]],
  ['card_type unknown', withMethod(creditCard({ card_type: 'bitcoin' })), [`${PM}.card_type`]],
  ['security_code missing', withMethod(without(creditCard(), 'security_code')), [`${PM}.security_code`]],
  ['security_code of 2 digits', withMethod(creditCard({ security_code: '12' })), [`${PM}.security_code`]],
  ['security_code of 5 digits', withMethod(creditCard({ security_code: '12345' })), [`${PM}.security_code`]],
  ['security_code with letters', withMethod(creditCard({ security_code: '12a' })), [`${PM}.security_code`]],
  ['security_code a number', withMethod(creditCard({ security_code: 123 })), [`${PM}.security_code`]],
  [
    'security_code of 4 digits for Visa',
    withMethod(creditCard({ security_code: '1234' })),
    [`${PM}.security_code`],
  ],
  [
    'security_code of 3 digits for American Express',
    withMethod(creditCard({ card_number: AMEX, card_type: 'american_express', security_code: '123' })),
    [`${PM}.security_code`],
  ],
  [
    'expiration_date missing',
    withMethod(without(creditCard(), 'expiration_date')),
    [`${PM}.expiration_date`],
  ],
  [
    'expiration_date month 13',
    withMethod(creditCard({ expiration_date: '13/30' })),
    [`${PM}.expiration_date`],
  ],
  [
    'expiration_date without a slash',
    withMethod(creditCard({ expiration_date: '1230' })),
    [`${PM}.expiration_date`],
  ],
  [
    'expiration_date with a 4-digit year',
    withMethod(creditCard({ expiration_date: '12/2030' })),
    [`${PM}.expiration_date`],
  ],
  [
    'an expired card (06/26 in July 2026)',
    withMethod(creditCard({ expiration_date: '06/26' })),
    [`${PM}.expiration_date`],
  ],
  [
    'expiration_date 25 years ahead',
    withMethod(creditCard({ expiration_date: '07/51' })),
    [`${PM}.expiration_date`],
  ],

  // Card swipe.
  ['magnetic_track missing', withMethod(without(swipe(), 'magnetic_track')), [`${PM}.magnetic_track`]],
  ['magnetic_track unreadable', withMethod(swipe({ magnetic_track: 'hello' })), [`${PM}.magnetic_track`]],
  [
    'magnetic_track tracks of two cards',
    withMethod(swipe({ magnetic_track: `%B${VISA}^A/B^3012101?;${MASTERCARD}=30121010?` })),
    [`${PM}.magnetic_track`],
  ],
  [
    'magnetic_track of an expired card',
    withMethod(swipe({ magnetic_track: `;${VISA}=26061010000?` })),
    [`${PM}.magnetic_track`],
  ],
  [
    'magnetic_track failing Luhn',
    withMethod(swipe({ magnetic_track: ';4111111111111112=30121010000?' })),
    [`${PM}.magnetic_track`],
  ],
  [
    'magnetic_track month 13',
    withMethod(swipe({ magnetic_track: `;${VISA}=30131010000?` })),
    [`${PM}.magnetic_track`],
  ],
  [
    'card swipe with a card_type of another brand',
    withMethod(swipe({ card_type: 'jcb' })),
    [`${PM}.card_type`],
  ],

  // ACH.
  ['account_number missing', withMethod(without(ach(), 'account_number')), [`${PM}.account_number`]],
  [
    'account_number with letters',
    withMethod(ach({ account_number: '00012345678x', account_number_confirmation: '00012345678x' })),
    [`${PM}.account_number`, `${PM}.account_number_confirmation`],
  ],
  [
    'account_number of 3 digits',
    withMethod(ach({ account_number: '123', account_number_confirmation: '123' })),
    [`${PM}.account_number`, `${PM}.account_number_confirmation`],
  ],
  [
    'account_number_confirmation missing',
    withMethod(without(ach(), 'account_number_confirmation')),
    [`${PM}.account_number_confirmation`],
  ],
  [
    'account_number_confirmation mismatched',
    withMethod(ach({ account_number_confirmation: '000123456780' })),
    [`${PM}.account_number_confirmation`],
  ],
  ['account_type missing', withMethod(without(ach(), 'account_type')), [`${PM}.account_type`]],
  ['account_type unknown', withMethod(ach({ account_type: 'bitcoin' })), [`${PM}.account_type`]],
  ['bank_name missing', withMethod(without(ach(), 'bank_name')), [`${PM}.bank_name`]],
  ['routing_number missing', withMethod(without(ach(), 'routing_number')), [`${PM}.routing_number`]],
  ['routing_number short', withMethod(ach({ routing_number: '01100001' })), [`${PM}.routing_number`]],
  [
    'routing_number with a bad checksum',
    withMethod(ach({ routing_number: '011000016' })),
    [`${PM}.routing_number`],
  ],
  ['routing_number with letters', withMethod(ach({ routing_number: '01100001a' })), [`${PM}.routing_number`]],

  // Check and money order.
  ['check_number missing', withMethod(without(check(), 'check_number')), [`${PM}.check_number`]],
  ['check_number with letters', withMethod(check({ check_number: 'ten' })), [`${PM}.check_number`]],
  ['name_on_check missing', withMethod(without(check(), 'name_on_check')), [`${PM}.name_on_check`]],
  ['check_amount missing', withMethod(without(check(), 'check_amount')), [`${PM}.check_amount`]],
  ['check_amount negative', withMethod(check({ check_amount: '-2.50' })), [`${PM}.check_amount`]],
  ['check_amount 0', withMethod(check({ check_amount: 0 })), [`${PM}.check_amount`]],
  ['check_amount with 3 decimals', withMethod(check({ check_amount: '2.505' })), [`${PM}.check_amount`]],
  ['check_amount a list', withMethod(check({ check_amount: [2.5] })), [`${PM}.check_amount`]],
  [
    'reference_number missing',
    withMethod(without(moneyOrder(), 'reference_number')),
    [`${PM}.reference_number`],
  ],
  [
    'reference_number with symbols',
    withMethod(moneyOrder({ reference_number: 'MO 1!' })),
    [`${PM}.reference_number`],
  ],
  [
    'money_order_amount missing',
    withMethod(without(moneyOrder(), 'money_order_amount')),
    [`${PM}.money_order_amount`],
  ],

  // Cash.
  ['amount_tendered missing', withMethod(without(cash(5), 'amount_tendered')), [`${PM}.amount_tendered`]],
  ['amount_tendered negative', withMethod(cash(-5)), [`${PM}.amount_tendered`]],
  ['amount_tendered letters', withMethod(cash('five')), [`${PM}.amount_tendered`]],
  ['amount_tendered with 3 decimals', withMethod(cash(5.005)), [`${PM}.amount_tendered`]],
  ['amount_tendered absurdly large', withMethod(cash('99999999999')), [`${PM}.amount_tendered`]],
  ['amount_tendered an object', withMethod(cash({ value: 5 })), [`${PM}.amount_tendered`]],
];

/** Every string field of each kind of method, each 10,000 characters long in turn. */
const STRING_FIELDS: Array<[method: Body, field: string]> = [
  ...[
    'first_name',
    'last_name',
    'kind',
    'card_number',
    'card_type',
    'security_code',
    'expiration_date',
    'billing_postal',
  ].map((f): [Body, string] => [creditCard(), f]),
  ...['company', 'address1', 'address2', 'city', 'state', 'postal'].map((f): [Body, string] => [
    creditCard(),
    `billing_address_attributes.${f}`,
  ]),
  [swipe(), 'magnetic_track'],
  ...['account_number', 'account_number_confirmation', 'account_type', 'bank_name', 'routing_number'].map(
    (f): [Body, string] => [ach(), f],
  ),
  ...['check_number', 'name_on_check', 'check_amount'].map((f): [Body, string] => [check(), f]),
  ...['reference_number', 'money_order_amount'].map((f): [Body, string] => [moneyOrder(), f]),
  [cash(5), 'amount_tendered'],
];

function setPath(body: Body, path: string, value: unknown): Body {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...body, [head]: value };
  return { ...body, [head]: setPath((body[head] as Body) ?? {}, rest.join('.'), value) };
}

for (const [method, field] of STRING_FIELDS) {
  const value = /number|code|amount/.test(field) ? LONG_DIGITS : LONG;
  CASES.push([
    `${String(method.kind)} ${field} of 10,000 characters`,
    withMethod(setPath(method, field, value)),
    [`${PM}.${field}`],
  ]);
}

describeEachDialect('retail payment: bad input charges nothing and changes nothing', (dialect) => {
  let t: TestApp;
  let w: PaymentWorld;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    w = await loadPaymentWorld(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(PAY_AT));

  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: w.url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}`, 'content-type': contentType },
      payload,
    });

  it.each(CASES)('%s: 400/4 naming the parameter', async (_label, body, parameters) => {
    const before = await snapshot(t);
    const charges = gatewayOf(t).charges.length;
    const res = await post(JSON.stringify(body(w)));
    expect(res.statusCode).toBe(400);
    const meta = res.json().meta;
    expect(meta.error_code).toBe(4);
    expect(meta.errors.map((e: { parameter: string }) => e.parameter)).toEqual(parameters);
    expect(meta.message).toContain(parameters[0]);
    expect(await snapshot(t)).toEqual(before);
    expect(gatewayOf(t).charges.length).toBe(charges);
  });

  it.each([
    ['malformed JSON', '{"retail_payment": {"invoiceable_items": [', 'application/json'],
    ['an empty JSON body', '', 'application/json'],
    ['a JSON array', '[1, 2]', 'application/json'],
    ['a JSON string', '"pay"', 'application/json'],
    ['a malformed form body', 'retail_payment[__proto__][x]=1', 'application/x-www-form-urlencoded'],
  ])('%s: 400/4 naming the body, nothing written', async (_label, payload, type) => {
    const before = await snapshot(t);
    const res = await post(payload, type);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'body' }] });
    expect(await snapshot(t)).toEqual(before);
  });

  it('keeps quotes and SQL fragments in names as plain data', async () => {
    const name = 'O\'Brien"; DROP TABLE payments; --';
    const res = await post(JSON.stringify(payment([line(w.cheap)], creditCard({ first_name: name }))));
    expect(res.statusCode).toBe(200);
    expect(res.json().successful_payment_event.payment_method.first_name).toBe(name);
    const row = await t.db.store.db
      .selectFrom('payment_methods')
      .select('first_name')
      .where('id', '=', res.json().successful_payment_event.payment_method.id)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe(name);
  });

  it('names every bad field of a body at once', async () => {
    const res = await post(
      JSON.stringify(
        payment(
          [line(w.cheap, 0)],
          creditCard({ card_number: '4111111111111112', security_code: '1', expiration_date: '01/20' }),
          { tenant_id: 'nobody' },
        ),
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().meta.errors.map((e: { parameter: string }) => e.parameter)).toEqual([
      'retail_payment.tenant_id',
      `${ITEM}.quantity`,
      `${PM}.security_code`,
      `${PM}.expiration_date`,
      `${PM}.card_number`,
    ]);
  });
});
