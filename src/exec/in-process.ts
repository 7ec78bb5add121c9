import type { FunctionCandidate } from '../candidates/index.ts';
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
 * Trusted functions, called in this process. Each call decodes its own copy of the input, so a
 * function that mutates its arguments cannot affect the others. A synchronous infinite loop here
 * cannot be interrupted: trusted code is trusted.
 */
export const inProcessBackend: Backend = {
  async run(rows: readonly RowJob[], ctx: RunContext): Promise<void> {
    const { maxOutputBytes, timeoutMs, candidateTimeMs } = ctx.limits;
    for (const { row, candidate } of rows) {
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
  },
};
