import { type Candidate, fromFunctions, isCandidate } from '../src/candidates/index.ts';
import { type LlmRecord, llmRecord, llmTotals, MAX_RECORD_CALLS, reviewRecord } from '../src/report/index.ts';
import {
  type PoolReview,
  type Review,
  review,
  reviewData,
  reviewDefaults,
  reviewPool,
  reviewTokens,
} from '../src/review/index.ts';
import type { Task } from '../src/task/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, negated, testIdentity } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, misuse, num } from './message.ts';
import type { GroundedReviewOptions } from './types.ts';

const NAME = 'toPassGroundedReview';
const USE: MatcherUse = {
  name: NAME,
  usage: 'await expect(candidate).toPassGroundedReview(task, { llm })',
  anchor: toPassGroundedReview,
};

const asCandidate = (received: unknown): Candidate | null => {
  if (isCandidate(received)) return received;
  if (typeof received === 'function') {
    const fn = received as (...args: never[]) => unknown;
    return fromFunctions({ [fn.name || 'candidate']: fn })[0] ?? null;
  }
  return null;
};

const quote = (text: string, max = 400): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
};

/** Every rejected or unreadable triple, scenario by scenario: what a reader needs to judge the judge. */
const triples = (r: Review): string[] =>
  r.scenarios.flatMap((s) =>
    s.inputs
      .filter((i) => i.verdict === 'INCORRECT' || i.verdict === 'UNPARSEABLE')
      .map((i) =>
        [
          `${s.id} ${JSON.stringify(s.title)} (choice: ${s.choice || '—'}; preconditions: ${s.preconditions || '—'})`,
          `  Input:   ${i.input}`,
          `  Output:  ${i.output}`,
          `  Judge:   ${i.verdict} — ${quote(i.reason || '(no reasoning given)')}`,
        ].join('\n'),
      ),
  );

const usageLine = (r: Review): string => {
  const { live, replayed } = r.llm;
  const t = reviewTokens(r.llm);
  const cost = t.costUsd === null ? 'unpriced' : `$${t.costUsd.toFixed(4)}`;
  const models =
    r.llm.generatorModel === r.llm.judgeModel
      ? `generator and judge ${r.llm.generatorModel}`
      : `generator ${r.llm.generatorModel}, judge ${r.llm.judgeModel}`;
  return `${models}; ${live.calls + replayed.calls} LLM calls (${live.calls} live, ${replayed.calls} replayed), ${t.prompt + t.completion} tokens, ${cost}`;
};

const received = (r: Review): string => {
  const judged = r.counts.correct + r.counts.incorrect + r.counts.unparseable;
  const scenarios = r.scenarios.filter((s) => s.status === 'judged').length;
  const counts = `${r.counts.correct} CORRECT, ${r.counts.incorrect} INCORRECT, ${r.counts.unparseable} unparseable`;
  switch (r.reason) {
    case 'score':
      return `${num(r.score as number)} (${counts}) on ${judged} inputs from ${scenarios} scenarios`;
    case 'no-valid-inputs':
      return `no valid input in ${r.scenarios.filter((s) => s.status === 'skipped').length} scenarios (early stop): the candidate failed on every input the generator wrote`;
    case 'no-parseable-inputs':
      return `inconclusive: ${r.problem ?? 'the generator wrote no parseable input'} (the generator failed, not the candidate)`;
    case 'no-parseable-verdicts':
      return `inconclusive: the judge gave no readable verdict on ${judged} inputs`;
    case 'no-scenarios':
      return `inconclusive: ${r.problem ?? 'no scenarios'}`;
    case 'budget':
      return `inconclusive: the call budget (maxCalls) ran out (${counts} so far)`;
  }
};

const skipped = (r: Review): string[] =>
  r.scenarios
    .filter((s) => s.status !== 'judged')
    .map(
      (s) =>
        `${s.id} ${JSON.stringify(s.title)} ${s.status}${s.status === 'skipped' ? ` after ${s.steps} steps: ${s.lastErrors.slice(0, 2).join('; ')}` : ''}`,
    );

/**
 * `await expect(candidate).toPassGroundedReview(task, { llm, threshold })`: grounded review
 * (TRAILS) accepts the candidate: a judge that never sees the code finds at least a `threshold`
 * share of its outputs, on inputs drawn from the specification's scenarios, conforming. With an
 * array of candidates every one must be accepted (one review per equivalence class). `.not`
 * passes only on a clear rejection; an inconclusive review fails both ways.
 * @public
 */
