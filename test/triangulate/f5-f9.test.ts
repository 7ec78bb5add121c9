import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import {
  majority,
  plurality,
  postcondition,
  tri,
  triangulate,
  unionCompose,
} from '../../src/triangulate/index.ts';
import { tuple } from '../../src/values/index.ts';
import { chosen, holds, js, py } from './helpers.ts';

afterAll(() => closePythonWorkers());

// F5: list_sum(l), split-suffix ∘ FWD-SINV w.r.t. the suffix (2_list_sum).
describe('F5 list_sum, split-suffix ∘ FWD-SINV (python)', () => {
  const task = defineTask({ name: 'list_sum', signature: '(l: list[int]) -> int' });
  const L = [[[]], [[1]], [[5, -1]], [[5, -1, 1]], [[3, 3, 3]], [[-2]], [[0]], [[0, 0]], [[10, -20, 7]]];
  const f = py(
    {
      P_SUM: 'def list_sum(l):\n    return sum(l)',
      P_ABS: 'def list_sum(l):\n    return sum(abs(x) for x in l)',
      P_SKIP_FIRST: 'def list_sum(l):\n    return sum(l[1:]) if len(l) > 2 else sum(l)',
    },
    'list_sum',
  );
  const q = py(
    {
      Q_OK: 'def list_sum_sinv_suffix(total, prefix):\n    out = [[total - sum(prefix)]]\n    if prefix == [] and total == 0:\n        out.append([])\n    return out',
      Q_NO_EMPTY: 'def list_sum_sinv_suffix(total, prefix):\n    return [[total - sum(prefix)]]',
    },
    'list_sum_sinv_suffix',
  );
  const inv = py(
    { Q_INV: 'def list_sum_inv_suffix(total, prefix):\n    return [total - sum(prefix)]' },
    'list_sum_inv_suffix',
  ).Q_INV!;
  const t = tri.splitSuffix(tri.fwdSinv());
  it('sum holds with Q_OK; Q_NO_EMPTY fails; the FWD-INV inverse fails even with sum; P_ABS and P_SKIP_FIRST fail', async () => {
    const o = { transformation: t, inputs: L };
    expect(await holds(task, f.P_SUM!, q.Q_OK!, o)).toBe(true);
    expect(await holds(task, f.P_SUM!, q.Q_NO_EMPTY!, o)).toBe(false);
    expect(
      await holds(task, f.P_SUM!, inv, { transformation: tri.splitSuffix(tri.fwdInv()), inputs: L }),
    ).toBe(false);
    expect(await holds(task, f.P_ABS!, q.Q_OK!, o)).toBe(false);
    expect(await holds(task, f.P_SKIP_FIRST!, q.Q_OK!, o)).toBe(false);
    const r = await triangulate(task, [f.P_ABS!, f.P_SUM!, f.P_SKIP_FIRST!], { ...o, witnesses: [q.Q_OK!] });
    expect(r.transformation).toBe('fwd-sinv(#0) ∘ split-suffix(l, 1)');
    expect(chosen(r)).toBe('P_SUM');
  });
});

// F6: smaller(i), inexact: the ENUM-SINV cascade (4_smaller_number).
const L6 = [[-1], [0], [1], [2], [7], [-10]];
const R6 = [[-3], [0], [1], [5]];
const pyFwd6 = py(
  {
    i: 'def smaller(i):\n    return i',
    'i-1': 'def smaller(i):\n    return i - 1',
    'i+0': 'def smaller(i):\n    return i + 0',
    'i-2': 'def smaller(i):\n    return i - 2',
    'int(i)': 'def smaller(i):\n    return int(i)',
    '-1+i': 'def smaller(i):\n    return -1 + i',
    'i-3': 'def smaller(i):\n    return i - 3',
  },
  'smaller',
);
const pyE6 = py(
  {
    E_OK: 'def smaller_enum(i):\n    return [i - 1, i - 2]',
    E_MISS: 'def smaller_enum(i):\n    return [i - 1]',
    E_OVER: 'def smaller_enum(i):\n    return [i, i - 1, i - 2]',
  },
  'smaller_enum',
);
const pyS6 = py(
  {
    S_OK: 'def smaller_sinv(o):\n    return [o + 1, o + 2]',
    S_MISS: 'def smaller_sinv(o):\n    return [o + 1]',
    S_OVER: 'def smaller_sinv(o):\n    return [o, o + 1, o + 2]',
  },
  'smaller_sinv',
);
const jsFwd6 = js({
  i: (i: number) => i,
  'i-1': (i: number) => i - 1,
  'i+0': (i: number) => i + 0,
  'i-2': (i: number) => i - 2,
  'int(i)': (i: number) => Math.trunc(i),
  '-1+i': (i: number) => -1 + i,
  'i-3': (i: number) => i - 3,
});
const jsE6 = js({
  E_OK: (i: number) => [i - 1, i - 2],
  E_MISS: (i: number) => [i - 1],
  E_OVER: (i: number) => [i, i - 1, i - 2],
});
const jsS6 = js({
  S_OK: (o: number) => [o + 1, o + 2],
  S_MISS: (o: number) => [o + 1],
  S_OVER: (o: number) => [o, o + 1, o + 2],
});

