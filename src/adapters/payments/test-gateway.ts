import { randomBytes } from 'node:crypto';
import {
  PaymentGatewayError,
  type ChargeRequest,
  type ChargeResult,
  type ChargeSource,
  type LookupResult,
  type PaymentGateway,
} from '../../areas/payments/gateway';

/** Card numbers the test gateway declines, with the reason it gives. */
export const DECLINED_CARD_NUMBERS: Readonly<Record<string, string>> = {
  '4000000000000002': 'card declined',
  '4000000000009995': 'insufficient funds',
  '4000000000000069': 'expired card',
};

/** Bank account numbers the test gateway declines. */
export const DECLINED_ACCOUNT_NUMBERS: Readonly<Record<string, string>> = {
  '000111111116': 'bank account closed',
  '000111111113': 'insufficient funds',
};

/** What the test gateway remembers of a charge: never a full number. */
export interface TestCharge {
  reference: string;
  amountCents: number;
  sourceType: ChargeSource['type'];
  last4: string | null;
  approved: boolean;
}

export type TestGatewayFailure = 'timeout' | 'unavailable' | 'hang';

/**
 * The built-in gateway: moves no money. Approves everything except the decline numbers above;
 * `failNext` makes the next charges throw a timeout or an outage, or hang past the deadline,
 * so tests can show that a failed gateway leaves nothing behind.
 */
export class TestPaymentGateway implements PaymentGateway {
  readonly name = 'test';
  deadlineMs: number;
  readonly charges: TestCharge[] = [];
  readonly voids: string[] = [];
  /** What `charge` answered for each approved reference, for `lookup`. */
  private readonly answers = new Map<string, { gatewayReference: string; token: string | null }>();
  private failures: TestGatewayFailure[] = [];

  constructor(options: { deadlineMs?: number } = {}) {
    this.deadlineMs = options.deadlineMs ?? 20_000;
  }

  /** The next `times` charges fail this way. */
  failNext(failure: TestGatewayFailure, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(failure);
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const failure = this.failures.shift();
    if (failure === 'timeout') throw new PaymentGatewayError('timeout', 'test gateway: timed out');
    if (failure === 'unavailable') throw new PaymentGatewayError('unavailable', 'test gateway: unavailable');
    if (failure === 'hang') {
      await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve()));
      throw new PaymentGatewayError('timeout', 'test gateway: aborted');
    }
    const { source } = request;
    let decline: string | undefined;
    let last4: string | null = null;
    if (source.type === 'card' || source.type === 'swipe') {
      decline = DECLINED_CARD_NUMBERS[source.pan];
      last4 = source.pan.slice(-4);
    } else if (source.type === 'ach') {
      decline = DECLINED_ACCOUNT_NUMBERS[source.accountNumber];
      last4 = source.accountNumber.slice(-4);
    } else {
      last4 = source.last4;
    }
    const approved = decline === undefined;
    const gatewayReference = approved ? `test_ch_${randomBytes(8).toString('hex')}` : null;
    const token = approved && request.saveForReuse ? `test_tok_${randomBytes(8).toString('hex')}` : null;
    this.charges.push({
      reference: request.reference,
      amountCents: request.amountCents,
      sourceType: source.type,
      last4,
      approved,
    });
    if (!approved || gatewayReference === null) return { approved: false, message: decline as string };
    this.answers.set(request.reference, { gatewayReference, token });
    return { approved: true, gatewayReference, token };
  }

  async lookup(reference: string): Promise<LookupResult> {
    const answer = this.answers.get(reference);
    const kept = this.capturedCharges().some((c) => c.reference === reference);
    return answer && kept ? { charged: true, ...answer } : { charged: false };
  }

  async void(reference: string): Promise<void> {
    this.voids.push(reference);
  }

  /** Approved charges not voided since: the money the test gateway would have taken. */
  capturedCharges(): TestCharge[] {
    return this.charges.filter((c) => c.approved && !this.voids.includes(c.reference));
  }
}
