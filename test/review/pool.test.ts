import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask, gen } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { reviewPool } from '../../src/review/index.ts';
import { block, CORRECT, client, generatorRules, INCORRECT, tempCache } from './helpers.ts';

const median = defineTask({
  name: 'median',
  signature: '(xs: number[]) => number',
  description:
    'Return the median of a non-empty list of numbers (the mean of the two middle values for even lengths).',
  inputs: gen.fromArbitrary(
    fc.tuple(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 6 })),
    {
      description: 'non-empty lists of -50..50',
    },
  ),
});

const trueMedian = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? (s[(n - 1) / 2] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};

describe('reviewPool: composition with incoherence', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });
  afterAll(() => closeSandboxPools());

  it('should review one representative per class and report which classes the judge accepts', async () => {
    // Arrange: two correct programs written differently (one class) and a wrong one (its own class).
    const pool = candidates.fromSources(
      [
        'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const n = s.length;\n  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;\n}',
        'function median(xs) {\n  const s = xs.slice().sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  if (s.length % 2 === 0) return (s[m - 1] + s[m]) / 2;\n  return s[m];\n}',
        'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}',
      ],
      { language: 'javascript', entry: 'median', label: 'pool' },
    );
    server = await startScriptedLlmServer({
      rules: generatorRules(
        ['odd length', 'even length', 'repeated values'],
        {
          S1: { inputs: block(['[[3, 1, 2]]']) },
          S2: { inputs: block(['[[4, 1, 3, 2]]']) },
          S3: { inputs: block(['[[5, 1, 5, 2]]']) },
        },
        (input, output) => {
          const [xs] = JSON.parse(input) as [number[]];
          return output === `returned: ${trueMedian(xs)}` ? CORRECT() : INCORRECT();
        },
      ),
    });
    // Act
    const r = await reviewPool(median, pool, {
      llm: client(server.url, cache.dir),
      measure: { n: 100, seed: 3 },
    });
    // Assert
    expect(r.classes.map((c) => [c.labels, c.review.verdict, c.inherited, c.unverified])).toEqual([
      [['pool#0', 'pool#1'], 'accept', ['pool#1'], []],
      [['pool#2'], 'reject', [], []],
    ]);
    expect(r.accepted).toEqual(['pool#0', 'pool#1']);
    // Two reviews, not three; the specification-only requests were drawn once and then replayed.
    expect(server.completions().filter((q) => q.purpose === 'scenarios')).toHaveLength(1);
    expect(r.llm.replayed.calls).toBeGreaterThan(0);
  });
});
