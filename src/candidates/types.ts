/** Tags that describe where a candidate came from (model, temperature, sample index, ...). @public */
export type CandidateTags = Readonly<Record<string, string | number | boolean>>;

/** Languages crosscheck runs from source. @public */
export type SourceLanguage = 'javascript' | 'typescript' | 'python';

interface CandidateBase {
  /** Stable identity: derived from the code, so the same program gets the same id in every run. */
  readonly id: string;
  /** Short human name, used in messages and reports (`gpt-4o#3`, `sortAsc`). */
  readonly label: string;
  readonly tags: CandidateTags;
}

/**
 * A trusted JavaScript function called in-process: the user's own reference or an already
 * imported module. Not sandboxed.
 * @public
 */
export interface FunctionCandidate extends CandidateBase {
  readonly kind: 'function';
  readonly fn: (...args: never[]) => unknown;
  /** Set for one sample of a pipeline (`candidates.fromPipeline`): how the runner calls it. */
  readonly pipeline?: PipelineHooks;
}

/**
 * What one call of a pipeline sample came to, as the runner needs it: the value returned, what
 * was thrown, a timeout (the call was aborted), a failed model call, or a fatal error that must end the run (a
 * replay miss: every other call would miss the same way, and a result cannot stand for it).
 * @public
 */
export type PipelineCallResult =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'thrown'; readonly thrown: unknown }
  | { readonly kind: 'timeout'; readonly ms: number }
  /** The pipeline threw after a model call of its own failed (HTTP error, bad reply): unknown, not its answer. */
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'fatal'; readonly error: Error };

/**
 * How the in-process runner calls a pipeline sample: concurrently, under the pipeline's own
 * concurrency limit and per-call timeout, with the run's abort signal.
 * @public
 */
export interface PipelineHooks {
  /** Calls the sample on one input's arguments; never rejects. */
  readonly invoke: (args: readonly unknown[], signal: AbortSignal | undefined) => Promise<PipelineCallResult>;
  /** The model calls this sample has made so far (each once), for records and reporters. */
  readonly calls: () => readonly LlmProvenance[];
  /**
   * Shared by the samples of one pipeline when a judge decides equivalence: after every sample
   * ran on an input, the runner hands their values to it and records what it returns.
   */
  readonly group?: PipelineGroup;
}

/** What an equivalence judge did, for records. @public */
export interface EquivalenceSummary {
  /** The judge's model. */
  readonly judge: string;
  /** Pairs of distinct outputs judged, and how: equivalent, different, or a reply with no verdict. */
  readonly pairs: number;
  readonly equivalent: number;
  readonly different: number;
  readonly garbage: number;
  /** Judge calls that failed (HTTP error, bad reply): counted like garbage, never as equivalent. */
  readonly failed: number;
  /** Outputs the judge could not place (a garbage reply and no equivalent): unknown cells. */
  readonly undecided: number;
  /** Share of the labelled check pairs on which the judge agreed with the label; null without any. */
  readonly agreement: number | null;
  /** Labelled check pairs given. */
  readonly checked: number;
}

/** Clusters the outputs of one pipeline's samples on one input (an equivalence judge). @public */
export interface PipelineGroup {
  /**
   * For each value, the value of its cluster's first member, or `undecided`. Rejects only with
   * an error that must end the run (a replay miss of a judge call).
   */
  canonicalize(
    input: unknown,
    values: readonly unknown[],
    signal?: AbortSignal,
  ): Promise<ReadonlyArray<{ readonly value: unknown } | { readonly undecided: true }>>;
  summary(): EquivalenceSummary;
  /** The judge's model calls so far. */
  calls(): readonly LlmProvenance[];
}

/** A problem found before running: every call of such a candidate gets this as its `error` outcome. @public */
export interface CandidateProblem {
  readonly name: 'CompileError' | 'EntryNotFound';
  readonly message: string;
}

/**
 * Token counts of one model call. A count the server did not report is `null` ("not reported"),
 * never 0.
 * @public
 */
export interface LlmUsage {
  readonly prompt: number | null;
  /** Prompt tokens served from the provider's prompt cache (a subset of `prompt`). */
  readonly cachedPrompt: number | null;
  readonly completion: number | null;
  /** Reasoning tokens (a subset of `completion`). */
  readonly reasoning: number | null;
  /** True when one server-side `n` request's usage was shared equally among its samples. */
  readonly apportioned: boolean;
}

/**
 * Where an LLM-sampled candidate came from: plain data set by `src/llm`, carried into records.
 * @public
 */
export interface LlmProvenance {
  /** The endpoint as named in cache keys (`openai`, `localhost/v1`). */
  readonly provider: string;
  /** The model as requested. */
  readonly model: string;
  /** The model as the server named it in its reply (`gpt-4o-mini-2024-07-18`), or null. */
  readonly servedModel: string | null;
  /** The request's cache key (32 hex characters). */
  readonly key: string;
  /** Sample index: the i-th independent draw of this request. */
  readonly sample: number;
  /** Whether the reply came from the cache (replayed) rather than from the model now (live). */
  readonly cached: boolean;
  readonly finishReason: string | null;
  /** The reply was cut off (`finishReason: 'length'`): a compile error is then no mystery. */
  readonly truncated: boolean;
  readonly usage: LlmUsage;
  /** At current prices; null when the model has no price (never 0 for "unknown"). */
  readonly costUsd: number | null;
  /** Attempts beyond the first that this call needed (0 for a replay). */
  readonly retries: number;
  /** What the call was for (`codegen`, `judge`, ...). */
  readonly purpose: string;
}

/** Untrusted source code (LLM output), run sandboxed. @public */
export interface SourceCandidate extends CandidateBase {
  readonly kind: 'source';
  readonly language: SourceLanguage;
  /** Name of the function to call. */
  readonly entry: string;
  /** The reply as given (raw code or Markdown). */
  readonly source: string;
  /** The code extracted from the reply. */
  readonly code: string;
  /** JS/TS: the evaluable wrapper produced by preparation; Python: the code itself. */
  readonly prepared: string | null;
  /** Set when the code cannot run at all. */
  readonly problem: CandidateProblem | null;
  /**
   * JS/TS: the top-level functions the code defines (function declarations, and `const`/`let`/`var`
   * bound to a function or arrow expression), read from its syntax tree by preparation, in source
   * order; they name the alternatives when the entry is missing. Empty when the code does not
   * compile, and for Python, whose worker lists what the loaded module defines instead.
   * @internal
   */
  readonly functions: readonly string[];
  /** Set when the candidate was sampled from a model (`candidates.fromModel`). */
  readonly llm?: LlmProvenance;
}

/**
 * A program of any language served by an executable that speaks the JSON-lines protocol of
 * `docs/protocol.md`.
 * @public
 */
export interface CommandCandidate extends CandidateBase {
  readonly kind: 'command';
  /** The executable and its arguments. */
  readonly command: readonly [string, ...string[]];
  /** The candidate source the executable is asked to load (may be empty for self-contained servers). */
  readonly code: string;
  readonly entry: string;
  readonly language: string;
  /**
   * The candidates trust each other: one worker process may serve several of them in turn.
   * Absent or false, each candidate gets worker processes of its own (see `CommandOptions`).
   */
  readonly shareWorkers?: boolean;
}

/** @public */
export type Candidate = FunctionCandidate | SourceCandidate | CommandCandidate;
