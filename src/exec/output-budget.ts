import { getHeapStatistics } from 'node:v8';
import { optionError } from '../errors/index.ts';
import type { Tagged } from '../values/index.ts';
import { comparator, type EqualityMode, sha256, valueCellKey } from '../values/index.ts';
import { type Outcome, pendingTextLength, type ValueOutcome } from './outcome.ts';

/**
 * Bounded memory for the outputs a run keeps. Each value outcome is charged its size (characters
 * of its wire form); once a row or the run has spent its budget, further outputs are kept as a
 * digest: a SHA-256 of their canonical key under each equality mode, enough to tell equal
 * outputs apart from different ones, but not to apply a float tolerance or a custom equality.
 */

/** How an output kept as a digest compares under one equality mode. @public */
export interface DigestKey {
  /** The cell key: equal keys mean equal values under the mode. */
  readonly key: string;
  /** Whether the value holds a float, so that a tolerance could make a different key agree. */
  readonly inexact: boolean;
}

/** What is left of an output past the output memory budget. @public */
export interface OutputDigest {
  /** Size of the output (characters of its wire form). */
  readonly bytes: number;
  /** SHA-256 of the exact wire JSON. */
  readonly sha256: string;
  /** Its cell key under each equality mode (`custom`: the exact wire JSON). */
  readonly keys: Readonly<Record<EqualityMode | 'custom', DigestKey>>;
}

const MODES: readonly EqualityMode[] = ['strict', 'python', 'mixed', 'difftrust'];
const comparators = new Map(MODES.map((m) => [m, comparator(m)]));

/**
 * A value outcome whose output was dropped for memory: `digest` says what it was. `tagged` is a
 * string that says so (readers that do not know digests then see a description, never the value
 * of another output); `value` is the same string.
 */
class DigestOutcome {
  readonly digest: OutputDigest;
  constructor(digest: OutputDigest) {
    this.digest = digest;
  }
  get kind(): 'value' {
    return 'value';
  }
  get tagged(): Tagged {
    return describeDigest(this.digest);
  }
  get value(): unknown {
    return this.tagged;
  }
  toJSON(): unknown {
    return { kind: 'value', digest: this.digest };
  }
}

/** One-line description of a digest, for witnesses and messages. @public */
export const describeDigest = (d: OutputDigest): string =>
  `<an output of ${d.bytes} characters, kept only as its digest sha256:${d.sha256.slice(0, 16)} (past the run's output memory budget)>`;

/** The digest of an output, if the outcome is one kept as a digest. @public */
export const outcomeDigest = (o: Outcome): OutputDigest | null =>
  o instanceof DigestOutcome ? o.digest : null;

/** Reduces a value outcome to its digest (parses and normalizes it once under each mode). */
const digestOf = (o: ValueOutcome, bytes: number): Outcome => {
  const tagged = o.tagged;
  const json = JSON.stringify(tagged);
  const keys: Record<string, DigestKey> = { custom: { key: valueCellKey(json), inexact: true } };
  for (const [mode, compare] of comparators) {
    const prepared = compare.prepare(tagged);
    keys[mode] = { key: valueCellKey(prepared.key), inexact: prepared.inexact };
  }
  return new DigestOutcome({
    bytes,
    sha256: sha256(json),
    keys: keys as OutputDigest['keys'],
  }) as unknown as Outcome;
};

/** Size of a tagged value: characters of strings and keys plus a few per node. No recursion. */
export const taggedSize = (t: Tagged): number => {
  if (typeof t === 'string') return t.length + 2;
  if (t === null || typeof t !== 'object') return 8;
  let size = 0;
  const stack: unknown[] = [t];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === 'string') size += x.length + 2;
    else if (x === null || typeof x !== 'object') size += 8;
    else if (Array.isArray(x)) {
      size += 2;
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
    } else {
      size += 2;
      for (const k of Object.keys(x)) {
        size += k.length + 3;
        stack.push((x as Record<string, unknown>)[k]);
      }
    }
  }
  return size;
};

/** Default per-row output budget: 64 MiB of output characters. @public */
export const DEFAULT_ROW_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Default per-run output budget: a quarter of this process's V8 heap limit, at most 1 GiB, so
 * that the outputs a run keeps can never exhaust the host's heap.
 * @public
 */
export const defaultRunOutputBytes = (): number =>
  Math.min(1024 * 1024 * 1024, Math.floor(getHeapStatistics().heap_size_limit / 4));

/** Output memory options of `run`. @public */
export interface OutputBudgetOptions {
  /**
   * Output characters one candidate's row may keep whole; later outputs of that row are kept as
   * digests. @defaultValue 64 MiB
   */
  maxRowOutputBytes?: number;
  /**
   * Output characters the whole run may keep whole; later outputs are kept as digests.
   * @defaultValue a quarter of the V8 heap limit, at most 1 GiB
   */
  maxRunOutputBytes?: number;
}

const readBudget = (field: keyof OutputBudgetOptions, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw optionError({
      where: 'run(task, candidates, inputs, options)',
      field,
      rule: 'must be a non-negative number of characters',
      got: value,
      example: 1_000_000,
    });
  }
  return value;
};

/**
 * The budget of one run: `admit` charges an outcome to its row and to the run, and returns it,
 * or its digest once either budget is spent.
 * @internal
 */
export const outputBudget = (rows: number, options: OutputBudgetOptions) => {
  const rowMax = readBudget('maxRowOutputBytes', options.maxRowOutputBytes, DEFAULT_ROW_OUTPUT_BYTES);
  const runMax = readBudget('maxRunOutputBytes', options.maxRunOutputBytes, defaultRunOutputBytes());
  const used = new Array<number>(rows).fill(0);
  let total = 0;
  let digests = 0;
  return {
    admit(row: number, o: Outcome): Outcome {
      // Text not parsed yet is measured as text: admitting must not parse every output.
      const pending = pendingTextLength(o);
      if (pending === null && o.kind !== 'value') return o;
      const bytes = pending ?? taggedSize((o as ValueOutcome).tagged);
      const rowUsed = used[row] ?? 0;
      if (rowUsed + bytes <= rowMax && total + bytes <= runMax) {
        used[row] = rowUsed + bytes;
        total += bytes;
        return o;
      }
      if (o.kind !== 'value') return o;
      digests++;
      return digestOf(o, bytes);
    },
    get digests(): number {
      return digests;
    },
  };
};