export async function toPassGroundedReview(
  this: MatcherContext,
  receivedValue: Candidate | readonly Candidate[] | ((...args: never[]) => unknown),
  task: Task,
  options: GroundedReviewOptions = {},
): Promise<CrosscheckMatcherResult> {
  checkTask(USE, task, 'argument');
  checkOptions(USE, options);
  const pool = Array.isArray(receivedValue) ? (receivedValue as unknown[]).map(asCandidate) : null;
  const one = pool ? null : asCandidate(receivedValue);
  if ((pool && (pool.length === 0 || pool.some((c) => c === null))) || (!pool && !one)) {
    misuse(
      'INVALID_CANDIDATES',
      NAME,
      'the received value must be a candidate, a function or a non-empty array of candidates',
      receivedValue,
      `Write ${USE.usage}.`,
      toPassGroundedReview,
    );
  }
  if (typeof options !== 'object' || options === null) {
    misuse(
      'INVALID_OPTION',
      NAME,
      'options must be an object',
      options,
      'Pass e.g. { threshold: 0.8 }.',
      toPassGroundedReview,
    );
  }
  if (!task.description) {
    misuse(
      'INVALID_TASK',
      NAME,
      `the task ${JSON.stringify(task.name)} must have a \`description\` (the specification the judge reads)`,
      task.description,
      "Give defineTask({ description: '…' }).",
      toPassGroundedReview,
    );
  }
  if (options.llm === undefined && reviewDefaults().llm === undefined) {
    misuse(
      'INVALID_OPTION',
      NAME,
      'an LLM client is needed (`llm`, given here or set once with configureReview)',
      undefined,
      'Pass { llm: createLlm({ model, baseURL }) }, or call configureReview({ llm }) in a setup file.',
      toPassGroundedReview,
    );
  }
  const given = options.threshold ?? reviewDefaults().threshold ?? 0.8;
  // A calibration from calibrateThreshold carries its τ; the review records how it was chosen.
  const threshold =
    typeof given === 'object' && given !== null && 'threshold' in given ? given.threshold : given;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`threshold` must be a number in [0, 1] or a calibration from calibrateThreshold',
      threshold,
      'Pass e.g. { threshold: 0.8 }, the paper’s setting.',
      toPassGroundedReview,
    );
  }
  const isNot = negated(this);
  let r: Review;
  let poolReview: PoolReview | null = null;
  if (pool) {
    poolReview = await reviewPool(task, pool as Candidate[], options);
    // The pool's verdict: accepted when every candidate is; rejected when any class is rejected.
    const first = poolReview.classes.find((c) => c.review.verdict !== 'accept') ?? poolReview.classes[0];
    r = (first as { review: Review }).review;
  } else {
    r = await review(task, one as Candidate, options);
  }
  const everyAccepted = poolReview ? poolReview.accepted.length === pool?.length : r.verdict === 'accept';
  const clearReject = poolReview
    ? poolReview.classes.some((c) => c.review.verdict === 'reject')
    : r.verdict === 'reject';
  const pass = isNot ? !clearReject : everyAccepted;
  const all = poolReview ? poolReview.classes.map((c) => c.review) : [r];
  // The calls behind the check: the candidates' own provenance, then every review call.
  const candidateCalls = llmRecord((pool ?? [one]) as Candidate[])?.calls ?? [];
  const calls = [...candidateCalls, ...all.flatMap((x) => x.llm.calls)];
  const llm: LlmRecord = {
    calls: calls.slice(0, MAX_RECORD_CALLS),
    truncated: Math.max(0, calls.length - MAX_RECORD_CALLS),
    ...llmTotals(calls),
  };
  const inconclusive = all.find((x) => x.verdict === 'inconclusive');
  const record = reviewRecord(
    {
      test: testIdentity(this, NAME),
      pass: pass !== isNot,
      tags: (pool ?? [one]).map((c) => (c as Candidate).tags),
      llm,
    },
    {
      task: task.name,
      seed: r.seed,
      m: (pool ?? [one]).length,
      n: all.reduce((s, x) => s + x.counts.correct + x.counts.incorrect + x.counts.unparseable, 0),
      classes: poolReview
        ? poolReview.classes.map((c) => ({ labels: [...c.labels], share: c.share, unknown: false }))
        : [],
      timings: { durationMs: all.reduce((s, x) => s + x.durationMs, 0) },
      isolation: null,
      inconclusive: inconclusive ? received(inconclusive) : null,
    },
    reviewData(r, null, poolReview),
  );
  const label = pool ? `${pool.length} candidates` : (one as Candidate).label;
  const message = () => {
    const rejected = triples(r);
    const classLines = poolReview
      ? poolReview.classes.map(
          (c) =>
            `${c.labels.join(', ')} (${num(c.share * 100)}%): ${c.review.verdict}${c.review.score === null ? '' : ` at ${num(c.review.score)}`}${c.unverified.length ? `; unverified: ${c.unverified.join(', ')}` : ''}`,
        )
      : [];
    return formatMessage(this, {
      matcher: NAME,
      receivedName: pool ? 'candidates' : 'candidate',
      expectedName: 'task',
      summary: `${label} ${inconclusive ? 'was inconclusive in' : pass ? 'passed' : 'failed'} grounded review of ${task.name}: ${r.counts.correct} of ${r.counts.correct + r.counts.incorrect} judged outputs conform${poolReview ? ` (class of ${r.candidate.label})` : ''}.`,
      expected: isNot
        ? `a rejection: share of CORRECT verdicts < ${threshold.toFixed(2)}, or early stop`
        : `share of CORRECT verdicts ≥ ${threshold.toFixed(2)}`,
      received: received(r),
      details: [
        ...classLines.map((l) => ['Class', l] as const),
        ...rejected.map((t) => ['Rejected', t.split('\n').join(`\n${' '.repeat(10)}`)] as const),
        ...skipped(r).map((s) => ['Scenario', s] as const),
        ...r.scenarios
          .filter((s) => s.status === 'judged' && s.steps > 1)
          .map((s) => ['Repaired', `${s.id} ${JSON.stringify(s.title)} took ${s.steps} steps`] as const),
        ['Review', usageLine(r)],
      ],
      replay: { seed: r.seed, args: 'task', option: `{ seed: ${r.seed}, threshold: ${threshold} }` },
      hints: [
        'The judge never saw the code. Read its reasons: a wrong INCORRECT is the judge’s error, not the candidate’s.',
        `This is an LLM judgment at τ = ${threshold}${r.calibration ? ` (calibrated for ${r.calibration.metric.toUpperCase()} ${num(r.calibration.value)} on ${r.calibration.programs} labelled programs, ${r.calibration.correct} correct and ${r.calibration.incorrect} incorrect)` : threshold === 0.8 ? ' (the paper’s best setting)' : ' (the paper’s best setting is 0.8)'}, not a proof of correctness; with the cache committed, replay-only reproduces it exactly.`,
      ],
    });
  };
  return { pass, message, record };
}
