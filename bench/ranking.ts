/**
 * Does the ranking's uncertainty hold what it says? `npm run bench:ranking`.
 *
 * Synthetic models with a known true order: on each task, model j's candidates are wrong with a
 * probability q drawn from a Beta distribution of mean μ_j (tasks differ in difficulty); a wrong
 * candidate errs on a share f ~ U(0.1, 0.9) of the inputs, answering one of three wrong values
 * there (so two wrong candidates sometimes agree). The true mean error is μ/2 and the true mean
 * incoherence has a closed form (below), so every interval can be checked against the truth.
 *
 * Each regime is simulated `REPS` times; each time `rankModels` runs on fresh tasks and
 * candidates with its own seed. Coverage is the share of intervals (per model, per figure) that
 * hold the true value, and of rank intervals that hold the true rank (1 + the number of models
 * truly better); a false separation is a run in which any pair is declared separated although the
 * declared better model is not truly better. Ends with one JSON line.
 */
import { stats } from '../src/index.ts';

const CONFIDENCE = 0.95;
const RESAMPLES = 200;
const REPS = Number(process.env.RANKING_REPS ?? 300);
/** Beta concentration of the per-task wrong probability: tasks vary a lot in difficulty. */
const KAPPA = 2;
/** Distinct wrong values a wrong candidate may answer. */
const WRONG_VALUES = 3;

interface Regime {
  readonly name: string;
  readonly mu: readonly number[];
  readonly tasks: number;
  readonly m: number;
  readonly n: number;
}

const REGIMES: readonly Regime[] = [
  { name: 'close models', mu: [0.2, 0.22, 0.24, 0.26, 0.28, 0.3], tasks: 150, m: 10, n: 40 },
  { name: 'few tasks', mu: [0.1, 0.2, 0.3, 0.4, 0.5], tasks: 12, m: 5, n: 40 },
  { name: 'm = 2', mu: [0.1, 0.15, 0.2, 0.3, 0.4, 0.5], tasks: 100, m: 2, n: 40 },
  { name: 'm = 10', mu: [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5], tasks: 100, m: 10, n: 40 },
  { name: 'tied models', mu: [0.3, 0.3, 0.3, 0.3], tasks: 60, m: 5, n: 40 },
];

/** A seeded generator, so the figures are the same on every run. */
const generator = (seed: number): (() => number) => stats.mulberry32(seed);

/** Gamma(shape, 1) by Marsaglia–Tsang (shape ≥ 1; boosted below 1). */
const gamma = (shape: number, random: () => number): number => {
  if (shape < 1) return gamma(shape + 1, random) * random() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
};

const beta = (mean: number, random: () => number): number => {
  const a = gamma(mean * KAPPA, random);
  const b = gamma((1 - mean) * KAPPA, random);
  return a / (a + b);
};

/**
 * True figures of a model of mean μ: error E[q]·E[f] = μ/2; with r = q/2 the chance that one
 * candidate is wrong on an input, two candidates agree with chance (1 − r)² + r²/W, so the
 * incoherence is E[2r − r² − r²/W] with E[q²] = μ(1 − μ)/(κ + 1) + μ².
 */
const truth = (mu: number): { error: number; incoherence: number } => {
  const q2 = (mu * (1 - mu)) / (KAPPA + 1) + mu * mu;
  return { error: mu / 2, incoherence: mu - (q2 / 4) * (1 + 1 / WRONG_VALUES) };
};

/** One model on one task: per candidate, its error share and its mean disagreement with the others. */
const simulateCell = (mu: number, m: number, n: number, random: () => number) => {
  const q = beta(mu, random);
  const values = new Int8Array(m * n);
  const error: number[] = [];
  for (let i = 0; i < m; i++) {
    const wrong = random() < q;
    const f = 0.1 + 0.8 * random();
    let errs = 0;
    for (let x = 0; x < n; x++) {
      const v = wrong && random() < f ? 1 + Math.floor(random() * WRONG_VALUES) : 0;
      values[i * n + x] = v;
      if (v !== 0) errs++;
    }
    error.push(errs / n);
  }
  // Candidates that answer alike agree: per input, count each value once, then each candidate
  // disagrees with the m − count(its value) others (O(m·n), not O(m²·n)).
  const sums = new Float64Array(m);
  const counts = new Int32Array(WRONG_VALUES + 1);
  for (let x = 0; x < n; x++) {
    counts.fill(0);
    for (let i = 0; i < m; i++) (counts[values[i * n + x] as number] as number)++;
    for (let i = 0; i < m; i++)
      sums[i] = (sums[i] as number) + (m - (counts[values[i * n + x] as number] as number)) / (m - 1);
  }
  const disagreement = Array.from(sums, (s) => s / n);
  return { error, disagreement };
};

const trueRank = (theta: readonly number[], j: number): number =>
  1 + theta.filter((t) => t < (theta[j] as number) - 1e-12).length;

