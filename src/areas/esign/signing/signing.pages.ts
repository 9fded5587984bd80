import { CONSENT_AGREEMENT, CONSENT_TITLE, consentParagraphs } from '../esign.consent';
import type { CompletedLink, FormProblem, LinkRefusal, OpenLink } from '../signing.service';
import { MAX_SIGNER_NAME } from '../signing.service';
import { SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH } from '../esign.signature';
import { markup, type Markup } from '../../../kernel/markup';
import { SIGNING_SCRIPT, SIGNING_STYLESHEET } from './signing.assets';

// The page's script exports a drawing within the pixel budget the service takes, with room for rounding.
const EXPORT_MAX_WIDTH = SIGNATURE_MAX_WIDTH - 200;
const EXPORT_MAX_HEIGHT = SIGNATURE_MAX_HEIGHT - 100;

/** An HTML page and the status it is answered with. */
export interface Page {
  status: number;
  html: string;
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
function layout(options: { title: string; facility: string | null; body: Markup; script?: boolean }): string {
  return [
    markup`<!doctype html>`,
    markup`<html lang="en">`,
    markup`<head>`,
    markup`<meta charset="utf-8">`,
    markup`<meta name="viewport" content="width=device-width, initial-scale=1">`,
    markup`<meta name="robots" content="noindex, nofollow">`,
    markup`<meta name="referrer" content="no-referrer">`,
    markup`<title>${options.title}</title>`,
    markup`<link rel="icon" href="data:,">`,
    markup`<link rel="stylesheet" href="${SIGNING_STYLESHEET.path}">`,
    ...(options.script ? [markup`<script src="${SIGNING_SCRIPT.path}" defer></script>`] : []),
    markup`</head>`,
    markup`<body>`,
    ...(options.script ? [markup`<a class="skip" href="#documents">Skip to the documents</a>`] : []),
    markup`<header class="site"><p>${options.facility || 'Document signing'}</p></header>`,
    markup`<main id="main">${options.body}</main>`,
    markup`</body>`,
    markup`</html>`,
  ].join('\n');
}

/** A page that says what happened and what to do, with an optional link. */
export function messagePage(
  status: number,
  title: string,
  paragraphs: string[],
  options: { facility?: string | null; link?: { href: string; text: string } } = {},
): Page {
  const { link } = options;
  const body = markup`<h1>${title}</h1><div class="card">${paragraphs.map((p) => markup`<p>${p}</p>`)}${
    link ? markup`<p><a href="${link.href}">${link.text}</a></p>` : ''
  }</div>`;
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

function fieldError(problems: readonly FormProblem[], field: FormProblem['field']): Markup {
  const found = problems.find((p) => p.field === field);
  return found ? markup`<p class="field-error" id="${field}-error">${found.message}</p>` : markup``;
}

function describedBy(
  problems: readonly FormProblem[],
  field: FormProblem['field'],
  ...others: string[]
): Markup {
  const ids = [...others, ...(problems.some((p) => p.field === field) ? [`${field}-error`] : [])];
  return ids.length ? markup` aria-describedby="${ids.join(' ')}"` : markup``;
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

  const contents = documents.map(
    (d, i) => markup`<li><a href="#doc-${i + 1}">${d.title}</a>${d.signed ? ' (signed)' : ''}</li>`,
  );
  const sections = documents.map((d, i) => {
    const id = `doc-${i + 1}`;
    const heading = markup`<h2 id="${id}-title">${i + 1}. ${d.title}</h2>`;
    const open = markup`<section class="card document" id="${id}" aria-labelledby="${id}-title">${heading}`;
    if (d.signed) {
      return markup`${open}${[
        markup`<p class="signed-note">Signed on ${readableTime(d.signed.signedAt, zone)}; it is not signed again.</p>`,
        markup`<p><a class="download" href="${options.documentHref(d.id)}">Download the signed ${d.title} (PDF)</a></p>`,
      ]}</section>`;
    }
    const paragraphs = d.body
      .split(/\n[ \t]*\n/)
      .map((p) => p.replace(/^\n+|\n+$/g, ''))
      .filter((p) => p.trim() !== '')
      .map((p) => markup`<p>${p}</p>`);
    return markup`${open}${[
      markup`<div class="document-text" tabindex="0" role="region" aria-label="Text of ${d.title}">`,
      ...(paragraphs.length ? paragraphs : [markup`<p>(This document has no text.)</p>`]),
      markup`</div><a class="download" href="${options.documentHref(d.id)}" download="${d.filename}">`,
      markup`Download ${d.title} (PDF, ${kilobytes(d.sizeBytes)})</a>`,
    ]}</section>`;
  });

  const errorSummary = problems.length
    ? markup`<div class="errors" id="errors" role="alert" tabindex="-1" aria-labelledby="errors-title">${[
        markup`<h3 id="errors-title">Nothing was signed yet</h3><ul>`,
        ...problems.map((p) => markup`<li><a href="#${PROBLEM_TARGET[p.field]}">${p.message}</a></li>`),
      ]}</ul></div>`
    : markup``;
  const invalid = (field: FormProblem['field']) =>
    problems.some((p) => p.field === field) ? ' invalid' : '';
  const count = plural(pending.length, 'document', 'documents');

  const form = markup`<form class="card" id="sign" method="post" action="${options.action}" aria-labelledby="sign-title">${[
    markup`<h2 id="sign-title">Sign ${count}</h2>`,
    errorSummary,
    markup`<fieldset class="consent${invalid('consent')}"><legend>${CONSENT_TITLE}</legend>`,
    markup`<div class="consent-text" id="consent-text">${consentParagraphs(facility.name).map((p) => markup`<p>${p}</p>`)}</div>`,
    fieldError(problems, 'consent'),
    markup`<div class="check">`,
    markup`<input type="checkbox" id="consent" name="consent" value="yes"${values.consent ? ' checked' : ''}`,
    markup`${describedBy(problems, 'consent', 'consent-text')}>`,
    markup`<label for="consent">${CONSENT_AGREEMENT}</label></div></fieldset>`,
    markup`<div class="field${invalid('name')}">`,
    markup`<label for="name">Your full name</label>`,
    markup`<p class="hint" id="name-hint">As you would write it on paper.</p>`,
    fieldError(problems, 'name'),
    markup`<input type="text" id="name" name="name" autocomplete="name" maxlength="${MAX_SIGNER_NAME}" `,
    markup`value="${values.name}"${describedBy(problems, 'name', 'name-hint')}></div>`,
    markup`<div class="field${invalid('signature')}">`,
    markup`<span class="label" id="signature-label">Your signature</span>`,
    markup`<p class="hint" id="signature-hint">Draw it in the box with your finger, a stylus or the mouse. `,
    markup`Or type your name above and press "Sign with my typed name".</p>`,
    fieldError(problems, 'signature'),
    markup`<canvas id="signature-pad" class="pad" role="img" aria-labelledby="signature-label" `,
    markup`aria-describedby="signature-hint" data-max-width="${EXPORT_MAX_WIDTH}" `,
    markup`data-max-height="${EXPORT_MAX_HEIGHT}"></canvas>`,
    markup`<p class="status" id="signature-status" role="status" aria-live="polite"></p>`,
    markup`<div class="pad-actions">`,
    markup`<button type="button" class="secondary" id="clear-signature">Clear</button>`,
    markup`<button type="button" class="secondary" id="type-signature">Sign with my typed name</button>`,
    markup`</div>`,
    markup`<input type="hidden" name="signature" id="signature" value="">`,
    markup`<noscript><p class="field-error">Drawing a signature needs JavaScript. Turn it on, or ask ${facility.name} for paper copies to sign.</p></noscript>`,
    markup`</div>`,
    markup`<button type="submit" class="primary" id="submit" data-label="Sign ${count}">Sign ${count}</button>`,
  ]}</form>`;

  const them = pending.length === 1 ? 'it' : 'them';
  const atOnce = pending.length === 1 ? 'it' : 'all at once';
  const body = markup`${[
    // The skip link's target takes focus (tabindex -1), so the next Tab goes on from the documents.
    markup`<h1 id="documents" tabindex="-1">Documents to sign</h1>`,
    markup`<p class="lead">${facility.name} sent you ${count} to sign. Read ${them}, then sign ${atOnce} at the end of this page. `,
    markup`This link works until ${readableTime(link.expiresAt, zone)}.</p>`,
    markup`<nav aria-label="Documents"><ol class="contents">${contents}</ol></nav>`,
    ...sections,
    form,
    markup`<footer><p>Questions? Contact ${facility.name}. You can ask for paper copies at any time.</p></footer>`,
  ]}`;
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
    ? markup`<ul class="downloads">${page.documents.map(
        (d) =>
          markup`<li><a class="download" href="${documentHref(d.id)}" download="${d.filename}">Download the signed ${d.title} (PDF)</a></li>`,
      )}</ul>`
    : markup`<p>This link has expired, so the signed copies can no longer be downloaded here. Contact ${facility.name} for a copy.</p>`;
  const documents = plural(page.documents.length, 'document', 'documents');
  const body = markup`<h1>Signed</h1><div class="card" role="status">${[
    markup`<p class="lead">You signed ${documents} from ${facility.name} on ${when}${who}.</p>`,
    list,
    markup`<p>Keep a copy for your records. For a paper copy, contact ${facility.name}.</p>`,
  ]}</div>`;
  return {
    status: 200,
    html: layout({ title: `Signed: documents from ${facility.name}`, facility: facility.name, body }),
  };
}
