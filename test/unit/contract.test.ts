import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import * as EventDocument from '../../src/areas/documents/event-document.contract';
import * as InvoiceableItem from '../../src/areas/invoiceable-items/invoiceable-item.contract';
import { LedgerInsurance, LedgerService } from '../../src/areas/ledgers/ledger-charges.contract';
import * as LedgerDiscount from '../../src/areas/ledgers/ledger-discount.contract';
import * as MoveInReview from '../../src/areas/move-ins/move-in-review.contract';
import * as NoteEvent from '../../src/areas/notes/note-event.contract';
import * as PaymentEvent from '../../src/areas/payments/payment-event.contract';
import * as RateAppliedAction from '../../src/areas/rate-applied-actions/rate-applied-action.contract';
import * as RateChangeUpdate from '../../src/areas/rate-changes/rate-change-update.contract';
import { SHARED_SCHEMAS } from '../../src/modules';
import type { InvoiceableItem as Item } from '../../src/areas/invoiceable-items/invoiceable-items.types';

/**
 * Each record of the contract is declared once: its schema documents it and types its toContract.
 * What the types cannot see is the order of the keys, which the answers' bytes keep: every
 * toContract writes its schema's keys, in the schema's order, and its answer validates.
 */

const ZONE = 'America/Chicago';
const ID = '6f1c2a4e-7d0b-4c1e-9a57-2b8f0d3e4c11';
const AT = '2026-11-27T15:04:05.000Z';

type Schema = Record<string, unknown>;

/** The key paths `value` has, in its order, down to where the schema declares no properties. */
function writtenPaths(schema: Schema | undefined, value: unknown, at = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((inner) => writtenPaths(schema?.items as Schema, inner, `${at}[]`));
  const properties = schema?.properties as Record<string, Schema> | undefined;
  if (value === null || typeof value !== 'object' || !properties) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    `${at}.${key}`,
    ...writtenPaths(properties[key], inner, `${at}.${key}`),
  ]);
}

