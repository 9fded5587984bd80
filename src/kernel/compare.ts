/**
 * Orders strings by UTF-16 code unit, the same on every dialect and locale; for ordering in memory what
 * the database might otherwise sort by its collation.
 */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
