import type { LlmProvenance, LlmUsage, SourceCandidate, SourceLanguage } from '../candidates/index.ts';
import type { Task } from '../task/index.ts';

/** Any JSON value. @public */
export type LlmJson = null | boolean | number | string | LlmJson[] | { [key: string]: LlmJson };

/**
 * How the cache is used: `read-write` replays what is recorded and records what is missing;
 * `replay-only` replays and throws `LLM_REPLAY_MISS` on a miss; `refresh` always calls and
 * replaces; `off` always calls and records nothing.
 * @public
 */
export type CacheMode = 'read-write' | 'replay-only' | 'refresh' | 'off';

/** Who chose the cache mode: `CROSSCHECK_LLM_CACHE`, the option, the `CI` default, or the default. @public */
export type CacheModeSource = 'env' | 'option' | 'ci' | 'default';

/** What a call is for; not part of the cache key, sent as `x-crosscheck-purpose`. @public */
export type Purpose =
  | 'codegen'
  | 'scenarios'
  | 'properties'
  | 'inputs'
  | 'repair'
  | 'judge'
  | 'baseline'
  | 'other';

/** One chat message. @public */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Sampling parameters; every one is part of the cache key. @public */
export interface SamplingOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: readonly string[];
  /** Base seed: sample i sends a seed derived from it and i, so seeded repeats still differ. */
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  logprobs?: boolean;
  topLogprobs?: number;
  responseFormat?: LlmJson;
  /** Extra body fields for the server (vLLM's `top_k`, ...). */
  extra?: Readonly<Record<string, LlmJson>>;
}

/** A request to the model. @public */
export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Merged over the client's `sampling`. */
  readonly sampling?: SamplingOptions;
  /** @defaultValue 'other' */
  readonly purpose?: Purpose;
  /** What the request is for, in words (`task median (python)`); shown in messages, not keyed. */
  readonly label?: string;
  /**
   * The name of the function a codegen request asks for (`median`); not keyed. A replay miss
   * then shows the nearest recorded request among those that name the same function, never one
   * of an unrelated task.
   */
  readonly task?: string;
}

/** USD per million tokens. @public */
export interface Price {
  readonly input: number;
  /** Price of prompt tokens served from the provider's prompt cache; @defaultValue input */
  readonly cachedInput?: number;
  readonly output: number;
}

/** Prices by exact model name or a glob ending in `*` (`gpt-4o-mini*`). @public */
export type Prices = Readonly<Record<string, Price>>;

/** Options of {@link createLlm}; every one is optional. @public */
export interface LlmOptions {
  /** Model as the endpoint names it. @defaultValue $CROSSCHECK_LLM_MODEL (one of the two is required) */
  model?: string;
  /**
   * OpenAI-compatible base URL ending in `/v1` (OpenAI, vLLM, Ollama, llama.cpp).
   * @defaultValue $CROSSCHECK_LLM_BASE_URL, then $OPENAI_BASE_URL, then https://api.openai.com/v1
   */
  baseURL?: string;
  /**
   * Never written anywhere. @defaultValue $CROSSCHECK_LLM_API_KEY, then $OPENAI_API_KEY; a
   * placeholder for non-OpenAI URLs
   */
  apiKey?: string;
  /** Names the endpoint in cache keys. @defaultValue `openai`, or host/path of baseURL (loopback as `localhost`, no port) */
  provider?: string;
  /** Sampling parameters sent with every request (all part of the key). */
  sampling?: SamplingOptions;
  /**
   * `repeat`: one request per sample (works everywhere). `server-n`: one request with `n`, the
   * shortfall drawn one by one when a server ignores `n`.
   * @defaultValue 'repeat'
   */
  strategy?: 'repeat' | 'server-n';
  /** `false` is mode `off`. */
  cache?: { dir?: string; mode?: CacheMode } | false;
  /** Requests in flight per client. @defaultValue 4 (or $CROSSCHECK_LLM_MAX_CONCURRENCY) */
  maxConcurrency?: number;
  /** Per attempt. @defaultValue 120000 */
  timeoutMs?: number;
  /** @defaultValue { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 } */
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number; maxRetryAfterMs?: number };
  /** A table, or a path to a JSON file of one. @defaultValue $CROSSCHECK_LLM_PRICES, then the built-in table */
  prices?: Prices | string;
  /** Sent with every request, never cached. */
  headers?: Readonly<Record<string, string>>;
  /** Largest reply body accepted, in bytes; a larger one is a bad reply. @defaultValue 8 MiB */
  maxReplyBytes?: number;
  /** Where warnings go. @defaultValue process.emitWarning */
  onWarning?: (message: string) => void;
}

