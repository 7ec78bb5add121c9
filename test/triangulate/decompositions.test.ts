import { afterAll, describe, expect, it } from 'vitest';
import { CrosscheckError } from '../../src/errors/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { tri, triangulate } from '../../src/triangulate/index.ts';
import { tuple } from '../../src/values/index.ts';
import { chosen, holds, js, py } from './helpers.ts';

afterAll(() => closePythonWorkers());

// The length and tuple decompositions of design §1.4 (the authors' remove_length_parameter_adapter,
// add_length_parameter_adapter, unpack_argument_adapter). The adapters are host-side views; these
// fixtures are hand-checked: each expected verdict follows from the definition in the comment.

// total(n, xs, c) = sum(xs) + c, where n is len(xs). Removing n, FWD-INV w.r.t. c checks
// q(p(xs, c), xs) = c with q(out, xs) = out - sum(xs). P_OK sums xs[:n], which is all of xs once the
// view passes n = len(xs): holds. P_DROP_LAST sums xs[:n-1]: q returns c - xs[-1] ≠ c on an input
// whose last element is not 0: fails. The inputs' own n (a wrong one in the second input) never
// reaches a program: the view replaces it.
describe('remove-length ∘ FWD-INV (python)', () => {
  const task = defineTask({ name: 'total', signature: '(n: int, xs: list[int], c: int) -> int' });
  const L = [
    [0, [], 4],
    [7, [1, 2], 3],
    [3, [5, -1, 2], 0],
    [1, [9], -9],
    [4, [1, 1, 1, 1], 2],
  ];
  const f = py(
    {
      P_OK: 'def total(n, xs, c):\n    return sum(xs[:n]) + c',
      P_DROP_LAST: 'def total(n, xs, c):\n    return sum(xs[:n - 1]) + c if n > 0 else c',
    },
    'total',
  );
  const q = py({ Q: 'def total_simp_inv_c(out, xs):\n    return out - sum(xs)' }, 'total_simp_inv_c').Q!;
  const t = tri.removeLength(tri.fwdInv({ invert: 'c' }), { length: 'n', of: 'xs' });

  it('the correct program holds and is selected; the off-by-one one fails', async () => {
    expect(await holds(task, f.P_OK!, q, { transformation: t, inputs: L })).toBe(true);
    expect(await holds(task, f.P_DROP_LAST!, q, { transformation: t, inputs: L })).toBe(false);
    const r = await triangulate(task, [f.P_DROP_LAST!, f.P_OK!], {
      transformation: t,
      witnesses: [q],
      inputs: L,
    });
    expect(r.transformation).toBe('fwd-inv(c) ∘ remove-length(n = len(xs))');
    expect(chosen(r)).toBe('P_OK');
    const bad = r.candidates.find((c) => c.label === 'P_DROP_LAST');
    expect(bad?.counterexample?.clause).toBe('q(p(i), ī) = i_k');
    // The failing call shows the view's name, not the program's: the adapter is not spliced in.
    expect(bad?.counterexample?.calls.map((c) => c.call).join(' ')).toContain('total_simp(');
  });

  it('without the adapter the same witness cannot be used: its signature has no n', async () => {
    const r = await triangulate(task, [f.P_OK!], {
      transformation: tri.fwdInv({ invert: 'c' }),
      witnesses: [q],
      inputs: L,
    });
    expect(r.outcome).toBe('abstained');
  });

  it('bad options get a typed error that says what to fix', async () => {
    const both = tri.removeLength(tri.fwdInv(), { length: 'xs', of: 'xs' });
    await expect(
      triangulate(task, [f.P_OK!], { transformation: both, witnesses: [q], inputs: L }),
    ).rejects.toThrow(/'remove-length' needs two parameters/);
    const unknown = tri.removeLength(tri.fwdInv(), { length: 'len', of: 'xs' });
    await expect(
      triangulate(task, [f.P_OK!], { transformation: unknown, witnesses: [q], inputs: L }),
    ).rejects.toThrow(/`length` names no parameter: "len"; the task's parameters are n, xs, c/);
    const missing = { kind: 'remove-length', of: 'xs', inner: tri.fwdInv() } as never;
    const e = await triangulate(task, [f.P_OK!], {
      transformation: missing,
      witnesses: [q],
      inputs: L,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CrosscheckError);
    expect((e as CrosscheckError).code).toBe('INVALID_OPTION');
    expect((e as Error).message).toMatch(/needs `length`/);
  });
});

// total(xs, c) = sum(xs) + c. Adding xs_len before xs, FWD-INV w.r.t. c checks
// q(p(xs, c), xs_len, xs) = c with q(out, xs_len, xs) = out - sum(xs[:xs_len]): it holds only when
// the inserted length is the true one. P_SKIP_FIRST sums xs[1:]: q returns c - xs[0]: fails.
describe('add-length ∘ FWD-INV (python, and its JavaScript twin)', () => {
  const task = defineTask({ name: 'total', signature: '(xs: list[int], c: int) -> int' });
  const L = [
    [[], 1],
    [[1, 2], 3],
    [[5, -1, 2], 0],
    [[9], -9],
  ];
  const t = tri.addLength(tri.fwdInv({ invert: 'c' }), { of: 'xs' });
  const f = py(
    {
      P_OK: 'def total(xs, c):\n    return sum(xs) + c',
      P_SKIP_FIRST: 'def total(xs, c):\n    return sum(xs[1:]) + c',
    },
    'total',
  );
  const q = py(
    { Q: 'def total_with_len_inv_c(out, xs_len, xs):\n    return out - sum(xs[:xs_len])' },
    'total_with_len_inv_c',
  ).Q!;

  it('python: the correct program holds and is selected; the one skipping the first element fails', async () => {
    expect(await holds(task, f.P_OK!, q, { transformation: t, inputs: L })).toBe(true);
    expect(await holds(task, f.P_SKIP_FIRST!, q, { transformation: t, inputs: L })).toBe(false);
    const r = await triangulate(task, [f.P_SKIP_FIRST!, f.P_OK!], {
      transformation: t,
      witnesses: [q],
      inputs: L,
    });
    expect(r.transformation).toBe('fwd-inv(c) ∘ add-length(len(xs))');
    expect(chosen(r)).toBe('P_OK');
  });

  it('javascript twin: the same verdicts with trusted functions', async () => {
    const g = js({
      ok: (xs: number[], c: number) => xs.reduce((a, b) => a + b, 0) + c,
      skipFirst: (xs: number[], c: number) => xs.slice(1).reduce((a, b) => a + b, 0) + c,
    });
    const w = js({
      inv: (out: number, n: number, xs: number[]) => out - xs.slice(0, n).reduce((a, b) => a + b, 0),
    }).inv!;
    expect(await holds(task, g.ok!, w, { transformation: t, inputs: L })).toBe(true);
    expect(await holds(task, g.skipFirst!, w, { transformation: t, inputs: L })).toBe(false);
  });
});

// dist(p: tuple[int, int]) = p[0] - p[1]. Unpacked, FWD-INV w.r.t. a checks q(p(a, b), b) = a with
// q(out, b) = out + b. P_OK holds; P_SWAPPED (p[1] - p[0]) gives q = 2b - a: fails unless a = b.
// P_STRICT raises unless it receives a real tuple: it holds, so the view packs a tuple.
describe('unpack-tuple ∘ FWD-INV (python)', () => {
  const task = defineTask({ name: 'dist', signature: '(p: tuple[int, int]) -> int' });
  const L = [[tuple(1, 2)], [tuple(5, -3)], [tuple(0, 0)], [tuple(-4, 7)]];
  const f = py(
    {
      P_OK: 'def dist(p):\n    a, b = p\n    return a - b',
      P_SWAPPED: 'def dist(p):\n    return p[1] - p[0]',
      P_STRICT:
        "def dist(p):\n    if not isinstance(p, tuple):\n        raise TypeError('not a tuple')\n    return p[0] - p[1]",
    },
    'dist',
  );
  const q = py({ Q: 'def dist_unpacked_inv_a(out, b):\n    return out + b' }, 'dist_unpacked_inv_a').Q!;
  const t = tri.unpackTuple(tri.fwdInv());

  it('the correct programs hold (a tuple reaches them); the swapped one fails', async () => {
    expect(await holds(task, f.P_OK!, q, { transformation: t, inputs: L })).toBe(true);
    expect(await holds(task, f.P_STRICT!, q, { transformation: t, inputs: L })).toBe(true);
    expect(await holds(task, f.P_SWAPPED!, q, { transformation: t, inputs: L })).toBe(false);
    const r = await triangulate(task, [f.P_SWAPPED!, f.P_OK!], {
      transformation: t,
      witnesses: [q],
      inputs: L,
    });
    expect(r.transformation).toBe('fwd-inv(#0) ∘ unpack-tuple');
    expect(chosen(r)).toBe('P_OK');
  });

  it('a task with more than one parameter is refused with a typed error', async () => {
    const two = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int' });
    await expect(
      triangulate(two, [f.P_OK!], { transformation: t, witnesses: [q], inputs: [[1, 2]] }),
    ).rejects.toThrow(/'unpack-tuple' needs a task with one \(tuple\) parameter; this one has 2/);
  });
});

// Tuple unpacking where the design places it: a pointwise problem whose single parameter is a
// tuple. diffs(ps) = [a - b for (a, b) in ps]; stream ∘ unpack-tuple ∘ FWD-INV w.r.t. a checks the
// unpacked pointwise view against q(out, b) = out + b, then the map law on the lists.
// P_OK holds and is selected; P_SWAPPED (b - a) fails the pointwise stage; P_HEAD_ONLY is right
// pointwise (one-element lists) but drops every element after the first, so the map law fails.
describe('stream ∘ unpack-tuple ∘ FWD-INV (python)', () => {
  const task = defineTask({ name: 'diffs', signature: '(ps: list[tuple[int, int]]) -> list[int]' });
  const L = [[[tuple(1, 2), tuple(5, -3)]], [[tuple(0, 0)]], [[tuple(-4, 7), tuple(2, 2), tuple(9, 1)]]];
  const f = py(
    {
      P_SWAPPED: 'def diffs(ps):\n    return [b - a for (a, b) in ps]',
      P_HEAD_ONLY: 'def diffs(ps):\n    return [ps[0][0] - ps[0][1]] if ps else []',
      P_OK: 'def diffs(ps):\n    return [a - b for (a, b) in ps]',
    },
    'diffs',
  );
  const q = py(
    { Q: 'def diffs_single_unpacked_inv_a(out, b):\n    return out + b' },
    'diffs_single_unpacked_inv_a',
  ).Q!;

  it('selects P_OK; the swapped program fails pointwise, the head-only one fails the map law', async () => {
    const r = await triangulate(task, [f.P_SWAPPED!, f.P_HEAD_ONLY!, f.P_OK!], {
      transformation: tri.stream(tri.unpackTuple(tri.fwdInv())),
      witnesses: [q],
      inputs: L,
    });
    expect(r.transformation).toBe('fwd-inv(#0) ∘ unpack-tuple ∘ stream');
    expect(r.stages.map((s) => s.name)).toEqual(['pointwise', 'stateless-map']);
    const [pointwise, map] = r.stages;
    const kind = (s: typeof pointwise, row: number) => s?.pairs[row]?.[0]?.kind;
    expect(kind(pointwise, 0)).toBe('fails');
    expect(['holds', 'inherited']).toContain(kind(pointwise, 1));
    expect(['holds', 'inherited']).toContain(kind(pointwise, 2));
    expect(r.candidates.find((c) => c.label === 'P_HEAD_ONLY')?.support).toBe(0);
    expect(map?.pairs.length).toBe(3);
    expect(chosen(r)).toBe('P_OK');
  });
});
