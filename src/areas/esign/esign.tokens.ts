import { createHash, randomBytes } from 'node:crypto';

/** Random bytes in a signing link's token: 256 bits, written as 43 base64url characters. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new, unguessable signing token. */
export function newSigningToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Whether the text has a token's shape (anything else is refused without a lookup). */
export function hasTokenShape(text: string): boolean {
  return TOKEN_SHAPE.test(text);
}

/** SHA-256 of bytes or text, as 64 lower-case hex digits. */
export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** What the store keeps of a token: its SHA-256. */
export function tokenHash(token: string): string {
  return sha256Hex(token);
}
