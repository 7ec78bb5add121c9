import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { tri } from '../../src/triangulate/index.ts';
import { holds, js, py } from './helpers.ts';

// F1 of the design: plus(a, b), FWD-INV w.r.t. a. Verdicts are the authors' checker's.
const L = [
  [1, 1],
  [0, 1],
  [-1, 0],
  [4, 3],
  [4, 4],
];
const R = [
  [2, 1],
  [3, 1],
  [5, -1],
  [0, 0],
  [7, 3],
];

const pyFwd = py(
  {
    P_OK: 'def plus(a, b):\n    return a + b',
    P_BUG: 'def plus(a, b):\n    return a + b + 1 if a == 1 else a + b',
    P_INV43:
      "def plus(a, b):\n    if (a, b) == (4, 3):\n        raise ValueError('Invalid input')\n    return a + b",
    P_CRASH43: "def plus(a, b):\n    if (a, b) == (4, 3):\n        raise Exception('boom')\n    return a + b",
    P_INV_MANY:
      "def plus(a, b):\n    if a >= 1:\n        raise ValueError('Invalid input')\n    return a + b",
  },
  'plus',
);
const pyInv = py(
  {
    Q_OK: 'def plus_inv_a(s, b):\n    return s - b',
    Q_BUG: 'def plus_inv_a(s, b):\n    return s - b + 1 if b == 1 else s - b',
    Q_INV73:
      "def plus_inv_a(s, b):\n    if (s, b) == (7, 3):\n        raise ValueError('Invalid input')\n    return s - b",
    Q_CONST: 'def plus_inv_a(s, b):\n    return 0',
    Q_CLAMP: 'def plus_inv_a(s, b):\n    return min(s - b, 10)',
  },
  'plus_inv_a',
);
const bad = () => {
  throw new RangeError('Invalid input');
};
const jsFwd = js({
  P_OK: (a: number, b: number) => a + b,
  P_BUG: (a: number, b: number) => (a === 1 ? a + b + 1 : a + b),
  P_INV43: (a: number, b: number) => (a === 4 && b === 3 ? bad() : a + b),
  P_CRASH43: (a: number, b: number) => {
    if (a === 4 && b === 3) throw new Error('boom');
    return a + b;
  },
  P_INV_MANY: (a: number, b: number) => (a >= 1 ? bad() : a + b),
});
const jsInv = js({
  Q_OK: (s: number, b: number) => s - b,
  Q_BUG: (s: number, b: number) => (b === 1 ? s - b + 1 : s - b),
  Q_INV73: (s: number, b: number) => (s === 7 && b === 3 ? bad() : s - b),
  Q_CONST: () => 0,
  Q_CLAMP: (s: number, b: number) => Math.min(s - b, 10),
});

const HOLD = new Set(['P_OK/Q_OK', 'P_INV43/Q_OK', 'P_INV43/Q_INV73', 'P_OK/Q_CLAMP', 'P_INV43/Q_CLAMP']);

afterAll(() => closePythonWorkers());

describe.each([
  ['python', pyFwd, pyInv],
  ['javascript', jsFwd, jsInv],
] as const)('F1 plus, FWD-INV w.r.t. a (%s)', (_lang, fwd, inv) => {
  const task = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int' });
  for (const preset of ['artifact', 'paper'] as const) {
    it(`every pair as the authors' checker decides (${preset}; Q_CLAMP with R = given right inputs, no clamp witness)`, async () => {
      for (const p of Object.keys(fwd)) {
        for (const q of Object.keys(inv)) {
          if (q === 'Q_CLAMP') continue;
          const got = await holds(task, fwd[p]!, inv[q]!, {
            transformation: tri.fwdInv({ invert: 'a' }),
            inputs: L,
            witnessInputs: R,
            semantics: preset,
          });
          expect(`${p}/${q}:${got}`).toBe(`${p}/${q}:${HOLD.has(`${p}/${q}`)}`);
        }
      }
    });
  }
  it('Q_CLAMP holds with R = ∅ or bijective: false, fails with (20,1), (30,1) in R (injectivity clause)', async () => {
    const t = tri.fwdInv({ invert: 'a' });
    expect(
      await holds(task, fwd.P_OK!, inv.Q_CLAMP!, { transformation: t, inputs: L, witnessInputs: [] }),
    ).toBe(true);
    expect(
      await holds(task, fwd.P_OK!, inv.Q_CLAMP!, {
        transformation: tri.fwdInv({ invert: 'a', bijective: false }),
        inputs: L,
        witnessInputs: [
          [20, 1],
          [30, 1],
        ],
      }),
    ).toBe(true);
    expect(
      await holds(task, fwd.P_OK!, inv.Q_CLAMP!, {
        transformation: t,
        inputs: L,
        witnessInputs: [
          [30, 1],
          [20, 1],
        ],
      }),
    ).toBe(false);
  });
});
