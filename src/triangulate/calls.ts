import type { Candidate } from '../candidates/index.ts';
import { type RunOptions, run } from '../exec/index.ts';
import { defineTask, type Task } from '../task/index.ts';
import { encode, tuple } from '../values/index.ts';
import { D, fromOutcome, isSpecial, makeAnswers, strongest } from './special.ts';

/**
 * Something a hyperproperty can call: a candidate, or a host-side view over candidates (split,
 * pointwise, union composition). A call returns a value or a special; it never throws for a bad
 * program.
 * @public
 */
export interface Callable {
  readonly id: string;
  readonly label: string;
  /** The signature-level name shown in counterexamples (`shift_inv_s`). */
  readonly name: string;
  /** The program's language when it has source (`'python'`): `len` counts as that language does. */
  readonly language?: string;
  call(args: readonly unknown[], timeoutFactor: number): Promise<unknown>;
}

/**
 * The key of plain JSON data (finite numbers other than −0, strings, booleans, null, plain
 * arrays), which is its own tagged form; null for anything else (tuples, floats boxes, objects),
 * which takes the codec's path. The hot path of every pair check.
 */
const plain = (x: unknown, depth: number): boolean => {
  switch (typeof x) {
    case 'number':
      return Number.isFinite(x) && !Object.is(x, -0);
    case 'string':
    case 'boolean':
      return true;
    case 'object':
      if (x === null) return true;
      if (!Array.isArray(x) || Object.getPrototypeOf(x) !== Array.prototype || depth > 16) return false;
      for (const y of x) if (!plain(y, depth + 1)) return false;
      return true;
    default:
      return false;
  }
};

const plainKey = (args: readonly unknown[]): string | null => {
  for (const a of args) if (!plain(a, 0)) return null;
  return JSON.stringify(args);
};

interface Pending {
  readonly candidate: Candidate;
  readonly factor: number;
  readonly args: unknown[][];
  readonly resolvers: Array<(v: unknown) => void>;
  readonly rejecters: Array<(e: unknown) => void>;
}

/**
 * Memoised, batched execution: every call requested in one turn of the event loop goes to one
 * `run(task, [candidate], inputs)` per candidate, so concurrent pair checks share executions and
 * a hyperproperty costs as many rounds as its call depth. Untrusted code runs only through `run`.
 * @internal
 */
export class CallCache {
  readonly #task: Task;
  readonly #run: RunOptions;
  readonly #invalidMessage: string | null;
  // Keyed by candidate id then timeout factor: no key string is built per call.
  readonly #memo = new Map<string, Map<number, Map<string, Promise<unknown>>>>();
  #pending = new Map<Map<string, Promise<unknown>>, Pending>();
  #scheduled = false;
  #inflight = 0;
  requested = 0;
  executed = 0;

