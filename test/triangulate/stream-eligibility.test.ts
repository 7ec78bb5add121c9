import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { tri, triangulate } from '../../src/triangulate/index.ts';
import { chosen, js, py } from './helpers.ts';

afterAll(() => closePythonWorkers());

// STREAM checks the map law only for list programs whose own pointwise view triangulated, as the
// authors' checker does (its map stage's left side is the pointwise stage's result). P_SHORT is
// wrong on one-element lists (it returns them unchanged), so its view p°(x) = head(p([x])) = x has
// no witness; on the longer lists of L it agrees with P_OK's view, so without that rule it would
// become the witness's first partner, P_OK would inherit from it, and the tie would select P_SHORT.
const L = [[[1, 2]], [[0, 5, -3]], [[7, 7]], [[-4, 9]]];
const R = [[2], [3], [1], [6], [-2], [8], [-3], [10]];
const sources = {
  P_SHORT: 'def stream_inc(l):\n    if len(l) <= 1:\n        return l\n    return [x + 1 for x in l]',
  P_OK: 'def stream_inc(l):\n    return [x + 1 for x in l]',
};
const pyF = py(sources, 'stream_inc');
const pyQ = py({ Q_OK: 'def stream_inc_single_inv(y):\n    return y - 1' }, 'stream_inc_single_inv').Q_OK!;
const jsF = js({
  P_SHORT: (l: number[]) => (l.length <= 1 ? l : l.map((x) => x + 1)),
  P_OK: (l: number[]) => l.map((x) => x + 1),
});
const jsQ = js({ Q_OK: (y: number) => y - 1 }).Q_OK!;

describe.each([
  ['python', pyF, pyQ],
  ['javascript', jsF, jsQ],
] as const)('STREAM: a list program whose view failed takes no witness (%s)', (_lang, f, q) => {
  const task = defineTask({ name: 'stream_inc', signature: '(l: list[int]) -> list[int]' });
  it('selects P_OK, not the short-list bug that comes first in the pool', async () => {
    const r = await triangulate(task, [f.P_SHORT!, f.P_OK!], {
      transformation: tri.stream(tri.fwdInv()),
      witnesses: [q],
      inputs: L,
      witnessInputs: R,
    });
    const [pointwise, map] = r.stages;
    expect(pointwise?.pairs.map((row) => row[0]?.kind)).toEqual(['fails', 'holds']);
    // P_SHORT's row in the map stage is never checked; P_OK holds against its own view.
    expect(map?.pairs.map((row) => row[0]?.kind)).toEqual(['not-checked', 'holds']);
    expect(r.candidates.map((c) => c.support)).toEqual([0, 1]);
    expect(chosen(r)).toBe('P_OK');
  });
});
