import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `condition` holds, looking again every few milliseconds, and fails naming `what`
 * after a deadline generous enough for a busy machine.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  deadlineMs = 30_000,
): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`waited ${deadlineMs} ms for ${what}`);
    await sleep(10);
  }
}
