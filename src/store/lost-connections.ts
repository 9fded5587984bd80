/**
 * Sessions PostgreSQL ends under a pool (a restart, a failover, `pg_terminate_backend`): a
 * connection idle in a pool when its session ends is dropped once pg reads the server's message,
 * but a statement handed that connection before then fails, though it never ran. A read is then
 * run again, on another connection; a write is not (its first try may have committed), nor a
 * statement of a transaction, whose connection is the transaction.
 */

/** SQLSTATEs of a session the server ended: admin_shutdown, crash_shutdown, cannot_connect_now. */
const ENDED_SESSION = new Set(['57P01', '57P02', '57P03']);

/** Socket errors of a connection closed under the statement. */
const CLOSED_SOCKET = new Set(['ECONNRESET', 'EPIPE']);

/**
 * pg's own messages for a statement sent on a closed connection ("Connection terminated
 * unexpectedly"), or on one it knows closed ("Client has encountered a connection error and is
 * not queryable").
 */
const CLOSED_CONNECTION = /^Connection terminated|is not queryable/;

/** Whether a statement failed because its connection's session had ended, not because of itself. */
export function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (ENDED_SESSION.has(code) || CLOSED_SOCKET.has(code))) return true;
  return CLOSED_CONNECTION.test(error.message);
}

/** A statement that reads: a SELECT, a WITH, VALUES, or a COPY of a query out. */
const READS = /^\s*(?:select|with|values|copy\s*\(\s*(?:select|with))\b/i;

/** What makes a reading text change something: a write in a WITH, a notice, a sequence, a lock, a setting. */
const CHANGES =
  /\b(?:insert|update|delete|merge|pg_notify|nextval|setval|set_config|pg_advisory_\w+|pg_terminate_backend|pg_cancel_backend)\b/i;

/** Whether a statement's text only reads, so that running it again changes nothing. */
export function onlyReads(text: string): boolean {
  return READS.test(text) && !CHANGES.test(text);
}

/** Tries past the first (a read's, a BEGIN's): every connection idle in a pool may have been ended at once. */
export const TRIES_AGAIN = 2;

/**
 * Runs `read`, each time on a connection of its own, and again (at most TRIES_AGAIN times more)
 * while it fails on a session the server had ended, when `text` (asked only then) only reads.
 */
export function readAgainIfLost<T>(text: () => string, read: () => Promise<T>, again = 0): Promise<T> {
  return read().catch((error: unknown) => {
    if (again >= TRIES_AGAIN || !isLostConnection(error) || !onlyReads(text())) throw error;
    return readAgainIfLost(text, read, again + 1);
  });
}
