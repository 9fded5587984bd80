import { Type } from '@sinclair/typebox';
import { cases } from '../../src/contract/cases';
import { Nullable, NullableText, RefTo } from '../../src/contract/kit';
import { cents, decimal, flag, nullable, text, textOf, type RowOf } from '../../src/kernel/columns';
import { rowCodec } from '../../src/store/rows';

describe('a declared table read into records', () => {
  const things = {
    id: text,
    kind: textOf<'a' | 'b'>(),
    total_cents: cents,
    is_on: flag,
    maybe_on: nullable(flag),
    ratio: nullable(decimal),
    listing: text,
  };
  const codec = rowCodec(things, ['listing']);

  it('reads columns under camelCase names, flags as booleans, decimals as numbers', () => {
    const row: Omit<RowOf<typeof things>, 'listing'> = {
      id: 'x',
      kind: 'a',
      total_cents: 1250,
      is_on: 1,
      maybe_on: null,
      ratio: '12.5' as unknown as number,
    };
    expect(codec.read(row)).toEqual({
      id: 'x',
      kind: 'a',
      totalCents: 1250,
      isOn: true,
      maybeOn: null,
      ratio: 12.5,
    });
    expect(codec.columns).toEqual(['id', 'kind', 'total_cents', 'is_on', 'maybe_on', 'ratio']);
  });

  it('writes a record back into the row it was read from', () => {
    const record = { id: 'y', kind: 'b' as const, totalCents: 0, isOn: false, maybeOn: true, ratio: null };
    expect(codec.write(record)).toEqual({
      id: 'y',
      kind: 'b',
      total_cents: 0,
      is_on: 0,
      maybe_on: 1,
      ratio: null,
    });
    expect(codec.read(codec.write(record))).toEqual(record);
  });

  it('refuses a declaration whose column name is not an identifier', () => {
    expect(() => rowCodec({ 'id; evil()': text })).toThrow('not a column name');
  });
});

describe("a record's view written in the contract's case", () => {
  const Tier = Type.Object({ tier_id: Type.String(), unit_amount: Type.Number() }, { $id: 'Tier' });
  const Record = Type.Object({
    record_id: Type.String(),
    short_text: NullableText(),
    tiers: Type.Array(Type.Object({ tier_id: Type.String(), unit_amount: Type.Number() })),
    main_tier: Nullable(RefTo(Tier)),
    only_some: Type.Optional(Type.Number()),
    last_one: Type.Boolean(),
  });
  const { toContract, toView } = cases(Record, [Tier]);

  it("writes the contract's keys in the schema's order, nested objects and arrays included", () => {
    const view = {
      lastOne: true,
      recordId: 'r',
      shortText: null,
      tiers: [{ unitAmount: 2, tierId: 't' }],
      mainTier: { tierId: 'm', unitAmount: 1 },
    };
    expect(JSON.stringify(toContract(view))).toBe(
      '{"record_id":"r","short_text":null,"tiers":[{"tier_id":"t","unit_amount":2}],"main_tier":{"tier_id":"m","unit_amount":1},"last_one":true}',
    );
  });

  it('writes an optional field only when the view has it, in its place', () => {
    const view = { recordId: 'r', shortText: 'x', tiers: [], mainTier: null, onlySome: 3, lastOne: false };
    expect(Object.keys(toContract(view))).toEqual([
      'record_id',
      'short_text',
      'tiers',
      'main_tier',
      'only_some',
      'last_one',
    ]);
  });

  it('reads an answer of the contract back into the view', () => {
    const contract = {
      record_id: 'r',
      short_text: 's',
      tiers: [{ tier_id: 't', unit_amount: 5 }],
      main_tier: null,
      last_one: true,
    };
    expect(toView(contract)).toEqual({
      recordId: 'r',
      shortText: 's',
      tiers: [{ tierId: 't', unitAmount: 5 }],
      mainTier: null,
      lastOne: true,
    });
    expect(toContract(toView(contract))).toEqual(contract);
  });
});
