/**
 * Whether a short secret (a security code, four digits) shows as a token of its own. Four digits
 * turn up by chance inside longer numbers, words, request ids (a UUID's group between dashes) and
 * base64 tokens, so a neighbour that could belong to any of those does not count; `code 8462`,
 * `"8462"`, `security_code=8462&` and `8462.` do.
 */
export function showsShortSecret(text: string, secret: string): boolean {
  return new RegExp(`(?<![0-9A-Za-z._+/-])${secret}(?![0-9A-Za-z_+/-])`).test(text);
}
