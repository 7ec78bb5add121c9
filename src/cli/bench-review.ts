import { isCrosscheckError } from '../errors/index.ts';
import { createLlm } from '../llm/index.ts';
import { writeFileAtomic } from '../report/index.ts';
import { benchReview, renderReviewBench } from '../review/index.ts';
import { neutralizeControls } from '../values/index.ts';
import { commaList } from './comma-list.ts';
import { flagNumber } from './flag-number.ts';
import { parseFlags } from './parse-flags.ts';

export const REVIEW_BENCH_USAGE = `Usage: crosscheck bench review --data <dir> --models <a,b> [options]

Grounded review (TRAILS) of a dataset's candidates, labelled by their reference (error 0 = correct).
Prints MCC, P4, the confusion matrix per rerun, correct stability and tokens per task. Needs a
model, live or recorded in the LLM cache (CROSSCHECK_LLM_CACHE=replay-only replays a committed one).

Options:
  --data <dir>          dataset directory with tasks.jsonl.gz and candidates/<model>.jsonl.gz
  --models <a,b>        candidate models to review
  --model <name>        generator model (default $CROSSCHECK_LLM_MODEL)
  --judge-model <name>  judge model (default: the generator)
  --base-url <url>      OpenAI-compatible endpoint (default $CROSSCHECK_LLM_BASE_URL)
  --tasks <ids>         comma-separated task ids (default: all)
  --limit <n>           at most n tasks
  --samples <n>         samples per task considered (default 10)
  --pick pair|all       first correct and first incorrect sample per task (default), or all
  --runs <n>            reruns, each with its own sample index (default 3)
  --threshold <τ>       acceptance threshold (default 0.8)
  --out <file>          write the items and figures as JSON
`;

const int = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw Object.assign(new Error(`--${name} must be a positive integer, got ${v}`), {
      code: 'ERR_PARSE_ARGS_INVALID',
    });
  return n;
};

/** `crosscheck bench review`. */
export const runReviewBenchCommand = async (argv: readonly string[]): Promise<number> => {
  let values: Record<string, string | boolean | undefined>;
  let models: string[];
  try {
    values = parseFlags('crosscheck bench review', {
      args: [...argv],
      options: {
        data: { type: 'string' },
        models: { type: 'string' },
        model: { type: 'string' },
        'judge-model': { type: 'string' },
        'base-url': { type: 'string' },
        tasks: { type: 'string' },
        limit: { type: 'string' },
        samples: { type: 'string' },
        pick: { type: 'string' },
        runs: { type: 'string' },
        threshold: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
    if (values.help) {
      process.stdout.write(REVIEW_BENCH_USAGE);
      return 0;
    }
    if (typeof values.data !== 'string' || typeof values.models !== 'string') {
      throw Object.assign(new Error('crosscheck bench review: --data and --models are required.'), {
        code: 'ERR_PARSE_ARGS_MISSING',
      });
    }
    models = commaList(values.models) ?? [];
    if (models.length === 0) {
      throw Object.assign(
        new Error(`crosscheck bench review: --models names no model (got ${JSON.stringify(values.models)}).`),
        {
          code: 'ERR_PARSE_ARGS_INVALID',
        },
      );
    }
    if (values.pick !== undefined && values.pick !== 'pair' && values.pick !== 'all') {
      throw Object.assign(new Error(`--pick must be pair or all, got ${values.pick}`), {
        code: 'ERR_PARSE_ARGS_INVALID',
      });
    }
  } catch (error) {
    const known = isCrosscheckError(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known) throw error;
    process.stderr.write(
      `${neutralizeControls((error as Error).message, { newlines: true })}\n\n${REVIEW_BENCH_USAGE}`,
    );
    return 2;
  }
  try {
    const baseURL = values['base-url'] as string | undefined;
    const llm = createLlm({
      ...(values.model ? { model: values.model as string } : {}),
      ...(baseURL ? { baseURL } : {}),
    });
    const judge = values['judge-model']
      ? createLlm({ model: values['judge-model'] as string, ...(baseURL ? { baseURL } : {}) })
      : llm;
    const result = await benchReview({
      data: values.data as string,
      models,
      ...(values.tasks ? { tasks: commaList(values.tasks) } : {}),
      limit: int('limit', values.limit as string | undefined),
      samples: int('samples', values.samples as string | undefined),
      pick: values.pick as 'pair' | 'all' | undefined,
      runs: int('runs', values.runs as string | undefined),
      review: {
        llm,
        judge,
        ...(values.threshold !== undefined
          ? { threshold: flagNumber('crosscheck bench review', 'threshold', values.threshold as string) }
          : {}),
      },
      onProgress: (line) => process.stderr.write(`${neutralizeControls(line, { newlines: true })}\n`),
    });
    if (typeof values.out === 'string') writeFileAtomic(values.out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(neutralizeControls(renderReviewBench(result), { newlines: true }));
    return 0;
  } catch (error) {
    if (!isCrosscheckError(error)) throw error;
    process.stderr.write(`${neutralizeControls(error.message, { newlines: true })}\n`);
    return 2;
  }
};
