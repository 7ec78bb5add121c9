/**
 * A task with a reference: the median of a list. Two models each sampled three replies; model-a's
 * all behave alike, model-b's do not (one sorts as strings, one takes the upper middle).
 */
import 'crosscheck/vitest';
import { candidates, defineTask, gen } from 'crosscheck';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const median = defineTask({
  name: 'median',
  description:
    'The median of a non-empty list of numbers (the mean of the two middle values for even lengths).',
  inputs: gen.fromArbitrary(
    fc.tuple(fc.array(fc.integer({ min: -20, max: 120 }), { minLength: 1, maxLength: 8 })),
  ),
  reference: (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  },
});

// The replies as they came back: Markdown with a fenced block, or bare code.
const modelA = candidates.fromSources(
  [
    'Here is the function:\n```js\nfunction median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}\n```',
    'const median = (xs) => {\n  const s = xs.slice().sort((a, b) => a - b);\n  const n = s.length;\n  return n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;\n};',
    '```javascript\nexport function median(values) {\n  const sorted = Float64Array.from(values).sort();\n  const half = sorted.length >> 1;\n  return sorted.length & 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;\n}\n```',
  ],
  { language: 'javascript', entry: 'median', tags: { model: 'model-a' } },
);
const modelB = candidates.fromSources(
  [
    'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}',
    // Forgets the comparator: the default sort compares numbers as strings ("100" < "9").
    'function median(xs) {\n  const s = [...xs].sort();\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}',
    // Takes the upper middle for even lengths.
    'function median(xs) {\n  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];\n}',
  ],
  { language: 'javascript', entry: 'median', tags: { model: 'model-b' } },
);

describe('median', () => {
  it('model-a: the samples agree (PAC: incoherence ≤ 5% with 95% confidence)', async () => {
    await expect(median).toBeCoherentAcross(modelA, { epsilon: 0.05, delta: 0.05 });
  });

  it('model-a: incoherence is below 10%', async () => {
    await expect(median).toHaveIncoherenceBelow(0.1, modelA, { n: 300 });
  });

  it('model-b: the samples disagree, so at least one of them is wrong', async () => {
    // `.not` passes only on a witnessed disagreement.
    await expect(median).not.toBeCoherentAcross(modelB, { epsilon: 0.05, delta: 0.05 });
  });

  it('model-b: incoherence is at least 10%', async () => {
    // `.not` passes only when the whole confidence interval lies at or above the bound.
    await expect(median).not.toHaveIncoherenceBelow(0.1, modelB, { n: 300 });
  });

  it('the sample we ship agrees with the reference', async () => {
    await expect(modelA[0]).toAgreeWithReference(median, { n: 300 });
  });
});
