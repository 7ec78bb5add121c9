import { afterAll, describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { toPassGroundedReview } from '../../matchers/index.ts';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask } from '../../src/index.ts';
import { startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { review } from '../../src/review/index.ts';
import { context } from '../matchers/context.ts';
import { block, CORRECT, client, generatorRules, tempCache } from './helpers.ts';

/**
 * A generator that writes no parseable input says nothing about the program: the review is
 * inconclusive, blaming the generator, and `.not` cannot pass on it.
 */

const median = defineTask({
  name: 'median',
  signature: '(xs: number[]) => number',
  description: 'Return the median of a non-empty list of numbers.',
});
const [good] = candidates.fromSources(
  [
    'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const n = s.length;\n  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;\n}',
  ],
  { language: 'javascript', entry: 'median', label: 'good' },
);

// Every reply, first try and repairs, is prose with no argument tuple in it.
const garbage = block(['Sure! Here are some inputs: a list of numbers']);
const unparseable = () =>
  generatorRules(
    ['odd length', 'even length', 'repeated values'],
    {
      S1: { inputs: garbage, repairs: [garbage, garbage] },
      S2: { inputs: garbage, repairs: [garbage, garbage] },
      S3: { inputs: garbage, repairs: [garbage, garbage] },
    },
    () => CORRECT('fine'),
  );

describe('grounded review when the generator writes no parseable input', () => {
  afterAll(() => closeSandboxPools());

  it('should be inconclusive, blaming the generator, and headline it as inconclusive both ways', async () => {
    const server = await startScriptedLlmServer({ rules: unparseable() });
    const cache = tempCache();
    try {
      const llm = client(server.url, cache.dir);
      // Act
      const r = await review(median, good!, { llm });
      const plain = await toPassGroundedReview.call(context(), good!, median, { llm });
      const negated = await toPassGroundedReview.call(context(true), good!, median, { llm });
      // Assert: never "reject", never "failed on every input".
      expect(r.verdict).toBe('inconclusive');
      expect(r.reason).toBe('no-parseable-inputs');
      expect(r.problem).toContain('the generator wrote no input that parses');
      expect(plain.pass).toBe(false);
      // .not passes when the matcher returns false: an inconclusive review must not.
      expect(negated.pass).toBe(true);
      for (const result of [plain, negated]) {
        const message = result.message();
        expect(message).toContain('good#0 was inconclusive in grounded review of median');
        expect(message).toContain('(the generator failed, not the candidate)');
        expect(message).not.toContain('the candidate failed on every input');
        expect(result.record).toMatchObject({ data: { verdict: 'inconclusive' } });
      }
    } finally {
      await server.close();
      cache.cleanup();
    }
  });
});
