import type { SignCommand } from '../esign.types';

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * The signing form's body as a command: `name`, `consent` (present when ticked) and `signature`
 * (a PNG data URL), each a single value. Another content type is 'unsupported'; a body that is not
 * this form (nested or repeated fields, none of its fields) is 'unreadable'. Blank values are the
 * service's to judge, so the page can say which field needs what.
 */
export function readSigningForm(
  contentType: string | undefined,
  body: unknown,
): SignCommand | 'unsupported' | 'unreadable' {
  if (contentType === undefined || !FORM_TYPE.test(contentType)) return 'unsupported';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'unreadable';
  const fields = body as Record<string, unknown>;
  const { name, consent, signature } = fields;
  for (const value of [name, consent, signature]) {
    if (value !== undefined && typeof value !== 'string') return 'unreadable';
  }
  if (name === undefined && signature === undefined) return 'unreadable';
  return {
    name: (name as string | undefined) ?? '',
    consent: typeof consent === 'string' && ['yes', 'on', 'true', '1'].includes(consent.toLowerCase()),
    signature: (signature as string | undefined) ?? '',
  };
}
