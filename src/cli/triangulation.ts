import { CrosscheckError } from '../errors/index.ts';
import { closePythonWorkers, closeSandboxPools } from '../exec/index.ts';
import {
  renderTriangulationTable,
  runTriangulationBench,
  type TriangulationBenchMethod,
} from '../triangulate/index.ts';
import { neutralizeControls } from '../values/index.ts';
import { commaList } from './comma-list.ts';
import { flagNumber } from './flag-number.ts';
import { parseFlags } from './parse-flags.ts';

/** Usage of `crosscheck bench triangulation`. */
export const TRIANGULATION_USAGE = `Usage:
  crosscheck bench triangulation --data <dir> [options]
      Selection with abstention per model over a dataset with references: N1..N5 (Fig. 8 of the
      semantic-triangulation paper), reliable and overall accuracy, abstention rate and F1,
      P(correct | agreement) and the ground-truth abstention rate, with the metric identities
      checked. Table on stderr, one JSON line on stdout.

Options:
  --data <dir>          dataset directory (tasks.jsonl.gz + candidates/<model>.jsonl.gz; required)
  --models <a,b>        models (default: all)
  --tasks <id,id>       task ids (default: all)
  --limit <k>           only the first k tasks
  --samples <k>         forward samples per task (default 10)
  --n <k>               forward inputs per task, reference-filtered (default 25)
  --seed <s>            seed (default 1)
  --methods <a,b>       plurality, majority, witness (default: all three). witness: the
                        hand-written inverses of HumanEval/27, /79, /15, /25, /93 (FWD-INV) and
                        /16 (FWD-SINV, Subset fibers); a trusted oracle, not a sampled witness
  --semantics <s>       artifact | paper (default artifact)
  --timeout-ms <ms>     per-call limit (default 250)
  -h, --help            this help
`;

const count = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  // Digits only: Number() would also read 0x10, 1e3 or padding.
  const x = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(x) || x <= 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `crosscheck bench triangulation: --${name} must be a positive integer, got ${JSON.stringify(raw)}.`,
      {
        where: `crosscheck bench triangulation --${name}`,
      },
    );
  }
  return x;
};

/** `crosscheck bench triangulation …`: returns the exit code. */
export const runTriangulationCommand = async (argv: readonly string[]): Promise<number> => {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseFlags('crosscheck bench triangulation', {
      args: [...argv],
      options: {
        data: { type: 'string' },
        models: { type: 'string' },
        tasks: { type: 'string' },
        limit: { type: 'string' },
        samples: { type: 'string' },
        n: { type: 'string' },
        seed: { type: 'string' },
        methods: { type: 'string' },
        semantics: { type: 'string' },
        'timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
    if (values.help) {
      process.stdout.write(TRIANGULATION_USAGE);
      return 0;
    }
    if (typeof values.data !== 'string') {
      throw new CrosscheckError(
        'INVALID_OPTION',
        'crosscheck bench triangulation: --data <dir> is required.',
      );
    }
    if (values.semantics !== undefined && values.semantics !== 'artifact' && values.semantics !== 'paper') {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `crosscheck bench triangulation: --semantics must be artifact or paper, got ${JSON.stringify(values.semantics)}.`,
      );
    }
  } catch (error) {
    process.stderr.write(
      `${neutralizeControls((error as Error).message, { newlines: true })}\n\n${TRIANGULATION_USAGE}`,
    );
    return 2;
  }
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error('interrupted'));
  process.on('SIGINT', onSigint);
  try {
    const started = performance.now();
    const limit = count('limit', values.limit as string | undefined);
    const samples = count('samples', values.samples as string | undefined);
    const n = count('n', values.n as string | undefined);
    const seed = flagNumber('crosscheck bench triangulation', 'seed', values.seed as string | undefined, 42);
    const timeoutMs = count('timeout-ms', values['timeout-ms'] as string | undefined);
    const models = commaList(values.models);
    const tasks = commaList(values.tasks);
    const methods = commaList(values.methods) as TriangulationBenchMethod[] | undefined;
    const result = await runTriangulationBench({
      data: values.data as string,
      ...(models ? { models } : {}),
      ...(tasks ? { tasks } : {}),
      ...(limit ? { limit } : {}),
      ...(samples ? { samples } : {}),
      ...(n ? { n } : {}),
      ...(seed !== undefined && Number.isFinite(seed) ? { seed } : {}),
      ...(methods ? { methods } : {}),
      ...(values.semantics ? { semantics: values.semantics as 'artifact' | 'paper' } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      signal: controller.signal,
      onTask: (model, task, done, total) => {
        if (process.stderr.isTTY)
          process.stderr.write(`\r${neutralizeControls(`${done}/${total} ${model} ${task}`)}`.padEnd(60));
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    process.stderr.write(`${neutralizeControls(renderTriangulationTable(result), { newlines: true })}\n`);
    process.stderr.write(
      `${result.rows.length} rows; samples ${result.options.samples}, n ${result.options.n}, seed ${result.options.seed}, ${result.options.semantics} semantics; ${result.skipped.length} model×task skipped; ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    const broken = result.rows.filter((r) => r.identities.length > 0).length;
    process.stdout.write(
      `${JSON.stringify({ rows: result.rows.map((r) => ({ model: r.model, method: r.method, tasks: r.tasks, ...r.counts, ...r.metrics, probCorrectUnderAgreement: r.probCorrectUnderAgreement })), skipped: result.skipped.length, identitiesBroken: broken })}\n`,
    );
    return broken > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    await closePythonWorkers();
    await closeSandboxPools();
  }
};
