import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type {
  CandidateTags,
  FunctionCandidate,
  LlmProvenance,
  PipelineCallResult,
  PipelineHooks,
} from '../candidates/index.ts';
import {
  CrosscheckError,
  checkKeys,
  describeValue,
  isCrosscheckError,
  knownKeys,
  readLabel,
  readMs,
  readPositiveInt,
  readTags,
} from '../errors/index.ts';
import type { JudgedEquivalence } from './judged-equivalence.ts';
import { Limiter } from './limiter.ts';
import { provenanceOf } from './provenance.ts';
import { requireLlm } from './require-llm.ts';
import type { ChatMessage, ChatRequest, Completion, Llm } from './types.ts';

/**
 * The model as one sample of a pipeline sees it: every call is sample `sample` of its request,
 * so the cache keeps the n samples apart and a replay gives each the reply it had when recorded.
 * @public
 */
export interface PipelineLlm {
  /** The sample index this handle is bound to. */
  readonly sample: number;
  /** The model as requested. */
  readonly model: string;
  /**
   * Aborted when the call times out, the run is aborted, or another sample's call meets an error
   * that ends the run (a replay miss); pass it on to your own I/O. The run does not wait for a
   * call whose signal was aborted.
   */
  readonly signal: AbortSignal;
  /** One completion of `request`, sample {@link PipelineLlm.sample}. */
  chat(request: ChatRequest): Promise<Completion>;
  /** The reply's text to `messages` (or to one user message), sample {@link PipelineLlm.sample}. */
  complete(
    messages: string | readonly ChatMessage[],
    request?: Omit<ChatRequest, 'messages'>,
  ): Promise<string>;
}

/**
 * A pipeline: builds a prompt from the input, calls the model through `llm`, parses the reply
 * and returns a value. A task of one argument passes that argument; a task of several passes
 * them as an array.
 * @public
 */
export type Pipeline<I = never, R = unknown> = (input: I, llm: PipelineLlm) => R | Promise<R>;

/** Options of {@link fromPipeline}. @public */
export interface FromPipelineOptions {
  /** The client every sample calls through (`createLlm(...)`). */
  llm: Llm;
  /** How many samples of the pipeline: candidates 0..n-1, each bound to its sample index. */
  n: number;
  /** The first sample index; samples are start..start+n-1. @defaultValue 0 */
  start?: number;
  /** Pipeline calls in flight at once, over all n samples. @defaultValue 4 */
  concurrency?: number;
  /**
   * Per call, from its start (not its wait for a slot): past it the call's signal is aborted and
   * its outcome is `timeout`, the run goes on. Wall time: a pipeline waits on the network.
   * @defaultValue 120000
   */
  timeoutMs?: number;
  /** Prefix of the labels (`label#i`). @defaultValue the function's name, then the model */
  label?: string;
  /** Tags put on every sample, besides `model`, `sample` and the client's `temperature`. */
  tags?: CandidateTags;
  /**
   * Outputs with many right spellings that no fixed comparator captures: a judge
   * (`judgedEquivalence(...)`) clusters the samples' outputs on each input, and records say so.
   */
  equivalence?: JudgedEquivalence;
}

const KEYS = knownKeys<FromPipelineOptions>({
  llm: true,
  n: true,
  start: true,
  concurrency: true,
  timeoutMs: true,
  label: true,
  tags: true,
  equivalence: true,
});

const WHERE = 'candidates.fromPipeline(fn, { llm, n })';

/**
 * Errors that every other call would meet the same way, so no outcome can stand for them: a
 * replay miss (nothing recorded to replay), a missing key or model, an exhausted quota, a broken
 * cache. They end the run.
 */
const FATAL_CODES = new Set(['LLM_REPLAY_MISS', 'LLM_CONFIG', 'LLM_QUOTA', 'LLM_CACHE_CORRUPT']);

class PipelineTimeout extends Error {
  override name = 'PipelineTimeout';
}

/** One call of one sample: its handle, what it has seen go fatally wrong, and how it ends. */
const callOnce = async (
  fn: Pipeline<unknown>,
  llm: Llm,
  sample: number,
  args: readonly unknown[],
  timeoutMs: number,
  outer: AbortSignal | undefined,
  record: (c: Completion) => void,
): Promise<PipelineCallResult> => {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  let fatal: Error | null = null;
  let failed: string | null = null;
  // Settles the call before the pipeline does: on a fatal error (the run ends anyway) or when the
  // run is aborted (another sample's replay miss, the caller's signal), as the timeout does, so a
  // pipeline that catches the error or does not pass its signal on cannot hold the run.
  // Why it gave up is read after the race: `fatal` set means a fatal error, else the abort.
  let giveUp = (): void => {};
  const givenUp = new Promise<'given up'>((resolve) => {
    giveUp = () => resolve('given up');
  });
  const onAbort = () => giveUp();
  outer?.addEventListener('abort', onAbort, { once: true });
  const chat = async (request: ChatRequest): Promise<Completion> => {
    try {
      const c = await llm.chat(request, { sample, signal });
      record(c);
      return c;
    } catch (error) {
      // Kept even if the pipeline catches it: a swallowed replay miss must still end the run.
      if (isCrosscheckError(error) && FATAL_CODES.has(error.code)) {
        fatal ??= error;
        giveUp();
      } else if (isCrosscheckError(error) && error.code !== 'ABORTED') failed ??= error.message;
      throw error;
    }
  };
  const handle: PipelineLlm = Object.freeze({
    sample,
    model: llm.model,
    signal,
    chat,
    complete: async (messages: string | readonly ChatMessage[], request = {}) => {
      const list: readonly ChatMessage[] =
        typeof messages === 'string' ? [{ role: 'user', content: messages }] : messages;
      return (await chat({ ...request, messages: list })).text;
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new PipelineTimeout(`the pipeline call exceeded ${timeoutMs} ms`));
      resolve('timeout');
    }, timeoutMs);
  });
  const input = args.length === 1 ? args[0] : [...args];
  try {
    const settled = await Promise.race([
      Promise.resolve()
        .then(() => fn(input, handle))
        .then(
          (value) => ({ kind: 'value' as const, value }),
          (thrown: unknown) => ({ kind: 'thrown' as const, thrown }),
        ),
      timedOut,
      givenUp,
    ]);
    if (fatal !== null) return { kind: 'fatal', error: fatal };
    if (settled === 'timeout') return { kind: 'timeout', ms: timeoutMs };
    if (settled === 'given up') return { kind: 'thrown', thrown: outer?.reason };
    // A pipeline that threw after its model call failed did not answer: the cell is unknown.
    if (settled.kind === 'thrown' && failed !== null)
      return { kind: 'failed', reason: `a model call failed: ${failed}` };
    return settled;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
    controller.abort();
  }
};

