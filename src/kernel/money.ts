/** Money is kept in integer cents and written as numbers with at most two decimals. */
export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** Cents of a decimal amount given with at most two decimals; null when it has more. */
export function amountToCents(amount: number): number | null {
  const cents = Math.round(amount * 100);
  return Math.abs(cents - amount * 100) < 1e-6 ? cents : null;
}
