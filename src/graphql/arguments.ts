import { DomainError } from '../domain/errors';

/** How the REST parameters a service names are called in GraphQL arguments. */
export type ArgumentNames = Readonly<Record<string, string>>;

export const PAGE_ARGUMENTS: ArgumentNames = { page: 'page', per_page: 'perPage' };

function renamer(names: ArgumentNames): (text: string) => string {
  const keys = Object.keys(names).sort((a, b) => b.length - a.length);
  if (keys.length === 0) return (text) => text;
  const escaped = keys.map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Whole names only: `note` must not rename the `note` of `note.note_text`.
  const pattern = new RegExp(`(?<![\\w.])(?:${escaped.join('|')})(?![\\w.])`, 'g');
  return (text) => text.replace(pattern, (name) => names[name] ?? name);
}

/** The same failure, naming GraphQL's arguments where the service named REST's parameters. */
export function renameParameters(error: DomainError, names: ArgumentNames): DomainError {
  const rename = renamer(names);
  return new DomainError(error.kind, rename(error.message), {
    problems: error.problems.map((p) => ({ parameter: rename(p.parameter), message: rename(p.message) })),
    retryAfter: error.retryAfter,
  });
}

/**
 * Runs a service call whose input the resolver built from its arguments, so a DomainError names
 * the argument the client wrote (`perPage`, not `per_page`).
 */
export async function withArgumentNames<T>(
  work: Promise<T> | (() => T | Promise<T>),
  names: ArgumentNames,
): Promise<T> {
  try {
    return await (typeof work === 'function' ? work() : work);
  } catch (error) {
    throw error instanceof DomainError ? renameParameters(error, names) : error;
  }
}
