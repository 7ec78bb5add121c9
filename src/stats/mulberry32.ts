/**
 * mulberry32: a small, fast, seeded uniform generator on [0, 1). Every random choice of the
 * statistics (bootstraps, permutation p-values) and of the measures derives from it, so a seed
 * gives the same figures everywhere. Callers scramble their seed into `state` as they need (a
 * different constant per use keeps their streams apart).
 * @internal
 */
export const mulberry32 = (state: number): (() => number) => {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
