/**
 * Coherent is not correct: model-b's three samples share one bug (they count spaces, so "a  b"
 * has three words and "" has one). They agree with each other, so incoherence cannot see it;
 * only the reference does. The summary counts such a task as undetected.
 */
import 'crosscheck/vitest';
import { candidates, defineTask, gen } from 'crosscheck';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const wordCount = defineTask({
  name: 'wordCount',
  description: 'The number of words in a string, words being separated by runs of spaces.',
  inputs: gen.fromArbitrary(fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 12 }))),
  reference: (s: string) => s.split(' ').filter((w) => w !== '').length,
});

const modelA = candidates.fromSources(
  [
    'function wordCount(s) {\n  return s.split(/ +/).filter(Boolean).length;\n}',
    '```js\nconst wordCount = (s) => (s.match(/[^ ]+/g) || []).length;\n```',
    'function wordCount(text) {\n  let count = 0;\n  let inWord = false;\n  for (const ch of text) {\n    if (ch === " ") inWord = false;\n    else if (!inWord) { inWord = true; count++; }\n  }\n  return count;\n}',
  ],
  { language: 'javascript', entry: 'wordCount', tags: { model: 'model-a' } },
);
const modelB = candidates.fromSources(
  [
    'function wordCount(s) {\n  return s.split(" ").length;\n}',
    'const wordCount = (s) => (s.match(/ /g) || []).length + 1;',
    'function wordCount(s) {\n  let words = 1;\n  for (let i = 0; i < s.length; i++) if (s[i] === " ") words++;\n  return words;\n}',
  ],
  { language: 'javascript', entry: 'wordCount', tags: { model: 'model-b' } },
);

describe('wordCount', () => {
  it('model-a: incoherence is below 10%', async () => {
    await expect(wordCount).toHaveIncoherenceBelow(0.1, modelA, { n: 300 });
  });

  it('model-b: incoherence is below 10% too', async () => {
    await expect(wordCount).toHaveIncoherenceBelow(0.1, modelB, { n: 300 });
  });

  it('model-b: and yet its first sample is wrong', async () => {
    await expect(modelB[0]).not.toAgreeWithReference(wordCount, { n: 300 });
  });
});
