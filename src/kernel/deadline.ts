/**
 * Rejects with `message` when `promise` has not settled within `ms`, and with `stop.message` at
 * once when `stop.signal` aborts. The work itself may still finish later: the caller must be able
 * to live with that (do it again, or find its result later).
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  message: string,
  stop?: { signal: AbortSignal; message: string },
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let aborted: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    if (!stop) return;
    aborted = () => reject(new Error(stop.message));
    if (stop.signal.aborted) aborted();
    else stop.signal.addEventListener('abort', aborted, { once: true });
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    if (aborted) stop?.signal.removeEventListener('abort', aborted);
  });
}
