// The text of the PDFs areas render (an event's documents, a move-in's session documents): their
// templates filled in, the names they print, the file names they download under.

/**
 * Document templates are plain text with `{{name}}` placeholders. Filling is one pass over the
 * template, so a value that itself looks like a placeholder (a tenant named "{{unit_name}}") is
 * written as it is, and every placeholder is replaced: an unknown or missing value becomes a dash.
 */
export type TemplateValues = Readonly<Record<string, string | null | undefined>>;

/** What a missing value prints as. */
export const MISSING_VALUE = '—';

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_match, rawName: string) => {
    const name = rawName.trim().toLowerCase();
    const value = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
    if (value === null || value === undefined) return MISSING_VALUE;
    const trimmed = value.trim();
    return trimmed === '' ? MISSING_VALUE : trimmed;
  });
}

/** "Ada Lovelace" from a tenant's names; null when both are blank. */
export function personName(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName, lastName]
    .map((part) => (part ?? '').trim())
    .filter((part) => part !== '')
    .join(' ');
  return name === '' ? null : name;
}

/** A file name for a download: the description as a lower-case ASCII slug, `.pdf` appended. */
export function pdfFilename(description: string): string {
  const slug = description
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${slug || 'document'}.pdf`;
}
