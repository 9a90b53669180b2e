/**
 * Seeded randomness for the generated data sets (the offline demo data, scripts/local/demo-data.ts, and the
 * bench's scale data, scripts/bench/scale-data.ts): the same seed gives the same sequence on every run, so
 * the data those scripts write is reproducible.
 */

/**
 * mulberry32: a small seeded PRNG.
 * @param seed any number; only its low 32 bits (as unsigned) count.
 * @returns a generator of floats in [0, 1), the same sequence for the same seed.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One element of `xs`, chosen by one draw of `rnd` (uniform over the indexes).
 * `xs` must not be empty (an empty array gives `undefined` despite the type).
 */
export const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
