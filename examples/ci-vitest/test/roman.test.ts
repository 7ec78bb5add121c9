/**
 * A second function, `to_roman`, sampled in Python. The model's four samples do not agree: at
 * least one of them is wrong, and crosscheck shows an input that proves it without a reference.
 * CI records this as a flagged task; the test asserts the disagreement so the build stays green
 * while the team fixes the prompt (SHOW_FAILURES=1 runs the plain check, which fails).
 */
import 'crosscheck/vitest';
import { candidates, defineTask, gen } from 'crosscheck';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { llm } from './model.ts';

const toRoman = defineTask({
  name: 'to_roman',
  signature: '(n: int) -> str',
  description:
    'The Roman numeral of an integer from 1 to 3999, in standard subtractive notation (IV, IX, XL, XC, CD, CM).',
  inputs: gen.fromArbitrary(fc.tuple(fc.integer({ min: 1, max: 3999 }))),
});

const pool = await candidates.fromModel(toRoman, { llm, n: 4, language: 'python' });

describe('to_roman, as the model writes it', () => {
  it('the samples disagree, so at least one of them is wrong', async () => {
    // `.not` passes only on a witnessed disagreement: an input where two samples differ.
    await expect(toRoman).not.toBeCoherentAcross(pool, { epsilon: 0.05, delta: 0.05 });
  });

  it.runIf(process.env.SHOW_FAILURES === '1')(
    'the samples agree (fails: shows the failure output)',
    async () => {
      await expect(toRoman).toBeCoherentAcross(pool, { epsilon: 0.05, delta: 0.05 });
    },
  );
});
