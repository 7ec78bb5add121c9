import {
  BENCH_DEFAULTS,
  BENCH_WHERE,
  type BenchOptions,
  lockBenchOut,
  progressReporter,
  renderBenchTable,
  resolveBenchOptions,
  runBench,
  summaryLine,
} from '../bench/index.ts';
import { CrosscheckError, describeValue, isCrosscheckError, problemOf } from '../errors/index.ts';
import { closePythonWorkers, closeSandboxPools } from '../exec/index.ts';
import { processIsolationWarning, renderJson, writeFileAtomic } from '../report/index.ts';
import { neutralizeControls } from '../values/index.ts';
import { commaList } from './comma-list.ts';
import { flagNumber } from './flag-number.ts';
import { parseFlags } from './parse-flags.ts';
import { runTriangulationCommand } from './triangulation.ts';

/** Usage of `crosscheck bench`. */
export const BENCH_USAGE = `Usage:
  crosscheck bench triangulation --data <dir> [options]
      Selection with abstention (semantic triangulation, plurality, majority): see
      crosscheck bench triangulation --help.
  crosscheck bench --data <dir> [options]
      Measure incoherence and error of every model's candidates on every task of a dataset
      (tasks.jsonl.gz + candidates/<model>.jsonl.gz), print the paper-style table (beside the
      paper's figures when the dataset has paper_logs/) on stderr, write the report JSON, and
      end with one JSON line on stdout. Interrupted runs resume from <out>.checkpoint.

Options:
  --data <dir>          dataset directory (required)
  --models <a,b>        models to measure (default: all)
  --tasks <id,id>       task ids to measure (default: all)
  --limit <k>           only the first k tasks
  --m <k>               candidates per task (default ${BENCH_DEFAULTS.m})
  --n <k>               reference-filtered inputs per task (default ${BENCH_DEFAULTS.n})
  --seed <s>            seed of every random choice (default ${BENCH_DEFAULTS.seed})
  --equality <e>        python | difftrust | strict (default: python for Python tasks)
  --estimator <e>       all-pairs | paired (default ${BENCH_DEFAULTS.estimator}). all-pairs: per draw, the share
                        of candidate pairs that disagree (incoherence) and of candidates that
                        are wrong (error), on the same n draws. paired: the paper's code (its
                        eq. 10 and 9): one random pair of two different candidates per draw,
                        and error from one random candidate per draw on n draws of its own
  --profile <p>         typed | difftrust input generation (default ${BENCH_DEFAULTS.profile})
  --language <l>        python | javascript | typescript, overriding each task's language
  --timeout-ms <ms>     per-call limit (default ${BENCH_DEFAULTS.timeoutMs})
  --budget-ms <ms>      time a candidate may lose to timeouts before the rest of its calls
                        are skipped as unknown (default ${BENCH_DEFAULTS.budgetMs})
  --candidate-time-ms <ms>
                        time all of one candidate's calls on one task may take, slow ones
                        included, before the rest are skipped as unknown (default ${BENCH_DEFAULTS.candidateTimeMs})
  --max-output-bytes <b>
                        largest output of a call; inputs where the reference's is larger are
                        dropped, a candidate's is an OutputTooLarge error (default ${BENCH_DEFAULTS.maxOutputBytes})
  --jobs <k>            tasks measured at once (default ${BENCH_DEFAULTS.jobs})
  --out <file>          report JSON (default ${BENCH_DEFAULTS.out}; for a shard
                        crosscheck-bench.shard-<i>-of-<k>.json); render it with crosscheck report
  --shard <i/k>         measure only part i of k of the (model, task) pairs, e.g. one machine of
                        a CI matrix; crosscheck report merge joins the k reports into the report
                        of the unsharded run (same options, seed and data on every machine)
  --fresh               measure every pair again instead of resuming <out>.checkpoint (a rerun
                        with the same options otherwise reuses the pairs it finished)
  -h, --help            this help

Columns (per model, over its tasks): error and incoh. are mean Ê and Î per task (estimator
above); spearman is ρ(Ê, Î) over tasks; detect is the share of tasks with Ê > 0 that have Î > 0;
undet.err the mean Ê of tasks with Î = 0; false+ the tasks with Î > 0 and Ê = 0. Inputs are n
i.i.d. draws of the task's Gen (duplicates run once, counted as drawn). Intervals in the report
are Hoeffding intervals about the m sampled candidates and this Gen, not about the model.
`;

/** The flag of each option of runBench: `timeoutMs` → `--timeout-ms`. */
const flagOf = (field: string): string => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The field behind each number flag, so its error suggests the default BENCH_USAGE states. */
const NUMBER_EXAMPLES: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries({ ...BENCH_DEFAULTS, limit: 10 })
    .filter(([, value]) => typeof value === 'number')
    .map(([field, value]) => [flagOf(field).slice(2), value as number]),
);

/**
 * An error of runBench's options in the CLI's own terms: the flag for the field and the
 * example as a flag value (the engine speaks in option names, only the CLI knows flags).
 */
export const cliMessage = (error: CrosscheckError): string => {
  const p = problemOf(error);
  if (p === undefined || p.where !== BENCH_WHERE) return error.message;
  const flag = flagOf(p.field);
  const example = Array.isArray(p.example) ? p.example.join(',') : p.example;
  const fix = p.fix ?? (example === undefined ? '' : `Pass e.g. ${flag} ${example}.`);
  return `crosscheck bench: ${flag} ${p.rule}, got ${describeValue(p.got)}.${fix ? ` ${fix}` : ''}`;
};

