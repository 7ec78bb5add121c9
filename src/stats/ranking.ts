import {
  CrosscheckError,
  checkKeys,
  describeValue,
  knownKeys,
  optionError,
  readPositiveInt,
  readProbability,
  readSeed,
} from '../errors/index.ts';
import { mulberry32 } from './mulberry32.ts';
import { clopperPearson, normalCdf, tQuantile } from './small-sample.ts';
import { averageRanks } from './spearman.ts';

/**
 * Rankings of models with their uncertainty: per-model intervals from a two-stage bootstrap
 * (tasks, then candidates within each task), simultaneous intervals for every pairwise difference
 * (max-t over the bootstrap), rank intervals and groups derived from them, the stability of the
 * ranking under new input seeds, and the agreement of two rankings with an interval.
 * docs/ranking.md explains and justifies each choice.
 */

/** What the ranking reads: one model on one task, per candidate. @public */
export interface RankingObservation {
  readonly model: string;
  readonly task: string;
  /** Per candidate: its mean disagreement with the other candidates (null: none counted). */
  readonly disagreement: readonly (number | null)[];
  /** Per candidate: its error share against the reference; null for the whole task without one. */
  readonly error: readonly (number | null)[] | null;
  /** Inputs each figure was measured on (for the seed-stability redraws). */
  readonly n: number;
}

/** Options of {@link rankModels}. @public */
export interface RankingOptions {
  /** 1 − α of every interval and separation. @defaultValue 0.95 */
  readonly confidence?: number;
  /** Bootstrap resamples. @defaultValue 1000 */
  readonly resamples?: number;
  /** Seed of the resampling: the same seed and data give the same intervals. @defaultValue 0 */
  readonly seed?: number;
  /** Redraws of the inputs for the seed-stability figure. @defaultValue 200 */
  readonly seedRedraws?: number;
}

/** An estimate with its interval at the analysis' confidence. @public */
export interface EstimateInterval {
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
}

/** One model's place in a ranking. @public */
export interface RankedModel {
  readonly model: string;
  /** 1 + the models with a strictly better estimate. */
  readonly rank: number;
  /** Ranks the model may hold at the confidence (simultaneous over all models). */
  readonly rankLow: number;
  readonly rankHigh: number;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** Tasks the model has this figure on. */
  readonly tasks: number;
  /** 1-based index of its group of models that cannot be told apart. */
  readonly group: number;
  /** Share of input redraws (tasks and candidates fixed) that keep it at `rank`. */
  readonly seedStability: number;
}

/** One pair of models: `better` has the better estimate. @public */
export interface PairSeparation {
  readonly better: string;
  readonly worse: string;
  /**
   * Mean over the tasks both models were measured on of worse − better, and its simultaneous
   * interval. Equal to estimate(worse) − estimate(better) when both have the same tasks; below 0
   * only when their shared tasks order them against their estimates. Without a shared task:
   * estimate(worse) − estimate(better) with the interval [−1, 1].
   */
  readonly difference: number;
  readonly low: number;
  readonly high: number;
  /** Tasks both models were measured on: the only tasks the pair is compared on. */
  readonly sharedTasks: number;
  /**
   * True when the interval excludes 0 and the pair shares at least
   * {@link minSharedTasks}(confidence) tasks: `better` is better at the confidence.
   */
  readonly separated: boolean;
  /** Share of bootstrap resamples in which `better` is better (ties count half). */
  readonly probabilityBetter: number;
}

/** A ranking by one figure (lower is better). @public */
export interface MetricRanking {
  readonly metric: RankMetric;
  /** Models by rank (ties by name). */
  readonly models: readonly RankedModel[];
  readonly pairs: readonly PairSeparation[];
  /** Groups of models that cannot be told apart, best first. */
  readonly groups: readonly (readonly string[])[];
  /** Share of input redraws that reproduce the whole order. */
  readonly seedStability: number;
}

/** The figures a ranking is built on; lower is better for both. @public */
export type RankMetric = 'incoherence' | 'error';

/** Per-model intervals of every figure. @public */
export interface ModelIntervals {
  readonly model: string;
  readonly incoherence: EstimateInterval | null;
  readonly error: EstimateInterval | null;
  /** Share of tasks with error that also show incoherence (exact binomial interval over tasks). */
  readonly detectionRate: EstimateInterval | null;
}

