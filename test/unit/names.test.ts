import { Type } from '@sinclair/typebox';
import { cases } from '../../src/contract/cases';
import { snakeCase } from '../../src/kernel/names';
import { insuranceTerms, serviceTerms } from '../../src/areas/ledgers/ledgers.tables';
import { datasetSchema } from '../../src/store/dataset/dataset.schema';

describe('names in snake_case', () => {
  it('turns each capital into an underscore and its small letter', () => {
    expect(snakeCase('retainAmount')).toBe('retain_amount');
    expect(snakeCase('insuranceProviderKey')).toBe('insurance_provider_key');
    expect(snakeCase('description')).toBe('description');
    expect(snakeCase('line2')).toBe('line2');
  });

  it('renames a record both ways, keys in the names order, leaving other keys behind', () => {
    const keys = cases(Type.Object({ product_code: Type.String(), description: Type.String() }));
    const contract = keys.toContract({ description: 'Lock', productCode: 'L-1' });
    expect(JSON.stringify(contract)).toBe('{"product_code":"L-1","description":"Lock"}');
    const row = { id: 'x', product_code: 'L-1', description: 'Lock', amount_cents: 100 };
    expect(keys.toView(row)).toEqual({ productCode: 'L-1', description: 'Lock' });
    expect(Object.keys(contract)).toEqual(['product_code', 'description']);
  });

  it("names a policy's and a service's terms as the dataset format does, in its order", () => {
    const dataOf = (list: 'ledger_insurances' | 'ledger_services') =>
      Object.keys(datasetSchema.properties[list].items.properties.data.properties);
    expect(Object.keys(insuranceTerms)).toEqual(dataOf('ledger_insurances'));
    expect(Object.keys(serviceTerms)).toEqual(dataOf('ledger_services'));
  });
});
