import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../src/candidates/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { tri, triangulate } from '../../src/triangulate/index.ts';
import { chosen } from './helpers.ts';

// The method's known ways to pass wrong code, each faithful to the paper and its authors' checker.
// docs/triangulation.md ("What a pass does not prove") shows these same examples; these tests keep
// the docs true.
const invalid = (): never => {
  throw new RangeError('Invalid input');
};

describe('a witness that shares the forward bug confirms it', () => {
  // shift(s, n) should wrap around the alphabet; forward and inverse both forget to.
  const task = defineTask({ name: 'shift', signature: '(s: str, n: int) -> str' });
  const move = (s: string, n: number) =>
    [...s].map((ch) => String.fromCharCode(ch.charCodeAt(0) + n)).join('');
  const [noWrap] = fromFunctions({ P_NO_WRAP: (s: string, n: number) => move(s, n) });
  const [unshift] = fromFunctions({ Q_NO_WRAP: (o: string, n: number) => move(o, -n) });
  it('selects the program that does not wrap, with the inverse that does not wrap as its witness', async () => {
    const r = await triangulate(task, [noWrap!], {
      transformation: tri.fwdInv({ invert: 's' }),
      witnesses: [unshift!],
      inputs: [
        ['abc', 1],
        ['xyz', 3],
        ['hello', 2],
      ],
    });
    expect(chosen(r)).toBe('P_NO_WRAP');
    expect(r.selected?.witnesses).toEqual(['Q_NO_WRAP']);
  });
});

describe('inheritance gives a program a witness it fails', () => {
  // sort(xs) ascending. Q_ANY lists every permutation of o, in any order; Q_SORTED only accepts a
  // sorted o. The descending sort holds with Q_ANY, which the correct sort matched first, so it
  // takes over the correct sort's witnesses, Q_SORTED included, and is never checked against it.
  const task = defineTask({ name: 'sort', signature: '(xs: list[int]) -> list[int]' });
  const perms = (xs: number[]): number[][] =>
    xs.length <= 1
      ? [xs]
      : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
  const sorted = (xs: number[]) => xs.every((x, i) => i === 0 || (xs[i - 1] as number) <= x);
  const forward = fromFunctions({
    P_OK: (xs: number[]) => [...xs].sort((a, b) => a - b),
    P_DESC: (xs: number[]) => [...xs].sort((a, b) => b - a),
  });
  const witnesses = fromFunctions({
    Q_ANY: (o: number[]) => perms(o),
    Q_SORTED: (o: number[]) => (sorted(o) ? perms(o) : invalid()),
  });
  const inputs = [[[3, 1, 2]], [[5, 4]], [[7]], [[2, 9, 4]]];
  it('artifact: P_DESC inherits Q_SORTED, which it fails when checked alone', async () => {
    const r = await triangulate(task, forward, { transformation: tri.fwdSinv(), witnesses, inputs });
    const desc = r.candidates[1]!;
    expect(desc.witnesses).toEqual(['Q_ANY', 'Q_SORTED']);
    expect(desc.passed[0]?.held).toEqual(['Q_ANY']);
    expect(desc.passed[0]?.inherited).toEqual(['Q_SORTED']);
    const alone = await triangulate(task, [forward[1]!], {
      transformation: tri.fwdSinv(),
      witnesses: [witnesses[1]!],
      inputs,
    });
    expect(alone.outcome).toBe('abstained');
  });
  it('paper (no inheritance): P_DESC has Q_ANY only, and P_OK is selected alone', async () => {
    const r = await triangulate(task, forward, {
      transformation: tri.fwdSinv(),
      witnesses,
      inputs,
      semantics: 'paper',
    });
    expect(r.candidates.map((c) => c.support)).toEqual([2, 1]);
    expect(chosen(r)).toBe('P_OK');
  });
});

describe('a program that wrongly rejects a valid input can beat the correct one', () => {
  // double(x) = 2x. P_DECLINES calls 3 invalid: that element is angelic (1 of 5 < the threshold),
  // so it also holds with Q_WRONG_AT_6, an inverse that is wrong exactly on the output of 3.
  const task = defineTask({ name: 'double', signature: '(x: int) -> int' });
  const forward = fromFunctions({
    P_OK: (x: number) => 2 * x,
    P_DECLINES: (x: number) => (x === 3 ? invalid() : 2 * x),
  });
  const witnesses = fromFunctions({
    Q_OK: (o: number) => Math.trunc(o / 2),
    Q_WRONG_AT_6: (o: number) => (o === 6 ? 100 : Math.trunc(o / 2)),
  });
  it('paper: P_DECLINES has two witnesses, P_OK one, and P_DECLINES is selected', async () => {
    const r = await triangulate(task, forward, {
      transformation: tri.fwdInv(),
      witnesses,
      inputs: [[1], [2], [3], [4], [5]],
      semantics: 'paper',
    });
    expect(r.candidates.map((c) => c.support)).toEqual([1, 2]);
    expect(chosen(r)).toBe('P_DECLINES');
  });
});