/** Everything {@link rankModels} finds. @public */
export interface RankingAnalysis {
  readonly confidence: number;
  readonly resamples: number;
  readonly seed: number;
  readonly tasks: number;
  readonly models: readonly ModelIntervals[];
  readonly rankings: { readonly incoherence: MetricRanking | null; readonly error: MetricRanking | null };
  /**
   * Spearman's ρ across models between the incoherence and the error ranking: `shares` on the
   * share of tasks with incoherence 0 and with error 0 (the incoherence paper's table 4 / figure 1),
   * `means` on the mean figures. Null without error figures or with fewer than three models.
   */
  readonly agreement: {
    readonly shares: EstimateInterval | null;
    readonly means: EstimateInterval | null;
  } | null;
}

const WHERE = 'rankModels(observations, options)';
const OPTION_KEYS = knownKeys<RankingOptions>({
  confidence: true,
  resamples: true,
  seed: true,
  seedRedraws: true,
});
/** Above this the resampling would hold the host for minutes: refuse rather than hang. */
const MAX_WORK = 2e9;

/** Seeded: the same seed gives the same intervals everywhere. */
const generator = (seed: number): (() => number) => mulberry32(seed ^ 0x9e3779b9);

/** One figure's per-candidate values, flattened: cell c = model·T + task holds values[start[c]..start[c+1]). */
interface Flat {
  readonly values: Float64Array;
  readonly start: Int32Array;
  /** Mean of the cell's candidates; NaN for a cell without values. */
  readonly mean: Float64Array;
}

const flatten = (cells: readonly (readonly (number | null)[] | null)[]): Flat => {
  const start = new Int32Array(cells.length + 1);
  let size = 0;
  cells.forEach((c, i) => {
    start[i] = size;
    for (const v of c ?? []) if (v !== null) size++;
  });
  start[cells.length] = size;
  const values = new Float64Array(size);
  const mean = new Float64Array(cells.length).fill(Number.NaN);
  cells.forEach((c, i) => {
    let k = start[i] as number;
    let sum = 0;
    for (const v of c ?? [])
      if (v !== null) {
        values[k++] = v;
        sum += v;
      }
    const count = k - (start[i] as number);
    if (count > 0) mean[i] = sum / count;
  });
  return { values, start, mean };
};

const isShare = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
const isShares = (v: unknown, size: number): v is (number | null)[] =>
  Array.isArray(v) && v.length <= size && v.every((x) => x === null || isShare(x));
/** Candidates per cell above this are not a sample of one model on one task. */
const MAX_CANDIDATES = 100_000;

const bad = (message: string): CrosscheckError =>
  new CrosscheckError('INVALID_INPUT', `${WHERE}: ${message}`, { where: WHERE });

const readOptions = (options: unknown): Required<RankingOptions> => {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options)))
    throw optionError({
      where: WHERE,
      field: 'options',
      rule: 'must be an object',
      got: options,
      example: { confidence: 0.95 },
    });
  const o = (options ?? {}) as Record<string, unknown>;
  checkKeys({ where: WHERE }, o, OPTION_KEYS);
  return {
    confidence: readProbability({ where: WHERE, field: 'confidence' }, o.confidence, 0.95),
    resamples: readPositiveInt({ where: WHERE, field: 'resamples' }, o.resamples, 1000, 50),
    seed: readSeed({ where: WHERE, field: 'seed' }, o.seed, 0),
    seedRedraws: readPositiveInt({ where: WHERE, field: 'seedRedraws' }, o.seedRedraws, 200, 10),
  };
};

/** The observations, checked: an attacker's report reaches here through `report merge`. */
const readObservations = (observations: unknown): RankingObservation[] => {
  if (!Array.isArray(observations))
    throw bad(
      `expected a list of { model, task, disagreement, error, n }, got ${describeValue(observations)}.`,
    );
  const seen = new Set<string>();
  return observations.map((o: unknown, i) => {
    const r = o as Partial<RankingObservation> | null;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      typeof r.model === 'string' &&
      r.model !== '' &&
      typeof r.task === 'string' &&
      r.task !== '' &&
      isShares(r.disagreement, MAX_CANDIDATES) &&
      (r.error === null || isShares(r.error, MAX_CANDIDATES)) &&
      typeof r.n === 'number' &&
      Number.isSafeInteger(r.n) &&
      r.n >= 1;
    if (!ok)
      throw bad(
        `observations[${i}] must be { model, task, disagreement: shares, error: shares or null, n: positive integer }, got ${describeValue(o)}.`,
      );
    const key = `${r.model}\u0000${r.task}`;
    if (seen.has(key)) throw bad(`${r.model} on ${r.task} is given twice; give each model-task pair once.`);
    seen.add(key);
    return r as RankingObservation;
  });
};

