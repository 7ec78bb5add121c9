import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { majority, plurality, tri, triangulate } from '../../src/triangulate/index.ts';
import { chosen, holds, js, py } from './helpers.ts';

// F2 of the design: Caesar shift, FWD-INV w.r.t. s: the blind spot of incoherence.
const L = [
  ['abc', 1],
  ['xyz', 3],
  ['hello world', 13],
  ['', 5],
  ['a-z', 25],
  ['zebra', 1],
];
const R = [
  ['bcd', 1],
  ['abc', 3],
  ['uryyb', 13],
  ['zzz', 1],
  ['a', 0],
];
const t = tri.fwdInv({ invert: 's' });

const pyFwd = py(
  {
    P_OK: "def shift(s, k):\n    if k < 0 or k > 25:\n        raise ValueError('Invalid input')\n    return ''.join(chr((ord(c) - 97 + k) % 26 + 97) if 'a' <= c <= 'z' else c for c in s)",
    N1: "def shift(s, k):\n    return ''.join(chr(ord(c) + k) if c.islower() else c for c in s)",
    N2: "def shift(s, k):\n    out = []\n    for c in s:\n        if 'a' <= c <= 'z':\n            out.append(chr(ord(c) + k))\n        else:\n            out.append(c)\n    return ''.join(out)",
    N3: "def shift(s, k):\n    return ''.join(map(lambda c: chr(ord(c) + k) if ord('a') <= ord(c) <= ord('z') else c, s))",
  },
  'shift',
);
const pyInv = py(
  {
    Q_OK: "def shift_inv_s(t, k):\n    if k < 0 or k > 25:\n        raise ValueError('Invalid input')\n    return ''.join(chr((ord(c) - 97 - k) % 26 + 97) if 'a' <= c <= 'z' else c for c in t)",
    Q_OK2:
      "def shift_inv_s(t, k):\n    if not 0 <= k <= 25:\n        raise ValueError('Invalid input')\n    res = ''\n    for c in t:\n        res += chr(97 + (ord(c) - 97 - k + 26) % 26) if c.islower() else c\n    return res",
    Q_NOWRAP:
      "def shift_inv_s(t, k):\n    out = ''\n    for c in t:\n        d = chr(ord(c) - k)\n        out += d if 'a' <= d <= 'z' else c\n    return out",
  },
  'shift_inv_s',
);
const lower = (c: string) => c >= 'a' && c <= 'z';
const bad = () => {
  throw new RangeError('Invalid input');
};
const jsFwd = js({
  P_OK: (s: string, k: number) =>
    k < 0 || k > 25
      ? bad()
      : [...s]
          .map((c) => (lower(c) ? String.fromCharCode(((c.charCodeAt(0) - 97 + k) % 26) + 97) : c))
          .join(''),
  N1: (s: string, k: number) =>
    [...s].map((c) => (lower(c) ? String.fromCharCode(c.charCodeAt(0) + k) : c)).join(''),
  N2: (s: string, k: number) => {
    let out = '';
    for (const c of s) out += c >= 'a' && c <= 'z' ? String.fromCharCode(c.charCodeAt(0) + k) : c;
    return out;
  },
  N3: (s: string, k: number) => s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + k)),
});
const jsInv = js({
  Q_OK: (t: string, k: number) =>
    k < 0 || k > 25
      ? bad()
      : [...t]
          .map((c) => (lower(c) ? String.fromCharCode(((c.charCodeAt(0) - 97 - k + 26) % 26) + 97) : c))
          .join(''),
  Q_OK2: (t: string, k: number) => {
    if (!(k >= 0 && k <= 25)) bad();
    return t.replace(/[a-z]/g, (c) => String.fromCharCode(97 + ((c.charCodeAt(0) - 97 - k + 26) % 26)));
  },
  Q_NOWRAP: (t: string, k: number) =>
    [...t]
      .map((c) => {
        const d = String.fromCharCode(c.charCodeAt(0) - k);
        return lower(d) ? d : c;
      })
      .join(''),
});

afterAll(() => closePythonWorkers());

describe.each([
  ['python', pyFwd, pyInv],
  ['javascript', jsFwd, jsInv],
] as const)('F2 shift (%s)', (_lang, f, q) => {
  const task = defineTask({ name: 'shift', signature: '(s: str, k: int) -> str' });
  const o = { transformation: t, inputs: L, witnessInputs: R };
  it('pair verdicts: P_OK with Q_OK, Q_OK2; each NOWRAP fails the wrapping inverses and holds with Q_NOWRAP', async () => {
    const got: string[] = [];
    for (const p of ['P_OK', 'N1', 'N2', 'N3']) {
      for (const w of ['Q_OK', 'Q_OK2', 'Q_NOWRAP']) {
        if (p === 'P_OK' && w === 'Q_NOWRAP') continue;
        got.push(`${p}/${w}:${await holds(task, f[p]!, q[w]!, o)}`);
      }
    }
    expect(got).toEqual([
      'P_OK/Q_OK:true',
      'P_OK/Q_OK2:true',
      'N1/Q_OK:false',
      'N1/Q_OK2:false',
      'N1/Q_NOWRAP:true',
      'N2/Q_OK:false',
      'N2/Q_OK2:false',
      'N2/Q_NOWRAP:true',
      'N3/Q_OK:false',
      'N3/Q_OK2:false',
      'N3/Q_NOWRAP:true',
    ]);
  });
  for (const preset of ['artifact', 'paper'] as const) {
    it(`pools (${preset}): selects P_OK with support 2; plurality and majority pick a no-wrap program`, async () => {
      const pool = [f.N1!, f.N2!, f.N3!, f.P_OK!];
      const r = await triangulate(task, pool, { ...o, witnesses: [q.Q_OK!, q.Q_OK2!], semantics: preset });
      expect(chosen(r)).toBe('P_OK');
      expect(r.selected?.support).toBe(2);
      const pl = await plurality(task, pool, { inputs: L });
      const mj = await majority(task, pool, { inputs: L });
      expect(pl.selection.kind === 'selected' && pool[pl.selection.index]?.label).toBe('N1');
      expect(mj.selection.kind === 'selected' && pool[mj.selection.index]?.label).toBe('N1');
    });
    it(`three identical-behaving wrong programs: triangulation abstains (${preset})`, async () => {
      const r = await triangulate(task, [f.N1!, f.N2!, f.N3!], {
        ...o,
        witnesses: [q.Q_OK!, q.Q_OK2!],
        semantics: preset,
      });
      expect(r.outcome).toBe('abstained');
      expect(r.candidates.every((c) => c.counterexample?.clause === 'q(p(i), ī) = i_k')).toBe(true);
    });
  }
  it('a witness pool sharing the bug defeats triangulation; the duplicate Q_OK counts once (artifact)', async () => {
    const dup = { ...q.Q_OK!, label: 'Q_OK_copy' };
    const r = await triangulate(task, [f.N1!, f.N2!, f.N3!, f.P_OK!], {
      ...o,
      witnesses: [q.Q_OK!, dup, q.Q_NOWRAP!],
    });
    expect(chosen(r)).toBe('N1');
    expect(r.selected?.score).toBe(3);
    expect(r.candidates[3]?.score).toBe(1);
  });
});
