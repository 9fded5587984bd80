import { startHousekeeping } from '../../src/cli/housekeeping';
import { toStoredInstant } from '../../src/kernel/time';
import { IdempotencyRepository } from '../../src/areas/payments/idempotency.repository';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';

/** Log lines a round writes, as the service's logger would get them. */
function collectingLog() {
  const lines: Array<{ level: string; details: object; message: string }> = [];
  return {
    lines,
    info: (details: object, message: string) => lines.push({ level: 'info', details, message }),
    warn: (details: object, message: string) => lines.push({ level: 'warn', details, message }),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describeEachDialect('housekeeping', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it("forgets every client's expired Idempotency-Keys at start, and keeps live ones", async () => {
    const keys = new IdempotencyRepository(t.db.store.db);
    const now = t.clock.now().getTime();
    const key = (client: string, name: string, expiresIn: number) => ({
      clientId: client,
      key: name,
      requestHash: 'h',
      responseStatus: 200,
      responseBody: '{}',
      createdAt: toStoredInstant(new Date(now - 86_400_000)),
      expiresAt: toStoredInstant(new Date(now + expiresIn)),
    });
    await keys.claim(key(t.world.client.id, 'old', -60_000));
    await keys.claim(key(t.world.otherClient.id, 'older', -3_600_000));
    await keys.claim(key(t.world.client.id, 'live', 60_000));

    const log = collectingLog();
    const running = startHousekeeping(t.services, log, 3_600_000);
    await tick();
    await running.stop();

    const left = await t.db.store.db.selectFrom('idempotency_keys').select('key').execute();
    expect(left.map((row) => row.key)).toEqual(['live']);
    expect(log.lines).toEqual([
      { level: 'info', details: { removed: 2 }, message: 'expired idempotency keys forgotten' },
    ]);
  });

  it('logs a failed round as a warning instead of throwing', async () => {
    const log = collectingLog();
    const failing = {
      payments: { purgeExpiredIdempotencyKeys: () => Promise.reject(new Error('database gone')) },
    } as unknown as Parameters<typeof startHousekeeping>[0];
    const running = startHousekeeping(failing, log, 3_600_000);
    await tick();
    await running.stop();
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 'warn', message: 'housekeeping round failed; tried again later' }),
    ]);
  });
});