/** Competition ranks (1 + the number strictly better), lower estimate better. */
const ranksOf = (x: ArrayLike<number>): number[] => {
  const out: number[] = [];
  for (let j = 0; j < x.length; j++) {
    let r = 1;
    for (let k = 0; k < x.length; k++) if ((x[k] as number) < (x[j] as number)) r++;
    out.push(r);
  }
  return out;
};

/**
 * The fewest tasks two models must share before a separation at `confidence` can be claimed.
 * Whatever the test, a claim from k tasks errs with probability at least 2^(1−k) when each task's
 * difference is as likely to point either way (a tie in truth): flipping the signs of the k
 * differences gives 2^k equally likely data sets, and a rule symmetric in the two models separates
 * on the observed one and on its mirror image. Separation at α therefore needs 2^(1−k) ≤ α: six
 * tasks at 95 %. Necessary, not sufficient: the interval must still exclude 0.
 * @public
 */
export const minSharedTasks = (confidence: number): number =>
  Math.max(2, Math.ceil(1 - Math.log2(1 - confidence) - 1e-9));

/**
 * Bounds on the mean of a figure in [lo, hi] whose k per-task values all came out `g`: no spread
 * observed, which is not a spread of zero. The share q of tasks whose value differs from g is
 * bounded by the exact binomial bound for 0 such tasks; g is read off the data, so one task only
 * fixes it and k − 1 tasks test it. The mean is then within q·(g − lo) below and q·(hi − g) above
 * g, since the other tasks lie anywhere in [lo, hi].
 */
const noSpreadBound = (
  g: number,
  k: number,
  alpha: number,
  lo: number,
  hi: number,
): { low: number; high: number } => {
  const q = k < 2 ? 1 : clopperPearson(0, k - 1, alpha).high;
  return { low: Math.max(lo, g - q * (g - lo)), high: Math.min(hi, g + q * (hi - g)) };
};

/** Per-task values closer than this are the same value (sums in another order differ in the last bits). */
const SAME = 1e-12;

const quantile = (sorted: Float64Array, q: number): number => {
  if (sorted.length === 0) return Number.NaN;
  const pos = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[pos] as number;
};

// NaN below two draws: no spread was observed, which is no evidence of a zero spread (a zero
// would give a zero-width interval and separate any two different estimates).
const sdOf = (xs: Float64Array, count: number): number => {
  if (count < 2) return Number.NaN;
  let mean = 0;
  for (let b = 0; b < count; b++) mean += xs[b] as number;
  mean /= count;
  let ss = 0;
  for (let b = 0; b < count; b++) ss += ((xs[b] as number) - mean) ** 2;
  return Math.sqrt(ss / (count - 1));
};

/**
 * The interval of a mean over `tasks` tasks from its bootstrap spread: Student's t with
 * tasks − 1 degrees of freedom and the spread rescaled by √(T/(T−1)) (the bootstrap's variance
 * of a mean of T values is (T−1)/T of the unbiased one). Where every task gave the same value
 * (`constant`: every task 0, or every task 0.25), the bound of {@link noSpreadBound} instead of a
 * zero-width interval; the candidates' spread within the tasks is already in those values.
 */
const meanInterval = (
  estimate: number,
  sd: number,
  tasks: number,
  alpha: number,
  constant: boolean,
): EstimateInterval => {
  if (constant) return { estimate, ...noSpreadBound(estimate, tasks, alpha, 0, 1) };
  // Differing tasks whose resamples never differ: nothing to read a spread from.
  if (tasks < 2 || !(sd > 0)) return { estimate, low: 0, high: 1 };
  const half = tQuantile(1 - alpha / 2, tasks - 1) * sd * Math.sqrt(tasks / (tasks - 1));
  return { estimate, low: Math.max(0, estimate - half), high: Math.min(1, estimate + half) };
};

interface Prepared {
  readonly models: readonly string[];
  readonly tasks: readonly string[];
  readonly incoherence: Flat;
  readonly error: Flat | null;
  readonly n: Float64Array;
}