const number = (option: string, raw: string | undefined): number | undefined =>
  flagNumber('crosscheck bench', option, raw, NUMBER_EXAMPLES[option] ?? 1);

/** Parses `crosscheck bench` arguments into {@link BenchOptions}; null for `--help`. */
export const parseBenchArgs = (argv: readonly string[]): BenchOptions | null => {
  const { values } = parseFlags('crosscheck bench', {
    args: [...argv],
    options: {
      data: { type: 'string' },
      models: { type: 'string' },
      tasks: { type: 'string' },
      limit: { type: 'string' },
      m: { type: 'string' },
      n: { type: 'string' },
      seed: { type: 'string' },
      equality: { type: 'string' },
      estimator: { type: 'string' },
      profile: { type: 'string' },
      language: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'budget-ms': { type: 'string' },
      'candidate-time-ms': { type: 'string' },
      'max-output-bytes': { type: 'string' },
      jobs: { type: 'string' },
      out: { type: 'string', short: 'o' },
      shard: { type: 'string' },
      fresh: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  if (values.data === undefined) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      'crosscheck bench: --data is required. Pass the dataset directory, e.g. --data ./humaneval.',
      { where: 'crosscheck bench --data' },
    );
  }
  return {
    data: values.data,
    models: commaList(values.models),
    tasks: commaList(values.tasks),
    limit: number('limit', values.limit),
    m: number('m', values.m),
    n: number('n', values.n),
    seed: number('seed', values.seed),
    equality: values.equality as BenchOptions['equality'],
    estimator: values.estimator as BenchOptions['estimator'],
    profile: values.profile as BenchOptions['profile'],
    language: values.language as BenchOptions['language'],
    timeoutMs: number('timeout-ms', values['timeout-ms']),
    budgetMs: number('budget-ms', values['budget-ms']),
    candidateTimeMs: number('candidate-time-ms', values['candidate-time-ms']),
    maxOutputBytes: number('max-output-bytes', values['max-output-bytes']),
    jobs: number('jobs', values.jobs),
    out: values.out,
    shard: values.shard,
    fresh: values.fresh,
  };
};

/**
 * `crosscheck bench ...`: runs the benchmark and returns the exit code (0 done, 2 misuse, 130
 * interrupted). The first Ctrl-C stops starting tasks, aborts the running ones and still writes
 * the report of what finished; the checkpoint keeps every finished pair for the rerun.
 */
export const runBenchCommand = async (argv: readonly string[]): Promise<number> => {
  if (argv[0] === 'triangulation') return runTriangulationCommand(argv.slice(1));
  let options: BenchOptions | null;
  try {
    options = parseBenchArgs(argv);
  } catch (error) {
    const known = isCrosscheckError(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known) throw error;
    process.stderr.write(
      `${neutralizeControls((error as Error).message, { newlines: true })}\n\n${BENCH_USAGE}`,
    );
    return 2;
  }
  if (options === null) {
    process.stdout.write(BENCH_USAGE);
    return 0;
  }
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(
      '\ncrosscheck bench: interrupted; saving what finished (Ctrl-C again to quit now)\n',
    );
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const progress = progressReporter(process.stderr);
  let unlock: (() => void) | null = null;
  try {
    // One writer per --out, from the first checkpoint line to the report (runBench takes it too).
    unlock = lockBenchOut(resolveBenchOptions(options).out);
    const result = await runBench(options, {
      signal: controller.signal,
      onProgress: (p) => progress.update(p),
      log: (line) => {
        progress.clear();
        process.stderr.write(`${neutralizeControls(line, { newlines: true })}\n`);
      },
    });
    progress.clear();
    writeFileAtomic(result.options.out, renderJson(result.report));
    const shard = result.options.shard;
    // Task names, models and messages come from the dataset and the candidates: shown, never
    // acted on by the terminal.
    const say = (text: string): boolean => process.stderr.write(neutralizeControls(text, { newlines: true }));
    const unguarded = processIsolationWarning(result.report.summary.suite);
    say(
      (unguarded ? `\nwarning: ${unguarded}\n` : '') +
        `\n${renderBenchTable(result)}report: ${result.options.out} (crosscheck report ${result.options.out} --format html)\n` +
        (result.pairsResumed > 0
          ? `${result.pairsResumed} of ${result.pairs.length} pairs were resumed from ${result.checkpointPath}, not measured now; --fresh measures them again.\n`
          : '') +
        (shard
          ? `shard ${shard.index}/${shard.count}: ${result.pairs.length} pairs; figures above cover this shard only. Join the ${shard.count} shard reports with crosscheck report merge <files> --out <file>.\n`
          : ''),
    );
    process.stdout.write(`${neutralizeControls(summaryLine(result))}\n`);
    return result.complete ? 0 : 130;
  } catch (error) {
    progress.clear();
    if (!isCrosscheckError(error)) throw error;
    process.stderr.write(`${neutralizeControls(cliMessage(error), { newlines: true })}\n`);
    if (error.code === 'IO_ERROR' && unlock !== null) {
      // A write failed mid-run (disk full, file-size limit): what finished is in the checkpoint.
      process.stderr.write(
        'crosscheck bench: the pairs that finished are kept in the checkpoint beside --out; rerun the same command once the problem is fixed to resume from them.\n',
      );
    }
    return 2;
  } finally {
    unlock?.();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await Promise.all([closePythonWorkers(), closeSandboxPools()]);
  }
};
