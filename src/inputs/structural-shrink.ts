import { PyFloat, pyFloat, Tuple } from '../values/index.ts';
import { isIntNumber, sameMap, sameSequence, sameSet } from './value-kind.ts';

/**
 * Structural shrinking for values that did not come from a fast-check arbitrary (seed mutations,
 * examples, user witnesses). Every candidate keeps the kinds of the original (a tuple stays a
 * tuple of the same arity, a Python float stays a float, an int stays an int) and is strictly
 * smaller by {@link compareComplexity}, so repeated shrinking always terminates.
 */

/**
 * How big a value is: first its structure (nodes and characters), then the magnitude of its
 * numbers. Magnitudes add up on a log scale, so shrinking one small number still counts next to a
 * huge one.
 */
export interface Complexity {
  readonly size: number;
  readonly magnitude: number;
}

const SAFE_STEP = 2 ** 32;
const NON_FINITE = 4096;

const logMagnitude = (x: number): number => Math.log2(1 + Math.abs(x));

const bigMagnitude = (x: bigint): number => {
  const abs = x < 0n ? -x : x;
  if (abs < 2n ** 1000n) return logMagnitude(Number(abs));
  const hex = abs.toString(16);
  return (hex.length - 12) * 4 + Math.log2(Number.parseInt(hex.slice(0, 12), 16));
};

/** A plain record: `{}` or a null-prototype object (what `fc.record` builds). */
const isPlainRecord = (x: object): boolean => {
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
};

export const complexity = (v: unknown): Complexity => {
  let size = 0;
  let magnitude = 0;
  const visit = (x: unknown): void => {
    size++;
    switch (typeof x) {
      case 'string':
        size += x.length;
        return;
      case 'number':
        magnitude += Number.isFinite(x) ? logMagnitude(x) + (Number.isInteger(x) ? 0 : 0.5) : NON_FINITE;
        return;
      case 'bigint':
        magnitude += bigMagnitude(x);
        return;
      case 'boolean':
        magnitude += x ? 1 : 0;
        return;
    }
    if (typeof x !== 'object' || x === null) return;
    if (x instanceof PyFloat) {
      magnitude += logMagnitude(x.value);
      return;
    }
    if (Array.isArray(x)) for (const item of x) visit(item);
    else if (x instanceof Set) for (const item of x) visit(item);
    else if (x instanceof Map) {
      for (const [k, item] of x) {
        visit(k);
        visit(item);
      }
    } else if (x instanceof Uint8Array) size += x.length;
    else if (isPlainRecord(x)) {
      for (const item of Object.values(x)) visit(item);
    }
  };
  visit(v);
  return { size, magnitude };
};

/** Negative when `a` is smaller than `b`, zero when equally complex, positive when larger. */
export const compareComplexity = (a: Complexity, b: Complexity): number =>
  a.size !== b.size ? a.size - b.size : a.magnitude - b.magnitude;

function* shrinkInt(x: number): Generator<number> {
  if (x === 0) return;
  yield 0;
  const half = Math.trunc(x / 2);
  if (half !== 0) yield half;
  if (Math.abs(x) < SAFE_STEP && Math.abs(x) > 1 && x - Math.sign(x) !== half) yield x - Math.sign(x);
}

function* shrinkBigInt(x: bigint): Generator<bigint> {
  if (x === 0n) return;
  yield 0n;
  const half = x / 2n;
  if (half !== 0n) yield half;
  const step = x > 0n ? x - 1n : x + 1n;
  if (step !== half && step !== 0n && Math.abs(Number(x)) < SAFE_STEP) yield step;
}

/** True when `c` is measurably smaller than `x` on the log scale of {@link complexity}. */
const measurablySmaller = (c: number, x: number): boolean => (Math.abs(x) - Math.abs(c)) / Math.abs(x) > 1e-9;

