/** Small statistics helpers for the benchmark (pure). */

/** Median of `xs` (mean of the two middle values for an even count). @throws RangeError on an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('median of an empty list');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Nearest-rank percentile `p` (0–100) of `xs`. @throws RangeError on an empty list. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new RangeError('percentile of an empty list');
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1]!;
}

/** `a / b` rounded to 2 decimals, or null when either side is missing or b is 0. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || b === 0) return null;
  return Math.round((a / b) * 100) / 100;
}
