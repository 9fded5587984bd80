/*
 * Kept rather than cockatiel's `circuitBreaker` (compared by `npm run bench:kept-copies`): the
 * cool-down is timed on the service's Clock, by which /readyz says when the breaker retries and
 * which the tests move forward instead of waiting; cockatiel times it with Date.now(). Both cost about a
 * microsecond a call.
 */
import type { Clock } from '../kernel/clock';

/**
 * Stops calling an upstream that keeps failing: after `failures` failed calls in a row it opens
 * and refuses calls for `cooldownMs`; then one trial call goes through (half-open), and its
 * outcome closes or reopens it. A dead upstream then costs a caller nothing but the refusal.
 */
export class CircuitBreaker {
  private failuresInARow = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  private lastFailure: string | null = null;

  constructor(
    private readonly failures: number,
    private readonly cooldownMs: number,
    private readonly clock: Clock,
  ) {}

  /** Whether a call may go out now; a half-open breaker lets one through at a time. */
  allow(): boolean {
    if (this.openedAt === null) return true;
    if (this.clock.now().getTime() - this.openedAt < this.cooldownMs) return false;
    if (this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.failuresInARow = 0;
    this.openedAt = null;
    this.trialInFlight = false;
  }

  failed(cause: string): void {
    this.lastFailure = cause;
    this.failuresInARow += 1;
    if (this.trialInFlight || this.failuresInARow >= this.failures) {
      this.openedAt = this.clock.now().getTime();
    }
    this.trialInFlight = false;
  }

  state(): { breaker: 'closed' | 'open' | 'half-open'; retryAt: string | null; lastFailure: string | null } {
    if (this.openedAt === null) return { breaker: 'closed', retryAt: null, lastFailure: this.lastFailure };
    const retryAt = this.openedAt + this.cooldownMs;
    const breaker = this.clock.now().getTime() >= retryAt ? 'half-open' : 'open';
    return { breaker, retryAt: new Date(retryAt).toISOString(), lastFailure: this.lastFailure };
  }
}
