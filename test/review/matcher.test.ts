import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { toPassGroundedReview } from '../../matchers/index.ts';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { candidates, defineTask } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import {
  createReport,
  llmSummary,
  parseRecord,
  renderHtml,
  renderMarkdown,
  renderTerminal,
  serializeRecord,
  summarize,
} from '../../src/report/index.ts';
import { context } from '../matchers/context.ts';
import { block, CORRECT, client, generatorRules, INCORRECT, tempCache } from './helpers.ts';

const median = defineTask({
  name: 'median',
  signature: '(xs: number[]) => number',
  description:
    'Return the median of a non-empty list of numbers (the mean of the two middle values for even lengths).',
});
const [good, bad] = candidates.fromSources(
  [
    'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const n = s.length;\n  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;\n}',
    'function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  return s[Math.floor(s.length / 2)];\n}',
  ],
  { language: 'javascript', entry: 'median', label: 'gpt-test', tags: { model: 'gpt-test' } },
);

const oracle = (input: string, output: string): string => {
  const [xs] = JSON.parse(input) as [number[]];
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const m = n % 2 ? s[(n - 1) / 2] : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
  return output === `returned: ${m}`
    ? CORRECT(`Sorted: ${JSON.stringify(s)}; the median is ${m}.`)
    : INCORRECT(`Sorted: ${JSON.stringify(s)}; the median is ${m}, not ${output.slice(10)}.`);
};

const rules = () =>
  generatorRules(
    ['odd length', 'even length', 'repeated values'],
    {
      S1: { inputs: block(['[[3, 1, 2]]']) },
      S2: { inputs: block(['[5]', '[[4, 1, 3, 2]]']), repairs: [block(['[[10, 20]]'])] },
      S3: { inputs: block(['[[5, 1, 5, 2]]']) },
    },
    oracle,
  );

