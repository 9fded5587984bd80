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
 * Runs `round` once at start and then every interval, one round at a time (a round still running
 * when the next is due is waited for); a failed round is logged as `failure` and tried again at the
 * next interval. `stop` resolves once a round in progress has finished.
 */
function startRounds(
  round: () => Promise<void>,
  log: HousekeepingLog,
  failure: string,
  intervalMs: number,
): RunningHousekeeping {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const next = () => {
    running = running.then(round).catch((error: unknown) => log.warn({ err: error }, failure));
  };
  const first = setTimeout(next, 0);
  const timer = setInterval(next, intervalMs);
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
  return startRounds(
    async () => {
      const removed = await services.payments.purgeExpiredIdempotencyKeys();
      if (removed > 0) log.info({ removed }, 'expired idempotency keys forgotten');
    },
    log,
    'housekeeping round failed; tried again later',
    intervalMs,
  );
}

/** How often `serve` settles payments in doubt (docs/payments.md#phases). */
export const SETTLE_INTERVAL_MS = 30 * 1000;

/**
 * Settles the payments in doubt (a process stopped between a charge and its record), once at start
 * and then every interval. Any number of instances may run it: an attempt is settled by the one
 * that takes its lease. A failed round is logged and tried again at the next interval.
 */
export function startPaymentSettler(
  services: HousekeepingServices,
  log: HousekeepingLog,
  intervalMs = SETTLE_INTERVAL_MS,
): RunningHousekeeping {
  return startRounds(
    async () => {
      const settled = await services.payments.settleInDoubt();
      if (settled > 0) log.info({ settled }, 'payments in doubt settled');
    },
    log,
    'settling payments in doubt failed; tried again later',
    intervalMs,
  );
}
