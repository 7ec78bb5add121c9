import { type Candidate, fromSources } from '../candidates/index.ts';
import { isCrosscheckError } from '../errors/index.ts';
import {
  BUDGET_SPENT,
  combineIsolation,
  type IsolationUsed,
  type Outcome,
  type OutcomeMatrix,
  outcomeDigest,
  run,
} from '../exec/index.ts';
// The measure's own per-input analysis, applied to one model's rows of a shared matrix: one run
// per task serves every model (and runs the reference once), and the estimators stay measure's.
import {
  Accumulator,
  CellCache,
  equivalenceClasses,
  errorLowerBoundOf,
  intervalOf,
  meanOf,
  poolIdentity,
  semanticEntropy,
} from '../measure/index.ts';
import type { CrosscheckRecord } from '../report/index.ts';
import { RECORD_SCHEMA, RECORD_VERSION, unknownRecord } from '../report/index.ts';
import type { Interval } from '../stats/index.ts';
import { defineTask } from '../task/index.ts';
import { comparator } from '../values/index.ts';
import type { CandidateFigures, PairResult } from './checkpoint.ts';
import type { DatasetTask } from './dataset.ts';
import type { ResolvedBenchOptions } from './options.ts';
import { benchPhases, cpuNowMs } from './phases.ts';
import { subSeed, type TaskInputs } from './task-inputs.ts';

/** Confidence of the intervals in the records (the paper's and measure's default). */
const DELTA = 0.05;

/**
 * Inputs per run: each chunk's outputs are analysed and dropped, so memory stays bounded when
 * candidates return large values (run's output budgets bound a chunk as well). Every chunk is one
 * slice per candidate, and a Python slice is a fresh forked process, so chunks are large: 1000
 * inputs (the paper's n) rather than 200 made the paper configuration 1.8x faster.
 */
const CHUNK = 1000;

/**
 * Up to this many inputs, a task's candidates first run once over all of them: one process per
 * candidate rather than one per chunk (see `runOnce` in {@link evaluateTask}).
 */
const SINGLE_RUN_MAX = 4 * CHUNK;

/**
 * Candidates per single run. Between runs, a task where most candidates so far met a limit
 * sends the rest straight to the chunks (see `runOnce` in {@link evaluateTask}); within one, the
 * workers still have many candidates to share.
 */
const SINGLE_RUN_GROUP = 16;

/**
 * The distinct programs among a task's candidates: the index in `sources` of each one's first
 * occurrence, and for every candidate the position of its program among them. Programs are
 * compared as exact text (same task, so same language and entry point).
 */
const distinctPrograms = (
  sources: readonly string[],
): { representatives: number[]; representativeOf: number[] } => {
  const representatives: number[] = [];
  const representativeOf: number[] = [];
  const byText = new Map<string, number>();
  sources.forEach((text, i) => {
    let r = byText.get(text);
    if (r === undefined) {
      r = representatives.push(i) - 1;
      byText.set(text, r);
    }
    representativeOf.push(r);
  });
  return { representatives, representativeOf };
};

/** What one run of a task over several models returns. @internal */
export interface TaskOutcome {
  readonly pairs: readonly PairResult[];
  /** Every call made, reference included. */
  readonly calls: number;
}

/**
 * Each candidate's error share (wrong over compared draws) and its mean disagreement with the
 * other candidates over the inputs where both have a group, weighted by draws: the per-candidate
 * data the ranking's bootstrap resamples, kept per pair so that shards merge exactly.
 */
const candidateFigures = (analysis: Accumulator): CandidateFigures => {
  const groups = analysis.groups;
  const m = groups.length;
  const inputs = analysis.weights.length;
  const sum = new Float64Array(m);
  const total = new Float64Array(m);
  for (let j = 0; j < inputs; j++) {
    const w = analysis.weights[j] as number;
    if (w === 0) continue;
    for (let i = 0; i < m; i++) {
      const g = (groups[i] as number[])[j] as number;
      if (g < 0) continue;
      let others = 0;
      let differ = 0;
      for (let k = 0; k < m; k++) {
        if (k === i) continue;
        const h = (groups[k] as number[])[j] as number;
        if (h < 0) continue;
        others++;
        if (h !== g) differ++;
      }
      if (others === 0) continue;
      sum[i] = (sum[i] as number) + (w * differ) / others;
      total[i] = (total[i] as number) + w;
    }
  }
  return {
    error: analysis.perCandidate.map((s) => (s.known === 0 ? null : s.wrong / s.known)),
    disagreement: Array.from(sum, (s, i) => ((total[i] as number) === 0 ? null : s / (total[i] as number))),
  };
};

