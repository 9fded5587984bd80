import type { Path, Spelling } from '../kernel/errors';
import { snakeCase } from '../kernel/names';

/**
 * REST's spelling of a command's paths: each field in snake_case, or as a route renames it
 * (`{ noteText: 'note.note_text' }`), joined with dots, list positions in brackets:
 * `retail_payment.invoiceable_items[0].quantity`. A bare field name is snake_case alone.
 */
export function restSpelling(renames: Readonly<Record<string, string>> = {}): Spelling {
  return {
    path: (path: Path) =>
      path.reduce<string>((name, part) => {
        if (typeof part === 'number') return `${name}[${part}]`;
        const spelled = renames[part] ?? snakeCase(part);
        return name ? `${name}.${spelled}` : spelled;
      }, ''),
    field: (name: string) => snakeCase(name),
  };
}

export const REST_SPELLING = restSpelling();
