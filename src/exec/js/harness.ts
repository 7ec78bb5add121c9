/**
 * The part of the sandbox that lives inside each candidate's `vm` context.
 *
 * `installHarness` is evaluated in the context from its source text (like the codec), so every
 * object it creates belongs to the context's realm and nothing of the worker's realm is ever
 * handed to candidate code. It captures the intrinsics it relies on before the candidate's code
 * runs, so a candidate that patches `Array.prototype`, `JSON` or `String.prototype` cannot
 * change how its calls are run or its results reported.
 *
 * The batch loop runs here, inside the context: one call per chunk of inputs rather than one per
 * input, which is what makes sandboxed calls nearly as cheap as direct ones. Before each call it
 * writes the call's index and a sequence number to shared memory, so the host can tell which call
 * hangs without any message from here.
 *
 * Nothing of the harness is reachable from candidate code: no global names it (the worker calls
 * the functions `installHarness` returns), it runs in strict mode (so `fn.caller` stops at it),
 * and every touch of a candidate's value or exception (a property read, an encode, a
 * stringify) happens inside a `try` whose `catch` never looks at what was thrown. Its own
 * bookkeeping is strings and prototype-less holders, so setters a candidate puts on
 * `Array.prototype` or `Object.prototype` never run on it; what it reports is one string per
 * chunk, built by concatenation.
 *
 * Keep this function self-contained: its source text is all that reaches the context.
 */

import type { CodecCore } from '../../values/index.ts';

/**
 * Slots of the shared progress array. `stop` holds the id of a run the host wants ended at the
 * next chunk; `job` the id of the job the worker is on (the host may have sent it more than one).
 */
export const SLOT = { seq: 0, index: 1, phase: 2, from: 3, to: 4, stop: 5, job: 6 } as const;
export const SLOT_COUNT = 7;
/** Phases written to `SLOT.phase`. */
export const PHASE = { idle: 0, calling: 1, draining: 2, loading: 3 } as const;

/** What the harness gives the worker (called from the worker with primitives only). */
export interface HarnessApi {
  /**
   * The candidate this context serves: error names that mean an invalid input (comma-separated),
   * the output limit in bytes, the entry's name and the message when it is missing. Called once,
   * before `setWrapper`.
   */
  setCandidate(invalidCsv: string, maxOutputBytes: number, entry: string, entryNotFound: string): void;
  /**
   * The input set, parsed by the worker: read only by the harness, never handed to candidate
   * code. `json[i]` is the JSON text of input i when it holds no tags (plain JSON data), else null;
   * `inputs[i]` is its tagged value when it holds tags, else null (it is read from its text).
   */
  setInputs(inputs: unknown[], json: (string | null)[]): void;
  /**
   * The plain inputs `from`, `from + 1`, … of the next chunk as JSON array texts of consecutive
   * runs of them (one parse a run is much cheaper than one a call); none when the chunk holds
   * tagged inputs. Each run is parsed when the loop reaches it: a chunk of thousands of calls
   * then never holds all its inputs at once, which a collection during the chunk would copy.
   */
  setBatch(from: number, texts: readonly string[]): void;
  setWrapper(wrapper: unknown): void;
  /**
   * Runs the candidate's top-level code and finds its entry: 'ok', 'problem' (every call will
   * report it) or 'no-wrapper'. Never throws.
   */
  load(): string;
  /**
   * Runs calls `from` to `to` (read from shared memory) and reports them as the text
   * `{"n": next, "p": 0|1, "v": [values], "e": [[offset, kind, name, message], ...]}`: one flat
   * array of results, with the rare non-value outcomes listed apart (null in `v`). A value is a
   * number or boolean as itself, any other as a string holding its tagged form's JSON text.
   * Never throws.
   */
  run(): string;
  /** Wire outcome text of the settled async result of the last chunk, or '' when it never settled. */
  pending(): string;
}

