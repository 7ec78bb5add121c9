import { setMaxListeners } from 'node:events';
import { CrosscheckError, isCrosscheckError } from '../errors/index.ts';
import { type CacheMode, replayMissFacts, type SampleProgress, sampleDataset } from '../llm/index.ts';
import { neutralizeControls } from '../values/index.ts';
import { commaList } from './comma-list.ts';
import { flagNumber } from './flag-number.ts';
import { parseFlags } from './parse-flags.ts';

/** Usage of `crosscheck sample`. */
export const SAMPLE_USAGE = `Usage:
  crosscheck sample --data <dir> --models <a,b> --n <k> --out <dir> [options]
      Draw n samples per task from each model (any OpenAI-compatible endpoint) into <out> in the
      bench format: tasks.jsonl.gz and candidates/<model>.jsonl.gz. Every reply goes through the
      LLM cache, so an interrupted run resumes where it stopped; then run
      crosscheck bench --data <out> (with the same --tasks and --limit). Progress and ETA on
      stderr; one JSON line on stdout. A sample whose reply cannot be used (too large, not
      JSON, an HTTP error after the retries, no code) is left out and listed; every other
      sample is still drawn.

Options:
  --data <dir>          dataset whose tasks are sampled (tasks.jsonl.gz)
  --models <a,b>        model names as the endpoint knows them (one candidates file each)
  --n <k>               samples per task and model
  --out <dir>           directory to write
  --prompt <p>          crosscheck | difftrust (the incoherence paper's prompt; Python) (default crosscheck);
                        difftrust is the prompt a dataset-replay server answers for a dataset
                        without llm_messages
  --language <l>        python | javascript | typescript (default: each task's language)
  --tasks <id,id>       task ids (default: all)
  --limit <k>           only the first k tasks
  --base-url <url>      endpoint (default $CROSSCHECK_LLM_BASE_URL, $OPENAI_BASE_URL, then OpenAI)
  --temperature <t>     sampling temperature (part of every cache key)
  --max-tokens <k>      reply length limit
  --cache <mode>        read-write | replay-only | refresh | off (default: $CROSSCHECK_LLM_CACHE,
                        then replay-only under CI, else read-write)
  --cache-dir <dir>     cache directory (default $CROSSCHECK_LLM_CACHE_DIR, then ./llm-cache)
  --concurrency <k>     requests in flight per model (default 4)
  --timeout-ms <ms>     per attempt (default 120000)
  --max-retries <k>     retries per request (default 2)
  --fail-on-failure     exit 1 at the end when any sample failed (default: list them, exit 0)
  -h, --help            this help

Exit codes: 0 done (failed samples listed on stderr and in the JSON line's failures), 1 some
sample failed under --fail-on-failure, 2 misuse or a failure that ends the run (a replay miss,
an endpoint that cannot be reached, an exhausted quota, no API key), 130 interrupted.

The API key comes from $CROSSCHECK_LLM_API_KEY or $OPENAI_API_KEY (never from the command line,
where it would land in shell history and process lists).
`;

const num = (option: string, raw: string | undefined): number | undefined =>
  flagNumber('crosscheck sample', option, raw);

const required = (name: string, value: string | undefined, example: string): string => {
  if (value === undefined || value === '') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `crosscheck sample: --${name} is required, e.g. --${name} ${example}.`,
      {
        where: `crosscheck sample --${name}`,
      },
    );
  }
  return value;
};

/** An argument as the shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

const firstLine = (message: string): string => {
  const line = message.split('\n')[0] as string;
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
};

/**
 * `crosscheck bench` over what was written, with the task selection of this run: without
 * `--tasks` and `--limit` the bench would also measure the tasks left unsampled (the output keeps
 * the dataset's whole task file) and report each as not run for want of candidates.
 */
const benchCommand = (out: string, v: Record<string, string | undefined>): string =>
  [
    'crosscheck bench --data',
    shellWord(out),
    ...(v.tasks !== undefined ? ['--tasks', shellWord(v.tasks)] : []),
    ...(v.limit !== undefined ? ['--limit', shellWord(v.limit)] : []),
  ].join(' ');

/**
 * The fix of a replay miss as the command the user ran: the same arguments in mode read-write
 * (the environment variable wins over --cache, so it is the one set).
 */
const recordFix = (argv: readonly string[]): string => {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--cache') {
      i++;
      continue;
    }
    if (a.startsWith('--cache=')) continue;
    args.push(shellWord(a));
  }
  return (
    'Fix: record it where the model is reachable (with the API key in CROSSCHECK_LLM_API_KEY), then commit the cache directory:\n' +
    `       CROSSCHECK_LLM_CACHE=read-write crosscheck sample ${args.join(' ')}`
  );
};

