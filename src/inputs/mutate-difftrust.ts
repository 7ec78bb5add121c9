import { comparator, encode, FrozenSet, PyDict, PyFloat, pyFloat, Tuple } from '../values/index.ts';
import { childrenOf, countNodes, rebuild } from './mutation-tree.ts';
import type { Rng } from './rng.ts';
import { isIntNumber } from './value-kind.ts';

/**
 * The `difftrust` profile: the mutation distribution of the incoherence paper's tool, as
 * `shared/data/README.md` describes it, for comparing with the paper's numbers. Each mutation
 * picks one node of the argument uniformly (pre-order, dict keys and values included) and applies
 * one operator of its type; inserted "dummy" elements let types drift (a list of ints may gain a
 * `None`). Where the README is terse, the paper's table 6 and its public artifact decide: a bool
 * becomes a random bool (a flip half the time), floats move by U(-1, 1) twice as often as by
 * U(-10, 10), dicts also swap and duplicate entries, and None, frozensets and other values stay.
 */

const python = comparator('python');
const pyKey = (x: unknown): string => python.prepare(encode(x)).key;

const INT_STEPS = [-10, -1, 1, 10];

const RANGE_DRAW = [0, 0, 1, 1, 1, 1, 2] as const;
const RANGE_LOW = [0, 32, 127] as const;
const RANGE_HIGH = [31, 127, 255] as const;
const LATIN1 = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));
/** A character from the artifact's ranges: control, printable (most often) or extended. */
const randomChar = (rng: Rng): string => {
  const range = rng.pick(RANGE_DRAW);
  return LATIN1[rng.int(RANGE_LOW[range], RANGE_HIGH[range])] as string;
};

/**
 * The seven string operators on code points. The reference implementation: {@link mutateString}
 * runs the same operators on UTF-16 slices when the string has no surrogate (then code units are
 * code points), which skips building an array of one-character strings per mutation; on long
 * seed strings that array was the largest cost of input generation. @internal
 */
export const mutateCodePoints = (s: string, rng: Rng): string => {
  let chars = [...s];
  const n = chars.length;
  switch (rng.int(0, 6)) {
    case 0:
      if (n > 0) chars[rng.int(0, n - 1)] = randomChar(rng);
      break;
    case 1:
      if (n > 0) chars.splice(rng.int(0, n - 1), 1);
      break;
    case 2:
      if (n === 0) chars.push(randomChar(rng));
      else chars.splice(rng.int(0, n - 1), 0, randomChar(rng));
      break;
    case 3:
      if (n > 0) {
        const i = rng.int(0, n - 1);
        const j = rng.int(i, n - 1);
        chars = [...chars.slice(0, i), ...chars.slice(j)];
      }
      break;
    case 4:
      if (n > 0) {
        const i = rng.int(0, n - 1);
        const j = rng.int(i, n - 1);
        chars = [...chars.slice(0, j), ...chars.slice(i, j), ...chars.slice(j)];
      }
      break;
    case 5:
      for (let k = rng.int(0, 10); k > 0; k--) chars.push(randomChar(rng));
      break;
    case 6:
      if (n > 0) chars.length -= rng.int(0, n - 1);
      break;
  }
  return chars.join('');
};

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * {@link mutateCodePoints} with the same draws in the same order and the same result, on
 * string slices. @internal
 */
export const mutateString = (s: string, rng: Rng): string =>
  SURROGATE.test(s) ? mutateCodePoints(s, rng) : mutateUnits(s, rng);

/** {@link mutateString} on a string without surrogates (its results have none either). */
const mutateUnits = (s: string, rng: Rng): string => {
  const n = s.length;
  switch (rng.int(0, 6)) {
    case 0: {
      if (n === 0) return s;
      const i = rng.int(0, n - 1);
      return s.slice(0, i) + randomChar(rng) + s.slice(i + 1);
    }
    case 1: {
      if (n === 0) return s;
      const i = rng.int(0, n - 1);
      return s.slice(0, i) + s.slice(i + 1);
    }
    case 2: {
      if (n === 0) return randomChar(rng);
      const i = rng.int(0, n - 1);
      return s.slice(0, i) + randomChar(rng) + s.slice(i);
    }
    case 3: {
      if (n === 0) return s;
      const i = rng.int(0, n - 1);
      const j = rng.int(i, n - 1);
      return s.slice(0, i) + s.slice(j);
    }
    case 4: {
      if (n === 0) return s;
      const i = rng.int(0, n - 1);
      const j = rng.int(i, n - 1);
      return s.slice(0, j) + s.slice(i, j) + s.slice(j);
    }
    case 5: {
      let tail = '';
      for (let k = rng.int(0, 10); k > 0; k--) tail += randomChar(rng);
      return s + tail;
    }
    default:
      return n === 0 ? s : s.slice(0, n - rng.int(0, n - 1));
  }
};

