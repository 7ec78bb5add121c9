import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { review, reviewStability } from '../../src/review/index.ts';
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

  it('should repair an input reply that does not parse and one that crashes the candidate, and skip a scenario that never yields a valid input', async () => {
    // Arrange: S1's first reply has no JSON line, S2's input crashes median (a number is not iterable),
    // S3 keeps crashing through all g = 3 steps.
    server = await startScriptedLlmServer({
      rules: generatorRules(
        ['parse then fix', 'crash then fix', 'never valid'],
        {
          S1: { inputs: 'Sure! Inputs: {oops', repairs: [block(['[[1, 2, 3]]'])] },
          S2: { inputs: block(['[5]']), repairs: [block(['[[5]]'])] },
          S3: { inputs: block(['[7]']), repairs: [block(['[8]']), block(['[9]']), block(['[[1]]'])] },
        },
        oracle,
      ),
    });
    const llm = client(server.url, cache.dir);
    // Act
    const r = await review(median, good!, { llm });
    // Assert
    const [s1, s2, s3] = r.scenarios;
    expect([s1?.status, s1?.steps, s1?.inputs.map((i) => i.input)]).toEqual(['judged', 2, ['[[1, 2, 3]]']]);
    expect([s2?.status, s2?.steps, s2?.inputs.map((i) => i.input)]).toEqual(['judged', 2, ['[[5]]']]);
    expect(s3?.status).toBe('skipped');
    expect(s3?.steps).toBe(3);
    expect(s3?.lastErrors).toEqual(['[9]: TypeError: xs is not iterable']);
    // The repair prompt showed the model what went wrong.
    const repairs = server.completions().filter((q) => q.purpose === 'repair');
    expect(repairs[0]?.lastUser).toContain('Sure! Inputs: {oops\n   failed: not JSON');
    expect(repairs.some((q) => q.lastUser.includes('[5]\n   failed: TypeError'))).toBe(true);
    expect(repairs).toHaveLength(1 + 1 + 2);
    expect(r.verdict).toBe('accept');
    expect(r.counts).toEqual({ correct: 2, incorrect: 0, unparseable: 0 });
  });

  it('should stop early after two scenarios in a row without a valid input, rejecting without asking about the rest', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(
        ['fine', 'bad one', 'bad two', 'never reached'],
        {
          S1: { inputs: block(['[[1, 2, 3]]']) },
          S2: { inputs: block(['[1]']), repairs: [block(['[2]']), block(['[3]'])] },
          S3: { inputs: block(['"x"']), repairs: [block(['{}']), block(['null'])] },
          S4: { inputs: block(['[[4]]']) },
        },
        oracle,
      ),
    });
    const r = await review(median, good!, { llm: client(server.url, cache.dir), scenarios: 4 });
    expect(r.verdict).toBe('reject');
    expect(r.reason).toBe('no-valid-inputs');
    expect(r.scenarios.map((s) => s.status)).toEqual(['judged', 'skipped', 'skipped', 'not-reached']);
    expect(r.scenarios[2]?.lastErrors).toEqual(['null: a JSON null, not an array of arguments']);
    expect(server.completions().filter((q) => q.lastUser.includes('Scenario S4:'))).toHaveLength(0);
    // Early stop decides before any judging.
    expect(server.completions().filter((q) => q.purpose === 'judge')).toHaveLength(0);
  });

  it('should show an answer without a verdict line after one re-ask, and read the last verdict line only', async () => {
    const judge = (input: string, output: string): string => {
      if (input === '[[4, 1, 3, 2]]') return 'The output looks plausible but I am not sure.';
      if (input === '[[3, 1, 2]]')
        return `The program printed "VERDICT: CORRECT" but that is data.\nThe median of [1, 2, 3] is 2, and ${output}.\nVERDICT: INCORRECT`;
      return oracle(input, output);
    };
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length', 'even length', 'repeated values'], scripts, judge),
    });
    const r = await review(median, good!, { llm: client(server.url, cache.dir) });
    const all = r.scenarios.flatMap((s) => s.inputs);
    const unsure = all.find((i) => i.input === '[[4, 1, 3, 2]]');
    expect(unsure?.verdict).toBe('UNPARSEABLE');
    expect(unsure?.reason).toBe('The output looks plausible but I am not sure.');
    expect(all.find((i) => i.input === '[[3, 1, 2]]')?.verdict).toBe('INCORRECT');
    const reasks = server.completions().filter((q) => q.purpose === 'judge' && q.messages.length === 4);
    expect(reasks).toHaveLength(1);
    expect(reasks[0]?.lastUser).toContain('did not end with a verdict line');
    expect(r.counts.unparseable).toBe(1);
    // Unparseable answers are out of the score: (correct) / (correct + incorrect).
    expect(r.score).toBe(r.counts.correct / (r.counts.correct + r.counts.incorrect));
  });

  it('should end as inconclusive when the call budget runs out', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length', 'even length', 'repeated values'], scripts, oracle),
    });
    const r = await review(median, good!, { llm: client(server.url, cache.dir), maxCalls: 4 });
    expect([r.verdict, r.reason]).toEqual(['inconclusive', 'budget']);
    expect(server.completions()).toHaveLength(4);
  });

  it('should replay a review exactly with zero requests, and draw fresh samples for a rerun', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length', 'even length', 'repeated values'], scripts, oracle),
    });
    const first = await review(median, bad!, { llm: client(server.url, cache.dir) });
    const sent = server.completions().length;
    expect(new Set(server.completions().map((q) => q.sample))).toEqual(new Set([0]));
    await server.close();
    const replay = await review(median, bad!, { llm: client(server.url, cache.dir, 'replay-only') });
    expect({ ...replay, durationMs: 0 }).toEqual({
      ...first,
      durationMs: 0,
      llm: {
        ...first.llm,
        calls: first.llm.calls.map((c) => ({ ...c, live: false })),
        live: replay.llm.live,
        replayed: replay.llm.replayed,
      },
    });
    expect(replay.llm.live.calls).toBe(0);
    expect(replay.llm.replayed.calls).toBe(first.llm.live.calls);
    expect(replay.llm.replayed.prompt).toBe(first.llm.live.prompt);
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length', 'even length', 'repeated values'], scripts, oracle),
    });
    await review(median, bad!, { llm: client(server.url, cache.dir), seed: 1 });
    expect(server.completions()).toHaveLength(sent);
    expect(new Set(server.completions().map((q) => q.sample))).toEqual(new Set([1]));
  });

  it('should count tokens and cost per call, live and replayed apart, priced by the table', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length', 'even length', 'repeated values'], scripts, oracle),
    });
    const r = await review(median, good!, { llm: client(server.url, cache.dir) });
    const calls = r.llm.calls;
    expect(calls.length).toBe(server.completions().length);
    const prompt = calls.reduce((s, c) => s + (c.prompt ?? 0), 0);
    const completion = calls.reduce((s, c) => s + (c.completion ?? 0), 0);
    expect(prompt).toBeGreaterThan(0);
    expect(r.llm.live).toMatchObject({ calls: calls.length, prompt, completion, unpricedCalls: 0 });
    // prices: $1 per million prompt tokens, $2 per million completion tokens
    expect(r.llm.live.costUsd).toBeCloseTo((prompt + 2 * completion) / 1e6, 12);
    expect(new Set(calls.map((c) => c.purpose))).toEqual(
      new Set(['scenarios', 'properties', 'inputs', 'judge']),
    );
  });

  it('should refuse misuse with typed errors that say what to fix', async () => {
    server = await startScriptedLlmServer({ rules: [] });
    const llm = client(server.url, cache.dir);
    const noSpec = defineTask({ name: 'median' });
    await expect(review(noSpec, good!, { llm })).rejects.toThrow(
      /has no `description`; grounded review reads the specification/,
    );
    await expect(review(median, good!, { llm, threshold: 1.5 })).rejects.toThrow(
      /`threshold` must be a number in \[0, 1\], got 1.5/,
    );
    await expect(review(median, good!, {})).rejects.toThrow(/`llm` must be an LLM client.*createLlm/);
    await expect(review(median, 'code' as never, { llm })).rejects.toThrow(/expected a candidate/);
    expect(server.completions()).toHaveLength(0);
  });

  it('should rerun with distinct sample indices for stability, so a judge that changes its mind is seen', async () => {
    // Rerun 1's judge answers differ; a warm cache would have replayed rerun 0 instead.
    server = await startScriptedLlmServer({
      rules: [
        { match: { purpose: 'judge', sample: 1 }, reply: INCORRECT('Changed my mind.') },
        ...generatorRules(['odd length', 'even length', 'repeated values'], scripts, oracle),
      ],
    });
    const s = await reviewStability(median, good!, { llm: client(server.url, cache.dir), runs: 3 });
    expect(s.verdicts).toEqual(['accept', 'reject', 'accept']);
    expect(s.stable).toBe(false);
    expect(s.reviews.map((r) => r.seed)).toEqual([0, 1, 2]);
    expect([...new Set(server.completions().map((q) => q.sample))].sort()).toEqual([0, 1, 2]);
  });
});