export function installHarness(createCodec: () => CodecCore, sab: SharedArrayBuffer): HarnessApi {
  const codec = createCodec();
  const progress = new Int32Array(sab);
  const safeJson = codec.safeJson;
  const isEncodeFailure = codec.isEncodeFailure;
  const reflectApply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const setProto = Object.setPrototypeOf;
  const createObject = Object.create;
  const freeze = Object.freeze;
  const StringCtor = String;
  const nativeParse = JSON.parse;
  const nativeStringify = JSON.stringify;
  const strIndexOf = String.prototype.indexOf;
  const strSlice = String.prototype.slice;
  const strSplit = String.prototype.split;
  const mathMin = Math.min;

  // A candidate-installed Error.prepareStackTrace would receive call sites of the worker's own
  // frames: a classic way out of a vm context. Pin it before any candidate code runs. Node looks
  // the hook up as `globalThis.Error.prepareStackTrace` of the error's realm, and formats a stack
  // whenever it is first read (possibly long after the call that made the error), so the
  // global binding `Error` is pinned too: no candidate object can stand in for it.
  defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
  defineProperty(globalThis, 'Error', { value: Error, writable: false, configurable: false });
  // Nothing a candidate runs may be scheduled by the engine outside its own calls: a
  // FinalizationRegistry callback runs when the garbage collector decides (between jobs, on
  // whatever candidate the worker serves next), and Atomics.waitAsync settles from a task of the
  // worker's event loop. WeakRef goes with them: without a callback it still lets a result
  // depend on when the collector ran. Promise jobs stay: they run in this context's own
  // microtask queue, drained only inside this candidate's own chunks.
  delete (globalThis as { FinalizationRegistry?: unknown }).FinalizationRegistry;
  delete (globalThis as { WeakRef?: unknown }).WeakRef;
  delete (Atomics as { waitAsync?: unknown }).waitAsync;

  // The candidate's settings, given by setCandidate before its code is loaded (a context is
  // made ready before anyone knows which candidate it will serve).
  const invalid: Record<string, boolean> = createObject(null);
  let encodeLimits: { maxBytes: number } = createObject(null);
  let entry = '';
  let entryNotFoundMessage = '';
  let inlineStringLimit = 0;

  /** A JSON string literal of a string the harness made (never a candidate object). */
  const quote = (s: string): string => nativeStringify(s) as string;

  let inputs: unknown[] = [];
  let inputJson: (string | null)[] = [];
  let batchFrom = 0;
  let batchTexts: readonly string[] | null = null;
  /**
   * A fresh copy of input i in this realm. Plain JSON goes through the native parser (which
   * defines properties, so no setter a candidate planted runs), which needs no warm-up in a new
   * context; tagged values go through the codec. Called inside the call's guarded path.
   */
  const argsOf = (i: number): unknown[] => {
    const text = inputJson[i];
    return (
      text === null || text === undefined ? codec.decode(inputs[i] as never) : nativeParse(text)
    ) as unknown[];
  };
  let wrapper: ((module: unknown, exports: unknown) => Record<string, unknown>) | null = null;
  let fn: ((...args: unknown[]) => unknown) | null = null;
  /** The wire outcome text every call reports when the candidate cannot be loaded. */
  let problem: string | null = null;
  let pendingWire = '';
  /** Identifies the chunk whose last call returned a promise: a late or repeated settle of an older one is ignored. */
  let pendingToken = 0;

  const cap = (s: string): string =>
    s.length > 2000 ? `${reflectApply(strSlice, s, [0, 2000]) as string}...` : s;

  /** Wire outcome text `[kind,"name","message"]`. */
  const wire = (kind: 1 | 2, name: string, message: string): string =>
    `[${kind},${quote(name)},${quote(message)}]`;

  /**
   * The wire outcome text of a thrown value. Every read of the value is inside the `try`, and
   * nothing looks at what that `try` catches: a Proxy whose traps throw again, or a getter that
   * throws, ends here as 'Unknown'. Never throws.
   */
  const classify = (e: unknown): string => {
    let name = 'Unknown';
    let message = '(the thrown value could not be described)';
    let encodeFailure = false;
    try {
      encodeFailure = isEncodeFailure(e);
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const n = (e as { name?: unknown }).name;
        const m = (e as { message?: unknown }).message;
        const nameText = typeof n === 'string' && n !== '' ? n : 'Error';
        const messageText = typeof m === 'string' ? m : StringCtor(m);
        if (typeof messageText !== 'string') throw 0;
        name = nameText;
        message = messageText;
      } else {
        const messageText = StringCtor(e);
        if (typeof messageText !== 'string') throw 0;
        name = `thrown ${typeof e}`;
        message = messageText;
      }
    } catch {
      name = 'Unknown';
      message = '(the thrown value could not be described)';
    }
    try {
      message = cap(message);
      if (encodeFailure) return wire(2, name, message);
      if (name === 'RangeError' && (reflectApply(strIndexOf, message, ['call stack']) as number) >= 0) {
        return wire(2, 'StackOverflow', message);
      }
      // An ArrayBuffer the process's memory bound refused: a limit met, not an input refused.
      if (
        name === 'RangeError' &&
        (reflectApply(strIndexOf, message, ['allocation failed']) as number) >= 0
      ) {
        return wire(2, 'OutOfMemory', message);
      }
      return wire(invalid[name] === true ? 1 : 2, name, message);
    } catch {
      return '[2,"Unknown","(the thrown value could not be described)"]';
    }
  };

  /** The JSON text of a returned value's tagged form, or the wire outcome of why it has none. */
  const valueText = (value: unknown): { ok: boolean; text: string } => {
    try {
      const text = safeJson(codec.encode(value, encodeLimits));
      if (typeof text !== 'string') throw 0;
      return { ok: true, text };
    } catch (e) {
      return { ok: false, text: classify(e) };
    }
  };

  /** The wire outcome text of a settled promise's value. Never throws. */
  const settledText = (value: unknown): string => {
    const r = valueText(value);
    return r.ok ? `[0,${r.text}]` : r.text;
  };

  const resolveEntry = (r: Record<string, unknown>): ((...args: unknown[]) => unknown) | null => {
    const named = r.named;
    if (typeof named === 'function') return named as never;
    const exported = r.exported;
    if (typeof exported === 'function') return exported as never;
    if (exported !== null && typeof exported === 'object') {
      const byName = (exported as Record<string, unknown>)[entry];
      if (typeof byName === 'function') return byName as never;
      const byDefault = (exported as Record<string, unknown>).default;
      if (typeof byDefault === 'function') return byDefault as never;
    }
    const byDefault = r.byDefault;
    if (typeof byDefault === 'function') return byDefault as never;
    return null;
  };

  const load = (): string => {
    progress[2] = 3;
    if (wrapper === null) return 'no-wrapper';
    try {
      const module = { exports: {} };
      const r = wrapper(module, module.exports);
      fn = resolveEntry(r);
      if (fn === null) problem = wire(2, 'EntryNotFound', entryNotFoundMessage);
    } catch (e) {
      problem = classify(e);
      try {
        const parsed = nativeParse(problem) as [number, string, string];
        problem = wire(2, parsed[1], `while loading the candidate: ${parsed[2]}`);
      } catch {
        problem = '[2,"Unknown","while loading the candidate: (the thrown value could not be described)"]';
      }
    }
    // The phase stays 'loading' through the microtask drain that follows (the worker resets it):
    // promise jobs the top-level code queued are still the candidate's loading.
    return problem === null ? 'ok' : 'problem';
  };

  const isThenable = (x: unknown): boolean =>
    x !== null &&
    (typeof x === 'object' || typeof x === 'function') &&
    typeof (x as { then?: unknown }).then === 'function';

  const INF = Number.POSITIVE_INFINITY;
  const numberIsNaN = Number.isNaN;
  /** Values whose tagged form is themselves: finite numbers other than -0, booleans, null, short strings. */
  const isPlain = (r: unknown, t: string): boolean =>
    t === 'number'
      ? !numberIsNaN(r) && r !== INF && r !== -INF && (r !== 0 || 1 / (r as number) > 0)
      : t === 'boolean' || r === null || (t === 'string' && (r as string).length < inlineStringLimit);

  /**
   * The report piece of a returned value that is not a finite number: a boolean, null or short
   * string as itself, anything else as its tagged form's JSON text, or, when it has none, the
   * wire outcome text saying why (an array: the only kind of piece that starts with '['). '' for
   * a thenable, which the chunk stops to wait for. Throws what a candidate's getter throws.
   */
  const pieceOf = (r: unknown): string => {
    const t = typeof r;
    // A string in the report is a value's JSON text (so the hosts pass it on without building
    // the value); numbers and booleans stand for themselves.
    if (isPlain(r, t)) return t === 'string' ? quote(quote(r as string)) : `${r as number}`;
    if (isThenable(r)) return '';
    const w = valueText(r);
    return w.ok ? quote(w.text) : w.text;
  };

  /**
   * Stops the chunk at a call that returned a thenable: it can only settle in the microtask drain
   * that follows this evaluation, and the worker collects it with pending(). Only the first
   * settle of this chunk's promise counts.
   */
  const awaitThenable = (r: unknown): void => {
    const token = pendingToken;
    const settle = (text: () => string): void => {
      if (token !== pendingToken || pendingWire !== '') return;
      pendingWire = text();
    };
    try {
      reflectApply((r as PromiseLike<unknown>).then, r, [
        (value: unknown) => settle(() => settledText(value)),
        (err: unknown) => settle(() => classify(err)),
      ]);
    } catch (err) {
      settle(() => classify(err));
    }
  };

  const runChunk = (): string => {
    const from = progress[3] as number;
    const to = progress[4] as number;
    // The report, as text: values (null for other outcomes) and the other outcomes apart.
    let v = '';
    let e = '';
    pendingWire = '';
    pendingToken++;
    // One shared-memory write per call: the host's watchdog sees progress in the sequence number
    // (once per chunk) or in the index of the current call.
    progress[0] = ((progress[0] as number) + 1) | 0;
    progress[2] = 1;
    let texts = batchFrom === from ? batchTexts : null;
    batchTexts = null;
    if (problem !== null) {
      const rest = reflectApply(strSlice, problem, [1]) as string;
      for (let k = 0; k < to - from; k++) {
        progress[1] = from + k;
        v += k === 0 ? 'null' : ',null';
        e += `${k === 0 ? '' : ','}[${k},${rest}`;
      }
      progress[2] = 2;
      return `{"n":${to},"p":0,"v":[${v}],"e":[${e}]}`;
    }
    const f = fn as (...a: unknown[]) => unknown;
    // The current run of parsed inputs, `b[k]` being input `bFrom + k`; held by this chunk only,
    // so a context kept for its candidate's next run pins none of them in the worker's heap.
    // Each element is handed out once, so every call still gets its own copy.
    let b: unknown[] | null = null;
    let bFrom = from;
    let bEnd = from;
    let nextText = 0;
    // Each new candidate's context runs this loop in the interpreter and the baseline compiler
    // (its optimized code is per context, and rarely ready within one candidate's calls), so the
    // common case, a finite number returned, takes no helper call and no temporary.
    for (let i = from; i < to; i++) {
      progress[1] = i;
      if (i === bEnd) {
        b = null;
        bFrom = i;
        if (texts !== null && nextText < texts.length) {
          try {
            b = nativeParse(texts[nextText++] as string) as unknown[];
            bEnd = i + b.length;
          } catch {
            // Never for the worker's own texts; the rest of the chunk parses input by input.
            texts = null;
          }
        }
      }
      const sep = i === from ? '' : ',';
      let piece: string;
      try {
        const r = reflectApply(f, void 0, b !== null ? (b[i - bFrom] as unknown[]) : argsOf(i));
        // r - r is 0 only for a finite number (NaN and ±Infinity give NaN); -0 is tagged.
        if (typeof r === 'number' && r - r === 0 && (r !== 0 || 1 / r > 0)) {
          v += sep + r;
          continue;
        }
        piece = pieceOf(r);
        if (piece === '') {
          awaitThenable(r);
          progress[2] = 2;
          return `{"n":${i + 1},"p":1,"v":[${v}],"e":[${e}]}`;
        }
      } catch (err) {
        piece = classify(err);
      }
      // The piece is never '' here, and indexing a non-empty string in range reads its own
      // character: no getter a candidate put on String.prototype runs.
      if (piece[0] !== '[') v += sep + piece;
      else {
        v += `${sep}null`;
        e += `${e === '' ? '' : ','}[${i - from},${reflectApply(strSlice, piece, [1]) as string}`;
      }
    }
    progress[2] = 2;
    return `{"n":${to},"p":0,"v":[${v}],"e":[${e}]}`;
  };

  /** The harness's entry points never throw: whatever escaped, the host sees a malformed report. */
  const guarded =
    (f: () => string): (() => string) =>
    (): string => {
      try {
        return f();
      } catch {
        return '';
      }
    };

  const api: HarnessApi = {
    setCandidate(invalidCsv: string, maxBytes: number, entryName: string, notFound: string): void {
      const names = reflectApply(strSplit, invalidCsv, [',']) as string[];
      for (let i = 0; i < names.length; i++) if (names[i]) invalid[names[i] as string] = true;
      encodeLimits = createObject(null);
      encodeLimits.maxBytes = maxBytes;
      freeze(encodeLimits);
      entry = entryName;
      entryNotFoundMessage = notFound;
      inlineStringLimit = mathMin(maxBytes, 4096);
    },
    setInputs(all: unknown[], json: (string | null)[]): void {
      inputs = all;
      inputJson = json;
      batchTexts = null;
    },
    setBatch(from: number, texts: readonly string[]): void {
      batchFrom = from;
      batchTexts = texts;
    },
    setWrapper(w: unknown): void {
      wrapper = w as typeof wrapper;
    },
    load: guarded(load),
    run: guarded(runChunk),
    pending(): string {
      return pendingWire;
    },
  };
  setProto(api, null);
  return freeze(api);
}
