import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { createLogic, SEMANTICS, tri, triangulate } from '../../src/triangulate/index.ts';
import { pyFloat, tuple } from '../../src/values/index.ts';
import { holds, invalidPy, py } from './helpers.ts';

afterAll(() => closePythonWorkers());

// The artifact preset follows the authors' checker (just-tri-it a6e2d56) where it departs from the
// paper. Each expectation below is what that checker's `Equals`, `Member` and `ForAll` decide on the
// same Python values.
describe('artifact closeness: floats are close only between two floats, at most one list deep', () => {
  const artifact = createLogic(SEMANTICS.artifact);
  const paper = createLogic(SEMANTICS.paper);
  it('an int against a float is exact equality (7 vs 7.000000000000001)', () => {
    expect(artifact.equals(7, 7.000000000000001)).toBe(false);
    expect(artifact.equals(7, pyFloat(7))).toBe(true);
    expect(paper.equals(7, 7.000000000000001)).toBe(true);
  });
  it('two floats, alone or as elements of two lists of one length, are compared with isclose', () => {
    expect(artifact.equals(0.1 + 0.2, 0.3)).toBe(true);
    expect(artifact.equals([0.1 + 0.2, 1.5], [0.3, 1.5])).toBe(true);
  });
  it('deeper floats, and floats in tuples, are exact', () => {
    expect(artifact.equals([[0.1 + 0.2]], [[0.3]])).toBe(false);
    expect(artifact.equals(tuple(0.1 + 0.2), tuple(0.3))).toBe(false);
    expect(paper.equals([[0.1 + 0.2]], [[0.3]])).toBe(true);
  });
  it('membership compares floats with isclose, anything else exactly', () => {
    expect(artifact.member(0.3, [0.1 + 0.2])).toBe(true);
    expect(artifact.member(7, [7.000000000000001])).toBe(false);
    expect(artifact.member([0.3], [[0.1 + 0.2]])).toBe(false);
    expect(paper.member([0.3], [[0.1 + 0.2]])).toBe(true);
  });
});

describe('artifact closeness through triangulate (python)', () => {
  const task = defineTask({ name: 'ident', signature: '(a: int) -> int' });
  const p = py({ P: 'def ident(a):\n    return a' }, 'ident').P!;
  const q = py({ Q: 'def ident_inv(o):\n    return o + 1e-15 * o' }, 'ident_inv').Q!;
  it('FWD-INV fails under artifact when the inverse returns a float within 1e-9 of the int input; holds under paper', async () => {
    const on = (semantics: 'artifact' | 'paper') =>
      holds(task, p, q, { transformation: tri.fwdInv({ bijective: false }), inputs: [[7], [12]], semantics });
    expect(await on('artifact')).toBe(false);
    expect(await on('paper')).toBe(true);
  });
});

describe('artifact smallValues: computed domains lose ints beyond ±100 and sequences longer than 3', () => {
  // FWD-SINV of closer_to_0_or_3 (as F8) with a fiber that also lists 150, which p maps to 3, not 0.
  const task = defineTask({ name: 'closer_to_0_or_3', signature: '(a: int) -> int' });
  const p = py(
    { P_OK: 'def closer_to_0_or_3(a):\n    if a <= 1:\n        return 0\n    return 3' },
    'closer_to_0_or_3',
  ).P_OK!;
  const q = py(
    {
      SINV: `def sinv(o):\n    if o == 0:\n        return (False, list(range(-5, 2)) + [150])\n    if o == 3:\n        return (False, list(range(2, 5)))\n    ${invalidPy}`,
    },
    'sinv',
  ).SINV!;
  const on = (semantics: 'artifact' | 'paper' | { smallValues: null }) =>
    holds(task, p, q, { transformation: tri.fwdSinv(), inputs: [[4], [0], [-1]], semantics });
  it('holds under artifact (150 is dropped from the fiber before ∀i′ ∈ q(p(i)). p(i′) = p(i))', async () => {
    expect(await on('artifact')).toBe(true);
  });
  it('fails under paper and with smallValues: null (p(150) = 3)', async () => {
    expect(await on('paper')).toBe(false);
    expect(await on({ smallValues: null })).toBe(false);
  });
  it('refuses a malformed smallValues or closeness with a message naming the field', async () => {
    await expect(
      triangulate(task, [p], {
        transformation: tri.fwdSinv(),
        witnesses: [q],
        inputs: [[4]],
        semantics: { smallValues: { int: -1, length: 3 } },
      }),
    ).rejects.toThrow(/semantics\.smallValues/);
    await expect(
      triangulate(task, [p], {
        transformation: tri.fwdSinv(),
        witnesses: [q],
        inputs: [[4]],
        semantics: { closeness: 'loose' as never },
      }),
    ).rejects.toThrow(/semantics\.closeness/);
  });
});
