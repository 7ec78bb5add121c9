import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask, gen } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { review, reviewPool } from '../../src/review/index.ts';
import { block, CORRECT, client, generatorRules, INCORRECT, tempCache } from './helpers.ts';

const trueMedian = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? (s[(n - 1) / 2] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};
const description =
  'Return the median of a non-empty list of numbers (the mean of the two middle values for even lengths).';
const oracle = (input: string, output: string): string => {
  const [xs] = JSON.parse(input) as [number[]];
  return output === `returned: ${trueMedian(xs)}` ? CORRECT() : INCORRECT(`The median is ${trueMedian(xs)}.`);
};
const GOOD =
  'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const n = s.length;\n  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;\n}';
// Crashes on every even-length list: without confirmation those inputs look like the input's fault.
const CRASHES =
  'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  if (s.length % 2 === 0) return s.missing.value;\n  return s[(s.length - 1) / 2];\n}';
const UPPER =
  'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}';

describe('grounded review extensions', () => {
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

  describe('confirmInputsWith: a bug that always crashes is judged, not repaired away', () => {
    const [good, crashes] = candidates.fromSources([GOOD, CRASHES], {
      language: 'javascript',
      entry: 'median',
      label: 'm',
    });
    const task = defineTask({
      name: 'median',
      signature: '(xs: number[]) => number',
      description,
      reference: good!,
    });
    const rules = () =>
      generatorRules(
        ['odd length', 'even length'],
        {
          S1: { inputs: block(['[[3, 1, 2]]']) },
          S2: {
            inputs: block(['[[4, 1, 3, 2]]', '[[10, 20]]']),
            repairs: [block(['[[7, 8]]']), block(['[[1, 9]]'])],
          },
        },
        oracle,
      );
    it('without it (the paper), the even-length scenario is skipped and the crashing program passes', async () => {
      server = await startScriptedLlmServer({ rules: rules() });
      const r = await review(task, crashes!, { llm: client(server.url, cache.dir) });
      expect(r.scenarios[1]?.status).toBe('skipped');
      expect(r.verdict).toBe('accept');
    });
    it("with 'reference', the reference returns on those inputs, so the judge sees the crash and rejects", async () => {
      server = await startScriptedLlmServer({ rules: rules() });
      const r = await review(task, crashes!, {
        llm: client(server.url, cache.dir),
        confirmInputsWith: 'reference',
      });
      const even = r.scenarios[1]?.inputs ?? [];
      expect(even.map((x) => [x.input, x.confirmedBy, x.verdict])).toEqual([
        ['[[4, 1, 3, 2]]', 'reference', 'INCORRECT'],
        ['[[10, 20]]', 'reference', 'INCORRECT'],
      ]);
      expect(even[0]?.output).toMatch(/^raised TypeError/);
      expect(r.verdict).toBe('reject');
      expect(r.extensions).toContain('confirmInputsWith:reference');
    });
    it("with 'pool', a majority of the other samples vouches the same way", async () => {
      server = await startScriptedLlmServer({ rules: rules() });
      const r = await review(task, crashes!, {
        llm: client(server.url, cache.dir),
        confirmInputsWith: 'pool',
        pool: [good!, crashes!],
      });
      expect(r.scenarios[1]?.inputs.map((x) => x.confirmedBy)).toEqual(['pool', 'pool']);
      expect(r.verdict).toBe('reject');
    });
    it("refuses 'reference' without one, and 'pool' without samples", async () => {
      server = await startScriptedLlmServer({ rules: rules() });
      const bare = defineTask({ name: 'median', signature: '(xs: number[]) => number', description });
      const llm = client(server.url, cache.dir);
      await expect(review(bare, crashes!, { llm, confirmInputsWith: 'reference' })).rejects.toThrow(
        /has none/,
      );
      await expect(review(task, crashes!, { llm, confirmInputsWith: 'pool' })).rejects.toThrow(
        /other samples/,
      );
      await expect(review(task, crashes!, { llm, confirmInputsWith: 'both' as never })).rejects.toThrow(
        /confirmInputsWith/,
      );
    });
  });

  describe('S*: the judge arbitrates the inputs where the samples disagree', () => {
    const task = defineTask({
      name: 'median',
      signature: '(xs: number[]) => number',
      description,
      inputs: gen.fromArbitrary(
        fc.tuple(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 6 })),
      ),
    });
    const pool = candidates.fromSources([GOOD, UPPER], {
      language: 'javascript',
      entry: 'median',
      label: 'p',
    });
    // The generator only writes odd-length lists, where both programs agree.
    const rules = () =>
      generatorRules(['odd length'], { S1: { inputs: block(['[[3, 1, 2]]', '[[9, 7, 8, 1, 2]]']) } }, oracle);
    it('with disagreements off, both classes are accepted on the generated inputs alone', async () => {
      server = await startScriptedLlmServer({ rules: rules() });
      const r = await reviewPool(task, pool, {
        llm: client(server.url, cache.dir),
        disagreements: false,
        scenarios: 1,
      });
      expect(r.classes).toHaveLength(2);
      expect(r.accepted).toEqual(['p#0', 'p#1']);
    });
    it('by default S* holds an even-length input, and the upper-middle class is rejected', async () => {
      server = await startScriptedLlmServer({ rules: rules() });
      const r = await reviewPool(task, pool, { llm: client(server.url, cache.dir), scenarios: 1 });
      expect(r.accepted).toEqual(['p#0']);
      const star = r.classes.map((c) => c.review.scenarios.find((s) => s.id === 'S*'));
      expect(star.every((s) => s?.status === 'judged')).toBe(true);
      const [xs] = JSON.parse(star[1]?.inputs[0]?.input as string) as [number[]];
      expect(xs.length % 2).toBe(0);
      expect(r.classes[1]?.review.extensions).toContain('disagreements');
    });
  });
});
