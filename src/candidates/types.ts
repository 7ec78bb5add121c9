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
}

/** A problem found before running: every call of such a candidate gets this as its `error` outcome. @public */
export interface CandidateProblem {
  readonly name: 'CompileError' | 'EntryNotFound';
  readonly message: string;
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
}

/** @public */
export type Candidate = FunctionCandidate | SourceCandidate | CommandCandidate;
