import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../src/candidates/index.ts';
import { type Gen, gen } from '../../src/inputs/index.ts';
import { detect, measure } from '../../src/measure/index.ts';
import { pacDetectionSamples } from '../../src/stats/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { pool, trueError, trueIncoherence, truth, uniformGen } from './pools.ts';

const RUNS = 200;
const seeds = Array.from({ length: RUNS }, (_, r) => 1000 + r);

/** Smallest c with P(Binomial(n, p) > c) < alpha: a miss count above it is evidence of a bug. */
const binomialUpper = (n: number, p: number, alpha: number): number => {
  let cdf = 0;
  let pmf = (1 - p) ** n;
  for (let k = 0; k <= n; k++) {
    cdf += pmf;
    if (1 - cdf < alpha) return k;
    pmf *= ((n - k) / (k + 1)) * (p / (1 - p));
  }
  return n;
};

describe('the Hoeffding interval', () => {
  const shares = [0, 0.05, 0.1, 0.3];
  const truthI = trueIncoherence(shares);
  const task = defineTask({ name: 'synthetic', inputs: uniformGen });

  it.each(['all-pairs', 'paired'] as const)(
    'should cover the true incoherence in at least 1 − δ of seeded runs (%s)',
    async (estimator) => {
      // Arrange
      const delta = 0.1;
      // Act
      const runs = [];
      for (const seed of seeds) {
        runs.push(await measure(task, pool(shares), { n: 100, seed, delta, estimator, shrink: false }));
      }
      // Assert: coverage, and an unbiased centre (a wrong pair count shifts the mean).
      const misses = runs.filter(
        (r) => !(r.incoherence!.lower <= truthI && truthI <= r.incoherence!.upper),
      ).length;
      const mean = runs.reduce((s, r) => s + r.incoherence!.estimate, 0) / RUNS;
      // By hand: on [0, .05) 3 wrong (d = 1), on [.05, .1) 2 wrong (d = 5/6), on [.1, .3) 1 wrong (d = 1/2).
      expect(truthI).toBeCloseTo(0.05 + 0.05 * (5 / 6) + 0.2 * 0.5, 12);
      expect(misses).toBeLessThanOrEqual(delta * RUNS);
      expect(Math.abs(mean - truthI)).toBeLessThan(estimator === 'all-pairs' ? 0.01 : 0.02);
    },
  );

  it('should cover the true error in at least 1 − δ of seeded runs', async () => {
    // Arrange
    const withReference = defineTask({ name: 'synthetic', inputs: uniformGen, reference: truth });
    const truthE = trueError(shares);
    // Act
    const runs = [];
    for (const seed of seeds.slice(0, 100)) {
      runs.push(await measure(withReference, pool(shares), { n: 100, seed, delta: 0.1, shrink: false }));
    }
    // Assert
    const misses = runs.filter((r) => !(r.error!.lower <= truthE && truthE <= r.error!.upper)).length;
    expect(misses).toBeLessThanOrEqual(10);
  });
});

describe('PAC detection', () => {
  it('should miss a pool with incoherence ε in at most δ of runs (up to binomial noise)', async () => {
    // Arrange: one correct and one wrong candidate, I = p exactly; N inputs miss with (1 − ε)^N ≤ δ.
    const epsilon = 0.05;
    const delta = 0.1;
    const shares = [0, epsilon];
    const task = defineTask({ name: 'synthetic', inputs: uniformGen });
    expect(trueIncoherence(shares)).toBeCloseTo(epsilon, 12);
    expect(pacDetectionSamples(epsilon, delta)).toBe(45);
    // Act
    let misses = 0;
    for (const seed of seeds) {
      const d = await detect(task, pool(shares), { epsilon, delta, seed, shrink: false });
      if (d.verdict !== 'incoherent') misses++;
    }
    // Assert: at I = ε the miss rate is 0.95^45 = 0.099; allow only binomial noise above δ.
    expect(misses).toBeLessThanOrEqual(binomialUpper(RUNS, delta, 0.001));
  });

  it('should miss a pool with incoherence above ε in at most δ of runs', async () => {
    // Arrange: I = 0.1 > ε = 0.05.
    const task = defineTask({ name: 'synthetic', inputs: uniformGen });
    // Act
    let misses = 0;
    for (const seed of seeds) {
      const d = await detect(task, pool([0, 0.1]), { epsilon: 0.05, delta: 0.1, seed, shrink: false });
      if (d.verdict !== 'incoherent') misses++;
    }
    // Assert
    expect(misses).toBeLessThanOrEqual(0.1 * RUNS);
  });
});

describe('Theorem 4.1 (I ≤ 2E)', () => {
  it('should hold on every run with a reference, for any pool', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        async (shares, answers, seed) => {
          // Wrong candidates share answers here, so some wrong pairs agree too.
          const candidates = fromFunctions(
            shares.map((p, i) => (u: number) => (u < p ? 1 + (answers[i] as number) : 0)),
          );
          const task = defineTask({ name: 'synthetic', inputs: uniformGen, reference: truth });
          const m = await measure(task, candidates, { n: 50, seed, shrink: false });
          expect(m.incoherence!.estimate).toBeLessThanOrEqual(2 * m.error!.estimate + 1e-12);
          expect(m.errorLowerBound!).toBeLessThanOrEqual(m.error!.upper);
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });
});

describe('pools of equivalent candidates', () => {
  const forward = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const backward = (xs: number[]) => xs.reduceRight((a, b) => a + b, 0);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b).reduce((a, b) => a + b, 0);
  const pairwise = (xs: number[]): number =>
    xs.length <= 2 ? forward(xs) : pairwise(xs.slice(0, xs.length >> 1)) + pairwise(xs.slice(xs.length >> 1));
  const candidates = fromFunctions({ forward, backward, sorted, pairwise });
  const task = defineTask({
    name: 'sum',
    inputs: gen.fromArbitrary(
      fc.tuple(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { maxLength: 50 })),
    ),
  });

  it('should never be flagged by detection, over many seeds', async () => {
    for (const seed of seeds.slice(0, 50)) {
      const d = await detect(task, candidates, { epsilon: 0.02, delta: 0.01, seed });
      expect(d.verdict, `seed ${seed}`).toBe('coherent');
    }
  });

  it('should measure zero incoherence and one class, even though the float sums differ in the last bits', async () => {
    // Arrange: the sums really do differ bit-wise on some inputs.
    const inputs = (await (task.inputs as Gen<[number[]]>).generate(500, { seed: 3 })) as [number[]][];
    const bitwise = inputs.filter(([xs]) => forward(xs) !== backward(xs)).length;
    // Act
    const m = await measure(task, candidates, { n: 500, seed: 3 });
    // Assert
    expect(bitwise).toBeGreaterThan(0);
    expect(m.incoherence!.estimate).toBe(0);
    expect(m.disagreements).toBe(0);
    expect(m.classes.map((c) => c.labels)).toEqual([['forward', 'backward', 'sorted', 'pairwise']]);
    expect(m.semanticEntropy).toBe(0);
    expect(m.witness).toBeNull();
  });
});