const eta = (p: SampleProgress): string => {
  if (p.done === 0) return '…';
  const s = Math.round(((p.total - p.done) * p.elapsedMs) / p.done / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
};

/**
 * `crosscheck sample ...`; returns the exit code (0 done, 1 failed samples under
 * `--fail-on-failure`, 2 misuse or a failure that ends the run, 130 interrupted).
 */
export const runSampleCommand = async (argv: readonly string[]): Promise<number> => {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseFlags('crosscheck sample', {
      args: [...argv],
      options: {
        data: { type: 'string' },
        models: { type: 'string' },
        n: { type: 'string' },
        out: { type: 'string', short: 'o' },
        prompt: { type: 'string' },
        language: { type: 'string' },
        tasks: { type: 'string' },
        limit: { type: 'string' },
        'base-url': { type: 'string' },
        temperature: { type: 'string' },
        'max-tokens': { type: 'string' },
        cache: { type: 'string' },
        'cache-dir': { type: 'string' },
        concurrency: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'max-retries': { type: 'string' },
        'fail-on-failure': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(
      `${neutralizeControls((error as Error).message, { newlines: true })}\n\n${SAMPLE_USAGE}`,
    );
    return 2;
  }
  if (values.help) {
    process.stdout.write(SAMPLE_USAGE);
    return 0;
  }
  const controller = new AbortController();
  // Every concurrent request listens to this one signal; more than ten is by design, not a leak.
  setMaxListeners(0, controller.signal);
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(
      '\ncrosscheck sample: interrupted; what was drawn is in the cache (Ctrl-C again to quit now)\n',
    );
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  try {
    const v = values as Record<string, string | undefined>;
    const temperature = num('temperature', v.temperature);
    const maxTokens = num('max-tokens', v['max-tokens']);
    const maxRetries = num('max-retries', v['max-retries']);
    const result = await sampleDataset({
      data: required('data', v.data, './humaneval'),
      models: commaList(required('models', v.models, 'gpt-4o-mini')) ?? [],
      n: num('n', required('n', v.n, '10')) as number,
      out: required('out', v.out, 'samples/'),
      prompt: v.prompt as 'crosscheck' | 'difftrust' | undefined,
      language: v.language as 'python' | undefined,
      tasks: commaList(v.tasks),
      limit: num('limit', v.limit),
      llm: {
        baseURL: v['base-url'],
        sampling: {
          ...(temperature !== undefined ? { temperature } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
        },
        cache: { mode: v.cache as CacheMode | undefined, dir: v['cache-dir'] },
        maxConcurrency: num('concurrency', v.concurrency),
        timeoutMs: num('timeout-ms', v['timeout-ms']),
        retry: maxRetries === undefined ? undefined : { maxRetries },
        onWarning: (m) => process.stderr.write(`${neutralizeControls(m, { newlines: true })}\n`),
      },
      signal: controller.signal,
      onProgress: (p) => {
        const now = Date.now();
        if (p.done < p.total && now - lastLine < (tty ? 100 : 5000)) return;
        lastLine = now;
        const line = `sampled ${p.done}/${p.total} (${Math.floor((100 * p.done) / p.total)}%) · ${p.live} live, ${p.replayed} replayed, ${p.failed} failed · ${p.retries} retries · ETA ${eta(p)}`;
        process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
      },
    });
    if (tty) process.stderr.write('\n');
    const cost = (c: number | null) => (c === null ? 'unpriced' : `$${c.toFixed(4)}`);
    const perTask = result.samples / Math.max(1, result.tasks * result.models.length);
    const failures = result.failures;
    process.stderr.write(
      `wrote ${result.out}: ${result.tasks} tasks × ${result.models.length} models × ${perTask} samples; ` +
        `${result.live.calls} live (${cost(result.live.costUsd)}), ${result.replayed.calls} replayed, ` +
        `${failures.length} failed sample${failures.length === 1 ? '' : 's'}` +
        `${result.failed.calls > 0 ? ` (${result.failed.calls} failed draw${result.failed.calls === 1 ? '' : 's'}, ${cost(result.failed.costUsd)} reported)` : ''}; ` +
        `${result.requests} requests, ${result.retries} retries\n`,
    );
    if (failures.length > 0) {
      const shown = failures.slice(0, 10);
      process.stderr.write(
        `failed samples (left out of the candidates files, listed under each task's "failed"):\n${shown
          .map((f) =>
            neutralizeControls(`  ${f.model} task ${f.taskId} sample ${f.sample}: ${firstLine(f.message)}`),
          )
          .join(
            '\n',
          )}\n${failures.length > shown.length ? `  … and ${failures.length - shown.length} more (all in the JSON line's failures)\n` : ''}`,
      );
    }
    process.stderr.write(`next: ${benchCommand(result.out, v)}\n`);
    process.stdout.write(
      `${JSON.stringify({
        out: result.out,
        tasks: result.tasks,
        models: result.models,
        samples: result.samples,
        requests: result.requests,
        retries: result.retries,
        retriesByReason: result.retriesByReason,
        live: result.live,
        replayed: result.replayed,
        failed: result.failed,
        unpriced: result.unpriced,
        failures: result.failures,
      })}\n`,
    );
    return failures.length > 0 && values['fail-on-failure'] === true ? 1 : 0;
  } catch (error) {
    if (tty) process.stderr.write('\n');
    if (!isCrosscheckError(error)) throw error;
    const facts = replayMissFacts(error);
    const text = facts === undefined ? error.message : `${facts}\n${recordFix(argv)}`;
    process.stderr.write(`${neutralizeControls(text, { newlines: true })}\n`);
    return error.code === 'ABORTED' ? 130 : 2;
  } finally {
    process.off('SIGINT', onSigint);
  }
};
