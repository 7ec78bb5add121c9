import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { review } from '../../src/review/index.ts';
import { block, CORRECT, client, generatorRules, INCORRECT, tempCache } from './helpers.ts';

const median = defineTask({
  name: 'median',
  signature: '(xs: number[]) => number',
  description:
    'Return the median of a non-empty list of numbers: the middle value after sorting, or the mean of the two middle values when the length is even.',
});

const [good, bad] = candidates.fromSources(
  [
    'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const n = s.length;\n  if (n % 2 === 1) return s[(n - 1) / 2];\n  return (s[n / 2 - 1] + s[n / 2]) / 2;\n}',
    'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}',
  ],
  { language: 'javascript', entry: 'median', label: 'fixture' },
);

/** The true median, for the oracle judge. */
const trueMedian = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? (s[(n - 1) / 2] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};

/** Decides by computing the specification's answer (the oracle). */
const oracle = (input: string, output: string): string => {
  const [xs] = JSON.parse(input) as [number[]];
  const want = `returned: ${trueMedian(xs)}`;
  return output === want
    ? CORRECT(`The median is ${trueMedian(xs)}.`)
    : INCORRECT(`The median is ${trueMedian(xs)}, not ${output}.`);
};

const scripts = {
  S1: { inputs: block(['[[3, 1, 2]]', '[[5]]', '[[9, 7, 8, 1, 2]]']) },
  S2: { inputs: block(['[[4, 1, 3, 2]]', '[[10, 20]]']) },
  S3: { inputs: block(['[[5, 1, 5, 2]]', '[[2, 2, 2]]']) },
};

describe('review through a scripted loopback server', () => {
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

  it('should accept the correct median with score 1 and reject the wrong one under an oracle judge', async () => {
    // Arrange
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length', 'even length', 'repeated values'], scripts, oracle),
    });
    const llm = client(server.url, cache.dir);
    // Act
    const ok = await review(median, good!, { llm });
    const ko = await review(median, bad!, { llm });
    // Assert
    expect(ok.verdict).toBe('accept');
    expect(ok.score).toBe(1);
    expect(ok.dedup).toBe('lines');
    expect(ko.verdict).toBe('reject');
    expect(ko.reason).toBe('score');
    const wrong = ko.scenarios.flatMap((s) =>
      s.inputs.filter((i) => i.verdict === 'INCORRECT').map((i) => i.input),
    );
    expect(wrong).toContain('[[4, 1, 3, 2]]');
    expect(ko.score).toBeLessThan(0.8);
  });
});
