import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { toBeTriangulatedBy, toHavePlausibilityWitness } from '../../matchers/index.ts';
import { fromSources } from '../../src/candidates/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { parseRecord } from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { tri } from '../../src/triangulate/index.ts';
import { context } from '../matchers/context.ts';

// F2 as a user writes it: three differently written no-wrap Caesar shifts agree with each other,
// so incoherence sees nothing; correct inverses reject all three, so triangulation abstains.
const L: Array<[string, number]> = [
  ['abc', 1],
  ['xyz', 3],
  ['hello world', 13],
  ['', 5],
  ['a-z', 25],
  ['zebra', 1],
];
const task = defineTask({ name: 'shift', signature: '(s: str, k: int) -> str', inputs: L });
const forward = fromSources(
  [
    "def shift(s, k):\n    return ''.join(chr(ord(c) + k) if c.islower() else c for c in s)",
    "def shift(s, k):\n    out = []\n    for c in s:\n        if 'a' <= c <= 'z':\n            out.append(chr(ord(c) + k))\n        else:\n            out.append(c)\n    return ''.join(out)",
    "def shift(s, k):\n    return ''.join(map(lambda c: chr(ord(c) + k) if ord('a') <= ord(c) <= ord('z') else c, s))",
  ],
  { language: 'python', entry: 'shift', tags: { model: 'gpt-4o' } },
);
const inverses = fromSources(
  [
    "def shift_inv_s(t, k):\n    if k < 0 or k > 25:\n        raise ValueError('Invalid input')\n    return ''.join(chr((ord(c) - 97 - k) % 26 + 97) if 'a' <= c <= 'z' else c for c in t)",
    "def shift_inv_s(t, k):\n    if not 0 <= k <= 25:\n        raise ValueError('Invalid input')\n    res = ''\n    for c in t:\n        res += chr(97 + (ord(c) - 97 - k + 26) % 26) if c.islower() else c\n    return res",
  ],
  { language: 'python', entry: 'shift_inv_s', label: 'inv' },
);
const correct = fromSources(
  [
    "def shift(s, k):\n    if k < 0 or k > 25:\n        raise ValueError('Invalid input')\n    return ''.join(chr((ord(c) - 97 + k) % 26 + 97) if 'a' <= c <= 'z' else c for c in s)",
  ],
  { language: 'python', entry: 'shift', label: 'ok' },
)[0]!;
const options = {
  transformation: tri.fwdInv({ invert: 's' }),
  witnesses: inverses,
  inputs: L,
  witnessInputs: [
    ['bcd', 1],
    ['abc', 3],
    ['uryyb', 13],
    ['zzz', 1],
    ['a', 0],
  ] as Array<[string, number]>,
};

afterAll(() => closePythonWorkers());

describe('F2 Caesar shift, as a user-facing test', () => {
  it('three identical wrong programs pass toBeCoherentAcross', async () => {
    const texts = gen.fromArbitrary(
      fc.tuple(fc.stringMatching(/^[a-z -]{0,12}$/), fc.integer({ min: 0, max: 25 })),
      {
        description: 'lowercase texts and shifts 0..25',
      },
    );
    await expect(task).toBeCoherentAcross(forward, { inputs: texts, epsilon: 0.05, delta: 0.05 });
  });

  it('toBeTriangulatedBy with correct inverses abstains, and the test fails with a message saying why', async () => {
    let message = '';
    try {
      await expect(task).toBeTriangulatedBy(forward, options);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'Task "shift", FWD-INV w.r.t. s (artifact semantics, angelic threshold 0.34): 3 forward × 2 inverse candidates on 6 inputs (5 inverse inputs).',
    );
    expect(message).toContain('abstention: 0 of 6 pairs hold');
    expect(message).toContain('Support:');
    expect(message).toContain('gpt-4o#0 0 · gpt-4o#1 0 · gpt-4o#2 0');
    expect(message).toContain(
      '{gpt-4o#0, gpt-4o#1, gpt-4o#2} agree on every input (plurality and majority select it)',
    );
    expect(message).toContain('Counterexample (gpt-4o#0 vs inv#0, clause q(p(i), ī) = i_k)');
    expect(message).toContain('input    ("xyz", 3)');
    expect(message).toContain('shift("xyz", 3) → "{|}"');
    expect(message).toContain('seed: 42');
    expect(message).toContain('a shared error that incoherence cannot see');
    if (process.env.SHOW_MESSAGE) console.log(message);
  });

  it('.not passes on the definite rejection; the correct program is selected and has a plausibility witness', async () => {
    await expect(task).not.toBeTriangulatedBy(forward, options);
    await expect(task).toBeTriangulatedBy([...forward, correct], {
      ...options,
      selects: correct,
      minSupport: 2,
    });
    await expect(correct).toHavePlausibilityWitness(task, { ...options, min: 2 });
    await expect(forward[0]!).not.toHavePlausibilityWitness(task, options);
  });

  it('the record carries selection, support, stages and the counterexample as the witness', async () => {
    const r = await toBeTriangulatedBy.call(context(), task, forward, options);
    expect(r.pass).toBe(false);
    const record = parseRecord(JSON.parse(JSON.stringify(r.record)));
    expect(record).toMatchObject({
      kind: 'triangulation',
      verdict: 'fail',
      task: 'shift',
      seed: 42,
      m: 3,
      n: 6,
      tags: { model: 'gpt-4o' },
      witness: { reason: 'hyperproperty', input: '("xyz", 3)' },
      data: {
        transformation: 'fwd-inv(s)',
        outcome: 'abstained',
        selected: null,
        semantics: 'artifact',
        stages: [{ name: 'fwd-inv', pairs: 6, hold: 0 }],
        baselines: { plurality: 'gpt-4o#0' },
      },
    });
    const w = await toHavePlausibilityWitness.call(context(), correct, task, options);
    expect(w.pass).toBe(true);
  });

  it('misuse throws a typed error naming the fix', async () => {
    await expect(toBeTriangulatedBy.call(context(), 'shift' as never, forward, options)).rejects.toThrow(
      /defineTask/,
    );
    await expect(toHavePlausibilityWitness.call(context(), 42 as never, task, options)).rejects.toThrow(
      /must be a candidate/,
    );
    await expect(
      toBeTriangulatedBy.call(context(), task, forward, { ...options, witnesses: [] }),
    ).rejects.toThrow(/no witnesses/);
  });
});
