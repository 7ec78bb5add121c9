import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSandboxPools } from '../../src/exec/index.ts';
import {
  CrosscheckError,
  calibrateThreshold,
  candidates,
  defineTask,
  review,
  reviewZeroShot,
  stats,
} from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { reviewData } from '../../src/review/index.ts';
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

describe('reviewZeroShot: the baseline that reads the code', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });

  it('shows the model the specification and the code, and maps its verdict line', async () => {
    const seen: string[] = [];
    server = await startScriptedLlmServer({
      rules: [
        {
          match: { purpose: 'baseline' },
          reply: (req) => {
            seen.push(req.lastUser);
            return req.lastUser.includes('Math.floor') && !req.lastUser.includes('n % 2')
              ? INCORRECT('Even lengths return the upper middle value.')
              : CORRECT('Both cases are handled.');
          },
        },
      ],
    });
    const llm = client(server.url, cache.dir);
    const ok = await reviewZeroShot(median, good!, { llm });
    const ko = await reviewZeroShot(median, bad!, { llm });
    expect(ok.verdict).toBe('accept');
    expect(ko.verdict).toBe('reject');
    expect(ko.reason).toContain('upper middle');
    expect(seen[0]).toContain('<<<CODE (javascript)');
    expect(seen[0]).toContain('Return the median');
    expect(ok.llm.calls.map((c) => c.purpose)).toEqual(['baseline']);
  });

  it('re-asks once when the answer has no verdict line, then is inconclusive with the answer as its reason', async () => {
    server = await startScriptedLlmServer({
      rules: [{ match: { purpose: 'baseline' }, reply: 'I am not sure.' }],
    });
    const r = await reviewZeroShot(median, good!, { llm: client(server.url, cache.dir) });
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toBe('I am not sure.');
    expect(r.llm.calls).toHaveLength(2);
  });

  it('refuses a task without a description, as review does', async () => {
    server = await startScriptedLlmServer({ rules: [] });
    const bare = defineTask({ name: 'median', signature: '(xs: number[]) => number' });
    await expect(reviewZeroShot(bare, good!, { llm: client(server.url, cache.dir) })).rejects.toThrow(
      /no `description`/,
    );
  });
});

describe('calibrateThreshold', () => {
  const items = [
    { score: 1, correct: true },
    { score: 0.9, correct: true },
    { score: 0.75, correct: true },
    { score: 0.75, correct: false },
    { score: 0.5, correct: false },
    { score: null, correct: false },
  ];
  it('keeps the τ with the best MCC, the higher one on a tie, and lists every τ tried', () => {
    const c = calibrateThreshold(items, { metric: 'mcc' });
    // τ = 0.75 labels four correct (3 TP, 1 FP); τ = 0.8 and 0.9 label two (2 TP, 1 FN): MCC 0.707 each, ties → 0.9.
    expect(c.threshold).toBe(0.9);
    expect(c.value).toBeCloseTo(Math.SQRT1_2, 6);
    expect(c.table.map((r) => r.threshold)).toEqual([0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1]);
    expect(c.warning).toMatch(/6 programs/);
    expect(calibrateThreshold(items, { metric: 'p4' }).metric).toBe('p4');
  });
  it('refuses a sample with one truth only, an empty sample and a malformed item', () => {
    expect(() => calibrateThreshold([{ score: 1, correct: true }])).toThrow(/0 incorrect/);
    expect(() => calibrateThreshold([])).toThrow(CrosscheckError);
    expect(() => calibrateThreshold([{ score: 2, correct: true } as never])).toThrow(/item 0/);
    expect(() => calibrateThreshold(items, { metric: 'f1' as never })).toThrow(/metric/);
  });
});

describe('a calibrated τ goes into the review and its record', () => {
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

  it('reviews at the calibrated τ and records the metric and sample it was chosen on', async () => {
    server = await startScriptedLlmServer({
      rules: generatorRules(['odd length'], { S1: { inputs: block(['[[3, 1, 2]]', '[[5]]']) } }, () =>
        CORRECT(),
      ),
    });
    const calibration = calibrateThreshold(
      Array.from({ length: 40 }, (_, i) => ({ score: i < 20 ? 0.9 : 0.4, correct: i < 20 })),
    );
    const r = await review(median, good!, {
      llm: client(server.url, cache.dir),
      scenarios: 1,
      threshold: calibration,
    });
    expect(r.threshold).toBe(0.9);
    expect(r.calibration).toEqual({ metric: 'mcc', value: 1, programs: 40, correct: 20, incorrect: 20 });
    expect(reviewData(r).calibration).toEqual(r.calibration);
  });
});

describe('classificationInterval: MCC and P4 with their uncertainty', () => {
  const program = (truth: boolean, ...labels: boolean[]) => ({ truth, labels });
  it('refuses an interval on five programs, and says why', () => {
    const five = [
      program(true, true),
      program(true, true),
      program(false, false),
      program(false, true),
      program(true, true),
    ];
    const r = stats.classificationInterval(five, 'mcc');
    expect(r.low).toBeNull();
    expect(r.refused).toMatch(/5 programs \(3 correct, 2 incorrect\).*at least 20/);
    expect(r.value).toBeCloseTo(0.6124, 3);
  });
  it('gives a seeded percentile interval around the pooled value on 40 programs', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      program(i % 2 === 0, i % 2 === 0 ? i % 10 !== 0 : i % 7 === 1),
    );
    const a = stats.classificationInterval(many, 'mcc', { seed: 3 });
    const b = stats.classificationInterval(many, 'mcc', { seed: 3 });
    expect(a).toEqual(b);
    expect(a.refused).toBeNull();
    expect(a.low as number).toBeLessThanOrEqual(a.value);
    expect(a.high as number).toBeGreaterThanOrEqual(a.value);
    expect((a.high as number) - (a.low as number)).toBeGreaterThan(0.1);
    const p = stats.classificationInterval(many, 'p4');
    expect(p.metric).toBe('p4');
  });
});