interface RegimeFigures {
  regime: string;
  modelCoverage: { incoherence: number; error: number };
  rankCoverage: { incoherence: number; error: number };
  falseSeparation: { incoherence: number; error: number };
  /** Share of pairs of truly different models that were separated (power, for context). */
  separated: { incoherence: number; error: number };
  seconds: number;
}

const runRegime = (regime: Regime, regimeIndex: number): RegimeFigures => {
  const started = performance.now();
  const models = regime.mu.map((_, j) => `model-${String(j + 1).padStart(2, '0')}`);
  const truths = regime.mu.map(truth);
  const theta = {
    incoherence: truths.map((t) => t.incoherence),
    error: truths.map((t) => t.error),
  };
  const tally = () => ({ incoherence: { hit: 0, of: 0 }, error: { hit: 0, of: 0 } });
  const hits = tally();
  const rankHits = tally();
  const falseRuns = { incoherence: 0, error: 0 };
  const power = tally();
  for (let rep = 0; rep < REPS; rep++) {
    const random = generator(1_000_003 * (regimeIndex + 1) + rep);
    const observations: stats.RankingObservation[] = [];
    for (let t = 0; t < regime.tasks; t++)
      models.forEach((model, j) => {
        const cell = simulateCell(regime.mu[j] as number, regime.m, regime.n, random);
        observations.push({ model, task: `task-${t}`, n: regime.n, ...cell });
      });
    const analysis = stats.rankModels(observations, {
      confidence: CONFIDENCE,
      resamples: RESAMPLES,
      seed: rep,
      seedRedraws: 10,
    });
    for (const metric of ['incoherence', 'error'] as const) {
      const ranking = analysis.rankings[metric];
      if (!ranking) throw new Error(`no ${metric} ranking`);
      const truthOf = (model: string) => theta[metric][models.indexOf(model)] as number;
      for (const r of ranking.models) {
        const j = models.indexOf(r.model);
        hits[metric].of++;
        if (r.low <= truthOf(r.model) && truthOf(r.model) <= r.high) hits[metric].hit++;
        rankHits[metric].of++;
        const rank = trueRank(theta[metric], j);
        if (r.rankLow <= rank && rank <= r.rankHigh) rankHits[metric].hit++;
      }
      let wrong = false;
      for (const p of ranking.pairs) {
        const truly = truthOf(p.better) < truthOf(p.worse) - 1e-12;
        if (truly) {
          power[metric].of++;
          if (p.separated) power[metric].hit++;
        }
        if (p.separated && !truly) wrong = true;
      }
      if (wrong) falseRuns[metric]++;
    }
  }
  const share = (c: { hit: number; of: number }) => (c.of === 0 ? Number.NaN : c.hit / c.of);
  return {
    regime: regime.name,
    modelCoverage: { incoherence: share(hits.incoherence), error: share(hits.error) },
    rankCoverage: { incoherence: share(rankHits.incoherence), error: share(rankHits.error) },
    falseSeparation: { incoherence: falseRuns.incoherence / REPS, error: falseRuns.error / REPS },
    separated: { incoherence: share(power.incoherence), error: share(power.error) },
    seconds: (performance.now() - started) / 1000,
  };
};

const f3 = (x: number): string => (Number.isNaN(x) ? '—' : x.toFixed(3));
console.log(
  `bench:ranking — ${REPS} runs per regime, confidence ${CONFIDENCE}, ${RESAMPLES} bootstrap resamples each`,
);
console.log(
  'regime          tasks  m  models | model-interval cover (inc/err) | rank-interval cover (inc/err) | false separation (inc/err) | separated true pairs (inc/err) | s',
);
const all = REGIMES.map((regime, i) => {
  const r = runRegime(regime, i);
  console.log(
    `${regime.name.padEnd(15)} ${String(regime.tasks).padStart(5)} ${String(regime.m).padStart(2)} ${String(regime.mu.length).padStart(7)} | ` +
      `${f3(r.modelCoverage.incoherence)} / ${f3(r.modelCoverage.error)}`.padEnd(31) +
      ' | ' +
      `${f3(r.rankCoverage.incoherence)} / ${f3(r.rankCoverage.error)}`.padEnd(29) +
      ' | ' +
      `${f3(r.falseSeparation.incoherence)} / ${f3(r.falseSeparation.error)}`.padEnd(26) +
      ' | ' +
      `${f3(r.separated.incoherence)} / ${f3(r.separated.error)}`.padEnd(30) +
      ` | ${r.seconds.toFixed(1)}`,
  );
  return r;
});
const finite = (xs: number[]) => xs.filter((x) => !Number.isNaN(x));
console.log(
  JSON.stringify({
    minRankIntervalCoverage: Math.min(
      ...finite(all.flatMap((r) => [r.rankCoverage.incoherence, r.rankCoverage.error])),
    ),
    minModelIntervalCoverage: Math.min(
      ...finite(all.flatMap((r) => [r.modelCoverage.incoherence, r.modelCoverage.error])),
    ),
    maxFalseSeparation: Math.max(
      ...all.flatMap((r) => [r.falseSeparation.incoherence, r.falseSeparation.error]),
    ),
    nominal: CONFIDENCE,
  }),
);