/**
 * Containers the current {@link mutateDifftrust} call made and may change in place: each is
 * referenced once in the value being mutated, and so is every container above it (an owned
 * container's parent is owned too). Seeds and their subtrees are never here, and so never change;
 * they stay shared with every draw. Emptied when the call returns.
 */
const owned = new Set<object>();

const own = <T extends object>(v: T): T => {
  owned.add(v);
  return v;
};

/** A container referenced twice is no longer owned, nor anything under it. */
const disown = (v: unknown): void => {
  if (typeof v !== 'object' || v === null || !owned.delete(v)) return;
  for (const child of childrenOf(v)) disown(child);
};

/** A copy of a list or tuple, of the same class, without Symbol.species (a Tuple's slice builds two). */
const copySequence = (items: unknown[]): unknown[] => {
  if (items instanceof Tuple) {
    const out = new Tuple();
    for (let i = 0; i < items.length; i++) out[i] = items[i];
    return out;
  }
  return (items as unknown[]).slice();
};

const insertAt = (items: unknown[], at: number, x: unknown): void => {
  for (let i = items.length; i > at; i--) items[i] = items[i - 1];
  items[at] = x;
};

const removeAt = (items: unknown[], at: number): void => {
  for (let i = at; i + 1 < items.length; i++) items[i] = items[i + 1];
  items.length--;
};

/** The artifact's dummy elements, in its order; only the drawn one is built. */
const dummyElement = (i: number): unknown => {
  switch (i) {
    case 0:
      return null;
    case 1:
      return false;
    case 2:
      return 0;
    case 3:
      return pyFloat(0);
    case 4:
      return '';
    case 5:
      return own([]);
    case 6:
      return new PyDict();
    default:
      return new Set();
  }
};
const DUMMY_ELEMENTS = 8;
/** The artifact's dummy keys: the first five dummy elements. */
const DUMMY_KEYS = 5;
/** A dummy dict entry: every dummy key with every dummy element, key-major. */
const dummyEntry = (i: number): [unknown, unknown] => [
  dummyElement(Math.floor(i / DUMMY_ELEMENTS)),
  dummyElement(i % DUMMY_ELEMENTS),
];

/**
 * How many nodes the last {@link mutateNode} added (negative: removed); NaN when it does not
 * know, and the caller counts.
 */
let nodesAdded = 0;

/**
 * The four sequence operators: insert a dummy, swap, duplicate, delete. Changes `items` in place
 * when `mine`, a copy otherwise; unchanged items come back as they are. `dummies` is how many
 * dummies there are, `dummy(i)` builds one.
 */
const mutateItems = (
  items: unknown[],
  mine: boolean,
  rng: Rng,
  dummies: number,
  dummy: (i: number) => unknown,
): unknown[] => {
  const n = items.length;
  nodesAdded = 0;
  switch (rng.int(0, 3)) {
    case 0: {
      const x = dummy(rng.int(0, dummies - 1));
      const out = mine ? items : own(copySequence(items));
      insertAt(out, n === 0 ? 0 : rng.int(0, n - 1), x);
      nodesAdded = 1;
      return out;
    }
    case 1: {
      if (n <= 1) return items;
      const i = rng.int(0, n - 1);
      const j = rng.int(0, n - 1);
      const out = mine ? items : own(copySequence(items));
      const x = out[i];
      out[i] = out[j];
      out[j] = x;
      return out;
    }
    case 2: {
      if (n === 0) return items;
      const x = items[rng.int(0, n - 1)];
      const out = mine ? items : own(copySequence(items));
      insertAt(out, rng.int(0, n - 1), x);
      disown(x);
      nodesAdded = countNodes(x);
      return out;
    }
    default: {
      if (n === 0) return items;
      const at = rng.int(0, n - 1);
      const out = mine ? items : own(copySequence(items));
      nodesAdded = -countNodes(out[at]);
      removeAt(out, at);
      return out;
    }
  }
};

/** Python set semantics: 0, False and 0.0 are one element. */
const pySet = (items: unknown[]): Set<unknown> => {
  const seen = new Set<string>();
  const out = new Set<unknown>();
  for (const x of items) {
    const k = pyKey(x);
    if (!seen.has(k)) {
      seen.add(k);
      out.add(x);
    }
  }
  return out;
};