describe.each([
  ['python', pyFwd6, pyE6, pyS6],
  ['javascript', jsFwd6, jsE6, jsS6],
] as const)('F6 smaller, ENUM-SINV cascade (%s)', (_lang, f, e, s) => {
  const task = defineTask({ name: 'smaller', signature: '(i: int) -> int' });
  const stage1 = async (en: string, inv: string, bijective: boolean) => {
    const r = await triangulate(task, [f.i!], {
      transformation: tri.enumSinv({ bijective }),
      enumerators: [e[en]!],
      witnesses: [s[inv]!],
      inputs: L6,
      witnessInputs: R6,
    });
    return r.stages[0]?.pairs[0]?.[0]?.kind === 'holds';
  };
  it('stage 1 verdicts (bijective / ablation) as the authors checker gives them', async () => {
    const cases: Array<[string, string, boolean, boolean]> = [
      ['E_OK', 'S_OK', true, true],
      ['E_OK', 'S_MISS', false, false],
      ['E_OK', 'S_OVER', false, true],
      ['E_MISS', 'S_OK', false, true],
      ['E_MISS', 'S_MISS', true, true],
      ['E_OVER', 'S_OVER', true, true],
      ['E_OVER', 'S_OK', false, false],
    ];
    for (const [en, inv, bij, abl] of cases) {
      expect(`${en}/${inv}:${await stage1(en, inv, true)}/${await stage1(en, inv, false)}`).toBe(
        `${en}/${inv}:${bij}/${abl}`,
      );
    }
  });
  it('pool: selects i-1 (score 4), both correct non-equivalent programs are supported; plurality selects i, majority abstains', async () => {
    const pool = Object.values(f);
    const r = await triangulate(task, pool, {
      transformation: 'enum-sinv',
      enumerators: [e.E_OK!, e.E_MISS!, e.E_OVER!],
      witnesses: [s.S_OK!, s.S_MISS!],
      inputs: L6,
      witnessInputs: R6,
    });
    expect(chosen(r)).toBe('i-1');
    const by = Object.fromEntries(r.candidates.map((c) => [c.label, [c.witnesses.join(','), c.score]]));
    expect(by['i-1']).toEqual(['S_OK,S_MISS', 4]);
    expect(by['-1+i']).toEqual(['S_OK,S_MISS', 4]);
    expect(by['i-2']).toEqual(['S_OK', 1]);
    for (const x of ['i', 'i+0', 'int(i)', 'i-3']) expect(by[x]).toEqual(['', 0]);
    const pl = await plurality(task, pool, { inputs: L6 });
    expect(pl.selection.kind === 'selected' && pool[pl.selection.index]?.label).toBe('i');
    expect((await majority(task, pool, { inputs: L6 })).selection.kind).toBe('abstained');
  });
  it('a too-loose postcondition (o < i) agrees with an error: four programs score 4 and order decides', async () => {
    const post =
      _lang === 'python'
        ? py({ POST: 'def smaller_post(i, o):\n    return o < i' }, 'smaller_post').POST!
        : js({ POST: (i: number, o: number) => o < i }).POST!;
    const pool = Object.values(f);
    const b = await postcondition(task, pool, [post], { inputs: L6 });
    expect(b.selection).toMatchObject({ kind: 'selected', index: 1, score: 4 });
    const r = await triangulate(task, pool, {
      transformation: tri.postcondition(),
      witnesses: [post],
      inputs: L6,
    });
    expect(r.candidates.filter((c) => c.score === 4).map((c) => c.label)).toEqual([
      'i-1',
      'i-2',
      '-1+i',
      'i-3',
    ]);
  });
});

// F7: stream_inc(l), STREAM ∘ FWD-INV (5_stream_inc).
const L7 = [[[0]], [[-5]], [[1, 5, -3]], [[]], [[3, 2, 1]], [[7, 7]]];
const R7 = [[1], [-4], [2], [6], [-2], [0]];
const pyF7 = py(
  {
    P_OK: 'def stream_inc(l):\n    return [x + 1 for x in l]',
    P_SORTED: 'def stream_inc(l):\n    return sorted(x + 1 for x in l)',
    P_DEDUP:
      'def stream_inc(l):\n    out = []\n    for x in l:\n        if x + 1 not in out:\n            out.append(x + 1)\n    return out',
    P_DOUBLE: 'def stream_inc(l):\n    return [x + 2 for x in l]',
  },
  'stream_inc',
);
const pyQ7 = py({ Q_OK: 'def stream_inc_single_inv(y):\n    return y - 1' }, 'stream_inc_single_inv').Q_OK!;
const jsF7 = js({
  P_OK: (l: number[]) => l.map((x) => x + 1),
  P_SORTED: (l: number[]) => l.map((x) => x + 1).sort((a, b) => a - b),
  P_DEDUP: (l: number[]) => [...new Set(l.map((x) => x + 1))],
  P_DOUBLE: (l: number[]) => l.map((x) => x + 2),
});
const jsQ7 = js({ Q_OK: (y: number) => y - 1 }).Q_OK!;

