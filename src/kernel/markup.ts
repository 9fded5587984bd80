/**
 * HTML that escapes by default, as lit-html and htm build it: markup`<p>${name}</p>` escapes every
 * interpolated text and number, and inserts as it is only markup the tag itself made (a `Markup`, or
 * a list of them). A name, a title or a message from a tenant, an operator or a signer can reach a
 * page only as text, so there is no escaping call to forget. (Not named `html`: Prettier would
 * reformat such templates as HTML, changing the pages' bytes.)
 */

/** Held by this module alone, so no other code can pass text off as markup. */
const made: unique symbol = Symbol('made by markup');

/** HTML made by the `markup` tag: safe to send as it is. */
export class Markup {
  constructor(
    token: typeof made,
    private readonly html: string,
  ) {
    if (token !== made) throw new TypeError('Markup is made by the markup tag');
  }

  /** The HTML, for a page or an email's HTML part. */
  toString(): string {
    return this.html;
  }
}

/** What a template may take: text and numbers (escaped), markup (as it is), or a list of them. */
export type Interpolation = string | number | Markup | readonly Interpolation[];

// The five characters that can end a text or an attribute value, as OWASP escapes them.
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function htmlOf(value: Interpolation): string {
  if (value instanceof Markup) return value.toString();
  if (typeof value === 'string') return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
  if (typeof value === 'number') return String(value);
  // Each item on its own terms, so a list of text is escaped as text is.
  return value.map(htmlOf).join('');
}

/** Markup from a template: its text as written, each interpolation escaped unless it is markup. */
export function markup(strings: TemplateStringsArray, ...values: readonly Interpolation[]): Markup {
  let html = strings[0];
  for (let i = 0; i < values.length; i++) html += htmlOf(values[i]) + strings[i + 1];
  return new Markup(made, html);
}
