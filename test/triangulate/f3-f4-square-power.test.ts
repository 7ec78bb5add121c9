import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { majority, plurality, tri, triangulate } from '../../src/triangulate/index.ts';
import { chosen, holds, js, py } from './helpers.ts';

afterAll(() => closePythonWorkers());

// F3: num_square(i), FWD-INV against FWD-SINV (3_square).
const L3 = [[0], [1], [2], [-3], [5], [-5], [12]];
const pyF3 = py(
  {
    P_OK: 'def num_square(i):\n    return i * i',
    P_SIGNED: 'def num_square(i):\n    return i * abs(i)',
    P_POW: 'def num_square(i):\n    return i ** 2 if i < 10 else 2 * i',
  },
  'num_square',
);
const pyQ3 = {
  ...py(
    {
      Q_INV:
        "import math\ndef num_square_inv(o):\n    if o < 0 or math.isqrt(o) ** 2 != o:\n        raise ValueError('Invalid input')\n    return math.isqrt(o)",
    },
    'num_square_inv',
  ),
  ...py(
    {
      Q_SINV:
        'import math\ndef num_square_sinv(o):\n    if o < 0 or math.isqrt(o) ** 2 != o:\n        return []\n    r = math.isqrt(o)\n    return [r, -r]',
      Q_SINV_POS:
        'import math\ndef num_square_sinv(o):\n    if o < 0 or math.isqrt(o) ** 2 != o:\n        return []\n    return [math.isqrt(o)]',
      Q_SINV_OVER:
        'import math\ndef num_square_sinv(o):\n    if o < 0 or math.isqrt(o) ** 2 != o:\n        return []\n    r = math.isqrt(o)\n    return [r, -r, r + 1]',
    },
    'num_square_sinv',
  ),
};
const isq = (o: number) => (o < 0 ? -1 : Math.floor(Math.sqrt(o)));
const square = (o: number) => o >= 0 && isq(o) ** 2 === o;
const jsF3 = js({
  P_OK: (i: number) => i * i,
  P_SIGNED: (i: number) => i * Math.abs(i),
  P_POW: (i: number) => (i < 10 ? i ** 2 : 2 * i),
});
const jsQ3 = js({
  Q_INV: (o: number) => {
    if (!square(o)) throw new RangeError('Invalid input');
    return isq(o);
  },
  Q_SINV: (o: number) => (square(o) ? [isq(o), -isq(o)] : []),
  Q_SINV_POS: (o: number) => (square(o) ? [isq(o)] : []),
  Q_SINV_OVER: (o: number) => (square(o) ? [isq(o), -isq(o), isq(o) + 1] : []),
});

describe.each([
  ['python', pyF3, pyQ3],
  ['javascript', jsF3, jsQ3],
] as const)('F3 num_square (%s)', (_lang, f, q) => {
  const task = defineTask({ name: 'num_square', signature: '(i: int) -> int' });
  for (const preset of ['artifact', 'paper'] as const) {
    it(`FWD-INV fails for all three, so it abstains even with a correct pool (${preset})`, async () => {
      for (const p of ['P_OK', 'P_SIGNED', 'P_POW'])
        expect(
          await holds(task, f[p]!, q.Q_INV!, { transformation: 'fwd-inv', inputs: L3, semantics: preset }),
        ).toBe(false);
      const r = await triangulate(task, [f.P_OK!, f.P_OK!], {
        transformation: 'fwd-inv',
        inputs: L3,
        witnesses: [q.Q_INV!],
        semantics: preset,
      });
      expect(r.outcome).toBe('abstained');
    });
    it(`FWD-SINV: Q_SINV holds with P_OK only; Q_SINV_POS fails; Q_SINV_OVER fails bijective, holds without (${preset})`, async () => {
      const o = { transformation: tri.fwdSinv(), inputs: L3, semantics: preset };
      expect(await holds(task, f.P_OK!, q.Q_SINV!, o)).toBe(true);
      expect(await holds(task, f.P_SIGNED!, q.Q_SINV!, o)).toBe(false);
      expect(await holds(task, f.P_POW!, q.Q_SINV!, o)).toBe(false);
      expect(await holds(task, f.P_OK!, q.Q_SINV_POS!, o)).toBe(false);
      expect(await holds(task, f.P_OK!, q.Q_SINV_OVER!, o)).toBe(false);
      expect(
        await holds(task, f.P_OK!, q.Q_SINV_OVER!, {
          ...o,
          transformation: tri.fwdSinv({ bijective: false }),
        }),
      ).toBe(true);
    });
  }
});