describe.each([
  ['python', pyF7, pyQ7],
  ['javascript', jsF7, jsQ7],
] as const)('F7 stream_inc, STREAM ∘ FWD-INV (%s)', (_lang, f, q) => {
  const task = defineTask({ name: 'stream_inc', signature: '(l: list[int]) -> list[int]' });
  it('pointwise views of P_OK, P_SORTED, P_DEDUP hold, P_DOUBLE° fails; map stage keeps P_OK only, with support 3', async () => {
    const r = await triangulate(task, [f.P_OK!, f.P_SORTED!, f.P_DEDUP!, f.P_DOUBLE!], {
      transformation: tri.stream(tri.fwdInv()),
      witnesses: [q],
      inputs: L7,
      witnessInputs: R7,
    });
    const [pointwise, map] = r.stages;
    expect(pointwise?.inputs.left).toBe(8);
    expect(pointwise?.pairs.map((row) => row[0]?.kind === 'holds' || row[0]?.kind === 'inherited')).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(map?.right).toHaveLength(3);
    expect(r.candidates.map((c) => c.support)).toEqual([3, 0, 0, 0]);
    expect(chosen(r)).toBe('P_OK');
  });
});

// F8: closer_to_0_or_3(a), FWD-SINV with Subset answers (tests/test_infinite_fibers.py).
describe('F8 closer_to_0_or_3, Subset answers (python)', () => {
  const task = defineTask({ name: 'closer_to_0_or_3', signature: '(a: int) -> int' });
  const f = py(
    {
      P_OK: 'def closer_to_0_or_3(a):\n    if a <= 1:\n        return 0\n    return 3',
      P_BUG: 'def closer_to_0_or_3(a):\n    if a < 1:\n        return 0\n    return 3',
    },
    'closer_to_0_or_3',
  );
  const sinv = (lo0: number, hi0: number, lo3: number, hi3: number, exhaustive: string) =>
    `def sinv(o):\n    if o == 0:\n        return ${exhaustive.replace('XS', `list(range(${lo0}, ${hi0}))`)}\n    if o == 3:\n        return ${exhaustive.replace('XS', `list(range(${lo3}, ${hi3}))`)}\n    raise ValueError('Invalid input')`;
  const q = py(
    {
      SINV: sinv(-5, 2, 2, 5, '(False, XS)'),
      BUGGY: sinv(-5, 1, 1, 5, '(False, XS)'),
      FULL: sinv(-5, 2, 2, 5, 'XS'),
    },
    'sinv',
  );
  const on = (inputs: number[], preset: 'artifact' | 'paper' = 'artifact') => ({
    transformation: tri.fwdSinv(),
    inputs: inputs.map((a) => [a]),
    semantics: preset,
  });
  it('L = 4, 0, -1: SINV and FULL hold with P_OK; P_BUG and BUGGY fail', async () => {
    expect(await holds(task, f.P_OK!, q.SINV!, on([4, 0, -1]))).toBe(true);
    expect(await holds(task, f.P_BUG!, q.SINV!, on([4, 0, -1]))).toBe(false);
    expect(await holds(task, f.P_OK!, q.BUGGY!, on([4, 0, -1]))).toBe(false);
    expect(await holds(task, f.P_OK!, q.FULL!, on([4, 0, -1]))).toBe(true);
  });
  it('adding 100: SINV holds (1/4 angelic), FULL fails', async () => {
    expect(await holds(task, f.P_OK!, q.SINV!, on([4, 0, -1, 100]))).toBe(true);
    expect(await holds(task, f.P_OK!, q.FULL!, on([4, 0, -1, 100]))).toBe(false);
  });
  it('L = 4, 0, 100: one third angelic holds under artifact (< 0.34), fails under paper (not < 1/3)', async () => {
    expect(await holds(task, f.P_OK!, q.SINV!, on([4, 0, 100], 'artifact'))).toBe(true);
    expect(await holds(task, f.P_OK!, q.SINV!, on([4, 0, 100], 'paper'))).toBe(false);
  });
  it('L = 4, 100 (1/2) and L = 4, 0, -1, 100, -100 (2/5) fail', async () => {
    expect(await holds(task, f.P_OK!, q.SINV!, on([4, 100]))).toBe(false);
    expect(await holds(task, f.P_OK!, q.SINV!, on([4, 0, -1, 100, -100]))).toBe(false);
    const r = await triangulate(task, [f.P_OK!], { ...on([4, 100]), witnesses: [q.SINV!] });
    expect(r.candidates[0]?.counterexample).toMatchObject({ result: 'angelic-share', angelicShare: 0.5 });
  });
});

