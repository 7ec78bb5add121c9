import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Outcome, valueOutcome } from '../../src/exec/index.ts';
import { type Cell, CellCache, pairCounts, relate } from '../../src/measure/agreement.ts';
import { comparator } from '../../src/values/index.ts';

/**
 * pairCounts groups a column by key and compares one representative per pair of groups; it must
 * count exactly what comparing every pair of cells counts, with few groups and many, under exact
 * and tolerant equality, and also when a comparison counts another column itself.
 */

const outcomeArb = (distinct: number): fc.Arbitrary<Outcome> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.integer({ min: 0, max: distinct - 1 }).map((k) => valueOutcome(k)),
    },
    // Floats a tolerance may join across keys.
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: 0, max: distinct - 1 })
        .chain((k) => fc.constantFrom(k, k + 1e-12, k + 0.5).map((x) => valueOutcome({ $float: x }))),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'error', name: 'ValueError', message: 'bad' } as Outcome) },
    { weight: 1, arbitrary: fc.constant({ kind: 'timeout', reason: 'call', ms: 250 } as Outcome) },
  );

const bruteForce = (cells: readonly Cell[], compare: ReturnType<typeof comparator>, exclude: boolean) => {
  let agree = 0;
  let total = 0;
  let undecided = 0;
  const counted = cells.filter((c) => c.status !== 'unknown' || !exclude);
  for (let i = 0; i < counted.length; i++) {
    for (let j = i + 1; j < counted.length; j++) {
      const r = relate(counted[i] as Cell, counted[j] as Cell, compare);
      if (r === null) undecided++;
      else {
        total++;
        if (r) agree++;
      }
    }
  }
  return { agree, total, undecided };
};

describe('pairCounts', () => {
  for (const mode of ['strict', 'difftrust'] as const) {
    for (const unknown of ['exclude', 'disagree'] as const) {
      it(`should count what every pair counts (${mode}, unknown cells ${unknown})`, () => {
        const compare = comparator(mode);
        const rules = { compare, compareErrorMessages: false, unknown };
        fc.assert(
          fc.property(
            fc
              .integer({ min: 1, max: 30 })
              .chain((distinct) => fc.array(outcomeArb(distinct), { minLength: 0, maxLength: 40 })),
            (outcomes) => {
              const cache = new CellCache(rules);
              const cells = outcomes.map((o) => cache.cell(o));
              const got = pairCounts(cells, rules);
              const want = bruteForce(cells, compare, unknown === 'exclude');
              // `+ 0`: an empty column counts -0 pairs (0 × -1 / 2), which is 0.
              expect({ agree: got.agree + 0, total: got.total + 0 }).toEqual({
                agree: want.agree,
                total: want.total,
              });
            },
          ),
          { seed: 20261126, numRuns: 400 },
        );
      });
    }
  }

  it('should count each column right when a comparison counts another column meanwhile', () => {
    const compare = comparator('difftrust');
    const rules = { compare, compareErrorMessages: false, unknown: 'disagree' as const };
    fc.assert(
      fc.property(
        fc.array(outcomeArb(6), { maxLength: 20 }),
        fc.array(outcomeArb(6), { maxLength: 20 }),
        (outer, inner) => {
          const cache = new CellCache(rules);
          const outerCells = outer.map((o) => cache.cell(o));
          const innerCells = inner.map((o) => cache.cell(o));
          const nested: Array<ReturnType<typeof pairCounts>> = [];
          const got = pairCounts(outerCells, rules, (a, b) => {
            nested.push(pairCounts(innerCells, rules));
            return relate(a, b, compare);
          });
          const want = bruteForce(outerCells, compare, false);
          expect({ agree: got.agree + 0, total: got.total + 0 }).toEqual({
            agree: want.agree,
            total: want.total,
          });
          const wantInner = bruteForce(innerCells, compare, false);
          for (const n of nested)
            expect({ agree: n.agree + 0, total: n.total + 0 }).toEqual({
              agree: wantInner.agree,
              total: wantInner.total,
            });
        },
      ),
      { seed: 20261127, numRuns: 300 },
    );
  });
});