/** Non-integral numbers stay non-integral, so they stay floats in Python and numbers in JS. */
function* shrinkFraction(x: number): Generator<number> {
  if (!Number.isFinite(x)) return;
  const sign = Math.sign(x);
  const whole = Math.trunc(x);
  const half = 0.5 * sign;
  if (Math.abs(x) > 0.5) yield half;
  const wholeAndHalf = whole + half;
  if (whole !== 0 && wholeAndHalf !== half && measurablySmaller(wholeAndHalf, x)) yield wholeAndHalf;
  const oneDecimal = Math.trunc(x * 10) / 10;
  if (
    !Number.isInteger(oneDecimal) &&
    oneDecimal !== half &&
    oneDecimal !== wholeAndHalf &&
    measurablySmaller(oneDecimal, x)
  )
    yield oneDecimal;
}

function* shrinkString(s: string): Generator<string> {
  if (s.length === 0) return;
  yield '';
  if (s.length > 2) {
    yield s.slice(0, Math.floor(s.length / 2));
    yield s.slice(Math.floor(s.length / 2));
  }
  for (let i = 0; i < s.length && i < 32; i++) yield s.slice(0, i) + s.slice(i + 1);
}

function* shrinkItems(items: readonly unknown[], removable: boolean): Generator<unknown[]> {
  const n = items.length;
  if (removable && n > 0) {
    yield [];
    if (n > 2) {
      yield items.slice(0, Math.floor(n / 2));
      yield items.slice(Math.floor(n / 2));
    }
    for (let i = 0; i < n && i < 32; i++) yield [...items.slice(0, i), ...items.slice(i + 1)];
  }
  for (let i = 0; i < n && i < 32; i++) {
    for (const smaller of shrinkValue(items[i])) {
      const next = items.slice();
      next[i] = smaller;
      yield next;
    }
  }
}

/** Smaller variants of a value, simplest first; each keeps the value's kinds. */
export function* shrinkValue(v: unknown): Generator<unknown> {
  switch (typeof v) {
    case 'boolean':
      if (v) yield false;
      return;
    case 'number':
      yield* isIntNumber(v) ? shrinkInt(v) : shrinkFraction(v);
      return;
    case 'bigint':
      yield* shrinkBigInt(v);
      return;
    case 'string':
      yield* shrinkString(v);
      return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (v instanceof PyFloat) {
    for (const x of shrinkInt(v.value)) yield pyFloat(x);
    return;
  }
  if (Array.isArray(v)) {
    // A tuple's arity is part of its type (Tuple[int, int]); only lists change length.
    for (const items of shrinkItems(v, !(v instanceof Tuple))) yield sameSequence(v, items);
    return;
  }
  if (v instanceof Set) {
    for (const items of shrinkItems([...v], true)) {
      const next = sameSet(v, items);
      if (next.size === items.length) yield next;
    }
    return;
  }
  if (v instanceof Map) {
    const keys = [...v.keys()];
    const values = [...v.values()];
    const n = keys.length;
    if (n > 0) yield sameMap(v, []);
    for (let i = 0; i < n && i < 32; i++) {
      yield sameMap(
        v,
        keys.flatMap((k, j) => (j === i ? [] : [[k, values[j]] as [unknown, unknown]])),
      );
    }
    for (let i = 0; i < n && i < 32; i++) {
      for (const smaller of shrinkValue(values[i])) {
        yield sameMap(
          v,
          keys.map((k, j) => [k, j === i ? smaller : values[j]] as [unknown, unknown]),
        );
      }
    }
    return;
  }
  if (isPlainRecord(v)) {
    const record = v as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      for (const smaller of shrinkValue(record[key])) {
        // Same prototype as the original: fc.record builds null-prototype objects.
        yield Object.assign(Object.create(Object.getPrototypeOf(record)), record, { [key]: smaller });
      }
    }
  }
}

/** Smaller variants of an argument tuple: the arity never changes, each argument shrinks in turn. */
export function* shrinkArgs<A extends readonly unknown[]>(args: A): Generator<A> {
  for (const next of shrinkItems(args, false)) yield next as unknown as A;
}
