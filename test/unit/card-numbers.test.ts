import {
  mayHoldCardNumber,
  maskCardNumber,
  maskCardNumbers,
  maskCardNumbersIn,
} from '../../src/kernel/card-numbers';
import { maskLogLine } from '../../src/logger';

describe('card numbers found by their value', () => {
  it.each([
    ['4111111111111111', '************1111'],
    ['pay 4111 1111 1111 1111 thanks', 'pay ************1111 thanks'],
    ['4111-1111-1111-1111.', '************1111.'],
    ['4111\u200b1111\u200b1111\u200b1111', '************1111'],
    ['4111\u00001111\u00001111\u00001111', '************1111'],
    ['line\n4111111111111111', 'line\n************1111'],
    // American Express (15) and a 19-digit number.
    ['378282246310005', '************0005'],
    ['6304 0000 0000 0000 018', '************0018'],
    ['4222222222222', '************2222'],
    // A number before the card is kept: only whole groups that pass Luhn are masked.
    ['room 20 4111 1111 1111 1111', 'room 20 ************1111'],
    // A card beside a UUID of digits: the card masked, the UUID kept.
    [
      '11111111-1111-4111-8111-111111111111 4111 1111 1111 1111',
      '11111111-1111-4111-8111-111111111111 ************1111',
    ],
  ])('masks %j', (text, shown) => {
    expect(maskCardNumbers(text)).toBe(shown);
  });

  it.each([
    ['fails Luhn', '4111111111111112'],
    ['too long', '41111111111111111111111'],
    ['too short', '411111111111'],
    ['a UUID', '12345678-1234-4234-8234-123456789012'],
    ['a UUID with hex digits', '7d1c3f7e-1111-4222-8333-944455556666'],
    // Its first 16 digits pass Luhn, as 4111 1111 1111 1111 does.
    ['a UUID of digits alone', '11111111-1111-4111-8111-111111111111'],
    ['a UUID of digits alone, in a sentence', 'tenant 11111111-1111-4111-8111-111111111111 moved in'],
    ['glued to a word', 'INV4111111111111111'],
    ['a decimal fraction', '3.4111111111111111'],
    ['a date', '2026-11-28'],
  ])('leaves a value that %s as it is', (_label, text) => {
    expect(maskCardNumbers(text)).toBe(text);
  });

  it('pre-checks without Luhn work: no 13 digits in a row, no further look', () => {
    expect(mayHoldCardNumber('/v1/7d1c3f7e-1111-4222-8333-944455556666/flippers?page=2')).toBe(false);
    expect(mayHoldCardNumber('note=call%20back%20at%205')).toBe(false);
    expect(mayHoldCardNumber('x=4111%201111%201111%201111')).toBe(true);
    expect(mayHoldCardNumber('"msg":"a\\n4111111111111111"')).toBe(true);
  });

  it('masks integers that are card numbers, other numbers not', () => {
    expect(maskCardNumber(4111111111111111)).toBe('************1111');
    expect(maskCardNumber(4111111111111112)).toBe(4111111111111112);
    expect(maskCardNumber(12.5)).toBe(12.5);
    // Past 2^53 the last digits are lost: masked whatever they were.
    expect(maskCardNumber(Number('4111111111111111111'))).toMatch(/^\*{12}\d{4}$/);
  });

  it('masks a parsed value deeply, returning it unchanged (the same object) when it holds none', () => {
    const plain = { a: ['x', { b: 1 }] };
    expect(maskCardNumbersIn(plain)).toBe(plain);
    expect(maskCardNumbersIn({ a: [{ b: '4111111111111111' }], '4111111111111111': 1 })).toEqual({
      a: [{ b: '************1111' }],
      '************1111': 1,
    });
  });

  it('masks a log line but its time, and leaves a line without one byte for byte', () => {
    const clean = '{"level":30,"time":1764302515000,"pid":1,"responseTime":3.2874579429626465,"msg":"x"}\n';
    expect(maskLogLine(clean)).toBe(clean);
    expect(
      maskLogLine(
        '{"level":30,"time":4111111111111111,"msg":"a\\n4111 1111 1111 1111","n":4111111111111111}\n',
      ),
    ).toBe('{"level":30,"time":4111111111111111,"msg":"a\\n************1111","n":"************1111"}\n');
  });
});
