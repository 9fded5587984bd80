import { Kind } from 'graphql';
import { DateTimeScalar, MoneyScalar } from '../../src/graphql/scalars';

describe('DateTime scalar', () => {
  it('writes instants with their offset unchanged (graphql-scalars would turn them to UTC)', () => {
    expect(DateTimeScalar.serialize('2026-03-01T09:30:00-05:00')).toBe('2026-03-01T09:30:00-05:00');
    expect(DateTimeScalar.serialize('2026-07-01T16:30:00.250+02:00')).toBe('2026-07-01T16:30:00.250+02:00');
    expect(DateTimeScalar.serialize(new Date('2026-03-01T14:30:00Z'))).toBe('2026-03-01T14:30:00.000Z');
  });

  it('takes inputs with an offset as given, for the domain to parse', () => {
    expect(DateTimeScalar.parseValue('2026-03-01T09:30:00Z')).toBe('2026-03-01T09:30:00Z');
    expect(DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: '2026-03-01T09:30:00+01:00' })).toBe(
      '2026-03-01T09:30:00+01:00',
    );
  });

  it.each(['2026-03-01T09:30:00', '2026-02-30T09:30:00Z', '2026-03-01', 'soon', 42])(
    'refuses %p',
    (value) => {
      expect(() => DateTimeScalar.parseValue(value)).toThrow(
        'DateTime must be an ISO 8601 date-time with a UTC offset, such as 2026-03-01T09:30:00-05:00',
      );
    },
  );
});

describe('Money scalar', () => {
  it('writes amounts as numbers with at most two decimals, like REST', () => {
    expect(MoneyScalar.serialize(12.5)).toBe(12.5);
    expect(MoneyScalar.serialize(1234.56)).toBe(1234.56);
    expect(MoneyScalar.serialize(0)).toBe(0);
    expect(() => MoneyScalar.serialize(0.125)).toThrow('Money cannot represent 0.125');
    expect(() => MoneyScalar.serialize('12.50')).toThrow();
  });

  it('reads numbers and decimal strings with at most two decimals', () => {
    expect(MoneyScalar.parseValue(12.5)).toBe(12.5);
    expect(MoneyScalar.parseValue('12.50')).toBe(12.5);
    expect(MoneyScalar.parseLiteral({ kind: Kind.INT, value: '7' })).toBe(7);
    expect(MoneyScalar.parseLiteral({ kind: Kind.FLOAT, value: '7.25' })).toBe(7.25);
    for (const bad of [12.345, '12.345', '1e3', 'ten', Number.NaN, Infinity, null]) {
      expect(() => MoneyScalar.parseValue(bad)).toThrow('Money must be a number with at most two decimals');
    }
  });
});