const prepare = (observations: readonly RankingObservation[]): Prepared => {
  // Code-point order: the same on every machine and for any order of the observations, so
  // shards and whole runs resample alike.
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const models = [...new Set(observations.map((o) => o.model))].sort(byText);
  const tasks = [...new Set(observations.map((o) => o.task))].sort(byText);
  const T = tasks.length;
  const taskIndex = new Map(tasks.map((t, i) => [t, i]));
  const modelIndex = new Map(models.map((m, i) => [m, i]));
  const dis: ((number | null)[] | null)[] = new Array(models.length * T).fill(null);
  const err: ((number | null)[] | null)[] = new Array(models.length * T).fill(null);
  const n = new Float64Array(models.length * T).fill(1);
  let anyError = false;
  for (const o of observations) {
    const c = (modelIndex.get(o.model) as number) * T + (taskIndex.get(o.task) as number);
    dis[c] = [...o.disagreement];
    if (o.error !== null) {
      err[c] = [...o.error];
      anyError = true;
    }
    n[c] = o.n;
  }
  return { models, tasks, incoherence: flatten(dis), error: anyError ? flatten(err) : null, n };
};

interface Point {
  readonly estimate: Float64Array;
  readonly tasks: Int32Array;
  /** 1 where every task of the model gave the same value. */
  readonly constant: Uint8Array;
  /** The cell means (model·T + task), NaN where the model was not measured. */
  readonly cells: Float64Array;
}

/**
 * The mean of `value(t)` over the T tasks where it is a number (NaN: not measured there), how
 * many those were, and whether they all gave the same value (within {@link SAME}).
 */
const taskMean = (
  T: number,
  value: (t: number) => number,
): { mean: number; count: number; constant: boolean } => {
  let sum = 0;
  let count = 0;
  let first = Number.NaN;
  let constant = true;
  for (let t = 0; t < T; t++) {
    const v = value(t);
    if (Number.isNaN(v)) continue;
    if (count === 0) first = v;
    else if (Math.abs(v - first) > SAME) constant = false;
    sum += v;
    count++;
  }
  return { mean: count === 0 ? Number.NaN : sum / count, count, constant };
};

/** Mean over a model's tasks of its cell means: the point estimate. */
const pointEstimates = (flat: Flat, M: number, T: number): Point => {
  const estimate = new Float64Array(M).fill(Number.NaN);
  const tasks = new Int32Array(M);
  const constant = new Uint8Array(M);
  for (let j = 0; j < M; j++) {
    const m = taskMean(T, (t) => flat.mean[j * T + t] as number);
    tasks[j] = m.count;
    constant[j] = m.constant ? 1 : 0;
    estimate[j] = m.mean;
  }
  return { estimate, tasks, constant, cells: flat.mean };
};

/** Index of the pair x < y among M models, in the order of the loops `for x, for y > x`. */
const pairIndex = (x: number, y: number, M: number): number => x * M - (x * (x + 1)) / 2 + (y - x - 1);

/**
 * Every pair's difference of means over the drawn tasks both were measured on (`cells` holds
 * each model's resampled value per draw, NaN where it has none): the pair is compared on its
 * shared tasks only, never on tasks one of them lacks.
 */
const pairMeans = (cells: Float64Array, M: number, T: number, out: Float64Array): void => {
  for (let x = 0; x < M; x++)
    for (let y = x + 1; y < M; y++) {
      let sum = 0;
      let count = 0;
      for (let d = 0; d < T; d++) {
        const d2 = (cells[x * T + d] as number) - (cells[y * T + d] as number);
        if (Number.isNaN(d2)) continue;
        sum += d2;
        count++;
      }
      out[pairIndex(x, y, M)] = count === 0 ? Number.NaN : sum / count;
    }
};

/**
 * One bootstrap resample of every model's mean: the drawn tasks (shared by all models, so that
 * differences between models are paired on tasks), then within each drawn task each model's
 * candidates drawn with replacement. Incoherence is a U-statistic over candidate pairs, so a
 * candidate's resampled contribution enters through its Hoeffding projection: the task's value is
 * Î + 2·(mean of the drawn candidates' disagreement − mean of all of them).
 */
const resampleMeans = (
  flat: Flat,
  M: number,
  T: number,
  drawn: Int32Array,
  random: () => number,
  projection: boolean,
  out: Float64Array,
  cells: Float64Array,
): void => {
  const { values, start, mean } = flat;
  cells.fill(Number.NaN);
  for (let j = 0; j < M; j++) {
    let sum = 0;
    let count = 0;
    for (let d = 0; d < T; d++) {
      const c = j * T + (drawn[d] as number);
      const base = mean[c] as number;
      if (Number.isNaN(base)) continue;
      const from = start[c] as number;
      const k = (start[c + 1] as number) - from;
      let s = 0;
      for (let i = 0; i < k; i++) s += values[from + Math.floor(random() * k)] as number;
      const v = projection ? base + 2 * (s / k - base) : s / k;
      cells[j * T + d] = v;
      sum += v;
      count++;
    }
    out[j] = count === 0 ? Number.NaN : sum / count;
  }
};

