import { describe, expect, it } from 'vitest';
import { defineTask } from '../../src/task/index.ts';
import {
  A,
  answers,
  createLogic,
  D,
  defineHyperproperty,
  PythonRandom,
  SEMANTICS,
  strongest,
  subset,
  tolerate,
  triangulate,
  U,
} from '../../src/triangulate/index.ts';
import { tuple } from '../../src/values/index.ts';
import { js } from './helpers.ts';

const art = createLogic(SEMANTICS.artifact);
const pap = createLogic(SEMANTICS.paper);
const name = (v: unknown) => (v === A ? 'A' : v === D ? 'D' : v === U ? 'U' : String(v));

describe('special values and the logic (design §1.3 tables)', () => {
  it('EQ over {1, 2, U, A, D}²', () => {
    const vals = [1, 2, U, A, D];
    const table = vals.map((a) => vals.map((b) => name(art.equals(a, b))).join(' '));
    expect(table).toEqual(['true false U A D', 'false true U A D', 'U U true A D', 'A A A A D', 'D D D D D']);
    expect(art.equals(1, 1.0)).toBe(true);
    expect(art.equals(1, true)).toBe(true);
    expect(art.equals(tuple(1, 2), [1, 2])).toBe(false);
    expect(art.equals(0.1 + 0.2, 0.3)).toBe(true);
    // The artifact's list quirk: equal-length lists with a special element compare element-wise.
    expect(art.equals([1, D], [1, 2])).toBe(true);
    expect(pap.equals([1, D], [1, 2])).toBe(D);
  });
  it('IN over {1, 5, U, A, D} × {Full[1], Subset[1], [1], U, A, D, [U], 7}', () => {
    const sets = [[1], subset([1]), tuple<unknown>(true, [1]), U, A, D, [U], 7];
    const xs = [1, 5, U, A, D];
    expect(xs.map((x) => sets.map((s) => name(art.member(x, s))).join(' '))).toEqual([
      'true true true U A D false D',
      'false A false U A D false D',
      'D D D true A D D D',
      'true true true A A D true D',
      'D D D D D D D D',
    ]);
    expect(pap.member(A, [1])).toBe(A);
  });
  it('connectives: a special dominates a boolean; both operands count', () => {
    expect(art.and(false, A)).toBe(A);
    expect(art.or(true, U)).toBe(U);
    expect(art.implies(false, D)).toBe(D);
    expect(art.not(U)).toBe(U);
    expect(art.and(true, true)).toBe(true);
    expect(art.implies(true, false)).toBe(false);
    expect(strongest(U, A, 1)).toBe(A);
    expect(tolerate([1, U])).toEqual([1, A]);
  });
  it('answers: list, (True, xs), (False, xs), 5, U, (1, xs)', () => {
    expect(answers([1, 2])).toMatchObject({ exhaustive: true, values: [1, 2] });
    expect(answers(tuple<unknown>(true, [3]))).toMatchObject({ exhaustive: true, values: [3] });
    expect(answers(tuple<unknown>(false, [3]))).toMatchObject({ exhaustive: false, values: [3] });
    expect(answers(5)).toBe(D);
    expect(answers(U)).toBe(U);
    expect(answers(tuple<unknown>(1, [3]))).toBe(D);
  });
  it("CPython's random.sample after seed(42)", () => {
    const s = (n: number, k: number) =>
      new PythonRandom(42).sample(
        Array.from({ length: n }, (_, i) => i),
        k,
      );
    expect(s(11, 10)).toEqual([10, 1, 0, 4, 9, 6, 5, 8, 2, 3]);
    expect(s(100, 10)).toEqual([81, 14, 3, 94, 35, 31, 28, 17, 13, 86]);
    expect(s(1000, 10)).toEqual([654, 114, 25, 759, 281, 250, 228, 142, 754, 104]);
    expect(s(60, 50).slice(0, 8)).toEqual([40, 7, 1, 47, 17, 15, 14, 8]);
  });
});

describe('forAll and the call budget through defineHyperproperty', () => {
  const task = defineTask({ name: 'id', signature: '(x: int) -> int' });
  const { p, q } = js({ p: (x: number) => x, q: (x: number) => x });
  const run = async (check: Parameters<typeof defineHyperproperty>[0]['check'], semantics?: 'paper') => {
    const r = await triangulate(task, [p!], {
      transformation: defineHyperproperty({ name: 'T', formula: 't', bijective: false, check }),
      witnesses: [q!],
      inputs: [[1], [2], [3]],
      ...(semantics ? { semantics } : {}),
    });
    return r.stages[0]?.pairs[0]?.[0];
  };
  it('empty and A domains are true; D and U domains false; threshold at 0, 1/3, 1/2', async () => {
    expect((await run((h) => h.forAll([], async () => false)))?.kind).toBe('holds');
    expect((await run((h) => h.forAll(A, async () => false)))?.kind).toBe('holds');
    expect((await run((h) => h.forAll(D, async () => true)))?.kind).toBe('fails');
    expect((await run((h) => h.forAll(U, async () => true)))?.kind).toBe('fails');
    const share =
      (k: number, n: number) => (h: Parameters<Parameters<typeof defineHyperproperty>[0]['check']>[0]) =>
        h.forAll(
          Array.from({ length: n }, (_, i) => i),
          async (i: number) => (i < k ? A : true),
          { clause: 'c' },
        );
    expect((await run(share(0, 3)))?.kind).toBe('holds');
    expect((await run(share(1, 3)))?.kind).toBe('holds');
    expect((await run(share(1, 3), 'paper'))?.kind).toBe('fails');
    expect((await run(share(1, 2)))?.kind).toBe('fails');
  });
  it('a check that exceeds 500 calls per input stops with a budget verdict', async () => {
    const v = await run(async (h) => {
      for (let i = 0; i < 2000; i++) await h.p(i);
      return true;
    });
    expect(v).toMatchObject({ kind: 'budget', calls: 1500 });
  });
  it('misuse throws a typed error naming the fix', async () => {
    await expect(
      triangulate(task, [p!], { transformation: 'fwd-inv', witnesses: [], inputs: [[1]] }),
    ).rejects.toThrow(/no witnesses/);
    await expect(
      triangulate(task, [p!], { transformation: 'fwd-inv', witnesses: [q!], inputs: [] }),
    ).rejects.toThrow(/zero forward inputs/);
    await expect(
      triangulate(task, [p!], {
        transformation: { kind: 'fwd-inv', invert: 'y' },
        witnesses: [q!],
        inputs: [[1]],
      }),
    ).rejects.toThrow(/parameters are x/);
    await expect(
      triangulate(task, [p!], { transformation: 'enum-sinv', witnesses: [q!], inputs: [[1]] }),
    ).rejects.toThrow(/enumerators/);
    await expect(
      triangulate(task, [p!], { transformation: 'nope' as never, witnesses: [q!], inputs: [[1]] }),
    ).rejects.toThrow(/transformation/);
    await expect(
      triangulate(task, [p!], {
        transformation: 'fwd-inv',
        witnesses: [q!],
        inputs: [[1]],
        semantics: { maxDomian: 3 } as never,
      }),
    ).rejects.toThrow(/unknown semantics field/);
    expect(() =>
      defineHyperproperty({ name: 'x', formula: 'y', bijective: 'yes' as never, check: async () => true }),
    ).toThrow(/bijective/);
  });
});
