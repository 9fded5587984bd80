import type { Services } from '../services';

/** How often `serve` forgets expired records nothing reads any more. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

interface HousekeepingLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** What housekeeping forgets expired records through. */
export type HousekeepingServices = Pick<Services, 'payments'>;

export interface RunningHousekeeping {
  /** Resolves once a round in progress has finished; no round starts after. */
  stop(): Promise<void>;
}

/**
 * Forgets expired Idempotency-Keys of every client, once at start and then every interval; any
 * number of instances may run it (a delete of what has expired is the same whoever runs it). A
 * failed round is logged and tried again at the next interval.
 */
export function startHousekeeping(
  services: HousekeepingServices,
  log: HousekeepingLog,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
): RunningHousekeeping {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const round = () => {
    running = services.payments.purgeExpiredIdempotencyKeys().then(
      (removed) => {
        if (removed > 0) log.info({ removed }, 'expired idempotency keys forgotten');
      },
      (error: unknown) => log.warn({ err: error }, 'housekeeping round failed; tried again later'),
    );
  };
  const first = setTimeout(round, 0);
  const timer = setInterval(round, intervalMs);
  first.unref();
  timer.unref();
  return {
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