/** One completed sample. @public */
export interface Completion {
  readonly text: string;
  readonly finishReason: string | null;
  readonly usage: LlmUsage;
  /**
   * Replayed from the cache, with no request sent. False whenever a request left the process for
   * this sample, even when the text is the recorded one (another writer recorded the sample
   * first): `usage` and `costUsd` are then of the request this process paid for.
   */
  readonly cached: boolean;
  readonly key: string;
  readonly sample: number;
  /** As requested. */
  readonly model: string;
  /** As served, or null. */
  readonly servedModel: string | null;
  readonly provider: string;
  readonly purpose: Purpose;
  readonly costUsd: number | null;
  readonly retries: number;
  /** Path of the cache entry, or null in mode `off`. */
  readonly file: string | null;
}

/** One call in the ledger. @public */
export interface LlmCall {
  /** `key/sample`: the same sample is the same call wherever it is counted. */
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  readonly purpose: Purpose;
  /** A request left the process for it (tokens and cost were spent today). */
  readonly live: boolean;
  /**
   * A live request whose reply could not be used (too large, not JSON, no choices, an HTTP
   * error after the retries): paid for, or not, but never a sample. Tokens are counted when the
   * server reported them.
   */
  readonly failed?: boolean;
  readonly prompt: number | null;
  readonly cachedPrompt: number | null;
  readonly completion: number | null;
  readonly costUsd: number | null;
  readonly retries: number;
}

/** Sums over calls. `costUsd` is null when no call was priced. @public */
export interface UsageTotals {
  readonly calls: number;
  readonly prompt: number;
  readonly cachedPrompt: number;
  readonly completion: number;
  readonly costUsd: number | null;
  /** Calls with no price (their tokens are still counted). */
  readonly unpricedCalls: number;
  /** Calls whose server reported no usage. */
  readonly unreportedCalls: number;
  readonly retries: number;
}

/** Every call a client made. @public */
export interface UsageLedger {
  readonly calls: readonly LlmCall[];
  /** A position to pass to {@link UsageLedger.since}. */
  mark(): number;
  since(mark: number): readonly LlmCall[];
  totals(calls?: readonly LlmCall[]): {
    live: UsageTotals;
    replayed: UsageTotals;
    failed: UsageTotals;
    unpriced: string[];
  };
}

/** Options of {@link Llm.sampleCandidates} and `candidates.fromModel`. @public */
export interface SampleCandidatesOptions {
  /** How many samples. */
  n: number;
  language: SourceLanguage;
  /** First sample index; samples are start..start+n-1. @defaultValue 0 */
  start?: number;
  /** @defaultValue 'crosscheck' */
  prompt?: PromptTemplate | ((task: Task, language: SourceLanguage) => readonly ChatMessage[]);
  sampling?: SamplingOptions;
  signal?: AbortSignal;
}

/** The built-in prompt templates. @public */
export type PromptTemplate = 'crosscheck' | 'difftrust';

/** An LLM client with a cache, retries and a usage ledger. @public */
export interface Llm {
  /** The resolved model and endpoint name (no key). */
  readonly model: string;
  readonly provider: string;
  readonly baseURL: string;
  /** The client's sampling parameters (each request may override them). */
  readonly sampling: Readonly<SamplingOptions>;
  readonly cacheMode: { readonly mode: CacheMode; readonly source: CacheModeSource; readonly dir: string };
  readonly ledger: UsageLedger;
  /** Sample `sample` (default 0) of one request. */
  chat(request: ChatRequest, opts?: { sample?: number; signal?: AbortSignal }): Promise<Completion>;
  /** Samples start..start+samples-1 of one request, in order. */
  draw(
    request: ChatRequest,
    opts: { samples: number; start?: number; signal?: AbortSignal },
  ): Promise<Completion[]>;
  /** Source candidates for a task, tagged with model, temperature, sample and provenance. */
  sampleCandidates(task: Task, opts: SampleCandidatesOptions): Promise<SourceCandidate[]>;
  /** The HTTP requests this client sent, attempts included (live traffic only). */
  readonly stats: {
    readonly requests: number;
    readonly retries: number;
    readonly retriesByReason: Readonly<Record<string, number>>;
  };
}

export type { LlmProvenance, LlmUsage };
