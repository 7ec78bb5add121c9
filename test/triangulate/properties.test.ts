import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Candidate, fromFunctions } from '../../src/candidates/index.ts';
import { measure } from '../../src/measure/index.ts';
import { abstentionIdentities, abstentionMetrics, countDecisions, decision } from '../../src/stats/index.ts';
import { defineTask } from '../../src/task/index.ts';
import {
  majority,
  plurality,
  type TriangulationResult,
  tri,
  triangulate,
} from '../../src/triangulate/index.ts';

// The nine properties of design §4.3, over trusted functions on small finite domains.
const RUNS = { numRuns: 20, seed: 20261125 };
const N = 8;
const task = defineTask({ name: 'f', signature: '(x: int) -> int' });
const bad = (): never => {
  throw new RangeError('Invalid input');
};
const fn = (table: readonly number[], label: string): Candidate =>
  fromFunctions({ [label]: (x: number) => (x in table ? (table[x] as number) : bad()) })[0] as Candidate;
const setFn = (rel: (x: number) => number[], label: string): Candidate =>
  fromFunctions({ [label]: (x: number) => rel(x) })[0] as Candidate;
const inverseOf = (table: readonly number[]) => {
  const inv: number[] = [];
  table.forEach((o, i) => {
    inv[o] = i;
  });
  return inv;
};
const fibersOf = (table: readonly number[]) => (o: number) => table.flatMap((v, i) => (v === o ? [i] : []));
const perm = fc.shuffledSubarray(
  Array.from({ length: N }, (_, i) => i),
  { minLength: N, maxLength: N },
);
const subsetOf = (n: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n });
const args = (xs: readonly number[]) => xs.map((x) => [x]);
const holdsOnly = (r: TriangulationResult) => r.stages[r.stages.length - 1]?.pairs[0]?.[0]?.kind === 'holds';

