import type { TSchema } from '@sinclair/typebox';
import { gatewayRecords } from '../../src/gateway/gateway-resolvers';
import { AREA_MODULES, DATASET_PLANS, SHARED_SCHEMAS } from '../../src/modules';

describe('what the composition root hands the kits', () => {
  it("writes every area's part of a dataset import, each once", () => {
    const declared = AREA_MODULES.flatMap((module) => ('datasetPlan' in module ? [module.datasetPlan] : []));
    expect(DATASET_PLANS).toHaveLength(declared.length);
    expect(new Set(DATASET_PLANS)).toEqual(new Set(declared));
  });

  it("finds the records gateway mode reads among the areas' by $id, and refuses one no area declares", () => {
    const records = gatewayRecords(SHARED_SCHEMAS);
    expect(records.types.RateAppliedAction.$id).toBe('RateAppliedAction');
    expect(records.types.SuccessfulPaymentEvent.$id).toBe('PaymentEvent');
    expect(() => gatewayRecords(SHARED_SCHEMAS.filter((schema) => schema.$id !== 'NoteEvent'))).toThrow(
      'NoteEvent: gateway mode reads this record of the contract, and no area declares it',
    );
  });

  it('refuses a record without a field its resolvers read', () => {
    const withoutLedger = SHARED_SCHEMAS.map((schema): TSchema => {
      if (schema.$id !== 'RateAppliedAction') return schema;
      const { new_ledger_id: _dropped, ...properties } = schema.properties as Record<string, TSchema>;
      return { ...schema, properties };
    });
    expect(() => gatewayRecords(withoutLedger)).toThrow(
      'RateAppliedAction: gateway mode reads its new_ledger_id',
    );
  });
});
