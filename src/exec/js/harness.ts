/**
 * The part of the sandbox that lives inside each candidate's `vm` context.
 *
 * `installHarness` is evaluated in the context from its source text (like the codec), so every
 * object it creates belongs to the context's realm and nothing of the worker's realm is ever
 * handed to candidate code. It captures the intrinsics it relies on before the candidate's code
 * runs, so a candidate that patches `Array.prototype`, `JSON` or `String.prototype` cannot
 * change how its calls are run or its results reported.
 *
 * The batch loop runs here, inside the context: one `runInContext` per chunk of inputs rather
 * than one per call, which is what makes sandboxed calls nearly as cheap as direct ones. Before
 * each call it writes the call's index and a sequence number to shared memory, so the host can
 * tell which call hangs without any message from here.
 *
 * Keep this function self-contained: its source text is all that reaches the context.
 */

import type { CodecCore } from '../../values/codec-core.ts';

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
   * The input set, parsed by the worker: read only by the harness, never handed to candidate
   * code. `json[i]` is the JSON text of input i when it holds no tags (plain JSON data), else null.
   */
  setInputs(inputs: unknown[], json: (string | null)[]): void;
  /**
   * The JSON array text of the plain inputs `from`, `from + 1`, … of the next chunk, parsed once
   * for the whole chunk (one parse is much cheaper than one per call); '' when the chunk holds
   * tagged inputs.
   */
  setBatch(from: number, text: string): void;
  setWrapper(wrapper: unknown): void;
  /** JSON of the settled async result of the last chunk, or '' when it never settled. */
  pending(): string;
}