const rankMetric = (
  metric: RankMetric,
  models: readonly string[],
  point: Point,
  boot: Float64Array[],
  pairBoot: Float64Array[],
  stable: { whole: number; perModel: Float64Array },
  alpha: number,
  T: number,
): MetricRanking => {
  const M = models.length;
  const present = models.map((_, j) => j).filter((j) => (point.tasks[j] as number) > 0);
  const P = present.length;
  const B = boot.length;
  const est = present.map((j) => point.estimate[j] as number);
  const minShared = minSharedTasks(1 - alpha);
  // Each pair on the tasks both models were measured on: its difference there (a − b), how many
  // such tasks, whether they all gave the same difference, and its bootstrap spread.
  type Pair = {
    a: number;
    b: number;
    diff: number;
    shared: number;
    constant: boolean;
    sd: number;
    share: number;
    index: number;
  };
  const pairs: Pair[] = [];
  const scratch = new Float64Array(B);
  for (let x = 0; x < P; x++)
    for (let y = x + 1; y < P; y++) {
      const ja = present[x] as number;
      const jb = present[y] as number;
      // On the tasks both were measured on: a − b there, how many, and whether it never varied.
      const onShared = taskMean(
        T,
        (t) => (point.cells[ja * T + t] as number) - (point.cells[jb * T + t] as number),
      );
      const index = pairIndex(ja, jb, M);
      let count = 0;
      let better = 0;
      for (let b = 0; b < B; b++) {
        const d = (pairBoot[b] as Float64Array)[index] as number;
        if (Number.isNaN(d)) continue;
        scratch[count++] = d;
        better += d < 0 ? 1 : d === 0 ? 0.5 : 0;
      }
      pairs.push({
        a: x,
        b: y,
        diff: onShared.mean,
        shared: onShared.count,
        constant: onShared.constant,
        sd: sdOf(scratch, count),
        share: count === 0 ? 0.5 : better / count,
        index,
      });
    }
  // Only pairs sharing enough tasks can be separated; α is split between them (Bonferroni): the
  // pairs whose shared tasks all gave the same difference get α/E each from their no-spread bound,
  // the others share the rest through the max-t. The chance of any false separation stays ≤ α.
  const eligible = pairs.filter((p) => p.shared >= minShared);
  const bounded = eligible.filter((p) => p.constant).length;
  const alphaEach = eligible.length === 0 ? alpha : alpha / eligible.length;
  const family = eligible.filter((p) => !p.constant && p.sd > 0);
  const alphaFamily = eligible.length === 0 ? alpha : (alpha * (eligible.length - bounded)) / eligible.length;
  // The max-|t| over the family gives one critical value for all its pairs.
  const maxT = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    const r = pairBoot[b] as Float64Array;
    let worst = 0;
    for (const p of family) {
      const d = r[p.index] as number;
      if (Number.isNaN(d)) continue;
      worst = Math.max(worst, Math.abs(d - p.diff) / p.sd);
    }
    maxT[b] = worst;
  }
  maxT.sort();
  const c = quantile(maxT, 1 - alphaFamily);
  // Few tasks: the bootstrap's normal-like max-t, carried to Student's t with k − 1 degrees of
  // freedom for the k tasks the pair shares (not the T of the whole benchmark).
  const criticalFor = (k: number): number =>
    k >= 2 ? tQuantile(normalCdf(c), k - 1) * Math.sqrt(k / (k - 1)) : Number.POSITIVE_INFINITY;
  const separations: PairSeparation[] = [];
  const beats = Array.from({ length: P }, () => new Set<number>());
  for (const p of pairs) {
    const overall = (est[p.a] as number) - (est[p.b] as number);
    const aBetter =
      overall < 0 ||
      (overall === 0 &&
        (models[present[p.a] as number] as string) <= (models[present[p.b] as number] as string));
    const [win, lose] = aBetter ? [p.a, p.b] : [p.b, p.a];
    // worse − better on the shared tasks; without a shared task, the estimates' gap and no bound.
    const gap = p.shared === 0 ? Math.abs(overall) : aBetter ? -p.diff : p.diff;
    let low = -1;
    let high = 1;
    if (p.shared > 0 && p.constant) {
      ({ low, high } = noSpreadBound(gap, p.shared, p.shared >= minShared ? alphaEach : alpha, -1, 1));
    } else if (p.shared >= minShared && p.sd > 0) {
      // Fewer shared tasks support no interval at this confidence (see minSharedTasks), and a pair
      // seen together in fewer than two resamples has no spread (sd NaN): every difference.
      const half = criticalFor(p.shared) * p.sd;
      low = Math.max(-1, gap - half);
      high = Math.min(1, gap + half);
    }
    const separated = p.shared >= minShared && low > 0;
    if (separated) (beats[win] as Set<number>).add(lose);
    separations.push({
      better: models[present[win] as number] as string,
      worse: models[present[lose] as number] as string,
      difference: gap,
      low,
      high,
      sharedTasks: p.shared,
      separated,
      probabilityBetter: aBetter ? p.share : 1 - p.share,
    });
  }
  const ranks = ranksOf(est);
  const order = Array.from({ length: P }, (_, x) => x).sort(
    (x, y) =>
      (ranks[x] as number) - (ranks[y] as number) ||
      ((models[present[x] as number] as string) < (models[present[y] as number] as string) ? -1 : 1),
  );
  // Groups: walking down the order, a model opens a new group once it is separated from the
  // first model of the current group; every member is inseparable from its group's first.
  const group = new Int32Array(P);
  let leader = order[0] as number;
  let g = 1;
  for (const x of order) {
    if (x !== leader && (beats[leader] as Set<number>).has(x)) {
      g++;
      leader = x;
    }
    group[x] = g;
  }
  const ranked: RankedModel[] = order.map((x) => {
    const j = present[x] as number;
    const above = beats.filter((s) => s.has(x)).length;
    // Resamples that drew none of the model's tasks have no mean (NaN) and are left out; the
    // spread is over the draws that remain, not over B (reading past them gave NaN intervals,
    // written to the JSON report as null).
    const draws = Float64Array.from(boot, (r) => r[j] as number).filter((v) => !Number.isNaN(v));
    const interval = meanInterval(
      est[x] as number,
      sdOf(draws, draws.length),
      point.tasks[j] as number,
      alpha,
      point.constant[j] === 1,
    );
    return {
      model: models[j] as string,
      rank: ranks[x] as number,
      rankLow: 1 + above,
      rankHigh: P - (beats[x] as Set<number>).size,
      estimate: est[x] as number,
      low: interval.low,
      high: interval.high,
      tasks: point.tasks[j] as number,
      group: group[x] as number,
      seedStability: stable.perModel[j] as number,
    };
  });
  const groups: string[][] = Array.from({ length: g }, () => []);
  for (const r of ranked) (groups[r.group - 1] as string[]).push(r.model);
  return { metric, models: ranked, pairs: separations, groups, seedStability: stable.whole };
};