/** Python dict semantics: equal keys keep the first key's position and the last value. */
const pyDict = (like: Map<unknown, unknown>, entries: Array<[unknown, unknown]>): Map<unknown, unknown> => {
  const byKey = new Map<string, [unknown, unknown]>();
  for (const [k, v] of entries) {
    const key = pyKey(k);
    const prev = byKey.get(key);
    if (prev) prev[1] = v;
    else byKey.set(key, [k, v]);
  }
  const out = like instanceof PyDict ? new PyDict() : new Map();
  for (const [k, v] of byKey.values()) out.set(k, v);
  return out;
};

/** One operator of the node's type; sets {@link nodesAdded}. */
const mutateNode = (v: unknown, rng: Rng): unknown => {
  nodesAdded = 0;
  switch (typeof v) {
    case 'boolean':
      return rng.chance(0.5);
    case 'number':
      return isIntNumber(v) ? v + (INT_STEPS[rng.int(0, 3)] as number) : mutateFloat(v, rng);
    case 'bigint':
      return v + BigInt(INT_STEPS[rng.int(0, 3)] as number);
    case 'string':
      return mutateString(v, rng);
    case 'object':
      break;
    default:
      return v;
  }
  if (v === null) return v;
  if (Array.isArray(v)) return mutateItems(v, owned.has(v), rng, DUMMY_ELEMENTS, dummyElement);
  if (v instanceof PyFloat) return mutateFloat(v.value, rng);
  if (v instanceof FrozenSet) return v;
  if (v instanceof Set) {
    const items = [...v];
    const n = items.length;
    const action = rng.int(0, 3);
    if (action === 0) {
      const dummy = dummyElement(rng.int(0, DUMMY_KEYS - 1));
      if (n === 0) items.push(dummy);
      else insertAt(items, rng.int(0, n - 1), dummy);
    } else if (action === 1 && n > 0) removeAt(items, rng.int(0, n - 1));
    nodesAdded = Number.NaN;
    return own(pySet(items));
  }
  if (v instanceof Map) {
    const entries = mutateItems([...v.entries()], true, rng, DUMMY_KEYS * DUMMY_ELEMENTS, dummyEntry);
    nodesAdded = Number.NaN;
    return own(pyDict(v, entries as Array<[unknown, unknown]>));
  }
  // None, frozensets, plain objects and values the artifact has no handler for stay as they are.
  return v;
};

const mutateFloat = (x: number, rng: Rng): unknown => {
  const small = rng.uniform(-1, 1);
  const large = rng.uniform(-10, 10);
  return pyFloat(x + (rng.int(0, 2) < 2 ? small : large));
};

/** Whether the last {@link mutateAt} passed a set, dict or map (rebuilding it may merge members). */
let keyed = false;

/**
 * Mutates the node with pre-order index `index` of `v` (0: `v` itself) and returns `v` changed:
 * `v` itself when it is owned or nothing changed, else a copy of the containers on the path.
 */
const mutateAt = (v: unknown, index: number, rng: Rng): unknown => {
  if (index === 0) return mutateNode(v, rng);
  let k = index - 1; // step past `v` into its children
  if (Array.isArray(v)) {
    let i = 0;
    for (; i < v.length; i++) {
      const x: unknown = v[i];
      const size = typeof x !== 'object' || x === null ? 1 : countNodes(x);
      if (k < size) break;
      k -= size;
    }
    const child: unknown = v[i];
    const next = mutateAt(child, k, rng);
    if (next === child) return v;
    const out = owned.has(v) ? v : own(copySequence(v));
    out[i] = next;
    return out;
  }
  // Sets, dicts, maps and objects are rebuilt as replaceAt does: a new member may equal another.
  if (v instanceof Set || v instanceof Map) keyed = true;
  const children = childrenOf(v);
  let i = 0;
  for (; i < children.length; i++) {
    const size = countNodes(children[i]);
    if (k < size) break;
    k -= size;
  }
  children[i] = mutateAt(children[i], k, rng);
  return own(rebuild(v, children) as object);
};

/** Applies `count` single-node mutations to one argument. */
export const mutateDifftrust = (value: unknown, count: number, rng: Rng): unknown => {
  // A string root is the only node: no node to draw, no count to keep.
  if (typeof value === 'string' && !SURROGATE.test(value)) {
    let s = value;
    for (let i = 0; i < count; i++) s = mutateUnits(s, rng);
    return s;
  }
  try {
    let current = value;
    let size = countNodes(current);
    for (let i = 0; i < count; i++) {
      keyed = false;
      current = mutateAt(current, rng.int(0, size - 1), rng);
      // The size changes by what the mutated node gained, unless a set or dict above it merged
      // the new value with an equal sibling, or the node was one: then count again.
      size = keyed || Number.isNaN(nodesAdded) ? countNodes(current) : size + nodesAdded;
    }
    return current;
  } finally {
    owned.clear();
  }
};
