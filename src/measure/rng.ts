import { mulberry32 } from '../stats/index.ts';

/**
 * A small seeded generator (mulberry32) for the measure's own random choices (the pair the
 * `paired` estimator draws per input). Separate from the Gen's stream, so choosing the estimator
 * never changes the inputs drawn for a seed.
 */
export const seededRandom = (seed: number): (() => number) => mulberry32(seed ^ 0x2545f491);