/**
 * Seed stability: the inputs drawn anew (a new input seed) with tasks and candidates fixed. Each
 * candidate's figure is a share of n inputs, so a redraw moves it by its binomial spread
 * (normal approximation, kept in [0, 1]); the figure is the share of redraws that keep the order.
 */
const seedStability = (
  flat: Flat,
  n: Float64Array,
  M: number,
  T: number,
  point: Float64Array,
  redraws: number,
  random: () => number,
): { whole: number; perModel: Float64Array } => {
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const ranks = ranksOf(point);
  const same = new Float64Array(M);
  let whole = 0;
  const est = new Float64Array(M);
  for (let r = 0; r < redraws; r++) {
    for (let j = 0; j < M; j++) {
      let sum = 0;
      let count = 0;
      for (let t = 0; t < T; t++) {
        const c = j * T + t;
        const from = flat.start[c] as number;
        const k = (flat.start[c + 1] as number) - from;
        if (k === 0) continue;
        const inputs = n[c] as number;
        let s = 0;
        for (let i = 0; i < k; i++) {
          const v = flat.values[from + i] as number;
          s += Math.min(1, Math.max(0, v + Math.sqrt((v * (1 - v)) / inputs) * gauss()));
        }
        sum += s / k;
        count++;
      }
      est[j] = count === 0 ? Number.NaN : sum / count;
    }
    const again = ranksOf(est);
    let all = true;
    for (let j = 0; j < M; j++) {
      if (again[j] === ranks[j]) same[j] = (same[j] as number) + 1;
      else all = false;
    }
    if (all) whole++;
  }
  return { whole: whole / redraws, perModel: same.map((s) => s / redraws) };
};

