import { fromFunctions } from '../../src/candidates/index.ts';
import { GEN_BRAND, type Gen } from '../../src/contract/index.ts';
import { seededRandom } from '../../src/measure/rng.ts';

/**
 * Synthetic pools with known incoherence. Inputs are u ~ Uniform[0, 1) drawn iid (no
 * deduplication, no bias toward edge values), so the truth is an integral we can compute.
 * Candidate i is wrong exactly when u < p_i: it returns i + 1 instead of 0, so every wrong
 * candidate disagrees with every other candidate on that input.
 */
export const uniformGen: Gen<[number]> = {
  [GEN_BRAND]: true,
  description: 'u ~ Uniform[0, 1)',
  async generate(n, { seed }) {
    const random = seededRandom(seed * 7919 + 1);
    return Array.from({ length: n }, () => [random()] as [number]);
  },
};

/** Candidates wrong on [0, p_i), each with its own wrong answer. */
export const pool = (wrongShares: readonly number[]) =>
  fromFunctions(
    Object.fromEntries(wrongShares.map((p, i) => [`c${i}(p=${p})`, (u: number) => (u < p ? i + 1 : 0)])),
  );

/** The correct function of the pools. */
export const truth = (_u: number) => 0;

const pairs = (k: number): number => (k * (k - 1)) / 2;

/**
 * Exact incoherence of the empirical coder (unordered pairs of distinct candidates): on
 * [p_(j), p_(j+1)) exactly m − j candidates are wrong and only correct pairs agree.
 */
export const trueIncoherence = (wrongShares: readonly number[]): number => {
  const m = wrongShares.length;
  const cuts = [0, ...[...wrongShares].sort((a, b) => a - b), 1];
  let total = 0;
  for (let j = 0; j <= m; j++) {
    const width = (cuts[j + 1] as number) - (cuts[j] as number);
    const wrong = m - j;
    total += width * (1 - pairs(m - wrong) / pairs(m));
  }
  return total;
};

/** Exact error against the truth: the mean wrong share. */
export const trueError = (wrongShares: readonly number[]): number =>
  wrongShares.reduce((a, b) => a + b, 0) / wrongShares.length;
