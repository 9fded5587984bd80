import type { OutboxContent, OutboxDocument } from '../outbox/outbox.types';
import { withoutAccents } from '../../kernel/letters';
import { markup } from '../../kernel/markup';

/** The address a document is downloaded from with API credentials (GET /v1/:facility_id/documents/:id). */
export function documentUrl(baseUrl: string, facilityId: string, documentId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/${facilityId}/documents/${documentId}`;
}

/** The public signing page of a link (no credentials: the token is the key). */
export function signingUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sign/${token}`;
}

/** The short form a text message carries; it leads to the signing page. */
export function shortSigningUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/s/${token}`;
}

const TITLES = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const AGREEMENT = /\b(rental agreement|lease)\b/i;

/**
 * Documents in the order a packet is read, the same in the email, its attachments and the signing
 * page: the rental agreement (or lease) first, then by title with numbers in numeric order
 * ("Addendum 2" before "Addendum 10"), the id settling ties.
 */
export function inReadingOrder<T extends { id: string; description: string }>(documents: readonly T[]): T[] {
  const rank = (d: T) => (AGREEMENT.test(d.description) ? 0 : 1);
  return [...documents].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      TITLES.compare(a.description, b.description) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** A message's signing link: the token (kept in the message only until it is sent) and its addresses. */
export interface MessageLink {
  token: string;
  url: string;
  shortUrl: string;
  /** The last day it works, as the facility writes dates (YYYY-MM-DD). */
  expiresOn: string;
}

const plural = (count: number) => (count === 1 ? '1 document' : `${count} documents`);

/** The email (subject, text and HTML): the documents by name and one link to sign them all. */
export function esignEmailContent(
  facility: { id: string; name: string },
  eventId: string,
  documents: OutboxDocument[],
  link: MessageLink,
  options: { repliesRead?: boolean } = {},
): OutboxContent {
  const subject = `Documents to sign from ${facility.name}`;
  // "Reply to this email" only where replies reach someone (SMTP_REPLY_TO), not a no-reply From.
  const questions = options.repliesRead
    ? `Questions? Reply to this email or contact ${facility.name}.`
    : `Questions? Contact ${facility.name}.`;
  const text = [
    'Hello,',
    '',
    `${facility.name} sent you ${plural(documents.length)} to review and sign:`,
    '',
    ...documents.map((d) => `- ${d.description}`),
    '',
    'Open this link to read and sign, on a phone or a computer (no account needed):',
    link.url,
    '',
    `The link works until ${link.expiresOn}. The documents are also attached to this email as PDFs.`,
    '',
    questions,
    '',
  ].join('\n');
  const html = markup`${[
    markup`<p>Hello,</p><p>${facility.name} sent you ${plural(documents.length)} to review and sign:</p>`,
    markup`<ul>${documents.map((d) => markup`<li>${d.description}</li>`)}</ul>`,
    markup`<p><a href="${link.url}">Read and sign the documents</a> (on a phone or a computer, no account needed).</p>`,
    markup`<p>The link works until ${link.expiresOn}. The documents are also attached to this email as PDFs.</p>`,
    markup`<p>${questions}</p>`,
  ]}`.toString();
  return {
    kind: 'esign_documents',
    facility,
    eventId,
    documents,
    subject,
    text,
    html,
    secrets: [link.token],
  };
}

/** The text message: one segment holding the facility's name and the short link. */
export function esignSmsContent(
  facility: { id: string; name: string },
  eventId: string,
  documents: OutboxDocument[],
  link: MessageLink,
): OutboxContent {
  const tail = `: please review and sign ${plural(documents.length)}. ${link.shortUrl}`;
  return {
    kind: 'esign_documents',
    facility,
    eventId,
    documents,
    subject: `Documents to sign from ${facility.name}`,
    text: `${gsmName(facility.name, SMS_SEGMENT - gsmLength(tail))}${tail}`,
    html: null,
    secrets: [link.token],
  };
}

/** Characters of one GSM-7 text segment. */
export const SMS_SEGMENT = 160;

// The GSM 03.38 default alphabet, and its extension table (each of those takes two characters).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€';

/** The length of a GSM-7 text in septets (extension characters count twice). */
export function gsmLength(text: string): number {
  let length = 0;
  for (const char of text) length += GSM_EXTENDED.includes(char) ? 2 : 1;
  return length;
}

/** Text in the GSM-7 alphabet: accents dropped where the letter is not in it, anything else as "?". */
export function toGsm(text: string): string {
  let out = '';
  for (const char of text.replace(/\s+/g, ' ').trim()) {
    if (GSM_BASIC.includes(char) || GSM_EXTENDED.includes(char)) out += char;
    else {
      const base = withoutAccents(char);
      out += base !== '' && [...base].every((c) => GSM_BASIC.includes(c)) ? base : '?';
    }
  }
  return out;
}

/** The facility's name in GSM-7, shortened with "..." to at most `budget` septets (at least a letter). */
function gsmName(name: string, budget: number): string {
  const gsm = toGsm(name);
  if (gsmLength(gsm) <= budget) return gsm;
  let out = '';
  for (const char of gsm) {
    if (gsmLength(out + char) > Math.max(1, budget - 3)) break;
    out += char;
  }
  return `${out.trimEnd()}...`;
}