/** Spearman's ρ of two figures across models, null when undefined (a constant side). */
const rhoOf = (xs: readonly number[], ys: readonly number[]): number | null => {
  if (xs.length < 3) return null;
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  const mx = rx.reduce((a, b) => a + b, 0) / rx.length;
  const my = ry.reduce((a, b) => a + b, 0) / ry.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += ((rx[i] as number) - mx) * ((ry[i] as number) - my);
    sxx += ((rx[i] as number) - mx) ** 2;
    syy += ((ry[i] as number) - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
};

const percentileInterval = (
  estimate: number | null,
  draws: number[],
  alpha: number,
): EstimateInterval | null => {
  if (estimate === null || draws.length === 0) return null;
  const sorted = Float64Array.from(draws).sort();
  return { estimate, low: quantile(sorted, alpha / 2), high: quantile(sorted, 1 - alpha / 2) };
};

/**
 * Ranks models by mean incoherence (and by mean error where references exist) with their
 * uncertainty. Deterministic: the same observations (in any order) and seed give the same
 * result, so the merged shards of a run give the unsharded run's intervals.
 * Throws a `CrosscheckError` for observations that are not shares, a pair given twice, or options
 * out of range.
 * @public
 */
export const rankModels = (
  observations: readonly RankingObservation[],
  options?: RankingOptions,
): RankingAnalysis => {
  const o = readOptions(options);
  const obs = readObservations(observations);
  if (obs.length === 0)
    throw bad('expected at least one observation, got none. Pass each model-task pair once.');
  const alpha = 1 - o.confidence;
  const data = prepare(obs);
  const { models, tasks } = data;
  const M = models.length;
  const T = tasks.length;
  // Per resample: every candidate drawn, every cell, and every pair over the drawn tasks.
  const work =
    o.resamples *
    (data.incoherence.values.length + (data.error?.values.length ?? 0) + M * T + ((M * (M - 1)) / 2) * T);
  if (work > MAX_WORK)
    throw optionError({
      where: WHERE,
      field: 'resamples',
      rule: `is too many for ${M} models × ${T} tasks (${work.toExponential(1)} draws)`,
      got: o.resamples,
      example: Math.max(50, Math.floor(MAX_WORK / (work / o.resamples))),
    });
  const random = generator(o.seed);
  const figures = { incoherence: data.incoherence, error: data.error } as const;
  const points = {
    incoherence: pointEstimates(data.incoherence, M, T),
    error: data.error ? pointEstimates(data.error, M, T) : null,
  };
  const boot = { incoherence: [] as Float64Array[], error: [] as Float64Array[] };
  const pairBoot = { incoherence: [] as Float64Array[], error: [] as Float64Array[] };
  const cells = new Float64Array(M * T);
  const pairCount = (M * (M - 1)) / 2;
  const drawn = new Int32Array(T);
  const shareDraws: number[] = [];
  const meanDraws: number[] = [];
  const correct = new Float64Array(M);
  const coherent = new Float64Array(M);
  const counted = new Float64Array(M);
  for (let b = 0; b < o.resamples; b++) {
    for (let d = 0; d < T; d++) drawn[d] = Math.floor(random() * T);
    const inc = new Float64Array(M);
    resampleMeans(figures.incoherence, M, T, drawn, random, true, inc, cells);
    boot.incoherence.push(inc);
    const incPairs = new Float64Array(pairCount);
    pairMeans(cells, M, T, incPairs);
    pairBoot.incoherence.push(incPairs);
    if (figures.error) {
      const err = new Float64Array(M);
      resampleMeans(figures.error, M, T, drawn, random, false, err, cells);
      boot.error.push(err);
      const errPairs = new Float64Array(pairCount);
      pairMeans(cells, M, T, errPairs);
      pairBoot.error.push(errPairs);
      // Table 4's agreement over the drawn tasks: shares of tasks with error 0 and incoherence 0.
      correct.fill(0);
      coherent.fill(0);
      counted.fill(0);
      for (let j = 0; j < M; j++)
        for (let d = 0; d < T; d++) {
          const c = j * T + (drawn[d] as number);
          const e = figures.error.mean[c] as number;
          const i = figures.incoherence.mean[c] as number;
          if (Number.isNaN(e) || Number.isNaN(i)) continue;
          counted[j] = (counted[j] as number) + 1;
          if (e === 0) correct[j] = (correct[j] as number) + 1;
          if (i === 0) coherent[j] = (coherent[j] as number) + 1;
        }
      const keep = Array.from({ length: M }, (_, j) => j).filter((j) => (counted[j] as number) > 0);
      const s = rhoOf(
        keep.map((j) => (correct[j] as number) / (counted[j] as number)),
        keep.map((j) => (coherent[j] as number) / (counted[j] as number)),
      );
      if (s !== null) shareDraws.push(s);
      const keepMeans = keep.filter(
        (j) => !Number.isNaN(inc[j] as number) && !Number.isNaN(err[j] as number),
      );
      const r = rhoOf(
        keepMeans.map((j) => err[j] as number),
        keepMeans.map((j) => inc[j] as number),
      );
      if (r !== null) meanDraws.push(r);
    }
  }
  const stability = (flat: Flat, point: Float64Array) =>
    seedStability(flat, data.n, M, T, point, o.seedRedraws, random);
  const incRanking = rankMetric(
    'incoherence',
    models,
    points.incoherence,
    boot.incoherence,
    pairBoot.incoherence,
    stability(data.incoherence, points.incoherence.estimate),
    alpha,
    T,
  );
  const errRanking =
    data.error && points.error
      ? rankMetric(
          'error',
          models,
          points.error,
          boot.error,
          pairBoot.error,
          stability(data.error, points.error.estimate),
          alpha,
          T,
        )
      : null;
  const intervalOf = (ranking: MetricRanking | null, model: string): EstimateInterval | null => {
    const r = ranking?.models.find((x) => x.model === model);
    return r ? { estimate: r.estimate, low: r.low, high: r.high } : null;
  };
  const perModel: ModelIntervals[] = models.map((model, j) => {
    let wrong = 0;
    let detected = 0;
    if (data.error)
      for (let t = 0; t < T; t++) {
        const e = data.error.mean[j * T + t] as number;
        const i = data.incoherence.mean[j * T + t] as number;
        if (Number.isNaN(e) || Number.isNaN(i) || e === 0) continue;
        wrong++;
        if (i > 0) detected++;
      }
    const cp = wrong > 0 ? clopperPearson(detected, wrong, alpha) : null;
    return {
      model,
      incoherence: intervalOf(incRanking, model),
      error: intervalOf(errRanking, model),
      detectionRate: cp ? { estimate: detected / wrong, ...cp } : null,
    };
  });
  let agreement: RankingAnalysis['agreement'] = null;
  if (data.error && points.error) {
    const errPoint = points.error;
    const keep = models.map((_, j) => j).filter((j) => (errPoint.tasks[j] as number) > 0);
    const share = (flat: Flat, j: number): number => {
      let zero = 0;
      let count = 0;
      for (let t = 0; t < T; t++) {
        const e = (data.error as Flat).mean[j * T + t] as number;
        const v = flat.mean[j * T + t] as number;
        if (Number.isNaN(e) || Number.isNaN(data.incoherence.mean[j * T + t] as number)) continue;
        count++;
        if (v === 0) zero++;
      }
      return zero / count;
    };
    // The bootstrap over tasks: with fewer tasks than a claim at this confidence needs (see
    // minSharedTasks), a handful of resamples, often all alike, is no evidence of a narrow
    // interval, so the interval is all of [−1, 1].
    const fewTasks = T < minSharedTasks(o.confidence);
    const rhoInterval = (estimate: number | null, draws: number[]): EstimateInterval | null => {
      const interval = percentileInterval(estimate, draws, alpha);
      return interval !== null && fewTasks ? { ...interval, low: -1, high: 1 } : interval;
    };
    agreement = {
      shares: rhoInterval(
        rhoOf(
          keep.map((j) => share(data.error as Flat, j)),
          keep.map((j) => share(data.incoherence, j)),
        ),
        shareDraws,
      ),
      means: rhoInterval(
        rhoOf(
          keep.map((j) => errPoint.estimate[j] as number),
          keep.map((j) => points.incoherence.estimate[j] as number),
        ),
        meanDraws,
      ),
    };
  }
  return {
    confidence: o.confidence,
    resamples: o.resamples,
    seed: o.seed,
    tasks: T,
    models: perModel,
    rankings: { incoherence: incRanking, error: errRanking },
    agreement,
  };
};
