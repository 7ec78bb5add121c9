/**
 * The function our product ships, `slugify`, is written by a model. There is no reference to test
 * it against, so we sample it several times, in TypeScript and in Python, and check that the
 * samples agree with each other on a few hundred generated titles.
 */
import 'crosscheck/vitest';
import { candidates, defineTask, gen } from 'crosscheck';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { llm } from './model.ts';

const slugify = defineTask({
  name: 'slugify',
  signature: '(title: string) => string',
  description:
    'The URL slug of a title: lower-case ASCII letters and digits; every run of other characters becomes one hyphen; no hyphen at the start or the end.',
  // Titles made of letters, digits, spaces and punctuation (ASCII, so JS and Python agree on case).
  inputs: gen.fromArbitrary(fc.tuple(fc.string({ unit: fc.constantFrom(...'aBz09 -_.!?'), maxLength: 24 }))),
  // JS and Python candidates compared as Python compares values.
  equality: 'python',
});

// Three samples in TypeScript and three in Python: six programs, one question.
const pool = [
  ...(await candidates.fromModel(slugify, { llm, n: 3, language: 'typescript' })),
  ...(await candidates.fromModel(slugify, { llm, n: 3, language: 'python' })),
];

describe('slugify, as the model writes it', () => {
  it('the six samples agree (PAC: incoherence ≤ 2% with 95% confidence)', async () => {
    await expect(slugify).toBeCoherentAcross(pool, { epsilon: 0.02, delta: 0.05 });
  });

  it('incoherence is below 5% (measured on 300 titles)', async () => {
    await expect(slugify).toHaveIncoherenceBelow(0.05, pool, { n: 300 });
  });
});
