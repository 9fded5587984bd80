import { formPairs, nestParams, NestedParamsError } from '../../src/rest/nested-params';

const parse = (query: string) => nestParams(formPairs(query));

describe('Rails-style nested parameters', () => {
  it('reads plain, nested, list and list-of-hash parameters', () => {
    expect(parse('a=1&b=two+words')).toEqual({ a: '1', b: 'two words' });
    expect(parse('note[note_text]=hi&note[tenant_id]=t1')).toEqual({
      note: { note_text: 'hi', tenant_id: 't1' },
    });
    expect(parse('ids[]=1&ids[]=2')).toEqual({ ids: ['1', '2'] });
    expect(parse('r[items][][id]=a&r[items][][quantity]=1&r[items][][id]=b&r[items][][quantity]=2')).toEqual({
      r: {
        items: [
          { id: 'a', quantity: '1' },
          { id: 'b', quantity: '2' },
        ],
      },
    });
  });

  it('keeps a malformed bracket name whole instead of guessing', () => {
    expect(parse('a[b=1')).toEqual({ 'a[b': '1' });
  });

  it('refuses prototype keys, deep nesting and floods of parameters', () => {
    expect(() => parse('__proto__[polluted]=1')).toThrow(NestedParamsError);
    expect(() => parse('a[constructor][prototype]=1')).toThrow(NestedParamsError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(() => parse(`a${'[x]'.repeat(20)}=1`)).toThrow(/nested too deeply/);
    expect(() => parse(Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&'))).toThrow(
      /more than 1000/,
    );
  });
});
