/**
 * `node --import tsx examples/triangulation.ts`: when every sampled program shares one bug,
 * incoherence sees nothing and plurality picks the bug; semantic triangulation checks each
 * program against inverses instead, and abstains (or selects the one program an inverse
 * confirms). The task is a Caesar shift (fixture F2 of the design).
 */
import { candidates, closeSandboxPools, defineTask, measure } from '../src/index.ts';
import { plurality, tri, triangulate } from '../src/triangulate/index.ts';

const inputs: Array<[string, number]> = [
  ['abc', 1],
  ['xyz', 3],
  ['hello world', 13],
  ['', 5],
  ['a-z', 25],
  ['zebra', 1],
];
const task = defineTask({ name: 'shift', signature: '(s: string, k: number) => string', inputs });

// Three programs as a model might write them: all forget to wrap past 'z'.
const noWrap = candidates.fromSources(
  [
    "function shift(s, k) { return [...s].map((c) => (c >= 'a' && c <= 'z' ? String.fromCharCode(c.charCodeAt(0) + k) : c)).join(''); }",
    "function shift(s, k) { let out = ''; for (const c of s) out += /[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + k) : c; return out; }",
    'const shift = (s, k) => s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + k));',
  ],
  { language: 'javascript', entry: 'shift', tags: { model: 'model-a' } },
);
const wrapping = candidates.fromSources(
  [
    "function shift(s, k) { if (k < 0 || k > 25) throw new RangeError('Invalid input'); return s.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + k) % 26) + 97)); }",
  ],
  { language: 'javascript', entry: 'shift', label: 'wrapping' },
);
// Inverses, written for the transformed problem: given the shifted text and k, recover s.
const inverses = candidates.fromSources(
  [
    "function shift_inv_s(t, k) { if (k < 0 || k > 25) throw new RangeError('Invalid input'); return t.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 - k + 26) % 26) + 97)); }",
    "function shift_inv_s(t, k) { if (!(k >= 0 && k <= 25)) throw new RangeError('Invalid input'); let s = ''; for (const c of t) s += c >= 'a' && c <= 'z' ? String.fromCharCode(97 + ((c.charCodeAt(0) - 71 - k) % 26)) : c; return s; }",
  ],
  { language: 'javascript', entry: 'shift_inv_s', label: 'inverse' },
);
const options = {
  transformation: tri.fwdInv({ invert: 0 }),
  witnesses: inverses,
  inputs,
  witnessInputs: [
    ['bcd', 1],
    ['abc', 3],
    ['uryyb', 13],
    ['zzz', 1],
    ['a', 0],
  ] as Array<[string, number]>,
};

const m = await measure(task, noWrap, { inputs });
console.log(
  `incoherence of the three no-wrap programs: ${m.incoherence?.estimate} (they agree on every input)`,
);
const pl = await plurality(task, noWrap, { inputs });
console.log(
  `plurality selects: ${pl.selection.kind === 'selected' ? noWrap[pl.selection.index]?.label : 'nothing'}`,
);

const alone = await triangulate(task, noWrap, options);
console.log(`triangulation on the three: ${alone.outcome}`);
const cx = alone.candidates[0]?.counterexample;
if (cx) {
  console.log(`  why: clause ${cx.clause} fails on ${cx.input}`);
  for (const c of cx.calls) console.log(`    ${c.program} ${c.call} → ${c.outcome}`);
}

const mixed = await triangulate(task, [...noWrap, ...wrapping], options);
console.log(
  `triangulation with one wrapping program added: ${mixed.outcome} ${mixed.selected?.label} (support ${mixed.selected?.support})`,
);
await closeSandboxPools();