// F4: closest_power(x, y), FWD-SINV w.r.t. x, the 22 inputs of the authors' test (4 invalid).
const L4 = [
  [1, 2],
  [2, 2],
  [4, 2],
  [3, 2],
  [8, 2],
  [9, 3],
  [10, 3],
  [12, 3],
  [18, 3],
  [5, 2],
  [512, 2],
  [300, 3],
  [2, 3],
  [3, 3],
  [0, 2],
  [10, 1],
  [10, 0],
  [10, -2],
  [100, 2],
  [70, 2],
  [1000, 3],
  [1500, 3],
];
const fwdSource = (cmp: string) => `def closest_power(x, y):
    if y <= 1:
        raise ValueError("Invalid input")
    if x < 1:
        raise ValueError("Invalid input")
    prev_power = 1
    if prev_power >= x:
        return 0
    for i in range(1, 20):
        curr_power = prev_power * y
        if curr_power >= x:
            if x - prev_power ${cmp} curr_power - x:
                return i - 1
            else:
                return i
        prev_power = curr_power
    raise Exception("Too large arguments")`;
const F4 = py(
  {
    P_OK: fwdSource('<='),
    P_TIE_UP: fwdSource('<'),
    P_LOG:
      'import math\ndef closest_power(x, y):\n    if y <= 1 or x < 1:\n        raise ValueError("Invalid input")\n    return round(math.log(x, y))',
  },
  'closest_power',
);
const SINV4 = py(
  {
    SINV: `def closest_power_sinv_x(k, y):
    if y <= 1:
        raise ValueError("Invalid input")
    if k < 0:
        raise ValueError("Invalid input")
    yk = pow(y, k)
    if k == 0:
        lo = 1
        hi = (1 + y) // 2
    else:
        lo = (yk + yk // y) // 2 + 1
        hi = (yk + yk * y) // 2
    if lo > hi:
        return []
    return list(range(lo, hi + 1))`,
  },
  'closest_power_sinv_x',
).SINV!;

describe('F4 closest_power, FWD-SINV w.r.t. x (python)', () => {
  const task = defineTask({ name: 'closest_power', signature: '(x: int, y: int) -> int' });
  it('P_OK holds (4 of 22 inputs angelic); P_TIE_UP and P_LOG fail', async () => {
    const o = { transformation: tri.fwdSinv({ invert: 'x' }), inputs: L4 };
    const r = await triangulate(task, [F4.P_OK!], { ...o, witnesses: [SINV4] });
    expect(r.stages[0]?.pairs[0]?.[0]).toMatchObject({ kind: 'holds', angelic: 4, domain: 22 });
    expect(await holds(task, F4.P_TIE_UP!, SINV4, o)).toBe(false);
    expect(await holds(task, F4.P_LOG!, SINV4, o)).toBe(false);
  });
  it('plurality and majority pick the wrong pair of three; triangulation picks P_OK', async () => {
    const pool = [F4.P_OK!, F4.P_TIE_UP!, F4.P_LOG!];
    const pl = await plurality(task, pool, { inputs: L4 });
    const mj = await majority(task, pool, { inputs: L4 });
    expect(pl.selection).toMatchObject({ kind: 'selected', index: 1 });
    expect(mj.selection).toMatchObject({ kind: 'selected', index: 1 });
    const r = await triangulate(task, pool, {
      transformation: tri.fwdSinv({ invert: 'x' }),
      inputs: L4,
      witnesses: [SINV4],
    });
    expect(chosen(r)).toBe('P_OK');
  });
});
