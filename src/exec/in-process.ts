import { setMaxListeners } from 'node:events';
import type { FunctionCandidate, PipelineHooks } from '../candidates/index.ts';
import { toErrorInfo } from '../errors/index.ts';
import { createCodec, type Tagged } from '../values/index.ts';
import type { Backend, RowJob, RunContext } from './backend.ts';
import { BUDGET_SPENT, type Outcome } from './outcome.ts';

const codec = createCodec();

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === 'object' || typeof x === 'function') &&
  x !== null &&
  typeof (x as { then?: unknown }).then === 'function';

/** Classifies what a call threw into an outcome. Shared logic mirrors the sandbox harness. */
export const thrownOutcome = (thrown: unknown, invalid: readonly string[]): Outcome => {
  const { name, message } = toErrorInfo(thrown);
  if (name === 'RangeError' && /call stack/i.test(message))
    return { kind: 'error', name: 'StackOverflow', message };
  return invalid.includes(name) ? { kind: 'invalid', name, message } : { kind: 'error', name, message };
};

const settle = async (
  p: PromiseLike<unknown>,
  timeoutMs: number,
): Promise<{ ok: true; value: unknown } | { ok: false; thrown: unknown } | null> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve(p).then(
        (value) => ({ ok: true as const, value }),
        (thrown: unknown) => ({ ok: false as const, thrown }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The outcome of one pipeline call's result. A pipeline that returns `undefined` almost always
 * forgot to return its parsed value; it gets an error outcome that says so rather than a value
 * every such sample would agree on.
 */
const pipelineOutcome = (
  result: Exclude<Awaited<ReturnType<PipelineHooks['invoke']>>, { kind: 'fatal' }>,
  ctx: RunContext,
  invalid: readonly string[],
): Outcome => {
  if (result.kind === 'timeout') return { kind: 'timeout', reason: 'call', ms: result.ms };
  if (result.kind === 'failed') return { kind: 'crash', reason: result.reason };
  if (result.kind === 'thrown') return thrownOutcome(result.thrown, invalid);
  if (result.value === undefined) {
    return {
      kind: 'error',
      name: 'PipelineReturnedUndefined',
      message: 'the pipeline returned undefined: return the parsed value (null for "no answer").',
    };
  }
  try {
    return ctx.valueOutcome(codec.encode(result.value, { maxBytes: ctx.limits.maxOutputBytes }));
  } catch (thrown) {
    return thrown instanceof codec.EncodeFailure
      ? { kind: 'error', name: thrown.name, message: thrown.message }
      : thrownOutcome(thrown, invalid);
  }
};

/**
 * Pipeline samples: every call at once, bounded by the pipeline's own concurrency limit and
 * per-call timeout (model calls wait on the network, not the CPU). Samples that share an
 * equivalence judge run input by input: once all have answered an input, the judge clusters
 * their values and each is recorded as its cluster's value. A fatal result (a replay miss)
 * aborts the calls still running and ends the run with that error.
 */
const runPipelines = async (rows: readonly RowJob[], ctx: RunContext): Promise<void> => {
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  // Every pipeline call in flight listens to it (up to the pipelines' concurrency limits).
  setMaxListeners(0, signal);
  let fatal: Error | null = null;
  const end = (error: Error) => {
    fatal ??= error;
    stop.abort(error);
  };
  const hooksOf = (job: RowJob) => (job.candidate as FunctionCandidate).pipeline as PipelineHooks;
  const groups = new Map<object, RowJob[]>();
  for (const job of rows) {
    const key = hooksOf(job).group ?? hooksOf(job);
    groups.set(key, [...(groups.get(key) ?? []), job]);
  }
  const oneInput = async (jobs: readonly RowJob[], i: number): Promise<void> => {
    const args = () => codec.decode(ctx.inputs[i] as Tagged) as unknown[];
    const results = await Promise.all(
      jobs.map(async ({ row, candidate }) => {
        const started = performance.now();
        const result = await hooksOf({ row, candidate }).invoke(args(), signal);
        ctx.stats(row).durationMs += performance.now() - started;
        // At once, not when every sample of the group has answered this input (samples that
        // share a judge wait for each other): the calls in flight are aborted now, not left to
        // run to their timeout.
        if (result.kind === 'fatal') end(result.error);
        return result;
      }),
    );
    if (fatal !== null || ctx.signal?.aborted) return;
    const outcomes = results.map((r, k) =>
      pipelineOutcome(
        r as Exclude<typeof r, { kind: 'fatal' }>,
        ctx,
        ctx.invalidNames((jobs[k] as RowJob).candidate),
      ),
    );
    const group = hooksOf(jobs[0] as RowJob).group;
    if (group) {
      const at = outcomes.flatMap((o, k) => (o.kind === 'value' ? [k] : []));
      const input = args();
      let placed: Awaited<ReturnType<typeof group.canonicalize>>;
      try {
        placed = await group.canonicalize(
          input.length === 1 ? input[0] : input,
          at.map((k) => (outcomes[k] as { value: unknown }).value),
          signal,
        );
      } catch (error) {
        end(error as Error);
        return;
      }
      at.forEach((k, j) => {
        const p = placed[j];
        outcomes[k] =
          p === undefined || 'undecided' in p
            ? { kind: 'crash', reason: 'the equivalence judge gave no verdict that places this output' }
            : pipelineOutcome({ kind: 'value', value: p.value }, ctx, []);
      });
    }
    outcomes.forEach((o, k) => {
      const { row } = jobs[k] as RowJob;
      if (o.kind === 'timeout') ctx.stats(row).timeouts++;
      ctx.record(row, i, o);
    });
  };
  await Promise.all([...groups.values()].flatMap((jobs) => ctx.inputs.map((_, i) => oneInput(jobs, i))));
  if (fatal !== null) throw fatal;
};

/**
 * Trusted functions, called in this process. Each call decodes its own copy of the input, so a
 * function that mutates its arguments cannot affect the others. A synchronous infinite loop here
 * cannot be interrupted: trusted code is trusted.
 */
export const inProcessBackend: Backend = {
  async run(rows: readonly RowJob[], ctx: RunContext): Promise<void> {
    const { maxOutputBytes, timeoutMs, candidateTimeMs } = ctx.limits;
    const pipelines = rows.filter((r) => (r.candidate as FunctionCandidate).pipeline !== undefined);
    const piped = runPipelines(pipelines, ctx);
    // Awaited below; handled now so a fatal end while trusted functions still run is not "unhandled".
    piped.catch(() => undefined);
    for (const { row, candidate } of rows) {
      if ((candidate as FunctionCandidate).pipeline !== undefined) continue;
      const fn = (candidate as FunctionCandidate).fn as (...args: unknown[]) => unknown;
      const invalid = ctx.invalidNames(candidate);
      const stats = ctx.stats(row);
      const started = performance.now();
      for (let i = 0; i < ctx.inputs.length; i++) {
        if (ctx.signal?.aborted) return;
        if (performance.now() - started > candidateTimeMs) {
          stats.budgetSpent = true;
          for (; i < ctx.inputs.length; i++) ctx.record(row, i, BUDGET_SPENT);
          break;
        }
        const args = codec.decode(ctx.inputs[i] as Tagged) as unknown[];
        let outcome: Outcome;
        try {
          let result = fn(...args);
          if (isThenable(result)) {
            const settled = await settle(result, timeoutMs);
            if (settled === null) {
              stats.timeouts++;
              ctx.record(row, i, { kind: 'timeout', reason: 'call', ms: timeoutMs });
              continue;
            }
            if (!settled.ok) throw settled.thrown;
            result = settled.value;
          }
          outcome = ctx.valueOutcome(codec.encode(result, { maxBytes: maxOutputBytes }));
        } catch (thrown) {
          outcome =
            thrown instanceof codec.EncodeFailure
              ? { kind: 'error', name: thrown.name, message: thrown.message }
              : thrownOutcome(thrown, invalid);
        }
        ctx.record(row, i, outcome);
      }
      stats.durationMs += performance.now() - started;
    }
    await piped;
  },
};
