import {
  isSensitiveName,
  redactRequestUrl,
  redactValues,
  sensitiveValues,
} from '../../src/domain/shared/sensitive';

describe('sensitive values', () => {
  it('knows each sensitive name in snake_case and camelCase, and nothing else', () => {
    for (const name of [
      'card_number',
      'securityCode',
      'magnetic_track',
      'accountNumber',
      'account_number_confirmation',
    ]) {
      expect(isSensitiveName(name)).toBe(true);
    }
    for (const name of ['card_type', 'cardType', 'account_type', 'number', 'routing_number']) {
      expect(isSensitiveName(name)).toBe(false);
    }
  });

  it('redacts sensitive and credential query values, nested or percent-encoded names included', () => {
    expect(
      redactRequestUrl(
        '/v1/f/pay?payment_method[card_number]=4111&payment_method%5Bsecurity_code%5D=123&card_type=visa&oauth_signature=abc&page=2',
      ),
    ).toBe(
      '/v1/f/pay?payment_method[card_number]=[FILTERED]&payment_method%5Bsecurity_code%5D=[FILTERED]&card_type=visa&oauth_signature=[FILTERED]&page=2',
    );
    expect(redactRequestUrl('/v1/f/flippers')).toBe('/v1/f/flippers');
    expect(redactRequestUrl('/v1/f/flippers?%ZZ=1&a')).toBe('/v1/f/flippers?%ZZ=1&a');
  });

  it('finds the values held under sensitive names at any depth', () => {
    expect(
      sensitiveValues({
        input: { paymentMethod: { cardNumber: '4111', securityCode: 123, cardType: 'VISA' } },
        list: [{ account_number: ['9'] }],
      }).sort(),
    ).toEqual([123, '4111', '9'].sort());
  });

  it('removes the given values and any card-length digit run from text, but not the digits of an id', () => {
    expect(
      redactValues('got invalid value { cardNumber: "4111", securityCode: 123 } at 1123', ['4111', 123]),
    ).toBe('got invalid value { cardNumber: "[FILTERED]", securityCode: [FILTERED] } at 1123');
    expect(redactValues('found 4111 1111 1111 1111 and 5555-5555-5555-4444', [])).toBe(
      'found [FILTERED] and [FILTERED]',
    );
    expect(redactValues('no facility 7d1c3f7e-1111-4222-8333-944455556666', [])).toBe(
      'no facility 7d1c3f7e-1111-4222-8333-944455556666',
    );
  });
});
