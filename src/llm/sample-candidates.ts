import { fromSources, type SourceCandidate, type SourceLanguage } from '../candidates/index.ts';
import { CrosscheckError, checkKeys, describeValue, isCrosscheckError, knownKeys } from '../errors/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { SAMPLE_CANDIDATES_KEYS } from './options.ts';
import { codegenMessages, entryOf } from './prompts.ts';
import { provenanceOf } from './provenance.ts';
import { requireLlm } from './require-llm.ts';
import { AttemptFailure } from './transport.ts';
import type { ChatMessage, ChatRequest, Completion, Llm, SampleCandidatesOptions } from './types.ts';

const LANGUAGES: readonly SourceLanguage[] = ['javascript', 'typescript', 'python'];

/** A task's codegen request and what its candidates need, checked once for all samples. */
interface Prepared {
  readonly request: ChatRequest;
  readonly language: SourceLanguage;
  readonly entry: string;
  readonly temperature: number | undefined;
}

const prepare = (llm: Llm, task: Task, opts: SampleCandidatesOptions): Prepared => {
  const where = 'fromModel(task, { llm, n, language, prompt })';
  if (!isTask(task))
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: expected a task from defineTask(...), got ${describeValue(task)}.`,
      { where },
    );
  if (typeof opts !== 'object' || opts === null)
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected options { n, language }, got ${describeValue(opts)}.`,
      { where },
    );
  checkKeys({ where }, opts, SAMPLE_CANDIDATES_KEYS);
  const { n, language, prompt = 'crosscheck' } = opts;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`n\` must be a positive integer (how many samples), got ${describeValue(n)}.`,
      { where: `${where}: n` },
    );
  if (!LANGUAGES.includes(language))
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`language\` must be one of ${LANGUAGES.map((l) => `'${l}'`).join(', ')}, got ${describeValue(language)}.`,
      { where: `${where}: language` },
    );
  const entry = entryOf(task, where);
  const messages: readonly ChatMessage[] =
    typeof prompt === 'function' ? prompt(task, language) : codegenMessages(task, language, prompt);
  return {
    request: {
      messages,
      sampling: opts.sampling,
      purpose: 'codegen',
      label: `task ${task.name} (${language})`,
      task: entry,
    },
    language,
    entry,
    temperature: opts.sampling?.temperature ?? llm.sampling.temperature,
  };
};

/** Candidates of completions, tagged with model, sample and temperature, carrying their provenance. */
const candidatesOf = (llm: Llm, p: Prepared, completions: readonly Completion[]): SourceCandidate[] => {
  const { temperature } = p;
  const sources = completions.map((c) => ({
    source: c.text,
    label: `${llm.model}#${c.sample}`,
    tags: {
      model: llm.model,
      sample: c.sample,
      ...(temperature !== undefined ? { temperature } : {}),
      ...(c.finishReason === 'length' ? { truncated: true } : {}),
    },
  }));
  const built = fromSources(sources, { language: p.language, entry: p.entry });
  return built.map((cand, i) => {
    const c = completions[i];
    if (c === undefined) return cand;
    return Object.freeze({ ...cand, llm: provenanceOf(c) });
  });
};

/** `llm.sampleCandidates(task, opts)`: n source candidates with provenance. */
export const sampleWith = async (
  llm: Llm,
  task: Task,
  opts: SampleCandidatesOptions,
): Promise<SourceCandidate[]> => {
  const p = prepare(llm, task, opts);
  const completions = await llm.draw(p.request, {
    samples: opts.n,
    start: opts.start ?? 0,
    signal: opts.signal,
  });
  return candidatesOf(llm, p, completions);
};

/** Why one sample gave no candidate. */
export type SampleFailureReason = 'bad-reply' | 'request-failed' | 'no-code';

/** One sample of a settled draw: its candidate, or why there is none. */
export type SettledSample =
  | { readonly sample: number; readonly candidate: SourceCandidate }
  | {
      readonly sample: number;
      readonly reason: SampleFailureReason;
      readonly message: string;
    };

/**
 * Why an error is one sample's failure, or undefined when it ends the run: a reply that could not
 * be used, or an HTTP error answered for this request (a prompt over the context length, a 500
 * that outlived the retries). An endpoint that cannot be reached (refused, reset, timed out after
 * every retry), an abort, an exhausted quota, a replay miss or a missing key would fail every
 * other sample the same way, so they end the run as before.
 */
const sampleFailureOf = (error: unknown): SampleFailureReason | undefined => {
  if (!isCrosscheckError(error)) return undefined;
  if (error.code === 'LLM_BAD_REPLY') return 'bad-reply';
  const cause = (error as { cause?: unknown }).cause;
  if (error.code === 'LLM_REQUEST_FAILED' && cause instanceof AttemptFailure && cause.reason === 'status')
    return 'request-failed';
  return undefined;
};

/**
 * Like {@link sampleWith}, but each sample settles on its own: a reply that cannot be used
 * (too large, not JSON, an HTTP error after the retries, no code at all) is that sample's
 * failure, and the other samples still come back (see `sampleFailureOf` for what ends the run). Each sample is its own request through the
 * cache's single flight, so what was recorded replays and nothing is drawn twice.
 */
export const sampleSettled = async (
  llm: Llm,
  task: Task,
  opts: SampleCandidatesOptions,
): Promise<SettledSample[]> => {
  const p = prepare(llm, task, opts);
  const start = opts.start ?? 0;
  const indexes = Array.from({ length: opts.n }, (_, i) => start + i);
  const settled = await Promise.allSettled(
    indexes.map((sample) => llm.chat(p.request, { sample, signal: opts.signal })),
  );
  return settled.map((s, i): SettledSample => {
    const sample = indexes[i] as number;
    if (s.status === 'rejected') {
      const error = s.reason;
      const reason = sampleFailureOf(error);
      if (reason === undefined) throw error;
      return { sample, reason, message: (error as Error).message };
    }
    const [candidate] = candidatesOf(llm, p, [s.value]) as [SourceCandidate];
    if (candidate.code.trim() === '') {
      const why = s.value.finishReason === 'content_filter' ? ' (finish reason content_filter)' : '';
      return { sample, reason: 'no-code', message: `the reply holds no code${why}` };
    }
    return { sample, candidate };
  });
};

/** Options of {@link fromModel}. @public */
export interface FromModelOptions extends SampleCandidatesOptions {
  /** The client to sample from (`createLlm(...)`). */
  llm: Llm;
}

const FROM_MODEL_KEYS = knownKeys<FromModelOptions>({ ...SAMPLE_CANDIDATES_KEYS, llm: true });

/**
 * Samples `n` source candidates for a task from a model: the task becomes a prompt (`crosscheck`
 * for JS, TS or Python, or the incoherence paper's `difftrust`), each reply a candidate tagged
 * with model, temperature and sample index and carrying its provenance (cache key, tokens, cost).
 * Sample i is the i-th independent draw, cached on its own, so n = 20 after n = 10 reuses 0-9.
 * @public
 */
export const fromModel = (task: Task, options: FromModelOptions): Promise<SourceCandidate[]> => {
  const where = 'fromModel(task, { llm, n, language })';
  let llm: Llm;
  try {
    llm = requireLlm(where, (options as { llm?: unknown } | undefined)?.llm, 'sampleCandidates');
  } catch (error) {
    return Promise.reject(error);
  }
  try {
    checkKeys({ where }, options, FROM_MODEL_KEYS);
  } catch (error) {
    return Promise.reject(error);
  }
  const { llm: _, ...rest } = options;
  return llm.sampleCandidates(task, rest);
};
