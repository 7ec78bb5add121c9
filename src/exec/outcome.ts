import type { Tagged } from '../values/index.ts';
import { checkTagged, decode, formatTagged, neutralizeControls } from '../values/index.ts';

/**
 * What one call of a candidate on one input produced (docs/design.md, "Values" and "Outcomes").
 * @public
 */
export type Outcome = ValueOutcome | InvalidOutcome | ErrorOutcome | TimeoutOutcome | CrashOutcome;

/** @public */
export type OutcomeKind = Outcome['kind'];

/**
 * The call returned normally. `value` is decoded on first read; `tagged` is the wire form. An
 * output past the run's output memory budget (`maxRowOutputBytes`, `maxRunOutputBytes`) is kept
 * only as a digest: `outcomeDigest(o)` returns it, and `tagged` and `value` are a string saying so.
 * @public
 */
export interface ValueOutcome {
  readonly kind: 'value';
  readonly tagged: Tagged;
  readonly value: unknown;
}

/** The candidate rejected the input (Python `ValueError`, JS `RangeError`, or a configured class). @public */
export interface InvalidOutcome {
  readonly kind: 'invalid';
  readonly name: string;
  readonly message: string;
}

/**
 * Any other exception. Failures of the harness on the candidate's behalf use reserved names:
 * `CompileError` (the source does not parse), `EntryNotFound`, `Unserializable` (the result has
 * no data form), `OutputTooLarge`, `StackOverflow`.
 * @public
 */
export interface ErrorOutcome {
  readonly kind: 'error';
  readonly name: string;
  readonly message: string;
}

/**
 * The call did not finish. `reason`: `call` (it exceeded the per-call limit), `budget` (the
 * candidate's timeout budget was spent earlier, so it was not run), `unsettled` (it returned a
 * Promise that can never settle), `wall` (where the per-call limit counts CPU time: the call
 * neither finished nor used its CPU time within the generous wall-time backstop).
 * @public
 */
export interface TimeoutOutcome {
  readonly kind: 'timeout';
  readonly reason: 'call' | 'budget' | 'unsettled' | 'wall';
  readonly ms: number;
}

/** The worker running the call died (memory limit, exit, signal). @public */
export interface CrashOutcome {
  readonly kind: 'crash';
  readonly reason: string;
}

/**
 * The outcome of a call that returned, decoded on first read. Workers send results as JSON text,
 * and retaining 100,000 parsed trees costs the host more than running the calls costs the
 * workers (mostly garbage collection); a string each is cheap to keep, so the text is parsed
 * only when a field is read.
 *
 * Because even `kind` is read through the parse, text that is not JSON (only a candidate that
 * forges lines on a worker's reply pipe can produce it) reads as an `error` outcome named
 * `ProtocolError`, never as a value and never as a throw.
 */
class LazyOutcome {
  #text: string | null;
  #tagged: Tagged;
  #checked = false;
  #broken: string | null = null;
  #decoded = false;
  #value: unknown;

  constructor(text: string | null, tagged: Tagged) {
    this.#text = text;
    this.#tagged = tagged;
  }

