/**
 * A small seeded generator (mulberry32) for the measure's own random choices (the pair the
 * `paired` estimator draws per input). Separate from the Gen's stream, so choosing the estimator
 * never changes the inputs drawn for a seed.
 */
export const seededRandom = (seed: number): (() => number) => {
  let state = (seed ^ 0x2545f491) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
