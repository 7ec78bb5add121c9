import {
  fromSources,
  type LlmProvenance,
  type SourceCandidate,
  type SourceLanguage,
} from '../candidates/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { SAMPLE_CANDIDATES_KEYS } from './options.ts';
import { codegenMessages, entryOf } from './prompts.ts';
import type { ChatMessage, Llm, SampleCandidatesOptions } from './types.ts';

const LANGUAGES: readonly SourceLanguage[] = ['javascript', 'typescript', 'python'];

/** `llm.sampleCandidates(task, opts)`: n source candidates with provenance. */
export const sampleWith = async (
  llm: Llm,
  task: Task,
  opts: SampleCandidatesOptions,
): Promise<SourceCandidate[]> => {
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
  const { n, language, start = 0, prompt = 'crosscheck' } = opts;
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
  let messages: readonly ChatMessage[];
  if (typeof prompt === 'function') {
    messages = prompt(task, language);
  } else {
    messages = codegenMessages(task, language, prompt);
  }
  const completions = await llm.draw(
    { messages, sampling: opts.sampling, purpose: 'codegen', label: `task ${task.name} (${language})` },
    { samples: n, start, signal: opts.signal },
  );
  const temperature = opts.sampling?.temperature ?? llm.sampling.temperature;
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
  const built = fromSources(sources, { language, entry });
  return built.map((cand, i) => {
    const c = completions[i];
    if (c === undefined) return cand;
    const llmInfo: LlmProvenance = {
      provider: c.provider,
      model: c.model,
      servedModel: c.servedModel,
      key: c.key,
      sample: c.sample,
      cached: c.cached,
      finishReason: c.finishReason,
      truncated: c.finishReason === 'length',
      usage: c.usage,
      costUsd: c.costUsd,
      retries: c.retries,
      purpose: c.purpose,
    };
    return Object.freeze({ ...cand, llm: Object.freeze(llmInfo) });
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
  const llm = (options as { llm?: unknown } | undefined)?.llm as Llm | undefined;
  if (typeof llm !== 'object' || llm === null || typeof llm.sampleCandidates !== 'function') {
    return Promise.reject(
      new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`llm\` must be a client from createLlm(...), got ${describeValue(llm)}.`,
        {
          where: `${where}: llm`,
        },
      ),
    );
  }
  try {
    checkKeys({ where }, options, FROM_MODEL_KEYS);
  } catch (error) {
    return Promise.reject(error);
  }
  const { llm: _, ...rest } = options;
  return llm.sampleCandidates(task, rest);
};
