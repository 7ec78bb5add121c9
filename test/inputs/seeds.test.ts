import { describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/bench/dataset.ts';
import { gen } from '../../src/inputs/index.ts';
import { shapeFor } from '../../src/inputs/mutate-typed.ts';
import { inferArgShapes, type Shape } from '../../src/inputs/shape.ts';
import { kindOf } from '../../src/inputs/value-kind.ts';
import { decode, PyDict, PyFloat, pyFloat, Tuple, tuple } from '../../src/values/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

/** True when every node of `v` has a kind the seed shape allows at that place. */
const within = (v: unknown, shape: Shape | null): boolean => {
  if (shape === null) return kindOf(v) === 'int';
  const s = shapeFor(shape, v);
  if (s === null) return false;
  const k = kindOf(v);
  switch (s.t) {
    case 'int':
      return k === 'int';
    case 'float':
      return k === 'float';
    case 'str':
      return k === 'str';
    case 'bool':
      return k === 'bool';
    case 'none':
      return k === 'none';
    case 'list':
      return k === 'list' && (v as unknown[]).every((x) => within(x, s.item));
    case 'tuple':
      return (
        k === 'tuple' &&
        (v as unknown[]).length === s.items.length &&
        (v as unknown[]).every((x, i) => within(x, s.items[i] ?? null))
      );
    case 'vartuple':
      return k === 'tuple' && (v as unknown[]).every((x) => within(x, s.item));
    case 'dict':
      return (
        (k === 'dict' || k === 'map') &&
        [...(v as Map<unknown, unknown>)].every(([a, b]) => within(a, s.key) && within(b, s.value))
      );
    case 'set':
      return (k === 'set' || k === 'frozenset') && [...(v as Set<unknown>)].every((x) => within(x, s.item));
    default:
      return true;
  }
};

describe('gen.fromSeeds, typed profile', () => {
  it('should keep every value within the type the seeds show', async () => {
    const seeds = [
      [[pyFloat(1), 2.5], tuple<unknown>(1, 'a'), new PyDict([['k', [1, 2]]]), 'x y', true, null],
      [[0.25], tuple<unknown>(-3, 'bc'), new PyDict(), 'z', false, null],
    ];
    const inputs = await gen.fromSeeds(seeds).generate(500, { seed: 9 });
    for (const args of inputs) {
      expect(args[0]).toBeInstanceOf(Array);
      for (const x of args[0] as unknown[]) expect(kindOf(x)).toBe('float');
      expect(args[1]).toBeInstanceOf(Tuple);
      expect((args[1] as unknown[]).length).toBe(2);
      expect(
        typeof (args[1] as unknown[])[0] === 'number' && Number.isInteger((args[1] as number[])[0]),
      ).toBe(true);
      expect(typeof (args[1] as unknown[])[1]).toBe('string');
      expect(args[2]).toBeInstanceOf(PyDict);
      for (const [k, v] of args[2] as Map<unknown, unknown>) {
        expect(typeof k).toBe('string');
        expect(Array.isArray(v) && (v as unknown[]).every((n) => Number.isInteger(n))).toBe(true);
      }
      expect(typeof args[3]).toBe('string');
      expect(typeof args[4]).toBe('boolean');
      expect(args[5]).toBeNull();
    }
  });

  it('should keep every HumanEval input within the types its seeds show', async () => {
    if (!requireData()) return;
    for (const task of loadTasks(humanevalDir())) {
      const seeds = task.seedInputs.map((s) => decode(s) as unknown[]);
      const shapes = inferArgShapes(seeds);
      const inputs = await gen.fromSeeds(seeds, { language: 'python' }).generate(200, { seed: 1 });
      for (const args of inputs) {
        args.forEach((v, i) => {
          if (!within(v, shapes[i] ?? null)) throw new Error(`${task.taskId}: ${String(v)} left its type`);
        });
      }
    }
  });

  it('should yield 1,000 draws for every HumanEval task before any filter', async () => {
    if (!requireData()) return;
    const short: string[] = [];
    for (const task of loadTasks(humanevalDir())) {
      const seeds = task.seedInputs.map((s) => decode(s) as unknown[]);
      const inputs = await gen.fromSeeds(seeds, { language: 'python' }).generate(1000, { seed: 1 });
      if (inputs.length < 1000) short.push(`${task.taskId}: ${inputs.length}`);
    }
    expect(short).toEqual([]);
  });

  it('should give plain JS values for JavaScript seeds (no Python boxes)', async () => {
    const inputs = await gen
      .fromSeeds([[[1.5, 2.25], { name: 'a', tags: ['x'] }]])
      .generate(300, { seed: 4 });
    const hasBox = (v: unknown): boolean =>
      v instanceof PyFloat ||
      v instanceof Tuple ||
      v instanceof PyDict ||
      (Array.isArray(v) && v.some(hasBox)) ||
      (typeof v === 'object' && v !== null && Object.values(v).some(hasBox));
    for (const args of inputs) {
      expect(hasBox(args)).toBe(false);
      for (const x of args[0] as unknown[]) expect(typeof x).toBe('number');
      const record = args[1] as { name: unknown; tags: unknown[] };
      expect(typeof record.name).toBe('string');
      for (const t of record.tags) expect(typeof t).toBe('string');
    }
  });

  it('should take the element type of always-empty seed lists from the signature', async () => {
    const inputs = await gen
      .fromSeeds([[[]], [[]]], { signature: '(words: List[str]) -> int', language: 'python' })
      .generate(100, { seed: 3 });
    const elements = inputs.flatMap((args) => args[0] as unknown[]);
    expect(elements.length).toBeGreaterThan(0);
    for (const e of elements) expect(typeof e).toBe('string');
    const fallback = await gen.fromSeeds([[[]]]).generate(50, { seed: 3 });
    for (const e of fallback.flatMap((args) => args[0] as unknown[])) expect(Number.isInteger(e)).toBe(true);
  });

  it('should keep only inputs the reference accepts', async () => {
    const reference = (xs: number[]) => {
      if (xs.length === 0) throw new RangeError('empty');
      return Math.max(...xs);
    };
    const g = gen.fromSeeds([[[3, 1, 2]], [[5]]]).withReference(reference);
    const report = await g.generateWithReport(200, { seed: 2 });
    expect(report.sampled).toBe(200);
    expect(report.counts.reduce((a, b) => a + b, 0)).toBe(200);
    for (const [xs] of report.inputs as [number[]][]) expect(xs.length).toBeGreaterThan(0);
    expect(report.rejected['reference: invalid RangeError']).toBeGreaterThan(0);
    expect(await g.accepts([[]])).toBe(false);
    expect(await g.accepts([[1]])).toBe(true);
    // The reference's outcome on each kept input comes back, so it need not run again.
    expect(report.referenceOutcomes?.map((o) => (o.kind === 'value' ? o.value : o.kind))).toEqual(
      (report.inputs as [number[]][]).map(([xs]) => Math.max(...xs)),
    );
    expect((await gen.fromSeeds([[[1]]]).generateWithReport(5, { seed: 1 })).referenceOutcomes).toBeNull();
  });

  it('should name the most frequent rejection when it falls short', async () => {
    const g = gen.fromSeeds([[1]], { profile: 'difftrust' }).withReference((n: number) => {
      if (n !== 1) throw new TypeError('only one');
      return n;
    });
    const report = await g.generateWithReport(20, { seed: 1, maxDraws: 200 });
    expect(report.inputs).toEqual([[1]]);
    expect(report.shortfall).toMatch(/; most often reference: error TypeError \(\d+\)$/);
  });

  it('should drop inputs whose reference output is larger than maxOutputBytes', async () => {
    const g = gen
      .fromSeeds([[3], [300]], { profile: 'difftrust' })
      .withReference((n: number) => 'x'.repeat(Math.abs(n) * 10), { maxOutputBytes: 1000 });
    const report = await g.generateWithReport(50, { seed: 4 });
    for (const [n] of report.inputs as [number][]) expect(Math.abs(n) * 10 + 2).toBeLessThanOrEqual(1000);
    expect(report.rejected['reference: error OutputTooLarge']).toBeGreaterThan(0);
  });

  it('should keep drawing from a finite domain, counting each value as often as it is drawn', async () => {
    const report = await gen.fromSeeds([[true]]).generateWithReport(10, { seed: 1 });
    expect(report.inputs.length).toBe(2);
    expect(report.counts.reduce((a, b) => a + b, 0)).toBe(10);
    expect(report.shortfall).toBeNull();
    const draws = await gen.fromSeeds([[true]]).generate(10, { seed: 1 });
    expect(draws.length).toBe(10);
  });
});

describe('gen.fromSeeds, difftrust profile', () => {
  it('should step ints by ±1 or ±10 only', async () => {
    const inputs = await gen
      .fromSeeds([[5]], { profile: 'difftrust', mutations: [1] })
      .generate(10, { seed: 1 });
    expect(new Set(inputs.map((a) => a[0]))).toEqual(new Set([-5, 4, 6, 15]));
  });

  it('should move floats by U(-1, 1) or U(-10, 10) and keep them floats', async () => {
    const inputs = await gen
      .fromSeeds([[pyFloat(2)]], { profile: 'difftrust', mutations: [1] })
      .generate(200, { seed: 1 });
    for (const [x] of inputs) {
      const v = x instanceof PyFloat ? x.value : (x as number);
      expect(x instanceof PyFloat || !Number.isInteger(x)).toBe(true);
      expect(v >= -8 && v <= 12).toBe(true);
    }
  });

  it('should let types drift by inserting dummy elements into lists', async () => {
    const inputs = await gen
      .fromSeeds([[[1, 2, 3]]], { profile: 'difftrust', mutations: [30] })
      .generate(300, { seed: 1 });
    const kinds = new Set(inputs.flatMap((a) => (a[0] as unknown[]).map(kindOf)));
    for (const k of ['none', 'bool', 'str', 'list', 'dict', 'set', 'float'])
      expect(kinds.has(k as never)).toBe(true);
  });

  it('should pick the mutation count per input from 1, 10 and 30 by default', async () => {
    const one = await gen
      .fromSeeds([['aaaaaaaaaaaaaaaaaaaa']], { profile: 'difftrust' })
      .generate(300, { seed: 1 });
    const distances = one.map(([s]) => Math.abs((s as string).length - 20));
    expect(Math.max(...distances)).toBeGreaterThan(10);
  });
});
