/**
 * `npm run demo`: five candidate implementations of one small task, as an LLM might reply
 * (Markdown, JavaScript, TypeScript, Python, one hostile), run in the sandbox on generated
 * inputs beside a trusted reference. Prints the outcome matrix, the groups of candidates that
 * behave alike, and the inputs that tell them apart.
 */
import fc from 'fast-check';
import pc from 'picocolors';
import {
  candidates,
  closePythonWorkers,
  closeSandboxPools,
  comparator,
  defineTask,
  describeOutcome,
  gen,
  type Outcome,
  run,
} from '../src/index.ts';

const SEED = Number(process.env.CROSSCHECK_SEED ?? 20261122);

const task = defineTask({
  name: 'median',
  description:
    'The median of a non-empty list of numbers (the mean of the two middle values for even lengths).',
  signature: '(xs: number[]) => number',
  reference: (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  },
  // JavaScript and Python candidates together: compare as Python does (57 == 57.0).
  equality: 'python',
  timeoutMs: 250,
});

const replies = [
  // Correct.
  'Here is the function:\n```js\nexport function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}\n```',
  // Forgets to sort numerically: the default sort compares strings.
  'function median(xs) {\n  const s = [...xs].sort();\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}',
  // TypeScript, correct but different.
  '```ts\nconst median = (xs: number[]): number => {\n  const s: number[] = xs.slice().sort((a, b) => a - b);\n  const n: number = s.length;\n  return n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;\n};\nmodule.exports = median;\n```',
  // Takes the upper middle for even lengths.
  'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}',
  // Hostile: hangs on long lists.
  'function median(xs) {\n  if (xs.length > 6) for (;;) {}\n  return [...xs].sort((a, b) => a - b)[xs.length >> 1];\n}',
];
const js = candidates.fromSources(replies, {
  language: 'typescript',
  entry: 'median',
  tags: { model: 'demo' },
});
const py = candidates.fromSources(
  [
    '```python\ndef median(xs):\n    s = sorted(xs)\n    n = len(s)\n    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2\n```',
  ],
  { language: 'python', entry: 'median', label: 'python' },
);
const all = [...js, ...py];

const inputs = await gen
  .fromArbitrary(fc.tuple(fc.array(fc.integer({ min: -20, max: 120 }), { minLength: 1, maxLength: 8 })))
  .generate(200, { seed: SEED });

process.stderr.write(
  `Running ${all.length} candidates and the reference on ${inputs.length} inputs (seed ${SEED})...\n`,
);
// A candidate may lose at most two seconds to timeouts; after that its remaining calls are skipped.
const matrix = await run(task, all, inputs, { budgetMs: 2000 });
await Promise.all([closeSandboxPools(), closePythonWorkers()]);

const compare = comparator('python');
const same = (a: Outcome, b: Outcome): boolean =>
  a.kind === b.kind && (a.kind !== 'value' || compare.equalTagged(a.tagged, (b as typeof a).tagged));
const reference = matrix.reference!.outcomes;

// Columns: the first inputs where some candidate departs from the reference, then a few others.
const departs = (j: number) => matrix.outcomes.some((row) => !same(row[j]!, reference[j]!));
const shown = [...inputs.keys()].filter(departs).slice(0, 5);
for (const j of inputs.keys()) if (shown.length < 7 && !shown.includes(j)) shown.push(j);
shown.sort((a, b) => a - b);

const cell = (o: Outcome, ok: boolean): string => {
  const text = o.kind === 'value' ? describeOutcome(o) : o.kind;
  const padded = text.slice(0, 9).padStart(9);
  return ok ? pc.green(padded) : pc.red(padded);
};
const width = Math.max(...matrix.candidates.map((c) => c.label.length), 9);

console.log(pc.bold(`\n${task.name}: ${task.description}`));
console.log(
  `${'input'.padEnd(width)} │ ${shown.map((j) => `#${j}`.padStart(9)).join(' ')} │ agrees with reference`,
);
console.log(`${'reference'.padEnd(width)} │ ${shown.map((j) => cell(reference[j]!, true)).join(' ')} │`);
matrix.outcomes.forEach((row, i) => {
  const agree = row.filter((o, j) => same(o, reference[j]!)).length;
  const share = `${((100 * agree) / row.length).toFixed(1)}%`;
  const stats = matrix.candidates[i]!.stats;
  const note =
    stats.timeouts > 0
      ? pc.dim(
          ` (${stats.timeouts} calls timed out, ${stats.restarts} workers replaced${stats.budgetSpent ? '; timeout budget spent, the rest skipped' : ''})`,
        )
      : '';
  console.log(
    `${matrix.candidates[i]!.label.padEnd(width)} │ ${shown.map((j) => cell(row[j]!, same(row[j]!, reference[j]!))).join(' ')} │ ${share}${note}`,
  );
});

// Candidates grouped by their whole outcome vector: disagreement between groups is proof, with
// no reference needed, that some candidate is wrong.
const groups = new Map<string, string[]>();
matrix.outcomes.forEach((row, i) => {
  const key = JSON.stringify(row.map((o) => (o.kind === 'value' ? compare.prepare(o.tagged).key : o.kind)));
  groups.set(key, [...(groups.get(key) ?? []), matrix.candidates[i]!.label]);
});
console.log(
  pc.bold(`\n${groups.size} groups of candidates that behave alike on all ${inputs.length} inputs:`),
);
for (const labels of groups.values()) console.log(`  ${labels.join(', ')}`);

console.log(pc.bold('\nInputs shown:'));
for (const j of shown) console.log(`  #${j}: median(${JSON.stringify(inputs[j]![0])})`);
console.log(
  pc.dim(
    `\nReplay with CROSSCHECK_SEED=${SEED} npm run demo; ${Math.round(matrix.durationMs)} ms for ${all.length * inputs.length + inputs.length} calls.`,
  ),
);
