import type { OutboxContent, OutboxDocument } from '../outbox/outbox.types';

/** The address a document is downloaded from (GET /v1/:facility_id/documents/:id). */
export function documentUrl(baseUrl: string, facilityId: string, documentId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/${facilityId}/documents/${documentId}`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const plural = (count: number) => (count === 1 ? '1 document' : `${count} documents`);

/** The email (subject, text and HTML) asking the recipient to review and sign the documents. */
export function esignEmailContent(
  facility: { id: string; name: string },
  eventId: string,
  documents: OutboxDocument[],
): OutboxContent {
  const subject = `Documents to sign from ${facility.name}`;
  const text = [
    'Hello,',
    '',
    `${facility.name} sent you ${plural(documents.length)} to review and sign:`,
    '',
    ...documents.map((d) => `- ${d.description}: ${d.url}`),
    '',
    `Questions? Reply to this email or contact ${facility.name}.`,
    '',
  ].join('\n');
  const items = documents
    .map((d) => `<li><a href="${escapeHtml(d.url)}">${escapeHtml(d.description)}</a></li>`)
    .join('');
  const html =
    `<p>Hello,</p><p>${escapeHtml(facility.name)} sent you ${plural(documents.length)} to review and sign:</p>` +
    `<ul>${items}</ul><p>Questions? Reply to this email or contact ${escapeHtml(facility.name)}.</p>`;
  return { kind: 'esign_documents', facility, eventId, documents, subject, text, html };
}

/** The text message: short, one link per document. */
export function esignSmsContent(
  facility: { id: string; name: string },
  eventId: string,
  documents: OutboxDocument[],
): OutboxContent {
  const links = documents.map((d) => `${d.description}: ${d.url}`).join(' ');
  const text = `${facility.name}: please review and sign ${plural(documents.length)}. ${links}`;
  return {
    kind: 'esign_documents',
    facility,
    eventId,
    documents,
    subject: `Documents to sign from ${facility.name}`,
    text,
    html: null,
  };
}
