import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { review } from '../../src/review/index.ts';
import { block, CORRECT, client, generatorRules, tempCache } from './helpers.ts';

const task = defineTask({
  name: 'classify',
  signature: '(x: number) => string',
  description: "Return 'negative' for x < 0, 'zero' for 0 and 'positive' for x > 0.",
});

// Three branches on known lines: negative runs lines {2, 3}, zero {2, 5, 6}, positive {2, 5, 8}.
const sources = {
  javascript:
    "function classify(x) {\n  if (x < 0) {\n    return 'negative';\n  }\n  if (x === 0) {\n    return 'zero';\n  }\n  return 'positive';\n}",
  python:
    "def classify(x):\n    if x < 0:\n        return 'negative'\n\n    if x == 0:\n        return 'zero'\n\n    return 'positive'\n",
} as const;
const expectedLines = {
  javascript: { negative: [2, 3], zero: [2, 5, 6], positive: [2, 5, 8] },
  python: { negative: [2, 3], zero: [2, 5, 6], positive: [2, 5, 8] },
} as const;

describe('coverage dedup', () => {
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

  // Python's sandbox refuses tracing to candidate code (a trace function would run on the
  // harness's own frames), so a Python twin reports no lines and review falls back to exact
  // duplicates, saying so.
  it('should fall back to exact-duplicate dedup for Python, whose sandbox refuses tracing, and say so', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(
        ['mixed signs', 'positives only', 'mixed again'],
        {
          S1: { inputs: block(['(-1,)', '(-5,)', '(0,)', '(3,)', '(4,)', '(-2,)'], 'python') },
          S2: { inputs: block(['(1,)', '(2,)', '(3,)', '(5,)', '(6,)', '(7,)'], 'python') },
          S3: { inputs: block(['(0,)', '(-7,)', '(-8,)', '(9,)', '(10,)', '(11,)'], 'python') },
        },
        () => CORRECT(),
      ),
    });
    const [candidate] = candidates.fromSources([sources.python], { language: 'python', entry: 'classify' });
    const r = await review(task, candidate!, { llm: client(server.url, cache.dir) });
    expect(r.dedup).toBe('input-key');
    // The first three inputs of each scenario not judged before (3 and 0 ran in S1).
    expect(r.scenarios.map((s) => s.inputs.map((i) => i.input))).toEqual([
      ['(-1,)', '(-5,)', '(0,)'],
      ['(1,)', '(2,)', '(5,)'],
      ['(-7,)', '(-8,)', '(9,)'],
    ]);
    expect(r.scenarios.flatMap((s) => s.inputs.map((i) => i.lines))).toEqual(Array(9).fill(null));
  });

  // JavaScript twins count lines through instrumentation, so line dedup holds there.
  for (const language of ['javascript'] as ('javascript' | 'python')[]) {
    it(`should keep at most 3 inputs per scenario, never two with one line set (${language})`, async () => {
      // Arrange: six inputs per scenario over three branches; S3 repeats an input of S1.
      const fence = language === 'python' ? 'python' : 'json';
      const tuple = (x: number) => (language === 'python' ? `(${x},)` : `[${x}]`);
      server = await startScriptedLlmServer({
        rules: generatorRules(
          ['mixed signs', 'positives only', 'mixed again'],
          {
            S1: { inputs: block([-1, -5, 0, 3, 4, -2].map(tuple), fence) },
            S2: { inputs: block([1, 2, 3, 5, 6, 7].map(tuple), fence) },
            S3: { inputs: block([0, -7, -8, 9, 10, 11].map(tuple), fence) },
          },
          () => CORRECT(),
        ),
      });
      const [candidate] = candidates.fromSources([sources[language]], { language, entry: 'classify' });
      // Act
      const r = await review(task, candidate!, { llm: client(server.url, cache.dir) });
      // Assert
      expect(r.dedup).toBe('lines');
      const kept = r.scenarios.map((s) => s.inputs.map((i) => i.input));
      expect(kept).toEqual([[tuple(-1), tuple(0), tuple(3)], [tuple(1)], [tuple(-7), tuple(9)]]);
      for (const s of r.scenarios) {
        expect(s.inputs.length).toBeLessThanOrEqual(3);
        const sets = s.inputs.map((i) => JSON.stringify(i.lines));
        expect(new Set(sets).size).toBe(sets.length);
      }
      const lines = expectedLines[language];
      expect(r.scenarios[0]?.inputs.map((i) => i.lines)).toEqual([
        lines.negative,
        lines.zero,
        lines.positive,
      ]);
      // Every scenario was satisfied without a repair: one generation step each.
      expect(r.scenarios.map((s) => s.steps)).toEqual([1, 1, 1]);
      expect(r.counts.correct).toBe(6);
    });
  }

  it('should fall back to exact-duplicate dedup for a trusted function, and say so', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(['signs'], { S1: { inputs: block(['[-1]', '[-2]', '[0]', '[-1]']) } }, () =>
        CORRECT(),
      ),
    });
    const [fn] = candidates.fromFunctions({
      classify: (x: number) => (x < 0 ? 'negative' : x === 0 ? 'zero' : 'positive'),
    });
    const r = await review(task, fn!, { llm: client(server.url, cache.dir), scenarios: 1 });
    expect(r.dedup).toBe('input-key');
    expect(r.scenarios[0]?.inputs.map((i) => [i.input, i.lines])).toEqual([
      ['[-1]', null],
      ['[-2]', null],
      ['[0]', null],
    ]);
  });
});
