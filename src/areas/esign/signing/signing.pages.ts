import { CONSENT_AGREEMENT, CONSENT_TITLE, consentParagraphs } from '../esign.consent';
import type { CompletedLink, FormProblem, LinkRefusal, OpenLink } from '../signing.service';
import { MAX_SIGNER_NAME } from '../signing.service';
import { SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH } from '../esign.signature';
import { SIGNING_SCRIPT, SIGNING_STYLESHEET } from './signing.assets';

// The page's script exports a drawing within the pixel budget the service takes, with room for rounding.
const EXPORT_MAX_WIDTH = SIGNATURE_MAX_WIDTH - 200;
const EXPORT_MAX_HEIGHT = SIGNATURE_MAX_HEIGHT - 100;

/** An HTML page and the status it is answered with. */
export interface Page {
  status: number;
  html: string;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A stored instant as people read it where the facility is: "November 24, 2026 at 10:05 AM EST". */
export function readableTime(stored: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(stored));
}

function kilobytes(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`);

/** The page frame: the facility's name on top, the service's own CSS and script, nothing from outside. */
function layout(options: { title: string; facility: string | null; body: string; script?: boolean }): string {
  const facility = options.facility
    ? `<header class="site"><p>${escapeHtml(options.facility)}</p></header>`
    : '<header class="site"><p>Document signing</p></header>';
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(options.title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${SIGNING_STYLESHEET.path}">`,
    options.script ? `<script src="${SIGNING_SCRIPT.path}" defer></script>` : '',
    '</head>',
    '<body>',
    options.script ? '<a class="skip" href="#documents">Skip to the documents</a>' : '',
    facility,
    `<main id="main">${options.body}</main>`,
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** A page that says what happened and what to do, with an optional link. */
export function messagePage(
  status: number,
  title: string,
  paragraphs: string[],
  options: { facility?: string | null; link?: { href: string; text: string } } = {},
): Page {
  const body =
    `<h1>${escapeHtml(title)}</h1>` +
    `<div class="card">${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}` +
    (options.link
      ? `<p><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.text)}</a></p>`
      : '') +
    '</div>';
  return { status, html: layout({ title, facility: options.facility ?? null, body }) };
}

/** A link that cannot be used, and what to do about it. */
export function refusalPage(refusal: LinkRefusal): Page {
  switch (refusal.kind) {
    case 'unknown':
      return messagePage(404, 'This signing link does not work', [
        'The link may be incomplete or mistyped. Open it again from the email or text message you received, ' +
          'making sure you use all of it.',
        'If it still does not work, contact the facility that sent it and ask them to send the documents again.',
      ]);
    case 'expired':
      return messagePage(
        410,
        'This signing link has expired',
        [
          `The link to sign documents from ${refusal.facility.name} stopped working on ` +
            `${readableTime(refusal.expiresAt, refusal.facility.timeZone)}.`,
          `Contact ${refusal.facility.name} and ask them to send you a new link.`,
        ],
        { facility: refusal.facility.name },
      );
    case 'revoked':
      return messagePage(
        410,
        'This signing link was withdrawn',
        [
          `${refusal.facility.name} withdrew this link, so the documents can no longer be signed with it.`,
          `If you still need to sign, contact ${refusal.facility.name}; they can send you a new link.`,
        ],
        { facility: refusal.facility.name },
      );
    case 'replaced':
      return messagePage(
        409,
        'These documents have changed',
        [
          `${refusal.facility.name} changed the documents after sending you this link, so it can no longer ` +
            'be used to sign them. Nothing was signed.',
          `Contact ${refusal.facility.name} and ask them to send you the current documents.`,
        ],
        { facility: refusal.facility.name },
      );
  }
}

export interface FormValues {
  name: string;
  consent: boolean;
}

function fieldError(problems: readonly FormProblem[], field: FormProblem['field']): string {
  const found = problems.find((p) => p.field === field);
  return found ? `<p class="field-error" id="${field}-error">${escapeHtml(found.message)}</p>` : '';
}

function describedBy(
  problems: readonly FormProblem[],
  field: FormProblem['field'],
  ...others: string[]
): string {
  const ids = [...others, ...(problems.some((p) => p.field === field) ? [`${field}-error`] : [])];
  return ids.length ? ` aria-describedby="${ids.join(' ')}"` : '';
}

const PROBLEM_TARGET: Readonly<Record<FormProblem['field'], string>> = {
  consent: 'consent',
  name: 'name',
  signature: 'type-signature',
};

/** The page of a link that can be signed: the documents, the consent, the name, the signature. */
export function signingPage(
  page: OpenLink,
  options: {
    action: string;
    documentHref: (id: string) => string;
    problems?: FormProblem[];
    values?: FormValues;
  },
): Page {
  const { facility, link, documents } = page;
  const problems = options.problems ?? [];
  const values = options.values ?? { name: page.addressee ?? '', consent: false };
  const pending = documents.filter((d) => !d.signed);
  const zone = facility.timeZone;
  const title = `Sign ${plural(pending.length, 'document', 'documents')} from ${facility.name}`;

  const contents = documents
    .map(
      (d, i) => `<li><a href="#doc-${i + 1}">${escapeHtml(d.title)}</a>${d.signed ? ' (signed)' : ''}</li>`,
    )
    .join('');
  const sections = documents
    .map((d, i) => {
      const heading = `<h2 id="doc-${i + 1}-title">${i + 1}. ${escapeHtml(d.title)}</h2>`;
      if (d.signed) {
        return (
          `<section class="card document" id="doc-${i + 1}" aria-labelledby="doc-${i + 1}-title">${heading}` +
          `<p class="signed-note">Signed on ${escapeHtml(readableTime(d.signed.signedAt, zone))}; it is not signed again.</p>` +
          `<p><a class="download" href="${escapeHtml(options.documentHref(d.id))}">Download the signed ${escapeHtml(d.title)} (PDF)</a></p>` +
          '</section>'
        );
      }
      const paragraphs = d.body
        .split(/\n[ \t]*\n/)
        .map((p) => p.replace(/^\n+|\n+$/g, ''))
        .filter((p) => p.trim() !== '')
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join('');
      return (
        `<section class="card document" id="doc-${i + 1}" aria-labelledby="doc-${i + 1}-title">${heading}` +
        `<div class="document-text" tabindex="0" role="region" aria-label="Text of ${escapeHtml(d.title)}">` +
        `${paragraphs || '<p>(This document has no text.)</p>'}</div>` +
        `<a class="download" href="${escapeHtml(options.documentHref(d.id))}" download="${escapeHtml(d.filename)}">` +
        `Download ${escapeHtml(d.title)} (PDF, ${kilobytes(d.sizeBytes)})</a>` +
        '</section>'
      );
    })
    .join('');

  const errorSummary = problems.length
    ? '<div class="errors" id="errors" role="alert" tabindex="-1" aria-labelledby="errors-title">' +
      '<h3 id="errors-title">Nothing was signed yet</h3><ul>' +
      problems
        .map((p) => `<li><a href="#${PROBLEM_TARGET[p.field]}">${escapeHtml(p.message)}</a></li>`)
        .join('') +
      '</ul></div>'
    : '';
  const invalid = (field: FormProblem['field']) =>
    problems.some((p) => p.field === field) ? ' invalid' : '';
  const count = plural(pending.length, 'document', 'documents');

  const form =
    `<form class="card" id="sign" method="post" action="${escapeHtml(options.action)}" aria-labelledby="sign-title">` +
    `<h2 id="sign-title">Sign ${count}</h2>` +
    errorSummary +
    `<fieldset class="consent${invalid('consent')}"><legend>${escapeHtml(CONSENT_TITLE)}</legend>` +
    `<div class="consent-text" id="consent-text">${consentParagraphs(facility.name)
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join('')}</div>` +
    fieldError(problems, 'consent') +
    '<div class="check">' +
    `<input type="checkbox" id="consent" name="consent" value="yes"${values.consent ? ' checked' : ''}` +
    `${describedBy(problems, 'consent', 'consent-text')}>` +
    `<label for="consent">${escapeHtml(CONSENT_AGREEMENT)}</label></div></fieldset>` +
    `<div class="field${invalid('name')}">` +
    '<label for="name">Your full name</label>' +
    '<p class="hint" id="name-hint">As you would write it on paper.</p>' +
    fieldError(problems, 'name') +
    `<input type="text" id="name" name="name" autocomplete="name" maxlength="${MAX_SIGNER_NAME}" ` +
    `value="${escapeHtml(values.name)}"${describedBy(problems, 'name', 'name-hint')}></div>` +
    `<div class="field${invalid('signature')}">` +
    '<span class="label" id="signature-label">Your signature</span>' +
    '<p class="hint" id="signature-hint">Draw it in the box with your finger, a stylus or the mouse. ' +
    'Or type your name above and press "Sign with my typed name".</p>' +
    fieldError(problems, 'signature') +
    '<canvas id="signature-pad" class="pad" role="img" aria-labelledby="signature-label" ' +
    `aria-describedby="signature-hint" data-max-width="${EXPORT_MAX_WIDTH}" ` +
    `data-max-height="${EXPORT_MAX_HEIGHT}"></canvas>` +
    '<p class="status" id="signature-status" role="status" aria-live="polite"></p>' +
    '<div class="pad-actions">' +
    '<button type="button" class="secondary" id="clear-signature">Clear</button>' +
    '<button type="button" class="secondary" id="type-signature">Sign with my typed name</button>' +
    '</div>' +
    '<input type="hidden" name="signature" id="signature" value="">' +
    `<noscript><p class="field-error">Drawing a signature needs JavaScript. Turn it on, or ask ${escapeHtml(
      facility.name,
    )} for paper copies to sign.</p></noscript>` +
    '</div>' +
    `<button type="submit" class="primary" id="submit" data-label="Sign ${count}">Sign ${count}</button>` +
    '</form>';

  const body =
    // The skip link's target takes focus (tabindex -1), so the next Tab goes on from the documents.
    '<h1 id="documents" tabindex="-1">Documents to sign</h1>' +
    `<p class="lead">${escapeHtml(facility.name)} sent you ${count} to sign. Read ${
      pending.length === 1 ? 'it' : 'them'
    }, then sign ${pending.length === 1 ? 'it' : 'all at once'} at the end of this page. ` +
    `This link works until ${escapeHtml(readableTime(link.expiresAt, zone))}.</p>` +
    `<nav aria-label="Documents"><ol class="contents">${contents}</ol></nav>` +
    sections +
    form +
    `<footer><p>Questions? Contact ${escapeHtml(facility.name)}. You can ask for paper copies at any time.</p></footer>`;
  return {
    status: problems.length ? 422 : 200,
    html: layout({
      title: problems.length ? `Problem: ${title}` : title,
      facility: facility.name,
      body,
      script: true,
    }),
  };
}

/** The page of a link whose documents are signed. */
export function completedPage(page: CompletedLink, documentHref: (id: string) => string): Page {
  const { facility } = page;
  const when = readableTime(page.signedAt, facility.timeZone);
  const who = page.signerName ? ` as ${page.signerName}` : '';
  const list = page.downloadable
    ? '<ul class="downloads">' +
      page.documents
        .map(
          (d) =>
            `<li><a class="download" href="${escapeHtml(documentHref(d.id))}" download="${escapeHtml(d.filename)}">` +
            `Download the signed ${escapeHtml(d.title)} (PDF)</a></li>`,
        )
        .join('') +
      '</ul>'
    : `<p>This link has expired, so the signed copies can no longer be downloaded here. Contact ${escapeHtml(
        facility.name,
      )} for a copy.</p>`;
  const body =
    '<h1>Signed</h1>' +
    '<div class="card" role="status">' +
    `<p class="lead">You signed ${plural(page.documents.length, 'document', 'documents')} from ${escapeHtml(
      facility.name,
    )} on ${escapeHtml(when)}${escapeHtml(who)}.</p>` +
    list +
    `<p>Keep a copy for your records. For a paper copy, contact ${escapeHtml(facility.name)}.</p>` +
    '</div>';
  return {
    status: 200,
    html: layout({ title: `Signed: documents from ${facility.name}`, facility: facility.name, body }),
  };
}
