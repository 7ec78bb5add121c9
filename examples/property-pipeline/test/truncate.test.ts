/**
 * A content pipeline turns posts into preview cards; one step, `truncate`, is written by a model.
 * Each sample of that step is a candidate program. crosscheck's `coherenceProperty` turns "all
 * samples agree on this input" into a fast-check property, so fast-check draws the inputs,
 * shrinks a disagreement to a small counterexample, and prints the seed to replay it.
 */
import 'crosscheck/vitest';
import { test } from '@fast-check/vitest';
import { candidates, defineTask } from 'crosscheck';
import { coherenceProperty } from 'crosscheck/fast-check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { llm } from './model.ts';

const truncate = defineTask({
  name: 'truncate',
  signature: '(text: string, max: number) => string',
  description:
    'If text has at most max characters, return it unchanged. Otherwise return its first max - 1 characters followed by "…" (one character, U+2026). max is an integer of at least 1.',
});

// What the pipeline feeds the step: short texts and limits around their length.
const inputs = fc.tuple(fc.string({ maxLength: 12 }), fc.integer({ min: 1, max: 14 }));

// Four samples of the step from the model (replayed from llm-cache/).
const samples = await candidates.fromModel(truncate, { llm, n: 4, language: 'javascript' });

describe('the model-written truncate step', () => {
  it('fast-check finds and shrinks a disagreement among the four samples', async () => {
    const all = coherenceProperty(truncate, samples, { inputs });
    const result = await fc.check(all, { seed: 42 });
    // fast-check's own report: the shrunk counterexample, the seed and the path to replay it.
    console.log(fc.defaultReportMessage(result));
    expect(result.failed).toBe(true);
    // The counterexample is a text exactly as long as the limit: the samples split on it.
    const [args] = result.counterexample ?? [];
    const [text, max] = args ?? ['', 0];
    expect(text.length).toBe(max);
    const split = await all.findDisagreement([text, max]);
    console.log(split?.classes.map((c) => `${c.labels.join(', ')} → ${c.outcome}`).join('\n'));
    expect(split?.classes.map((c) => c.labels)).toEqual([
      ['demo-coder#0', 'demo-coder#1', 'demo-coder#3'],
      ['demo-coder#2'],
    ]);
  });

  // The pipeline keeps the three samples that agree with each other (agreement is not proof of
  // correctness: it is the choice this test pins), and the property keeps checking that they
  // still agree, with @fast-check/vitest's seed and shrinking on every run.
  const kept = samples.filter((c) => c.label !== 'demo-coder#2');
  const property = coherenceProperty(truncate, kept, { inputs });
  test.prop(property.arbitraries, { numRuns: 100 })(
    'the three kept samples agree on every input',
    property.assertCoherent,
  );

  // SHOW_FAILURES=1: the property over all four samples, as a failing test shows it.
  if (process.env.SHOW_FAILURES === '1') {
    const every = coherenceProperty(truncate, samples, { inputs });
    test.prop(every.arbitraries, { seed: 42 })('all four samples agree (fails)', every.assertCoherent);
  }
});
