import { randomUUID } from 'node:crypto';
import type { TestPaymentGateway } from '../../src/adapters/payments/test-gateway';
import type { DatasetInvoiceableItem, DatasetTenant } from '../../src/store/dataset/dataset.types';
import type { Db } from '../../src/store/database';
import type { Database } from '../../src/store/schema';
import { buildFacility, buildItem, buildTenant } from './factories';
import type { TestApp } from './http';

/** Summer in New York: the facility's instants are written at -04:00, today is 2026-07-04. */
export const PAY_AT = new Date('2026-07-04T16:30:00Z');

export const VISA = '4111111111111111';
export const AMEX = '378282246310005';
export const MASTERCARD = '5555555555554444';
export const DECLINED_VISA = '4000000000000002';
export const ROUTING = '011000015';

export interface PaymentWorld {
  url: string;
  tenant: DatasetTenant;
  otherTenant: DatasetTenant;
  foreignTenant: DatasetTenant;
  /** Retail, total 10.80, 10 in stock. */
  retail: DatasetInvoiceableItem;
  /** Retail, total 2.50, 100 in stock. */
  cheap: DatasetInvoiceableItem;
  fee: DatasetInvoiceableItem;
  insurance: DatasetInvoiceableItem;
  service: DatasetInvoiceableItem;
  foreignRetail: DatasetInvoiceableItem;
  disabled: { url: string; tenant: DatasetTenant; retail: DatasetInvoiceableItem };
}

export async function loadPaymentWorld(t: TestApp): Promise<PaymentWorld> {
  const { company, facility, otherFacility } = t.world;
  const disabledFacility = buildFacility({
    company_id: company.id,
    name: 'No Tenant Payments',
    tenant_payments_disabled: true,
  });
  const tenant = buildTenant({ facility_id: facility.id });
  const otherTenant = buildTenant({ facility_id: facility.id, first_name: 'Grace', last_name: 'Hopper' });
  const foreignTenant = buildTenant({ facility_id: otherFacility.id });
  const disabledTenant = buildTenant({ facility_id: disabledFacility.id });
  const retail = buildItem({ facility_id: facility.id, description: 'Disc lock', product_code: 'LOCK-1' });
  const cheap = buildItem({
    facility_id: facility.id,
    description: 'Packing tape',
    product_code: 'TAPE-1',
    invoiceable_amounts: [{ id: randomUUID(), amount: 2.3, kind: 'amount', limit: null }],
    tax_total: 0.2,
    total: 2.5,
    quantity: 100,
  });
  const fee = buildItem({ facility_id: facility.id, kind: 'fee' });
  const insurance = buildItem({ facility_id: facility.id, kind: 'insurance' });
  const service = buildItem({ facility_id: facility.id, kind: 'service' });
  const foreignRetail = buildItem({ facility_id: otherFacility.id });
  const disabledRetail = buildItem({ facility_id: disabledFacility.id });
  await t.load({
    facilities: [disabledFacility],
    tenants: [tenant, otherTenant, foreignTenant, disabledTenant],
    invoiceable_items: [retail, cheap, fee, insurance, service, foreignRetail, disabledRetail],
  });
  return {
    url: `/v1/${facility.id}/invoiceable_items/retail_payment`,
    tenant,
    otherTenant,
    foreignTenant,
    retail,
    cheap,
    fee,
    insurance,
    service,
    foreignRetail,
    disabled: {
      url: `/v1/${disabledFacility.id}/invoiceable_items/retail_payment`,
      tenant: disabledTenant,
      retail: disabledRetail,
    },
  };
}

export const billingAddress = {
  company: '',
  address1: '1 Main St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  postal: '62701',
};

export function creditCard(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    kind: 'credit_card',
    card_number: VISA,
    card_type: 'visa',
    security_code: '123',
    expiration_date: '12/30',
    billing_address_attributes: billingAddress,
    ...overrides,
  };
}

export function cash(
  amountTendered: unknown,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    kind: 'cash',
    amount_tendered: amountTendered,
    billing_address_attributes: {},
    ...overrides,
  };
}

export function ach(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    kind: 'ach',
    account_number: '000123456789',
    account_number_confirmation: '000123456789',
    account_type: 'checking',
    bank_name: 'First Bank',
    routing_number: ROUTING,
    billing_address_attributes: billingAddress,
    ...overrides,
  };
}

export function payment(
  items: Array<{ invoiceable_item_id: unknown; quantity: unknown }>,
  method: Record<string, unknown>,
  retail: Record<string, unknown> = {},
): Record<string, unknown> {
  return { retail_payment: { ...retail, invoiceable_items: items }, payment_method: method };
}

export const line = (item: { id: string }, quantity: unknown = 1) => ({
  invoiceable_item_id: item.id,
  quantity,
});

async function count(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a payment writes: row counts and every item's stock. */
export async function snapshot(t: TestApp): Promise<Record<string, unknown>> {
  const db = t.db.store.db;
  const stock = await db.selectFrom('invoiceable_items').select(['id', 'quantity']).orderBy('id').execute();
  return {
    payments: await count(db, 'payments'),
    payment_lines: await count(db, 'payment_lines'),
    payment_methods: await count(db, 'payment_methods'),
    events: await count(db, 'events'),
    event_documents: await count(db, 'event_documents'),
    idempotency_keys: await count(db, 'idempotency_keys'),
    stock: Object.fromEntries(stock.map((row) => [row.id, row.quantity])),
  };
}

export function gatewayOf(t: TestApp): TestPaymentGateway {
  return t.services.payments.gateway as TestPaymentGateway;
}