  constructor(task: Task, runOptions: RunOptions, invalidMessage: string | null) {
    // The reference must not run with every batch: calls go to a task without one.
    this.#task = defineTask({
      name: task.name,
      timeoutMs: task.timeoutMs,
      ...(task.invalidInput ? { invalidInput: task.invalidInput } : {}),
    });
    this.#run = runOptions;
    this.#invalidMessage = invalidMessage;
  }

  call(candidate: Candidate, args: readonly unknown[], factor: number): Promise<unknown> {
    this.requested++;
    let argsText = plainKey(args);
    if (argsText === null) {
      try {
        argsText = JSON.stringify(encode(args));
      } catch {
        // Arguments with no data form cannot reach a program: the call is demonic.
        return Promise.resolve(D);
      }
    }
    let byFactor = this.#memo.get(candidate.id);
    if (!byFactor) {
      byFactor = new Map();
      this.#memo.set(candidate.id, byFactor);
    }
    let memo = byFactor.get(factor);
    if (!memo) {
      memo = new Map();
      byFactor.set(factor, memo);
    }
    const group = memo;
    const hit = memo.get(argsText);
    if (hit) return hit;
    const promise = new Promise<unknown>((resolve, reject) => {
      let p = this.#pending.get(group);
      if (!p) {
        p = { candidate, factor, args: [], resolvers: [], rejecters: [] };
        this.#pending.set(group, p);
      }
      p.args.push([...args]);
      p.resolvers.push(resolve);
      p.rejecters.push(reject);
      this.#schedule();
    });
    memo.set(argsText, promise);
    return promise;
  }

  // Rounds, not a stream: a batch goes out only when no run is in flight, so the continuations of
  // every finished call have queued their next calls first. Runs finishing one by one would
  // otherwise start one small round each, and every round costs a process per candidate.
  #schedule(): void {
    // Checked again at the flush: the continuations that queue the next calls run after this.
    if (this.#scheduled || this.#inflight > 0) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    const batches = [...this.#pending.values()];
    this.#pending = new Map();
    for (const b of batches) {
      this.executed += b.args.length;
      this.#inflight++;
      const done = () => {
        this.#inflight--;
        this.#schedule();
      };
      const timeoutMs = (this.#run.timeoutMs ?? this.#task.timeoutMs) * b.factor;
      run(this.#task, [b.candidate], b.args, { ...this.#run, timeoutMs }).then(
        (m) => {
          const row = m.outcomes[0] ?? [];
          b.resolvers.forEach((resolve, i) => {
            const o = row[i];
            resolve(o ? fromOutcome(o, this.#invalidMessage) : D);
          });
          done();
        },
        (error) => {
          for (const reject of b.rejecters) reject(error);
          done();
        },
      );
    }
  }
}

/** A candidate as a callable through the cache. EXEC_S: a special argument means no call. @internal */
export const candidateCallable = (cache: CallCache, c: Candidate, name: string): Callable => ({
  id: c.id,
  label: c.label,
  name,
  ...(c.kind === 'function' ? {} : { language: c.language }),
  call: (args, factor) => {
    for (const a of args) if (isSpecial(a)) return Promise.resolve(strongest(...args));
    return cache.call(c, args, factor);
  },
});

const concat = (a: unknown, b: unknown): unknown =>
  typeof a === 'string' && typeof b === 'string'
    ? a + b
    : Array.isArray(a) && Array.isArray(b)
      ? [...a, ...b]
      : null;

/**
 * Split-suffix adapter, on the host: `f_split(…, prefix, suffix, …) = f(…, prefix + suffix, …)`
 * (the authors' `split_arg_adapter`). Nothing is spliced into the program's code.
 * @internal
 */
export const splitView = (base: Callable, param: number): Callable => ({
  id: `split(${base.id},${param})`,
  label: base.label,
  name: `${base.name}_split`,
  call: async (args, factor) => {
    const s = strongest(...args);
    if (s) return s;
    const joined = concat(args[param], args[param + 1]);
    if (joined === null) return D;
    return base.call([...args.slice(0, param), joined, ...args.slice(param + 2)], factor);
  },
});

/** Splits argument `param` of an input into (prefix, suffix of `length`); both empty when it is empty. @internal */
export const splitInput = (args: readonly unknown[], param: number, length: number): unknown[] => {
  const x = args[param];
  const cut = (v: string | readonly unknown[]): [unknown, unknown] => {
    const at = Math.max(0, v.length - length);
    return [v.slice(0, at), v.slice(at)];
  };
  const [prefix, suffix] = typeof x === 'string' || Array.isArray(x) ? cut(x as string) : [x, x];
  return [...args.slice(0, param), prefix, suffix, ...args.slice(param + 1)];
};

/**
 * Pointwise view of a stateless list program: `p°(x) = head(p([x]))` (STREAM; the authors'
 * `make_stateless_map`). `p°(x)` and `p([x])` share one cache entry.
 * @internal
 */
export const pointwiseView = (base: Callable): Callable => ({
  id: `pointwise(${base.id})`,
  label: `${base.label}°`,
  name: `${base.name}_single`,
  call: async (args, factor) => {
    const s = strongest(...args);
    if (s) return s;
    const out = await base.call([[args[0]]], factor);
    if (isSpecial(out)) return out;
    return Array.isArray(out) && out.length >= 1 ? out[0] : D;
  },
});

/**
 * Union composition of a set-valued inverse for `"NO" | ("YES", t)` outputs (design §1.4): a
 * string output asks `none(ī)` for a Subset, a pair asks `some(t, ī)` for a Full answer.
 * @internal
 */
export const unionView = (none: Callable, some: Callable): Callable => ({
  id: `union(${none.id},${some.id})`,
  label: `${none.label}|${some.label}`,
  name: `${none.name}|${some.name}`,
  call: async (args, factor) => {
    const s = strongest(...args);
    if (s) return s;
    const [o, ...rest] = args;
    if (typeof o === 'string') {
      const v = await none.call(rest, factor);
      return isSpecial(v) ? v : Array.isArray(v) ? makeAnswers(v, false) : D;
    }
    if (Array.isArray(o) && o.length === 2) {
      const v = await some.call([o[1], ...rest], factor);
      return isSpecial(v) ? v : Array.isArray(v) ? makeAnswers(v, true) : D;
    }
    return D;
  },
});

/**
 * The length a program of `language` sees: Python's `len` counts code points, JavaScript's
 * `.length` UTF-16 units; null for what has no length (a call with it is demonic, as `len` raises).
 */
const lengthIn = (x: unknown, language: string | undefined): number | null =>
  typeof x === 'string'
    ? language === 'python'
      ? [...x].length
      : x.length
    : Array.isArray(x)
      ? x.length
      : null;

/** An argument tuple with position `at` removed. @internal */
export const dropAt = (args: readonly unknown[], at: number): unknown[] => [
  ...args.slice(0, at),
  ...args.slice(at + 1),
];

/** An argument tuple with `x` inserted at position `at`. @internal */
export const insertAt = (args: readonly unknown[], at: number, x: unknown): unknown[] => [
  ...args.slice(0, at),
  x,
  ...args.slice(at),
];

/**
 * Remove-length adapter, on the host: the view omits the int parameter `length` (an index of the
 * original signature) and passes `len` of parameter `of` in its place, so the transformed problem
 * cannot disagree with the program about a redundant length (the authors'
 * `remove_length_parameter_adapter`, `f_simp`). Nothing is spliced into the program's code.
 * @internal
 */
export const removeLengthView = (base: Callable, length: number, of: number): Callable => {
  const seq = length < of ? of - 1 : of;
  return {
    id: `remove-length(${base.id},${length},${of})`,
    label: base.label,
    name: `${base.name}_simp`,
    ...(base.language ? { language: base.language } : {}),
    call: async (args, factor) => {
      const s = strongest(...args);
      if (s) return s;
      const n = lengthIn(args[seq], base.language);
      if (n === null) return D;
      return base.call(insertAt(args, length, n), factor);
    },
  };
};

/**
 * Add-length adapter, on the host: the view takes an extra int, the length of parameter `of`,
 * just before it, and drops it when calling the program (the authors' `add_length_parameter_adapter`,
 * `f_with_len`). Inputs get the true length inserted, so the program never sees an inconsistent one.
 * @internal
 */
export const addLengthView = (base: Callable, of: number): Callable => ({
  id: `add-length(${base.id},${of})`,
  label: base.label,
  name: `${base.name}_with_len`,
  ...(base.language ? { language: base.language } : {}),
  call: async (args, factor) => {
    const s = strongest(...args);
    if (s) return s;
    return base.call(dropAt(args, of), factor);
  },
});

/** Inserts the length of parameter `of` before it (add-length inputs); null when it has none. @internal */
export const addLengthInput = (args: readonly unknown[], of: number, language?: string): unknown[] | null => {
  const n = lengthIn(args[of], language);
  return n === null ? null : insertAt(args, of, n);
};

/**
 * Unpack-tuple adapter, on the host: the view takes the elements of the program's single tuple
 * parameter as its parameters and calls the program with them packed into a tuple (the authors'
 * `unpack_argument_adapter`).
 * @internal
 */
export const unpackView = (base: Callable): Callable => ({
  id: `unpack(${base.id})`,
  label: base.label,
  name: `${base.name}_unpacked`,
  ...(base.language ? { language: base.language } : {}),
  call: async (args, factor) => {
    const s = strongest(...args);
    if (s) return s;
    return base.call([tuple(...args)], factor);
  },
});