// F9: sqrt_or_no(n) -> "NO" | ("YES", t), ENUM-SINV with a union-decomposed inverse.
describe('F9 sqrt_or_no, ENUM-SINV with union composition (python)', () => {
  const task = defineTask({ name: 'sqrt_or_no', signature: '(n: int) -> Union[str, tuple[str, int]]' });
  const L = [[0], [1], [2], [9], [10], [-4], [49], [50]];
  const R: unknown[][] = [
    ['NO'],
    [tuple<unknown>('YES', 0)],
    [tuple<unknown>('YES', 3)],
    [tuple<unknown>('YES', -3)],
    [tuple<unknown>('YES', 7)],
  ];
  const sq = 'import math\ndef sq(n):\n    return n >= 0 and math.isqrt(n) ** 2 == n\n';
  const f = py(
    {
      P_POS: `${sq}def sqrt_or_no(n):\n    return ('YES', math.isqrt(n)) if sq(n) else 'NO'`,
      P_NEG: `${sq}def sqrt_or_no(n):\n    return ('YES', -math.isqrt(n)) if sq(n) else 'NO'`,
      Z1: `${sq}def sqrt_or_no(n):\n    if n <= 0:\n        return 'NO'\n    return ('YES', math.isqrt(n)) if sq(n) else 'NO'`,
      Z2: `import math\ndef sqrt_or_no(n):\n    if n > 0 and math.isqrt(n) ** 2 == n:\n        return ('YES', math.isqrt(n))\n    return 'NO'`,
      Z3: `def sqrt_or_no(n):\n    for r in range(1, n + 1):\n        if r * r == n:\n            return ('YES', r)\n    return 'NO'`,
    },
    'sqrt_or_no',
  );
  const e = py(
    {
      E_OK: `${sq}def sqrt_or_no_enum(n):\n    return [('YES', math.isqrt(n)), ('YES', -math.isqrt(n))] if sq(n) else ['NO']`,
      E_POS: `${sq}def sqrt_or_no_enum(n):\n    return [('YES', math.isqrt(n))] if sq(n) else ['NO']`,
    },
    'sqrt_or_no_enum',
  );
  const none = py(
    { NO: `${sq}def sinv_no():\n    return [n for n in range(-100, 101) if not sq(n)]` },
    'sinv_no',
  ).NO!;
  const yes = py(
    {
      YES_OK: 'def sinv_yes(r):\n    return [r * r]',
      YES_POS: 'def sinv_yes(r):\n    return [] if r < 0 else [r * r]',
    },
    'sinv_yes',
  );
  const S_OK = unionCompose(none, yes.YES_OK!, 'S_OK');
  const S_POS = unionCompose(none, yes.YES_POS!, 'S_POS');
  const o = { transformation: 'enum-sinv' as const, inputs: L, witnessInputs: R };
  it('stage 1: E_OK–S_OK and E_POS–S_POS hold, the crosses fail', async () => {
    const r = await triangulate(task, [f.P_POS!], {
      ...o,
      enumerators: [e.E_OK!, e.E_POS!],
      witnesses: [S_OK, S_POS],
    });
    expect(r.stages[0]?.pairs.map((row) => row.map((v) => v.kind))).toEqual([
      ['holds', 'fails'],
      ['fails', 'holds'],
    ]);
  });
  it('stage 2: P_POS gets [S_OK, S_POS], P_NEG [S_OK], the zero-bug programs none: selects P_POS; plurality and majority select a zero-bug program', async () => {
    const pool = [f.Z1!, f.P_POS!, f.Z2!, f.P_NEG!, f.Z3!];
    const r = await triangulate(task, pool, {
      ...o,
      enumerators: [e.E_OK!, e.E_POS!],
      witnesses: [S_OK, S_POS],
    });
    expect(r.candidates.map((c) => c.witnesses.join(','))).toEqual(['', 'S_OK,S_POS', '', 'S_OK', '']);
    expect(chosen(r)).toBe('P_POS');
    const pl = await plurality(task, pool, { inputs: L });
    const mj = await majority(task, pool, { inputs: L });
    expect(pl.selection).toMatchObject({ kind: 'selected', index: 0 });
    expect(mj.selection).toMatchObject({ kind: 'selected', index: 0 });
  });
});
