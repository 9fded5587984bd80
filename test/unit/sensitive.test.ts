import {
  isSensitiveKey,
  isSensitiveName,
  redactRequestUrl,
  redactValues,
  sensitiveValues,
} from '../../src/kernel/sensitive';

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
    for (const name of ['CardNumber', 'SECURITY_CODE', 'magnetic-track', 'accountnumberconfirmation']) {
      expect(isSensitiveName(name)).toBe(true);
    }
    for (const name of ['card_type', 'cardType', 'account_type', 'number', 'routing_number', 'card']) {
      expect(isSensitiveName(name)).toBe(false);
    }
  });

  it('reads a name as a parser does: NUL, zero-width, overlong forms, punctuation and full-width letters folded', () => {
    for (const name of [
      'card_number;',
      'card_number\u0000',
      'card_number\u200b',
      'card_number\ufffd\ufffd',
      'card_number\u00c0\u0080',
      '\uff43\uff41\uff52\uff44_number',
      'security\u00adcode',
    ]) {
      expect({ name, sensitive: isSensitiveKey(name) }).toEqual({ name, sensitive: true });
    }
    expect(isSensitiveKey('payment_method[card_number\u0000]')).toBe(true);
    expect(isSensitiveKey('card_number_2')).toBe(false);
  });

  it('masks card numbers by value in a logged URL: path, names and values, percent-encoded or not', () => {
    expect(
      redactRequestUrl(
        '/v1/4111111111111111/x?x=4111%201111%201111%201111&n=pay+4111+1111+1111+1111&4111111111111111=1&' +
          'card_number%00=9&payment_method[card_number%00]=9&card_number%E2%80%8B=9&card_number%C0%80=9&card_number;=9&page=2',
      ),
    ).toBe(
      '/v1/************1111/x?x=************1111&n=pay%20************1111&************1111=1&' +
        'card_number%00=[FILTERED]&payment_method[card_number%00]=[FILTERED]&card_number%E2%80%8B=[FILTERED]&card_number%C0%80=[FILTERED]&card_number;=[FILTERED]&page=2',
    );
    const ids =
      '/v1/7d1c3f7e-1111-4222-8333-944455556666/ledgers?tenant_id=12345678-1234-4234-8234-123456789012';
    expect(redactRequestUrl(ids)).toBe(ids);
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
    // Whichever segment of a nested name is the sensitive one, in either spelling.
    expect(
      redactRequestUrl(
        '/x?payment_method[card_number][]=4111&card_number[0]=4111&magnetic_track[]=%25B4111&account_number[]=9&' +
          'a[b][securityCode]=1&CARD_NUMBER=4111&payment_method.card_number=4111&card_number%5B%5D%ZZ=4111&items[0][quantity]=2',
      ),
    ).toBe(
      '/x?payment_method[card_number][]=[FILTERED]&card_number[0]=[FILTERED]&magnetic_track[]=[FILTERED]&account_number[]=[FILTERED]&' +
        'a[b][securityCode]=[FILTERED]&CARD_NUMBER=[FILTERED]&payment_method.card_number=[FILTERED]&card_number%5B%5D%ZZ=[FILTERED]&items[0][quantity]=2',
    );
    // A value that names a sensitive field itself: GraphQL variables in a query string.
    expect(
      redactRequestUrl(
        `/graphql?variables=${encodeURIComponent('{"input":{"cardNumber":"4111"}}')}&operationName=Pay`,
      ),
    ).toBe('/graphql?variables=[FILTERED]&operationName=Pay');
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
