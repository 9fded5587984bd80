/** REST's snake_case keys in GraphQL's camelCase, deeply: `rate_info.applied_rate` -> `rateInfo.appliedRate`. */
export function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()),
      camelize(inner),
    ]),
  );
}

/** REST's meta.pagination as GraphQL's `pagination`. */
export function restPagination(body: { meta: { pagination: unknown } }): unknown {
  return camelize(body.meta.pagination);
}
