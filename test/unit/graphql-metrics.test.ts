import { Registry } from 'prom-client';
import { MAX_OPERATION_LABELS, registerGraphqlMetrics } from '../../src/ops/metrics';

describe('graphql_operations_total', () => {
  it('keeps at most MAX_OPERATION_LABELS operation names apart; the rest count as other', async () => {
    const registry = new Registry();
    const count = registerGraphqlMetrics(registry);
    for (let i = 0; i < MAX_OPERATION_LABELS + 50; i++) count(`Operation${i}`, 'miss');
    count('Operation0', 'hit');
    const text = await registry.metrics();
    const names = new Set([...text.matchAll(/operation="([^"]+)"/g)].map((m) => m[1]));
    expect(names.size).toBe(MAX_OPERATION_LABELS + 1);
    expect(text).toContain('graphql_operations_total{operation="other",cache="miss"} 50');
    expect(text).toContain('graphql_operations_total{operation="Operation0",cache="hit"} 1');
  });
});