export function installHarness(
  createCodec: () => CodecCore,
  sab: SharedArrayBuffer,
  invalidCsv: string,
  maxOutputBytes: number,
  entry: string,
  entryNotFoundMessage: string,
): HarnessApi {
  const codec = createCodec();
  const progress = new Int32Array(sab);
  const jsonStringify = codec.safeJson;
  const reflectApply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const StringCtor = String;
  const strIndexOf = String.prototype.indexOf;
  const strSlice = String.prototype.slice;
  const strSplit = String.prototype.split;
  const EncodeFailure = codec.EncodeFailure;
  const g = globalThis as unknown as Record<string, unknown>;

  // A candidate-installed Error.prepareStackTrace would receive call sites of the worker's own
  // frames: a classic way out of a vm context. Pin it before any candidate code runs.
  defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });

  const invalid: Record<string, boolean> = Object.create(null);
  const names = reflectApply(strSplit, invalidCsv, [',']) as string[];
  for (let i = 0; i < names.length; i++) if (names[i]) invalid[names[i] as string] = true;

  let inputs: unknown[] = [];
  let inputJson: (string | null)[] = [];
  const nativeParse = JSON.parse;
  /**
   * A fresh copy of input i in this realm. Plain JSON goes through the native parser, which
   * needs no warm-up in a new context; tagged values go through the codec.
   */
  let batchFrom = 0;
  let batchText = '';
  let batch: unknown[] | null = null;
  const argsOf = (i: number): unknown[] => {
    // Each batch element is handed out once, so every call still gets its own copy.
    if (batch !== null) return batch[i - batchFrom] as unknown[];
    const text = inputJson[i];
    return (
      text === null || text === undefined ? codec.decode(inputs[i] as never) : nativeParse(text)
    ) as unknown[];
  };
  let wrapper: ((module: unknown, exports: unknown) => Record<string, unknown>) | null = null;
  let fn: ((...args: unknown[]) => unknown) | null = null;
  let problem: unknown[] | null = null;
  let pendingWire = '';

  const cap = (s: string): string =>
    s.length > 2000 ? `${reflectApply(strSlice, s, [0, 2000]) as string}...` : s;

  const classify = (e: unknown): unknown[] => {
    let name: string;
    let message: string;
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const n = (e as { name?: unknown }).name;
        const m = (e as { message?: unknown }).message;
        name = typeof n === 'string' && n !== '' ? n : 'Error';
        message = typeof m === 'string' ? m : StringCtor(m);
      } else {
        name = `thrown ${typeof e}`;
        message = StringCtor(e);
      }
    } catch {
      name = 'Unknown';
      message = '(the thrown value could not be described)';
    }
    message = cap(message);
    if (e instanceof EncodeFailure) return [2, name, message];
    if (name === 'RangeError' && (reflectApply(strIndexOf, message, ['call stack']) as number) >= 0) {
      return [2, 'StackOverflow', message];
    }
    return invalid[name] === true ? [1, name, message] : [2, name, message];
  };

  const encodeResult = (value: unknown): unknown[] => {
    try {
      return [0, codec.encode(value, { maxBytes: maxOutputBytes })];
    } catch (e) {
      return classify(e);
    }
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
    if (typeof r.byDefault === 'function') return r.byDefault as never;
    return null;
  };

  const load = (): string => {
    progress[2] = 3;
    if (wrapper === null) return 'no-wrapper';
    try {
      const module = { exports: {} };
      const r = wrapper(module, module.exports);
      fn = resolveEntry(r);
      if (fn === null) problem = [2, 'EntryNotFound', entryNotFoundMessage];
    } catch (e) {
      const c = classify(e);
      problem = [2, c[1], `while loading the candidate: ${c[2] as string}`];
    }
    progress[2] = 0;
    return problem === null ? 'ok' : 'problem';
  };

  const isThenable = (x: unknown): boolean =>
    x !== null &&
    (typeof x === 'object' || typeof x === 'function') &&
    typeof (x as { then?: unknown }).then === 'function';

  const INF = Number.POSITIVE_INFINITY;
  const inlineStringLimit = Math.min(maxOutputBytes, 4096);
  const numberIsNaN = Number.isNaN;
  /** Values whose tagged form is themselves: finite numbers other than -0, booleans, null, short strings. */
  const isPlain = (r: unknown, t: string): boolean =>
    t === 'number'
      ? !numberIsNaN(r) && r !== INF && r !== -INF && (r !== 0 || 1 / (r as number) > 0)
      : t === 'boolean' || r === null || (t === 'string' && (r as string).length < inlineStringLimit);

  /**
   * Runs calls `from` to `to` (read from shared memory) and reports them as
   * `{"n": next, "p": 0|1, "v": [values], "e": [[offset, kind, name, message], ...]}`:
   * one flat array of results, with the rare non-value outcomes listed apart, so a chunk of
   * thousands of calls allocates almost nothing per call.
   */
  const runChunk = (): string => {
    const from = progress[3] as number;
    const to = progress[4] as number;
    const values: unknown[] = [];
    const others: unknown[] = [];
    let k = 0;
    let e = 0;
    pendingWire = '';
    const other = (w: unknown[]): void => {
      others[e++] = [k, w[0], w[1], w[2]];
      values[k++] = null;
    };
    // One shared-memory write per call: the host's watchdog sees progress in the sequence number
    // (once per chunk) or in the index of the call under way.
    progress[0] = ((progress[0] as number) + 1) | 0;
    progress[2] = 1;
    batch = batchText === '' || batchFrom !== from ? null : (nativeParse(batchText) as unknown[]);
    batchText = '';
    for (let i = from; i < to; i++) {
      progress[1] = i;
      if (problem !== null) {
        other(problem);
        continue;
      }
      try {
        const r = reflectApply(fn as (...a: unknown[]) => unknown, void 0, argsOf(i));
        const t = typeof r;
        if (isPlain(r, t)) {
          values[k++] = r;
          continue;
        }
        if (isThenable(r)) {
          // Stop the chunk: the promise can only settle in the microtask drain that follows
          // this evaluation, and the worker collects it with pending().
          reflectApply((r as PromiseLike<unknown>).then, r, [
            (v: unknown) => {
              pendingWire = jsonStringify(encodeResult(v));
            },
            (err: unknown) => {
              pendingWire = jsonStringify(classify(err));
            },
          ]);
          progress[2] = 2;
          return jsonStringify({ n: i + 1, p: 1, v: values, e: others });
        }
        const w = encodeResult(r);
        if (w[0] === 0) values[k++] = w[1];
        else other(w);
      } catch (err) {
        other(classify(err));
      }
    }
    progress[2] = 2;
    return jsonStringify({ n: to, p: 0, v: values, e: others });
  };

  const lock = (name: string, value: unknown): void => {
    defineProperty(g, name, { value, writable: false, configurable: false, enumerable: false });
  };
  lock('__cc_run', runChunk);
  lock('__cc_load', load);

  return freeze({
    setInputs(all: unknown[], json: (string | null)[]): void {
      inputs = all;
      inputJson = json;
      batch = null;
    },
    setBatch(from: number, text: string): void {
      batchFrom = from;
      batchText = text;
    },
    setWrapper(w: unknown): void {
      wrapper = w as typeof wrapper;
    },
    pending(): string {
      return pendingWire;
    },
  });
}
