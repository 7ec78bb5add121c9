/**
 * Is the benchmark's ranking of models reproducible, and does the oracle-free score rank models as
 * the error against references does? `npm run bench` wrote one merged report per seed to
 * results/; each report's `bench.pairs` holds every (model, task) pair's incoherence and error.
 */
const { perModel, readReport } = require('crosscheck');

// readReport checks the report against its schema (docs/report.schema.json) and types it;
// perModel(report, figure) is the mean of that figure per model over the pairs that ran.
const load = (seed) => readReport(`results/seed-${seed}.json`);

const seed1 = load(1);
const seed2 = load(2);

describe('the benchmark ranking', () => {
  it('ran every (model, task) pair under both seeds', () => {
    expect(seed1.bench.complete).toBe(true);
    expect(seed2.bench.complete).toBe(true);
    expect(seed1.bench.pairs.every((p) => p.status === 'ok')).toBe(true);
  });

  // Three models: two unrelated orders agree perfectly one time in six (1/3! ≈ 0.167), so no
  // ranking of three can pass at the default alpha of 0.05. These checks state the alpha they
  // can support; with four or more models, leave the default.
  it('ranks the models alike under seeds 1 and 2 (mean incoherence)', () => {
    expect(perModel(seed1, 'incoherence')).toRankLike(perModel(seed2, 'incoherence'), {
      minSpearman: 0.9,
      alpha: 0.2,
    });
  });

  it('ranks the models by incoherence as by error against the references', () => {
    expect(perModel(seed1, 'incoherence')).toRankLike(perModel(seed1, 'error'), {
      minSpearman: 0.9,
      alpha: 0.2,
    });
  });

  // SHOW_FAILURES=1: a published leaderboard that the benchmark contradicts, as a failure shows it.
  (process.env.SHOW_FAILURES === '1' ? it : it.skip)('matches the leaderboard we published', () => {
    const published = { 'model-a': 0.3, 'model-b': 0.2, 'model-c': 0.1 };
    expect(perModel(seed1, 'incoherence')).toRankLike(published, { minSpearman: 0.9, alpha: 0.2 });
  });
});