describe('toPassGroundedReview', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(async () => {
    cache = tempCache();
    server = await startScriptedLlmServer({ rules: rules() });
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });
  afterAll(() => closeSandboxPools());

  it('should pass and fail in Vitest as a registered matcher, .not passing on a clear rejection', async () => {
    const llm = client(server.url, cache.dir);
    await expect(good).toPassGroundedReview(median, { llm });
    await expect(bad).not.toPassGroundedReview(median, { llm });
    await expect(expect(bad).toPassGroundedReview(median, { llm })).rejects.toThrow(
      /failed grounded review of median/,
    );
  });

  it('should show every rejected triple, the repairs, the usage and the seed, and write a review record', async () => {
    // Act
    const result = await toPassGroundedReview.call(context(), bad!, median, {
      llm: client(server.url, cache.dir),
    });
    // Assert
    expect(result.pass).toBe(false);
    expect(
      result
        .message()
        .replace(/\$\d+\.\d+/, '$<cost>')
        .replace(/\d+ tokens/, '<n> tokens'),
    ).toMatchInlineSnapshot(`
      "expect(candidate).toPassGroundedReview(task)

      gpt-test#1 failed grounded review of median: 1 of 3 judged outputs conform.

      Expected: share of CORRECT verdicts ≥ 0.80
      Received: 0.333 (1 CORRECT, 2 INCORRECT, 0 unparseable) on 3 inputs from 3 scenarios
      Rejected: S2 "even length" (choice: even length; preconditions: none)
                  Input:   [[4, 1, 3, 2]]
                  Output:  returned: 3
                  Judge:   INCORRECT — "Sorted: [1,2,3,4]; the median is 2.5, not 3."
      Rejected: S3 "repeated values" (choice: repeated values; preconditions: none)
                  Input:   [[5, 1, 5, 2]]
                  Output:  returned: 5
                  Judge:   INCORRECT — "Sorted: [1,2,5,5]; the median is 3.5, not 5."
      Repaired: S2 "even length" took 2 steps
      Review:   generator and judge gen-test; 9 LLM calls (9 live, 0 replayed), <n> tokens, $<cost>

      Replay:   await expect(candidate).toPassGroundedReview(task, { seed: 0, threshold: 0.8 });

      Hint 1: The judge never saw the code. Read its reasons: a wrong INCORRECT is the judge’s error, not the candidate’s.
      Hint 2: This is an LLM judgment at τ = 0.8 (the paper’s best setting), not a proof of correctness; with the cache committed, replay-only reproduces it exactly."
    `);
    const record = parseRecord(JSON.parse(serializeRecord(result.record)));
    expect(record).toMatchObject({
      kind: 'review',
      verdict: 'fail',
      task: 'median',
      seed: 0,
      m: 1,
      n: 3,
      tags: { model: 'gpt-test' },
      data: {
        method: 'trails',
        verdict: 'reject',
        reason: 'score',
        threshold: 0.8,
        counts: { correct: 1, incorrect: 2, unparseable: 0 },
        generatorModel: 'gen-test',
        judgeModel: 'gen-test',
        dedup: 'lines',
      },
    });
    if (record.kind !== 'review') throw new Error('not a review record');
    expect(
      record.data.inputs.filter((i) => i.verdict === 'INCORRECT').map((i) => [i.scenario, i.input]),
    ).toEqual([
      ['S2', '[[4, 1, 3, 2]]'],
      ['S3', '[[5, 1, 5, 2]]'],
    ]);
    // Tokens and cost reach the record: the sum of the calls, priced by the test's table.
    const calls = server.completions().length;
    expect(record.data.usage.live.calls).toBe(calls);
    expect(record.tokens?.prompt).toBe(record.data.usage.live.prompt);
    expect(record.tokens?.costUsd).toBeCloseTo(
      (record.data.usage.live.prompt + 2 * record.data.usage.live.completion) / 1e6,
      12,
    );
    // The calls go into record.llm, which the reporters total per model and suite, each call once.
    expect(record.llm?.calls.map((c) => c.purpose).sort()).toEqual(
      server
        .completions()
        .map((q) => q.purpose)
        .sort(),
    );
    expect(llmSummary([record, record])?.live.calls).toBe(calls);
    // ...and the suite summary: tokens, calls and spend over every review record.
    const summary = summarize([record, record]);
    expect(summary.reviews).toMatchObject({
      checks: 2,
      accepted: 0,
      rejected: 2,
      liveCalls: 2 * calls,
      prompt: 2 * record.data.usage.live.prompt,
      completion: 2 * record.data.usage.live.completion,
      replayedCostUsd: null,
    });
    expect(summary.reviews?.liveCostUsd).toBeCloseTo(2 * (record.tokens?.costUsd as number), 12);
    // ...which every renderer states, as a judge's verdicts rather than a proof.
    const report = createReport([record, record], { framework: 'vitest', shard: null });
    const line =
      /2 reviews: 0 accepted, 2 rejected, 0 inconclusive · mean score \d\.\d\d \(an LLM judge's verdicts/;
    expect(renderTerminal(report, { color: false, width: 120 })).toMatch(line);
    expect(renderMarkdown(report)).toMatch(line);
    expect(renderHtml(report)).toMatch(
      /2 reviews: 0 accepted, 2 rejected, 0 inconclusive · mean score \d\.\d\d \(an LLM judge&#39;s verdicts/,
    );
    // Each review row says its score against τ, its verdict and how many inputs were judged.
    const row = 'rejected: score 0.33 < τ 0.80 on 3 judged inputs';
    expect(summary.rows[0]?.review).toMatchObject({ verdict: 'reject', threshold: 0.8, judged: 3 });
    expect(renderMarkdown(report)).toContain(`| ${row.replace('<', '\\<')} |`);
    expect(renderTerminal(report, { color: false, width: 200 })).toContain(row);
  });

  it('should throw for misuse: no task, no description, no llm, a threshold outside [0, 1]', async () => {
    const llm = client(server.url, cache.dir);
    await expect(toPassGroundedReview.call(context(), good!, 'median' as never, { llm })).rejects.toThrow(
      /toPassGroundedReview: `task` must come from defineTask\(\)/,
    );
    await expect(
      toPassGroundedReview.call(context(), good!, defineTask({ name: 'median' }), { llm }),
    ).rejects.toThrow(/must have a `description`/);
    await expect(toPassGroundedReview.call(context(), good!, median, {})).rejects.toThrow(
      /an LLM client is needed/,
    );
    await expect(toPassGroundedReview.call(context(), good!, median, { llm, threshold: 2 })).rejects.toThrow(
      /`threshold` must be a number in \[0, 1\] or a calibration from calibrateThreshold, got 2/,
    );
    expect(server.completions()).toHaveLength(0);
  });
});
