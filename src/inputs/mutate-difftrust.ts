import { comparator, encode, PyDict, pyFloat } from '../values/index.ts';
import { countNodes, nodeAt, replaceAt } from './mutation-tree.ts';
import type { Rng } from './rng.ts';
import { kindOf, numberOf, sameSequence } from './value-kind.ts';

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

const dummyElements = (): unknown[] => [null, false, 0, pyFloat(0), '', [], new PyDict(), new Set()];
const dummyKeys = (): unknown[] => [null, false, 0, pyFloat(0), ''];

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
export const mutateString = (s: string, rng: Rng): string => {
  if (SURROGATE.test(s)) return mutateCodePoints(s, rng);
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

/** The four sequence operators: insert a dummy, swap, duplicate, delete. */
const mutateItems = (items: unknown[], rng: Rng, dummies: () => unknown[]): unknown[] => {
  const out = items.slice();
  const n = out.length;
  switch (rng.int(0, 3)) {
    case 0: {
      const dummy = rng.pick(dummies());
      if (n === 0) out.push(dummy);
      else out.splice(rng.int(0, n - 1), 0, dummy);
      break;
    }
    case 1:
      if (n > 1) {
        const i = rng.int(0, n - 1);
        const j = rng.int(0, n - 1);
        [out[i], out[j]] = [out[j], out[i]];
      }
      break;
    case 2:
      if (n > 0) {
        const from = rng.int(0, n - 1);
        out.splice(rng.int(0, n - 1), 0, out[from]);
      }
      break;
    case 3:
      if (n > 0) out.splice(rng.int(0, n - 1), 1);
      break;
  }
  return out;
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

const mutateNode = (v: unknown, rng: Rng): unknown => {
  switch (kindOf(v)) {
    case 'bool':
      return rng.chance(0.5);
    case 'int':
      return typeof v === 'bigint' ? v + BigInt(rng.pick(INT_STEPS)) : (v as number) + rng.pick(INT_STEPS);
    case 'float': {
      const small = rng.uniform(-1, 1);
      const large = rng.uniform(-10, 10);
      return pyFloat(numberOf(v) + rng.pick([small, small, large]));
    }
    case 'str':
      return mutateString(v as string, rng);
    case 'list':
    case 'tuple':
      return sameSequence(v as unknown[], mutateItems(v as unknown[], rng, dummyElements));
    case 'set': {
      const items = [...(v as Set<unknown>)];
      const n = items.length;
      const action = rng.int(0, 3);
      if (action === 0) {
        const dummy = rng.pick(dummyKeys());
        if (n === 0) items.push(dummy);
        else items.splice(rng.int(0, n - 1), 0, dummy);
      } else if (action === 1 && n > 0) items.splice(rng.int(0, n - 1), 1);
      return pySet(items);
    }
    case 'dict':
    case 'map': {
      const m = v as Map<unknown, unknown>;
      const pairs = () =>
        dummyKeys().flatMap((k) => dummyElements().map((x) => [k, x] as [unknown, unknown]));
      const entries = mutateItems([...m.entries()], rng, pairs) as Array<[unknown, unknown]>;
      return pyDict(m, entries);
    }
    default:
      // None, frozensets and values the artifact has no handler for are left as they are.
      return v;
  }
};

/** Applies `count` single-node mutations to one argument. */
export const mutateDifftrust = (value: unknown, count: number, rng: Rng): unknown => {
  let current = value;
  let size = countNodes(current);
  for (let i = 0; i < count; i++) {
    const node = nodeAt(current, rng.int(0, size - 1));
    const replacement = mutateNode(node.value, rng);
    current = replaceAt(current, node.path, replacement);
    // The size changes by the replaced subtree's, unless a set or dict above it merged the new
    // value with an equal sibling: then count again.
    size = node.keyed ? countNodes(current) : size - countNodes(node.value) + countNodes(replacement);
  }
  return current;
};