  #parse(): void {
    if (this.#checked) return;
    this.#checked = true;
    if (this.#text !== null) {
      try {
        this.#tagged = JSON.parse(this.#text) as Tagged;
      } catch {
        this.#broken = `the worker sent a result that is not JSON (${this.#text.slice(0, 80)}); something wrote to its reply pipe`;
      }
      this.#text = null;
      if (this.#broken !== null) return;
    }
    // Valid JSON is not yet a value: a malformed tag would make every later reader throw.
    const why = checkTagged(this.#tagged);
    if (why !== null) {
      this.#broken = `the worker sent a malformed value (${why}); something forged its reply`;
      this.#tagged = null;
    }
  }

  /** Length of the JSON text not parsed yet, or null once parsed. */
  get textLength(): number | null {
    return this.#text === null ? null : this.#text.length;
  }

  /** The JSON text not parsed yet, or null once parsed. */
  get text(): string | null {
    return this.#text;
  }

  get kind(): 'value' | 'error' {
    this.#parse();
    return this.#broken === null ? 'value' : 'error';
  }

  get tagged(): Tagged {
    this.#parse();
    return this.#tagged;
  }

  get value(): unknown {
    if (!this.#decoded) {
      this.#value = this.kind === 'value' ? decode(this.tagged) : undefined;
      this.#decoded = true;
    }
    return this.#value;
  }

  get name(): string | undefined {
    this.#parse();
    return this.#broken === null ? undefined : 'ProtocolError';
  }

  get message(): string | undefined {
    this.#parse();
    return this.#broken ?? undefined;
  }

  toJSON(): unknown {
    return this.kind === 'value'
      ? { kind: 'value', tagged: this.tagged }
      : { kind: 'error', name: this.name, message: this.message };
  }
}

/**
 * A value outcome whose wire form is a primitive (a finite number, a string, a boolean or null),
 * which is also its value. One run shares one of these per distinct primitive (see
 * {@link valueOutcomes}): candidates mostly agree, so a matrix of 100,000 cells holds a few
 * thousand objects, and the host's garbage collector, not the sandbox, stops being the bottleneck.
 */
class PrimitiveOutcome {
  readonly tagged: null | boolean | number | string;
  constructor(tagged: null | boolean | number | string) {
    this.tagged = tagged;
  }
  get kind(): 'value' {
    return 'value';
  }
  get value(): unknown {
    return this.tagged;
  }
  toJSON(): unknown {
    return { kind: 'value', tagged: this.tagged };
  }
}

/** Strings longer than this are not shared: equal long outputs are rare, and they would pin memory. */
const SHARED_STRING_MAX = 256;

/**
 * A factory of value outcomes for one run, sharing one outcome object per distinct primitive.
 * Outcomes are immutable, so sharing is invisible except to `===`.
 * @internal
 */
export const valueOutcomes = (): ((tagged: Tagged) => ValueOutcome) => {
  const shared = new Map<unknown, ValueOutcome>();
  return (tagged) => {
    if (tagged !== null && typeof tagged === 'object') return valueOutcome(tagged);
    if (typeof tagged === 'string' && tagged.length > SHARED_STRING_MAX) {
      return new PrimitiveOutcome(tagged) as unknown as ValueOutcome;
    }
    let o = shared.get(tagged);
    if (o === undefined) {
      o = new PrimitiveOutcome(tagged as null | boolean | number | string) as unknown as ValueOutcome;
      shared.set(tagged, o);
    }
    return o;
  };
};

/**
 * The outcome of a call skipped because its candidate spent its timeout budget or its time
 * limit (`budgetMs`, `candidateTimeMs`). One shared, frozen object. @internal
 */
export const BUDGET_SPENT: TimeoutOutcome = Object.freeze({ kind: 'timeout', reason: 'budget', ms: 0 });

/** Builds a value outcome from the wire form. @public */
export const valueOutcome = (tagged: Tagged): ValueOutcome =>
  new LazyOutcome(null, tagged) as unknown as ValueOutcome;

/** Length of a value outcome's JSON text while it is not parsed yet, else null. @internal */
export const pendingTextLength = (o: Outcome): number | null =>
  o instanceof LazyOutcome ? o.textLength : null;

/**
 * The JSON text a worker sent for a value outcome, while it is not parsed yet; null otherwise.
 * Two outcomes with the same pending text are the same outcome. @internal
 */
export const pendingText = (o: Outcome): string | null => (o instanceof LazyOutcome ? o.text : null);

/** A value outcome from the JSON text a worker sent, parsed on first read (see {@link LazyOutcome}). @internal */
export const textOutcome = (text: string): Outcome =>
  new LazyOutcome(text, null) as unknown as ValueOutcome | ErrorOutcome;

/**
 * A factory of {@link textOutcome}s for one run, sharing one outcome per distinct text, as
 * {@link valueOutcomes} does for primitives. Candidates mostly agree, so most texts recur; a
 * shared outcome is parsed once, and readers that prepare outcomes for comparison (the measure's
 * cells) can do so once per distinct output rather than once per call.
 * @internal
 */
export const textOutcomes = (): ((text: string) => Outcome) => {
  const shared = new Map<string, Outcome>();
  return (text) => {
    let o = shared.get(text);
    if (o === undefined) {
      o = textOutcome(text);
      shared.set(text, o);
    }
    return o;
  };
};

/**
 * The outcome of a result that came as JSON text, through the run's shared table when it has one
 * (`RunContext.textOutcome`), else on its own. @internal
 */
export const outcomeOfText = (ctx: { textOutcome?(text: string): Outcome }, text: string): Outcome =>
  ctx.textOutcome ? ctx.textOutcome(text) : textOutcome(text);

/**
 * The kind number of each outcome on the wire. python/crosscheck_worker/protocol.py has the same table
 * (`WIRE_VALUE` …); test/exec/wire-kinds.test.ts fails when the two differ.
 * @public
 */
export const WIRE = Object.freeze({
  value: 0,
  invalid: 1,
  error: 2,
  timeout: 3,
  crash: 4,
} as const satisfies Record<OutcomeKind, number>);

/** The text every packed value starts with (`[0,`), for the hot paths that read JSON text. @internal */
export const WIRE_VALUE_HEAD = `[${WIRE.value},`;

/**
 * Compact wire form of an outcome, used by every worker and subprocess protocol
 * (`docs/protocol.md`): `[0, value]`, `[1, name, message]` invalid, `[2, name, message]` error,
 * `[3, reason, ms]` timeout, `[4, reason]` crash.
 * @public
 */
export type WireOutcome =
  | [typeof WIRE.value, Tagged]
  | [typeof WIRE.invalid, string, string]
  | [typeof WIRE.error, string, string]
  | [typeof WIRE.timeout, TimeoutOutcome['reason'], number]
  | [typeof WIRE.crash, string];

const TIMEOUT_REASONS: ReadonlySet<unknown> = new Set(['call', 'budget', 'unsettled', 'wall']);

/** An outcome for wire data of the wrong shape: only a forged reply produces one. */
const malformed = (w: unknown): ErrorOutcome => {
  let shown: string;
  try {
    shown = String(JSON.stringify(w)).slice(0, 120);
  } catch {
    shown = '(unprintable)';
  }
  return { kind: 'error', name: 'ProtocolError', message: `malformed wire outcome ${shown}` };
};

/**
 * Decodes a wire outcome. Total: anything that is not a well-formed wire outcome (wrong arity,
 * a name that is not a string, an unknown timeout reason) becomes an `error` outcome named
 * `ProtocolError`, never a throw. @public
 */
export const fromWireOutcome = (w: WireOutcome): Outcome => {
  if (!Array.isArray(w)) return malformed(w);
  const str = (x: unknown): x is string => typeof x === 'string';
  switch (w[0]) {
    case WIRE.value:
      return w.length >= 2 ? valueOutcome(w[1]) : malformed(w);
    case WIRE.invalid:
      return w.length >= 3 && str(w[1]) && str(w[2])
        ? { kind: 'invalid', name: w[1], message: w[2] }
        : malformed(w);
    case WIRE.error:
      return w.length >= 3 && str(w[1]) && str(w[2])
        ? { kind: 'error', name: w[1], message: w[2] }
        : malformed(w);
    case WIRE.timeout:
      return w.length >= 3 && TIMEOUT_REASONS.has(w[1]) && typeof w[2] === 'number' && Number.isFinite(w[2])
        ? { kind: 'timeout', reason: w[1], ms: w[2] }
        : malformed(w);
    case WIRE.crash:
      return w.length >= 2 && str(w[1]) ? { kind: 'crash', reason: w[1] } : malformed(w);
    default:
      return malformed(w);
  }
};

/** Encodes an outcome in its wire form. @public */
export const toWireOutcome = (o: Outcome): WireOutcome => {
  switch (o.kind) {
    case 'value':
      return [WIRE.value, o.tagged];
    case 'invalid':
      return [WIRE.invalid, o.name, o.message];
    case 'error':
      return [WIRE.error, o.name, o.message];
    case 'timeout':
      return [WIRE.timeout, o.reason, o.ms];
    case 'crash':
      return [WIRE.crash, o.reason];
  }
};

/**
 * A one-line human description of an outcome, for messages and reports. What a candidate wrote
 * into it (an exception's name and message, a string it returned) is shown with its control
 * characters as visible escapes, so printing it can only ever print it.
 * @public
 */
export const describeOutcome = (o: Outcome): string => neutralizeControls(outcomeText(o));

const outcomeText = (o: Outcome): string => {
  switch (o.kind) {
    case 'value':
      return formatTagged(o.tagged);
    case 'invalid':
      return `invalid input (${o.name}: ${o.message})`;
    case 'error':
      return `${o.name}: ${o.message}`;
    case 'timeout':
      return o.reason === 'budget'
        ? 'timeout (budget spent, not run)'
        : `timeout after ${o.ms} ms (${o.reason})`;
    case 'crash':
      return `crash (${o.reason})`;
  }
};