/** The key paths a schema declares, in its order, for the keys `value` has (optional ones may be absent). */
function declaredPaths(schema: Schema, value: unknown, at = ''): string[] {
  if (Array.isArray(value)) {
    const items = schema.items as Schema;
    return value.flatMap((inner) => declaredPaths(items, inner, `${at}[]`));
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (value === null || typeof value !== 'object' || !properties) return [];
  return Object.entries(properties)
    .filter(([key]) => key in value)
    .flatMap(([key, inner]) => [
      `${at}.${key}`,
      ...declaredPaths(inner, (value as Record<string, unknown>)[key], `${at}.${key}`),
    ]);
}

const item = (kind: Item['kind'], more: Partial<Item> = {}): Item => ({
  id: ID,
  facilityId: ID,
  kind,
  productCode: 'P-1',
  description: 'An item',
  shortDescription: null,
  requiredAtMoveIn: false,
  requiredAtTransfer: true,
  showInSalesCenter: true,
  taxTotalCents: 80,
  totalCents: 1080,
  feeCategory: kind === 'fee' ? 'other' : null,
  coverageAmountCents: kind === 'insurance' ? 200000 : null,
  coveragePercentage: kind === 'insurance' ? 100 : null,
  providerName: kind === 'insurance' ? 'Provider' : null,
  providerKey: kind === 'insurance' ? 'provider' : null,
  quantity: kind === 'retail' ? 3 : null,
  isRentalCenterLock: false,
  rentalCenterEligible: false,
  ...more,
});
const tiers = [
  {
    id: ID,
    invoiceableItemId: ID,
    position: 0,
    amountCents: 1000,
    kind: 'amount' as const,
    limitValue: null,
  },
];

const SAMPLES: Array<[string, TSchema, unknown]> = [
  [
    'RateAppliedAction',
    RateAppliedAction.schema,
    RateAppliedAction.toContract(
      {
        id: ID,
        facilityId: ID,
        appliedRateName: 'Web rate',
        appliedRateCents: 9550,
        standardRateCents: 10000,
        source: 'web',
        completedOn: '2026-11-27',
        completedBy: '',
        employeeId: '7',
        userId: '9',
        timeCompleted: AT,
        event: 'move_in',
        oldLedgerId: '',
        newLedgerId: ID,
        unitId: ID,
        leadId: ID,
      },
      ZONE,
    ),
  ],
  [
    'LedgerInsurance',
    LedgerInsurance.schema,
    LedgerInsurance.toContract({
      id: ID,
      ledgerId: ID,
      effectiveDate: '2026-01-01',
      cancelDate: null,
      data: {
        description: 'Cover',
        retainType: 'percent',
        productCode: 'INS',
        policyNumber: 'P-9',
        retainAmount: '10.0',
        coverageAmount: '2000.0',
        coveragePercentage: '100.0',
        insuranceProviderKey: 'provider',
      },
      amountCents: 1200,
    }),
  ],
  [
    'LedgerService',
    LedgerService.schema,
    LedgerService.toContract({
      id: ID,
      ledgerId: ID,
      effectiveDate: '2026-01-01',
      cancelDate: '2026-12-31',
      data: { description: 'Lock', productCode: 'SVC' },
      amountCents: 500,
    }),
  ],
  [
    'LedgerDiscount',
    LedgerDiscount.schema,
    LedgerDiscount.toContract({
      id: ID,
      ledgerId: ID,
      name: 'First month',
      kind: 'percent',
      description: 'Half off',
      startDate: '2026-01-01',
      endDate: null,
      minOccupancyMonths: 2,
    }),
  ],
  [
    'NoteEvent',
    NoteEvent.schema,
    NoteEvent.toContract(
      {
        id: ID,
        facilityId: ID,
        tenantId: ID,
        unitId: null,
        ledgerId: null,
        userId: null,
        createdBy: { id: ID, name: 'Client', type: 'ClientApplication' },
        createdAt: AT,
        notes: [{ id: ID, noteEventId: ID, note: 'Called', createdAt: AT }],
      },
      ZONE,
    ),
  ],
  [
    'EventDocument',
    EventDocument.schema,
    EventDocument.toContract(
      {
        id: ID,
        eventId: ID,
        description: 'Lease',
        type: 'lease',
        isRelevant: true,
        esignable: true,
        createdAt: AT,
      },
      ZONE,
    ),
  ],
  [
    'MoveInReview',
    MoveInReview.schema,
    MoveInReview.toContract(
      {
        session: {
          id: ID,
          facilityId: ID,
          unitId: ID,
          tenantId: null,
          moveInDate: '2026-11-28',
          rentCents: 10000,
          fees: [{ id: ID, description: 'Admin', amountCents: 2000 }],
          totalCents: 12000,
          createdAt: AT,
          expiresAt: AT,
        },
        documents: [
          {
            id: ID,
            sessionId: ID,
            description: 'Lease',
            type: 'lease',
            isRelevant: true,
            esignable: false,
            createdAt: AT,
          },
        ],
      },
      ZONE,
    ),
  ],
  [
    'PaymentEvent',
    PaymentEvent.schema,
    PaymentEvent.toContract(
      {
        id: ID,
        facilityId: ID,
        tenantId: null,
        amountCents: 1080,
        changeDueCents: 0,
        success: true,
        paidAt: AT,
        paymentMethod: {
          id: ID,
          facilityId: ID,
          tenantId: null,
          kind: 'credit_card',
          firstName: 'Ada',
          lastName: 'Lovelace',
          reuseable: false,
          last4: '1111',
          cardType: 'visa',
          expirationDate: '12/30',
          billingAddress: { city: 'Austin', postal: null },
          createdAt: AT,
        },
        lines: [],
      },
      ZONE,
    ),
  ],
  [
    'RateChangeUpdate',
    RateChangeUpdate.schema,
    RateChangeUpdate.toContract({
      id: ID,
      facilityId: ID,
      facilityName: 'North',
      timeZone: ZONE,
      tenantId: ID,
      tenantName: 'Ada Lovelace',
      unitId: ID,
      unitName: 'A1',
      changedAt: AT,
      oldRateCents: 10000,
      newRateCents: 11000,
      effectiveOnDate: '2026-12-01',
      createdBy: 7,
    }),
  ],
  ...(['fee', 'insurance', 'service', 'retail'] as const).map((kind): [string, TSchema, unknown] => [
    `InvoiceableItem (${kind})`,
    InvoiceableItem.schema,
    InvoiceableItem.toContract({ item: item(kind), tiers }),
  ]),
];

describe('the contract records (src/areas/*/*.contract.ts)', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const schema of SHARED_SCHEMAS) ajv.addSchema(schema, `${schema.$id}#`);

  it.each(SAMPLES)(
    "%s: toContract writes its schema's keys, in its order, and validates",
    (_name, schema, written) => {
      expect(writtenPaths(schema as Schema, written)).toEqual(declaredPaths(schema as Schema, written));
      const validate = ajv.getSchema(`${schema.$id}#`)!;
      expect([validate(written), validate.errors ?? []]).toEqual([true, []]);
    },
  );

  it('writes a stored listing as the JSON of toContract (a retail item in two parts around its quantity)', () => {
    const retail = { item: item('retail', { quantity: 42 }), tiers };
    const { text, rest } = InvoiceableItem.listing(retail);
    expect(`${text}42${rest}`).toBe(JSON.stringify(InvoiceableItem.toContract(retail)));
    const fee = { item: item('fee'), tiers };
    expect(InvoiceableItem.listing(fee)).toEqual({
      text: JSON.stringify(InvoiceableItem.toContract(fee)),
      rest: null,
    });
  });
});