const failed = (model: string, task: string, reason: string, m = 0, n = 0): PairResult => ({
  model,
  task,
  status: 'failed',
  reason,
  m,
  n,
  incoherence: null,
  error: null,
  calls: 0,
  durationMs: 0,
  record: null,
});

const estimate = (i: Interval) => ({
  estimate: i.estimate,
  lower: i.lower,
  upper: i.upper,
  epsilon: i.epsilon,
  delta: i.delta,
  n: i.n,
});

/**
 * Runs the first m candidates of every given model, and the reference, on the task's shared
 * inputs (one run per chunk of inputs for all models), and measures each model on its own rows. A model without candidates, or
 * a run that throws, fails that pair with its reason; an abort propagates and records nothing.
 * @internal
 */
export const evaluateTask = async (
  task: DatasetTask,
  prepared: Extract<TaskInputs, { ok: true }>,
  codes: ReadonlyMap<string, readonly string[] | undefined>,
  options: ResolvedBenchOptions,
  signal: AbortSignal | undefined,
  onCalls?: (done: number) => void,
  /** `chunks`: skip the single run; `unchecked`: keep every row of it. For tests that compare them. */
  mode: 'auto' | 'chunks' | 'unchecked' = 'auto',
): Promise<TaskOutcome> => {
  const pairs: PairResult[] = [];
  const pools: Array<{ model: string; from: number; to: number }> = [];
  const all: Candidate[] = [];
  /** The source of each candidate of `all`. */
  const sourcesOfAll: string[] = [];
  for (const [model, sources] of codes) {
    const chosen = (sources ?? []).slice(0, options.m);
    if (chosen.length < 2) {
      pairs.push(
        failed(
          model,
          task.taskId,
          sources === undefined
            ? 'no candidates for this task'
            : `${chosen.length} candidate${chosen.length === 1 ? '' : 's'}: incoherence needs two`,
          chosen.length,
        ),
      );
      continue;
    }
    const pool = fromSources(chosen as string[], {
      language: prepared.language,
      entry: task.entryPoint,
      tags: { model },
    });
    pools.push({ model, from: all.length, to: all.length + pool.length });
    all.push(...pool);
    sourcesOfAll.push(...(chosen as string[]));
  }
  if (pools.length === 0) return { pairs, calls: 0 };
  const n = prepared.inputs.length;
  const started = performance.now();
  const equality = options.equality ?? (prepared.language === 'python' ? 'python' : 'strict');
  // The paper's estimators leave timeouts and crashes out (docs/design.md: the paper mode may exclude them).
  const rules = { compare: comparator(equality), compareErrorMessages: false, unknown: 'exclude' as const };
  const seeds = pools.map((p) => subSeed(options.seed, p.model, task.taskId));
  // Every model reads the same task's outputs and reference: each distinct one is prepared once.
  const cells = new CellCache(rules);
  const accumulators = pools.map(
    (p, k) => new Accumulator(p.to - p.from, rules, options.estimator, seeds[k] as number, cells),
  );
  const labels = all.map((c) => c.label);
  let calls = 0;
  let isolation: IsolationUsed = 'none';
  const runTask = defineTask({ name: task.taskId, entry: task.entryPoint, timeoutMs: options.timeoutMs });
  const limits = { signal, budgetMs: options.budgetMs, maxOutputBytes: options.maxOutputBytes };
  /** Counts a matrix's calls: those skipped once a budget or time limit was spent do not count. */
  const tally = (matrix: OutcomeMatrix): void => {
    isolation = combineIsolation(isolation, matrix.isolation);
    for (const row of matrix.outcomes) {
      for (const o of row) if (o.kind !== 'timeout' || o.reason !== 'budget') calls++;
    }
  };
  /**
   * The given candidates, chunk by chunk, each chunk one run with its share of the time limit.
   * A candidate whose timeout budget ran out sits out the later chunks (as in measure), so the
   * budget holds per task rather than per chunk.
   */
  const runChunks = async (rows: readonly number[]): Promise<Outcome[][]> => {
    const out = rows.map(() => new Array<Outcome>(n));
    const spent = rows.map(() => false);
    for (let from = 0; from < n; from += CHUNK) {
      const inputs = prepared.inputs.slice(from, from + CHUNK);
      const active = rows.map((_, k) => k).filter((k) => !spent[k]);
      const before = calls;
      const matrix = await run(
        runTask,
        active.map((k) => all[rows[k] as number] as Candidate),
        inputs,
        {
          ...limits,
          // The task's time limit, shared out over its chunks.
          candidateTimeMs: (options.candidateTimeMs * inputs.length) / n,
          onProgress: onCalls && ((done) => onCalls(before + done)),
        },
      );
      tally(matrix);
      rows.forEach((_, k) => {
        const at = active.indexOf(k);
        const row = at < 0 ? null : (matrix.outcomes[at] as Outcome[]);
        for (let j = 0; j < inputs.length; j++)
          (out[k] as Outcome[])[from + j] = row ? (row[j] as Outcome) : BUDGET_SPENT;
        if (at >= 0 && matrix.candidates[at]?.stats.budgetSpent) spent[k] = true;
      });
    }
    return out;
  };
  let outcomes: Outcome[][];
  try {
    // The reference's outcomes come from the input filter, which ran it on exactly these inputs
    // (each one in time, or the input would not be here): its calls count once.
    calls += n;
    // One run per distinct program: a quarter of HumanEval's samples repeat another sample of the
    // same task (of the same model or another), and a program's outcomes on these inputs do not
    // depend on which sample it was. Each gets its representative's row.
    const { representatives, representativeOf } = distinctPrograms(sourcesOfAll);
    const distinct =
      n <= CHUNK || n > SINGLE_RUN_MAX || mode === 'chunks'
        ? await runChunks(representatives)
        : await runOnce(representatives);
    outcomes = representativeOf.map((r) => distinct[r] as Outcome[]);
  } catch (error) {
    if (signal?.aborted) throw error;
    const reason = `the run stopped: ${isCrosscheckError(error) ? error.message : String(error)}`;
    for (const p of pools) pairs.push(failed(p.model, task.taskId, reason, p.to - p.from, n));
    return { pairs, calls };
  }

  /**
   * The candidates in single runs over every input (one process per candidate instead of one per
   * chunk), {@link SINGLE_RUN_GROUP} at a time, then the chunked run again for each candidate
   * whose outcomes the chunks might have made different: one that met a limit (a timeout, a
   * crash, its time spent, more CPU time than the smallest chunk's share of the time limit) or
   * whose outputs were kept as digests. For the others, every call ran within every chunk's
   * limits, so the chunks would have given these outcomes. Once most candidates tried needed the
   * chunks, the rest go straight to them: on such a task (HumanEval/129, or a runner that does
   * not report CPU time) the single run is work done twice.
   */
  async function runOnce(rows: readonly number[]): Promise<Outcome[][]> {
    const lastChunk = n % CHUNK === 0 ? CHUNK : n % CHUNK;
    const smallestShare = (options.candidateTimeMs * Math.min(CHUNK, lastChunk)) / n;
    const out = new Array<Outcome[]>(rows.length);
    /** Positions in `rows` that run chunk by chunk. */
    const again: number[] = [];
    for (let g = 0; g < rows.length; g += SINGLE_RUN_GROUP) {
      if (g > 0 && again.length * 2 > g) {
        for (let k = g; k < rows.length; k++) again.push(k);
        break;
      }
      const group = rows.slice(g, g + SINGLE_RUN_GROUP);
      const before = calls;
      // A candidate that meets any limit here runs chunk by chunk again, so this run stops it as
      // soon as it does: at the smallest chunk's share of the time limit, and at its first
      // timeout or wall-time hang (each costs the budget more than 1 ms). Its later calls would
      // be thrown away.
      const matrix = await run(
        runTask,
        group.map((i) => all[i] as Candidate),
        prepared.inputs,
        {
          ...limits,
          budgetMs: Math.min(1, options.budgetMs),
          candidateTimeMs: smallestShare,
          onProgress: onCalls && ((done) => onCalls(before + done)),
        },
      );
      tally(matrix);
      group.forEach((_, j) => {
        const row = matrix.outcomes[j] as Outcome[];
        out[g + j] = row;
        if (mode === 'unchecked') return;
        const stats = matrix.candidates[j]?.stats;
        const clean =
          stats !== undefined &&
          stats.timeouts === 0 &&
          stats.crashes === 0 &&
          stats.restarts === 0 &&
          !stats.budgetSpent &&
          stats.timeSpentMs !== undefined &&
          stats.timeSpentMs <= smallestShare &&
          !row.some((o) => outcomeDigest(o) !== null);
        if (!clean) again.push(g + j);
      });
    }
    if (again.length > 0) {
      const redone = await runChunks(again.map((k) => rows[k] as number));
      again.forEach((k, x) => {
        out[k] = redone[x] as Outcome[];
      });
    }
    return out;
  }

  pools.forEach((p, k) => {
    (accumulators[k] as Accumulator).add({
      inputs: prepared.inputs,
      outcomes: outcomes.slice(p.from, p.to),
      reference: { outcomes: prepared.referenceOutcomes },
      weights: prepared.weights,
      errorWeights: prepared.errorWeights,
    });
  });
  const runMs = performance.now() - started;
  const analysisStarted = cpuNowMs();
  for (const a of accumulators) {
    benchPhases.cellsMs += a.cpuMs.cells;
    benchPhases.analysisMs += a.cpuMs.analysis;
  }
  for (const p of pools) {
    const m = p.to - p.from;
    const t0 = performance.now();
    const k = pools.indexOf(p);
    const seed = seeds[k] as number;
    const analysis = accumulators[k] as Accumulator;
    const inc = meanOf(analysis.disagreement, analysis.weights);
    const err = meanOf(analysis.errorShare, analysis.errorWeights);
    if (inc.n === 0 || err.n === 0) {
      pairs.push(
        failed(
          p.model,
          task.taskId,
          inc.n === 0
            ? 'no input with two known outcomes (timeouts, crashes)'
            : 'no input where the reference and a candidate both finished',
          m,
          n,
        ),
      );
      continue;
    }
    const incoherence = intervalOf(options.estimator, inc, DELTA);
    const error = intervalOf(options.estimator, err, DELTA);
    // Theorem 4.1 from the disagreements beyond the tolerance only (see `provenDisagreement`).
    const proven = intervalOf(
      options.estimator,
      meanOf(analysis.provenDisagreement, analysis.weights),
      DELTA,
    );
    const errorLowerBound = errorLowerBoundOf(proven, error);
    const classes = equivalenceClasses(analysis.groups, labels.slice(p.from, p.to));
    // A share of the run's wall time, by rows, plus this model's own analysis.
    const durationMs = (runMs * m) / all.length + (performance.now() - t0);
    const record: CrosscheckRecord = {
      schema: RECORD_SCHEMA,
      version: RECORD_VERSION,
      kind: 'coherence',
      test: { file: null, name: `${p.model} › ${task.taskId}`, matcher: 'crosscheck bench', negated: false },
      task: task.taskId,
      tags: { model: p.model },
      // A flagged task "fails", as a coherence check with bound 0 would.
      verdict: inc.mean > 0 ? 'fail' : 'pass',
      seed,
      m,
      // Draws from the Gen behind the estimates (distinct inputs ran once each).
      n: prepared.draws,
      gen: prepared.gen,
      witness: null,
      classes: classes.map((c) => ({ labels: [...c.labels], share: c.share })),
      timings: { durationMs },
      isolation,
      pool: poolIdentity(
        task.taskId,
        all.slice(p.from, p.to).map((c) => c.id),
      ),
      unknown: unknownRecord(
        analysis.unknown.cells,
        analysis.unknown.referenceCells,
        'exclude',
        labels.slice(p.from, p.to),
        analysis.unknown.perCandidate,
      ),
      inconclusive: null,
      tokens: null,
      data: {
        estimator: options.estimator,
        incoherence: estimate(incoherence),
        bound: null,
        errorLowerBound,
        error: estimate(error),
        semanticEntropy: semanticEntropy(classes),
        disagreements: analysis.disagrees.filter(Boolean).length,
        unknownCells: analysis.unknown.cells,
      },
    };
    pairs.push({
      model: p.model,
      task: task.taskId,
      status: 'ok',
      reason: prepared.shortfall === null ? null : `only ${prepared.draws} draws: ${prepared.shortfall}`,
      m,
      n: prepared.draws,
      incoherence: inc.mean,
      error: err.mean,
      candidates: candidateFigures(analysis),
      calls: m * n,
      durationMs,
      record,
    });
  }
  benchPhases.analysisMs += cpuNowMs() - analysisStarted;
  return { pairs, calls };
};