describe('§4.3 properties (fast-check)', () => {
  it('1. correct pairs are accepted: permutations (FWD-INV), functions with exact fibers (FWD-SINV), relations (ENUM-SINV, FWD-ENUM), maps (STREAM)', async () => {
    await fc.assert(
      fc.asyncProperty(perm, subsetOf(N), subsetOf(N), async (pi, l, r) => {
        const res = await triangulate(task, [fn(pi, 'p')], {
          transformation: 'fwd-inv',
          witnesses: [fn(inverseOf(pi), 'q')],
          inputs: args(l),
          witnessInputs: args(r),
        });
        expect(holdsOnly(res)).toBe(true);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: N, maxLength: N }),
        subsetOf(N),
        async (f, l) => {
          const res = await triangulate(task, [fn(f, 'p')], {
            transformation: 'fwd-sinv',
            witnesses: [setFn(fibersOf(f), 'q')],
            inputs: args(l),
          });
          expect(holdsOnly(res)).toBe(true);
        },
      ),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 }), {
          minLength: N,
          maxLength: N,
        }),
        subsetOf(N),
        fc.nat(),
        async (rho, l, pick) => {
          const inv = (o: number) => rho.flatMap((os, i) => (os.includes(o) ? [i] : []));
          const selector = rho.map((os) => os[pick % os.length] as number);
          const res = await triangulate(task, [fn(selector, 's')], {
            transformation: 'enum-sinv',
            enumerators: [setFn((x) => rho[x] ?? bad(), 'e')],
            witnesses: [setFn(inv, 'q')],
            inputs: args(l),
            witnessInputs: args([0, 1, 2, 3, 4]),
          });
          expect(res.stages[0]?.pairs[0]?.[0]?.kind).toBe('holds');
          expect(res.outcome).toBe('selected');
        },
      ),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(
        perm,
        fc.array(fc.array(fc.integer({ min: 0, max: N - 1 }), { maxLength: 5 }), {
          minLength: 1,
          maxLength: 5,
        }),
        async (g, lists) => {
          const map = fromFunctions({ map: (xs: number[]) => xs.map((x) => g[x] as number) })[0] as Candidate;
          const res = await triangulate(
            defineTask({ name: 'm', signature: '(xs: list[int]) -> list[int]' }),
            [map],
            {
              transformation: tri.stream(tri.fwdInv()),
              witnesses: [fn(inverseOf(g), 'q')],
              inputs: lists.map((xs) => [xs]),
            },
          );
          // An all-empty pool has no pointwise input: nothing to triangulate, so nothing is asserted.
          if (lists.some((xs) => xs.length > 0)) expect(res.outcome).toBe('selected');
        },
      ),
      RUNS,
    );
  });

  it('2. a perturbed forward is rejected, with a counterexample involving the perturbed input', async () => {
    await fc.assert(
      fc.asyncProperty(
        perm,
        subsetOf(N),
        fc.nat(),
        fc.integer({ min: 1, max: N - 1 }),
        async (pi, l, at, by) => {
          const i0 = l[at % l.length] as number;
          const f = [...pi];
          f[i0] = ((pi[i0] as number) + by) % N;
          for (const [t, q] of [
            ['fwd-inv', fn(inverseOf(pi), 'q')],
            ['fwd-sinv', setFn(fibersOf(pi), 'q')],
          ] as const) {
            const res = await triangulate(task, [fn(f, 'p')], {
              transformation: t,
              witnesses: [q],
              inputs: args(l),
            });
            expect(res.outcome).toBe('abstained');
            const cx = res.candidates[0]?.counterexample;
            const involved = cx?.input === `(${i0})` || cx?.calls.some((c) => c.call.endsWith(`(${i0})`));
            expect(involved).toBe(true);
          }
        },
      ),
      RUNS,
    );
  });

  it('3. incoherence is blind, triangulation is not: m copies of a perturbed f', async () => {
    await fc.assert(
      fc.asyncProperty(
        perm,
        fc.integer({ min: 0, max: N - 1 }),
        fc.integer({ min: 2, max: 4 }),
        async (pi, i0, m) => {
          const f = [...pi];
          f[i0] = ((pi[i0] as number) + 1) % N;
          const copies = Array.from({ length: m }, (_, j) => fn(f, `copy${j}`));
          const all = args(Array.from({ length: N }, (_, i) => i));
          const meas = await measure(task, copies, { inputs: all });
          expect(meas.incoherence?.estimate).toBe(0);
          const pl = await plurality(task, copies, { inputs: all });
          expect(pl.selection.kind).toBe('selected');
          const res = await triangulate(task, copies, {
            transformation: 'fwd-inv',
            witnesses: [fn(inverseOf(pi), 'q')],
            inputs: all,
          });
          expect(res.outcome).toBe('abstained');
        },
      ),
      { ...RUNS, numRuns: 10 },
    );
  });

  it('4. bijectivity matters: an extra non-fiber element fails FWD-SINV only when bijective; a dropped enumerated output fails ENUM-SINV', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: N, maxLength: N }),
        subsetOf(N),
        fc.nat(),
        async (f, l, at) => {
          const i0 = l[at % l.length] as number;
          const target = f[i0] as number;
          const outsider = f.findIndex((v) => v !== target);
          fc.pre(outsider >= 0);
          const fib = fibersOf(f);
          const padded = (o: number) => (o === target ? [...fib(o), outsider] : fib(o));
          const o = { transformation: tri.fwdSinv(), witnesses: [setFn(padded, 'q')], inputs: args(l) };
          expect(holdsOnly(await triangulate(task, [fn(f, 'p')], o))).toBe(false);
          expect(
            holdsOnly(
              await triangulate(task, [fn(f, 'p')], {
                ...o,
                transformation: tri.fwdSinv({ bijective: false }),
              }),
            ),
          ).toBe(true);
        },
      ),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 3 }), {
          minLength: N,
          maxLength: N,
        }),
        fc.nat(),
        async (rho, at) => {
          const i0 = at % N;
          const dropped = (rho[i0] as number[])[0] as number;
          const cut = rho.map((os, i) => (i === i0 ? os.slice(1) : os));
          const inv = (o: number) => rho.flatMap((os, i) => (os.includes(o) ? [i] : []));
          const res = await triangulate(
            task,
            [
              fn(
                rho.map((os) => os[0] as number),
                's',
              ),
            ],
            {
              transformation: 'enum-sinv',
              enumerators: [setFn((x) => cut[x] ?? bad(), 'e')],
              witnesses: [setFn(inv, 'q')],
              inputs: args(Array.from({ length: N }, (_, i) => i)),
              witnessInputs: [[dropped]],
            },
          );
          expect(res.stages[0]?.pairs[0]?.[0]?.kind).toBe('fails');
        },
      ),
      RUNS,
    );
  });

  it('5. threshold: a forward invalid on exactly j of n inputs holds iff j/n < threshold (both presets)', async () => {
    await fc.assert(
      fc.asyncProperty(perm, fc.integer({ min: 1, max: N }), fc.nat(), async (pi, n, jRaw) => {
        const j = jRaw % (n + 1);
        const f = pi.map((v, i) => (i < j ? Number.NaN : v));
        const p = fromFunctions({
          p: (x: number) => (Number.isNaN(f[x] as number) ? bad() : f[x]),
        })[0] as Candidate;
        for (const preset of ['artifact', 'paper'] as const) {
          const res = await triangulate(task, [p], {
            transformation: 'fwd-inv',
            witnesses: [fn(inverseOf(pi), 'q')],
            inputs: args(Array.from({ length: n }, (_, i) => i)),
            witnessInputs: [],
            semantics: preset,
          });
          const expected = preset === 'artifact' ? j / n < 0.34 : j / n < 1 / 3;
          expect(holdsOnly(res)).toBe(expected);
        }
      }),
      RUNS,
    );
  });

  const pool = fc.record({
    pi: perm,
    fwd: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 }),
    wit: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }),
  });
  const build = (pi: number[], fwd: number[], wit: number[]) => {
    // Variant v of the forward: correct (0) or perturbed at v − 1; of the witness likewise.
    const variant = (v: number) => pi.map((x, i) => (v > 0 && i === v - 1 ? (x + 1) % N : x));
    return {
      forward: fwd.map((v, j) => fn(variant(v), `p${j}v${v}`)),
      witnesses: wit.map((v, j) => fn(inverseOf(v === 0 ? pi : variant(v + 3)), `q${j}v${v}`)),
    };
  };
  const supported = (r: TriangulationResult) =>
    r.candidates
      .filter((c) => c.support > 0)
      .map((c) => c.label)
      .sort();

  it('6. invariance: order does not change the supported set; supports are order-free under samples pairing; the selection has the maximal score; copies', async () => {
    await fc.assert(
      fc.asyncProperty(pool, fc.nat(), async ({ pi, fwd, wit }, rot) => {
        const { forward, witnesses } = build(pi, fwd, wit);
        const rotate = <T>(xs: readonly T[]) => [
          ...xs.slice(rot % xs.length),
          ...xs.slice(0, rot % xs.length),
        ];
        const inputs = args(Array.from({ length: N }, (_, i) => i));
        for (const semantics of ['artifact', 'paper'] as const) {
          const a = await triangulate(task, forward, {
            transformation: 'fwd-inv',
            witnesses,
            inputs,
            semantics,
          });
          const b = await triangulate(task, rotate(forward), {
            transformation: 'fwd-inv',
            witnesses: rotate(witnesses).reverse(),
            inputs,
            semantics,
          });
          expect(supported(b)).toEqual(supported(a));
          const max = Math.max(...a.candidates.map((c) => c.score));
          if (a.selected) expect(a.selected.score).toBe(max);
          else expect(max).toBe(0);
        }
        const samples = { pairing: 'samples', inherit: false } as const;
        const a = await triangulate(task, forward, {
          transformation: 'fwd-inv',
          witnesses,
          inputs,
          semantics: samples,
        });
        const b = await triangulate(task, [...forward].reverse(), {
          transformation: 'fwd-inv',
          witnesses: [...witnesses].reverse(),
          inputs,
          semantics: samples,
        });
        const bySupport = (r: TriangulationResult) =>
          Object.fromEntries(r.candidates.map((c) => [c.label, c.support]));
        expect(bySupport(b)).toEqual(bySupport(a));
        // Identical copies: no score changes under artifact pairing; the group multiplies under samples.
        const doubled = [...forward, forward[0] as Candidate];
        const art = await triangulate(task, forward, { transformation: 'fwd-inv', witnesses, inputs });
        const art2 = await triangulate(task, doubled, { transformation: 'fwd-inv', witnesses, inputs });
        expect(art2.candidates.slice(0, forward.length).map((c) => c.score)).toEqual(
          art.candidates.map((c) => c.score),
        );
        const s2 = await triangulate(task, doubled, {
          transformation: 'fwd-inv',
          witnesses,
          inputs,
          semantics: samples,
        });
        const first = a.candidates[0];
        if (first && first.support > 0)
          expect(s2.candidates[0]?.score).toBe(first.support * (first.group.length + 1));
      }),
      { ...RUNS, numRuns: 15 },
    );
  });

  it("7. determinism: the same seed gives identical result JSON; schedule 'matrix' ≡ 'sequential'", async () => {
    const strip = (r: TriangulationResult) => JSON.stringify({ ...r, durationMs: 0 });
    await fc.assert(
      fc.asyncProperty(pool, async ({ pi, fwd, wit }) => {
        const { forward, witnesses } = build(pi, fwd, wit);
        const o = {
          transformation: 'fwd-inv' as const,
          witnesses,
          inputs: args(Array.from({ length: N }, (_, i) => i)),
          seed: 7,
        };
        const a = await triangulate(task, forward, o);
        const b = await triangulate(task, forward, o);
        const c = await triangulate(task, forward, { ...o, schedule: 'sequential' });
        expect(strip(b)).toBe(strip(a));
        expect(strip({ ...c, calls: a.calls })).toBe(strip(a));
      }),
      { ...RUNS, numRuns: 10 },
    );
  });

  it('8. metrics: the Fig. 8 identities hold; ratios lie in [0, 1] or are null exactly when their denominator is 0; decision() partitions', () => {
    const count = fc.integer({ min: 0, max: 50 });
    fc.assert(
      fc.property(count, count, count, count, count, (n1, n2, n3, n4, n5) => {
        const c = { n1, n2, n3, n4, n5 };
        const m = abstentionMetrics(c);
        expect(abstentionIdentities(c, m)).toEqual([]);
        expect(m.reliableAccuracy === null).toBe(n1 + n2 + n4 === 0);
        expect(m.abstentionPrecision === null).toBe(n3 + n5 === 0);
        expect(m.abstentionRecall === null).toBe(n2 + n4 + n5 === 0);
        expect(m.overallAccuracy === null).toBe(n1 + n2 + n3 + n4 + n5 === 0);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            sel: fc.option(fc.nat(4)),
            correct: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
          }),
        ),
        (tasks) => {
          const ds = tasks.map((t) => decision(t.sel ?? null, t.correct));
          const c = countDecisions(ds);
          expect(c.n1 + c.n2 + c.n3 + c.n4 + c.n5).toBe(tasks.length);
          tasks.forEach((t, i) => {
            const solvable = t.correct.some(Boolean);
            expect(['n1', 'n2', 'n3'].includes(ds[i] as string)).toBe(solvable);
          });
        },
      ),
      RUNS,
    );
  });

  it('9. baselines: plurality selects within a largest class of size ≥ 2; majority selects iff it holds more than half of the valid samples', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 7 }),
        async (variants) => {
          const tables = variants.map((v) => Array.from({ length: 4 }, (_, i) => (i === v ? 9 : i)));
          const forward = tables.map((t, j) => fn(t, `s${j}`));
          const inputs = args([0, 1, 2, 3]);
          const pl = await plurality(task, forward, { inputs });
          const mj = await majority(task, forward, { inputs });
          const sizes = pl.classes.map((c) => c.length);
          const top = Math.max(...sizes);
          if (pl.selection.kind === 'selected') {
            const cls = pl.classes.find((c) => c.includes((pl.selection as { index: number }).index));
            expect(cls?.length).toBe(top);
            expect(top).toBeGreaterThanOrEqual(2);
          } else expect(top).toBeLessThan(2);
          expect(mj.selection.kind === 'selected').toBe(top >= 2 && top / pl.valid > 0.5);
        },
      ),
      RUNS,
    );
  });
});
