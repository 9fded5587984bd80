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

describe('counters read more than once', () => {
  it('show every count once, whether it came before or after the last read', async () => {
    const registry = new Registry();
    const count = registerGraphqlMetrics(registry);
    count('Items', 'hit');
    count('Items', 'hit');
    expect(await registry.metrics()).toContain('graphql_operations_total{operation="Items",cache="hit"} 2');
    expect(await registry.metrics()).toContain('graphql_operations_total{operation="Items",cache="hit"} 2');
    count('Items', 'hit');
    count('Items', 'miss');
    const text = await registry.metrics();
    expect(text).toContain('graphql_operations_total{operation="Items",cache="hit"} 3');
    expect(text).toContain('graphql_operations_total{operation="Items",cache="miss"} 1');
    expect(text).not.toContain('cache="none"');
  });
});