const shortHash = (...parts: string[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 12);
};

/**
 * n candidates from one pipeline: candidate i runs `fn(input, llm_i)`, where `llm_i` calls the
 * model as sample i, so each sample is cached on its own and a CI replay is exact. The samples
 * are trusted code run in this process, concurrently (at most `concurrency` calls at once), each
 * call with its own timeout and abort signal. They work wherever candidates do (`measure`,
 * `detect`, `coherenceProperty`, every matcher); their tokens and cost go into the records.
 *
 * A call that throws has an `error` outcome, one that returns `undefined` an `error` named
 * `PipelineReturnedUndefined`, one that does not settle in time a `timeout`; a replay miss (or a
 * missing key, an exhausted quota) ends the run with its error at once, aborting the other calls
 * in flight, and so does aborting the run's signal (with `RunAbortedError`).
 * @public
 */
export const fromPipeline = <I = never, R = unknown>(
  fn: Pipeline<I, R>,
  options: FromPipelineOptions,
): FunctionCandidate[] => {
  if (typeof fn !== 'function') {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${WHERE}: \`fn\` must be a function (input, llm) => value, got ${describeValue(fn)}.`,
      { where: WHERE },
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: expected options { llm, n }, got ${describeValue(options)}.`,
      { where: WHERE },
    );
  }
  checkKeys({ where: WHERE }, options, KEYS);
  const llm = requireLlm(WHERE, options.llm, 'chat');
  const at = (field: string) => ({ where: WHERE, field });
  const n = readPositiveInt(at('n'), options.n);
  const start = readPositiveInt(at('start'), options.start, 0, 0);
  const concurrency = readPositiveInt(at('concurrency'), options.concurrency, 4);
  const timeoutMs = readMs(at('timeoutMs'), options.timeoutMs, 120_000);
  const tags = readTags(at('tags'), options.tags);
  const prefix = readLabel(at('label'), options.label) ?? (fn.name || llm.model);
  const temperature = llm.sampling.temperature;
  const limiter = new Limiter(concurrency);
  const source = fn.toString();
  const equivalence = options.equivalence;
  if (
    equivalence !== undefined &&
    (equivalence as Partial<JudgedEquivalence>)?.kind !== 'judged-equivalence'
  ) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`equivalence\` must come from judgedEquivalence({ llm, specification }), got ${describeValue(equivalence)}.`,
      { where: `${WHERE}: equivalence` },
    );
  }
  return Array.from({ length: n }, (_, i) => {
    const sample = start + i;
    const calls = new Map<string, LlmProvenance>();
    const record = (c: Completion) => {
      const id = `${c.key}/${c.sample}`;
      if (!calls.has(id)) calls.set(id, provenanceOf(c));
    };
    const invoke = (args: readonly unknown[], signal: AbortSignal | undefined): Promise<PipelineCallResult> =>
      limiter.run(async () => {
        if (signal?.aborted) return { kind: 'thrown', thrown: signal.reason };
        return callOnce(fn as Pipeline<unknown>, llm, sample, args, timeoutMs, signal, record);
      });
    const hooks: PipelineHooks = Object.freeze({
      invoke,
      calls: () => [...calls.values()],
      ...(equivalence ? { group: equivalence.group } : {}),
    });
    const label = `${prefix}#${sample}`;
    return Object.freeze({
      kind: 'function' as const,
      id: shortHash('pipeline', label, llm.provider, llm.model, String(sample), source),
      label,
      tags: Object.freeze({
        ...tags,
        model: llm.model,
        ...(temperature !== undefined ? { temperature } : {}),
        sample,
      }),
      // Called directly (outside a run), a sample behaves like the pipeline: it returns the
      // value or throws what the pipeline threw.
      fn: async (...args: never[]) => {
        const r = await invoke(args, undefined);
        if (r.kind === 'value') return r.value;
        if (r.kind === 'thrown') throw r.thrown;
        if (r.kind === 'fatal') throw r.error;
        if (r.kind === 'failed') throw new Error(r.reason);
        throw new PipelineTimeout(`the pipeline call exceeded ${r.ms} ms`);
      },
      pipeline: hooks,
    });
  });
};
