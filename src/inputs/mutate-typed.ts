import { FrozenSet, PyDict, PyFloat, pyFloat, Tuple, tuple } from '../values/index.ts';
import { childrenOf, isContainer, replaceAt } from './mutation-tree.ts';
import type { Rng } from './rng.ts';
import type { NumberHint, Shape, StringHint } from './shape.ts';
import { kindOf, numberOf, sameMap, sameSequence, sameSet } from './value-kind.ts';

/**
 * The `typed` profile: type-aware mutation (EvalPlus, table 6 of the incoherence paper) that keeps
 * every value within the type the seeds show. An int stays an int, a float a float (an integral
 * result is boxed with `pyFloat` for Python), a tuple keeps its arity, and a container only gains
 * elements of the element type the seeds show. Strings draw characters and words from the seeds
 * at the same position, so formatted inputs ("1/5", "2020-01-01", "o| .|") stay mostly well-formed.
 */

export interface TypedContext {
  readonly rng: Rng;
  /** Python: integral floats are boxed so they stay floats; JavaScript: plain numbers. */
  readonly python: boolean;
  /** Cap on the length of strings and collections grown by mutation. */
  readonly maxLength: number;
}

const PRINTABLE_LO = 32;
const PRINTABLE_HI = 126;

const matches = (s: Shape, kind: string, v: unknown): boolean => {
  switch (kind) {
    case 'int':
      return s.t === 'int' || s.t === 'number' || s.t === 'bigint' || (s.t === 'literal' && s.value === v);
    case 'float':
      return s.t === 'float' || s.t === 'number';
    case 'str':
      return s.t === 'str' || (s.t === 'literal' && s.value === v);
    case 'bool':
      return s.t === 'bool' || (s.t === 'literal' && s.value === v);
    case 'none':
      return s.t === 'none';
    case 'undefined':
      return s.t === 'undefined';
    case 'list':
      return s.t === 'list';
    case 'tuple':
      return s.t === 'tuple' || s.t === 'vartuple';
    case 'set':
    case 'frozenset':
      return s.t === 'set';
    case 'dict':
    case 'map':
      return s.t === 'dict';
    case 'object':
      return s.t === 'object' || (s.t === 'dict' && s.kind === 'record');
    default:
      return s.t === 'opaque';
  }
};

/** Picks the member of a union that describes `v`; null when nothing does. */
export const shapeFor = (shape: Shape | null, v: unknown): Shape | null => {
  if (shape === null || shape.t !== 'union') return shape;
  const kind = kindOf(v);
  for (const option of shape.options) if (matches(option, kind, v)) return option;
  return null;
};

const childShape = (shape: Shape | null, parent: unknown, index: number): Shape | null => {
  if (shape === null) return null;
  switch (shape.t) {
    case 'list':
    case 'vartuple':
    case 'set':
      return shape.item;
    case 'tuple':
      return shape.items[index] ?? null;
    case 'dict':
      return index % 2 === 0 ? shape.key : shape.value;
    case 'object': {
      const name = Object.keys(parent as object)[index];
      return shape.props.find((p) => p.name === name)?.shape ?? null;
    }
    default:
      return null;
  }
};

interface TypedNode {
  readonly value: unknown;
  /** The declared shape (a union stays a union, so the value may switch member). */
  readonly shape: Shape | null;
}

/** The nodes of one value in pre-order, as flat arrays: the hot path allocates little. */
class NodeTable {
  readonly values: unknown[] = [];
  readonly shapes: (Shape | null)[] = [];
  readonly parents: number[] = [];
  readonly slots: number[] = [];
  readonly containers: number[] = [];

  constructor(root: unknown, shape: Shape | null) {
    this.visit(root, shape, -1, -1);
  }

  private visit(v: unknown, shape: Shape | null, parent: number, slot: number): void {
    const id = this.values.length;
    this.values.push(v);
    this.shapes.push(shape);
    this.parents.push(parent);
    this.slots.push(slot);
    if (!isContainer(v)) return;
    this.containers.push(id);
    const resolved = shapeFor(shape, v);
    const children = childrenOf(v);
    for (let i = 0; i < children.length; i++) this.visit(children[i], childShape(resolved, v, i), id, i);
  }

  pathOf(id: number): number[] {
    const path: number[] = [];
    for (let k = id; this.parents[k] !== -1; k = this.parents[k] as number)
      path.push(this.slots[k] as number);
    return path.reverse();
  }
}

// ---------------------------------------------------------------- fresh values of a shape

const freshInt = (hint: NumberHint | undefined, rng: Rng): number => {
  if (hint && hint.pool.length > 0 && rng.chance(0.5)) return rng.pick(hint.pool);
  const lo = hint ? Math.floor(hint.min) - 10 : -100;
  const hi = hint ? Math.ceil(hint.max) + 10 : 100;
  return rng.int(lo, hi);
};

const freshFloat = (hint: NumberHint | undefined, rng: Rng): number => {
  if (hint && hint.pool.length > 0 && rng.chance(0.5)) return rng.pick(hint.pool);
  const lo = hint ? hint.min - 10 : -100;
  const hi = hint ? hint.max + 10 : 100;
  return Math.round(rng.uniform(lo, hi) * 100) / 100;
};

const randomChar = (hint: StringHint | undefined, rng: Rng): string =>
  hint && hint.alphabet.length > 0 && rng.chance(0.8)
    ? (hint.alphabet[rng.int(0, hint.alphabet.length - 1)] as string)
    : String.fromCharCode(rng.int(PRINTABLE_LO, PRINTABLE_HI));

const freshString = (hint: StringHint | undefined, rng: Rng): string => {
  const roll = rng.unit();
  if (hint && hint.pool.length > 0 && roll < 0.3) return rng.pick(hint.pool);
  if (hint && hint.words.length > 0 && roll < 0.6) {
    const n = rng.int(1, 3);
    return Array.from({ length: n }, () => rng.pick(hint.words)).join(' ');
  }
  const n = rng.int(0, Math.min(10, Math.max(1, hint?.maxLength ?? 10)));
  let s = '';
  for (let i = 0; i < n; i++) s += randomChar(hint, rng);
  return s;
};

const float = (x: number, ctx: TypedContext): unknown => (ctx.python ? pyFloat(x) : x);

const fewCount = (depth: number, rng: Rng): number => (depth > 2 ? 0 : rng.int(0, 3));

/** A new value of a shape, small and close to what the seeds show. */
export const freshValue = (shape: Shape | null, ctx: TypedContext, depth = 0): unknown => {
  const { rng } = ctx;
  if (shape === null) return rng.int(-10, 10);
  switch (shape.t) {
    case 'int':
      return freshInt(shape.hint, rng);
    case 'float':
      return float(freshFloat(shape.hint, rng), ctx);
    case 'number':
      return rng.chance(0.5) ? freshInt(shape.hint, rng) : freshFloat(shape.hint, rng);
    case 'bigint':
      return BigInt(rng.int(-1000, 1000));
    case 'bool':
      return rng.chance(0.5);
    case 'none':
      return null;
    case 'undefined':
      return undefined;
    case 'literal':
      return shape.value;
    case 'str':
      return freshString(shape.hint, rng);
    case 'list':
      return Array.from({ length: fewCount(depth, rng) }, () => freshValue(shape.item, ctx, depth + 1));
    case 'tuple': {
      const items = shape.items.map((s) => freshValue(s, ctx, depth + 1));
      return shape.py ? tuple(...items) : items;
    }
    case 'vartuple':
      return tuple(
        ...Array.from({ length: fewCount(depth, rng) }, () => freshValue(shape.item, ctx, depth + 1)),
      );
    case 'set': {
      const items = Array.from({ length: fewCount(depth, rng) }, () =>
        freshValue(shape.item, ctx, depth + 1),
      );
      return shape.frozen ? new FrozenSet(items) : new Set(items);
    }
    case 'dict': {
      const entries = Array.from(
        { length: fewCount(depth, rng) },
        () =>
          [freshValue(shape.key, ctx, depth + 1), freshValue(shape.value, ctx, depth + 1)] as [
            unknown,
            unknown,
          ],
      );
      if (shape.kind === 'record') return Object.fromEntries(entries.map(([k, v]) => [String(k), v]));
      return shape.kind === 'pydict' ? new PyDict(entries) : new Map(entries);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const p of shape.props) {
        if (!p.optional || rng.chance(0.5)) out[p.name] = freshValue(p.shape, ctx, depth + 1);
      }
      return out;
    }
    case 'union':
      return freshValue(rng.pick(shape.options), ctx, depth);
    case 'opaque':
      return shape.pool.length > 0 ? rng.pick(shape.pool) : null;
  }
};

// ---------------------------------------------------------------- mutation operators

const SAFE = Number.MAX_SAFE_INTEGER;

const intStep = (rng: Rng): number => {
  const roll = rng.unit();
  const magnitude =
    roll < 0.35 ? 1 : roll < 0.6 ? rng.int(2, 10) : roll < 0.85 ? rng.int(11, 100) : rng.int(101, 1000);
  return rng.chance(0.5) ? magnitude : -magnitude;
};

const mutateInt = (v: number | bigint, hint: NumberHint | undefined, rng: Rng): number | bigint => {
  const roll = rng.unit();
  if (typeof v === 'bigint') {
    if (roll < 0.1) return -v;
    if (roll < 0.2) return v / 2n;
    return v + BigInt(intStep(rng));
  }
  let next: number;
  if (roll < 0.05) next = -v;
  else if (roll < 0.1) next = Math.trunc(v / 2);
  else if (roll < 0.18) next = hint && hint.pool.length > 0 ? rng.pick(hint.pool) : rng.pick([0, 1, -1]);
  else next = v + intStep(rng);
  return Math.abs(next) <= SAFE ? next + 0 : v;
};

const mutateFloat = (x: number, hint: NumberHint | undefined, rng: Rng): number => {
  if (!Number.isFinite(x)) return rng.uniform(-10, 10);
  const roll = rng.unit();
  if (roll < 0.4) return x + rng.uniform(-1, 1);
  if (roll < 0.7) return x + rng.uniform(-10, 10);
  if (roll < 0.8) return x * rng.uniform(0.5, 2);
  if (roll < 0.9) {
    const scale = 10 ** rng.int(0, 2);
    return Math.round(x * scale) / scale;
  }
  if (roll < 0.95) return -x;
  return hint && hint.pool.length > 0 ? rng.pick(hint.pool) : Math.round(x);
};

/**
 * Whether a UTF-16 code unit is what `\s` matches in a regular expression (ECMAScript white space
 * and line terminators): a scan with it finds the `\S+` runs without a match object per word.
 */
export const isSpaceUnit = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  (c >= 0xa0 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));

/** The `\S+` runs of `s`, as [start, end) pairs. @internal */
export const wordSpans = (s: string): Array<[number, number]> => {
  const spans: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    if (isSpaceUnit(s.charCodeAt(i))) {
      if (start >= 0) spans.push([start, i]);
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) spans.push([start, s.length]);
  return spans;
};

const mutateWords = (s: string, hint: StringHint, rng: Rng): string => {
  const spans = wordSpans(s);
  const word = rng.pick(hint.words);
  if (spans.length === 0) return s.length === 0 ? word : `${s}${word}`;
  const [a, b] = rng.pick(spans);
  switch (rng.int(0, 3)) {
    case 0:
      return `${s.slice(0, a)}${word} ${s.slice(a)}`;
    case 1:
      return s.slice(0, a) + word + s.slice(b);
    case 2:
      return s.slice(0, a) + s.slice(b).replace(/^\s+/, '');
    default: {
      const [c, d] = rng.pick(spans);
      if (c === a) return `${s.slice(0, b)} ${s.slice(a, b)}${s.slice(b)}`;
      const [first, second] =
        a < c
          ? [
              [a, b],
              [c, d],
            ]
          : [
              [c, d],
              [a, b],
            ];
      return (
        s.slice(0, first[0]) +
        s.slice(second[0], second[1]) +
        s.slice(first[1], second[0]) +
        s.slice(first[0], first[1]) +
        s.slice(second[1])
      );
    }
  }
};

const mutateString = (s: string, hint: StringHint | undefined, ctx: TypedContext): string => {
  const { rng } = ctx;
  if (hint && hint.words.length > 1 && rng.chance(0.25)) return mutateWords(s, hint, rng);
  const n = s.length;
  const last = Math.max(0, n - 1);
  switch (rng.int(n === 0 ? 2 : 0, 7)) {
    case 0: {
      const i = rng.int(0, last);
      return s.slice(0, i) + randomChar(hint, rng) + s.slice(i + 1);
    }
    case 1: {
      const i = rng.int(0, last);
      return s.slice(0, i) + s.slice(i + 1);
    }
    case 2:
    case 3: {
      const i = rng.int(0, n);
      return n >= ctx.maxLength ? s : s.slice(0, i) + randomChar(hint, rng) + s.slice(i);
    }
    case 4: {
      const i = rng.int(0, last);
      const j = rng.int(i, n);
      return s.slice(0, i) + s.slice(j);
    }
    case 5: {
      const i = rng.int(0, last);
      const j = rng.int(i, Math.min(n, i + 8));
      return n + (j - i) > ctx.maxLength ? s : s.slice(0, j) + s.slice(i, j) + s.slice(j);
    }
    case 6: {
      const i = rng.int(0, last);
      const c = s.charAt(i);
      const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      return s.slice(0, i) + flipped + s.slice(i + 1);
    }
    default: {
      if (n < 2) return s + randomChar(hint, rng);
      const i = rng.int(0, n - 2);
      return s.slice(0, i) + s.charAt(i + 1) + s.charAt(i) + s.slice(i + 2);
    }
  }
};

const mutateSequence = (items: unknown[], item: Shape | null, ctx: TypedContext): unknown[] => {
  const { rng } = ctx;
  const out = items.slice();
  const n = out.length;
  const roll = n === 0 ? 0 : rng.int(0, 4);
  if (roll <= 1 && n < ctx.maxLength) out.splice(rng.int(0, n), 0, freshValue(item, ctx));
  else if (roll === 2 && n < ctx.maxLength && n > 0) out.splice(rng.int(0, n), 0, out[rng.int(0, n - 1)]);
  else if (roll === 3 && n > 0) out.splice(rng.int(0, n - 1), 1);
  else if (n > 1) {
    const i = rng.int(0, n - 1);
    const j = rng.int(0, n - 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};

const mutateNode = (node: TypedNode, ctx: TypedContext): unknown => {
  const { rng } = ctx;
  const v = node.value;
  // A position that shows several types (Optional[int], int | str) may switch between them.
  if (node.shape?.t === 'union' && rng.chance(0.1)) return freshValue(node.shape, ctx);
  const shape = shapeFor(node.shape, v);
  switch (kindOf(v)) {
    case 'bool':
      return !v;
    case 'int': {
      const hint = shape && (shape.t === 'int' || shape.t === 'number') ? shape.hint : undefined;
      return mutateInt(v as number | bigint, hint, rng);
    }
    case 'float': {
      const hint = shape && (shape.t === 'float' || shape.t === 'number') ? shape.hint : undefined;
      const x = mutateFloat(numberOf(v), hint, rng);
      // Python keeps a float a float (4.0 is boxed); JavaScript has only numbers.
      return ctx.python || v instanceof PyFloat ? pyFloat(x) : x;
    }
    case 'str':
      return mutateString(v as string, shape?.t === 'str' ? shape.hint : undefined, ctx);
    case 'list':
      return mutateSequence(v as unknown[], shape?.t === 'list' ? shape.item : null, ctx);
    case 'tuple': {
      const items = v as unknown[];
      if (shape?.t === 'vartuple' || (shape === null && items.length === 0)) {
        return sameSequence(items, mutateSequence(items, shape?.t === 'vartuple' ? shape.item : null, ctx));
      }
      if (items.length === 0) return v;
      // A fixed-arity tuple keeps its length: mutate one element instead.
      const i = rng.int(0, items.length - 1);
      const child = childShape(shape, v, i);
      const next = mutateNode({ value: items[i], shape: child }, ctx);
      return replaceAt(v, [i], next);
    }
    case 'set':
    case 'frozenset': {
      const items = [...(v as Set<unknown>)];
      const item = shape?.t === 'set' ? shape.item : null;
      if (items.length > 0 && rng.chance(0.4)) items.splice(rng.int(0, items.length - 1), 1);
      else if (items.length < ctx.maxLength) items.push(freshValue(item, ctx));
      return sameSet(v as Set<unknown>, items);
    }
    case 'dict':
    case 'map': {
      const entries = [...(v as Map<unknown, unknown>).entries()];
      const key = shape?.t === 'dict' ? shape.key : null;
      const value = shape?.t === 'dict' ? shape.value : null;
      const roll = entries.length === 0 ? 0 : rng.int(0, 2);
      if (roll === 0 && entries.length < ctx.maxLength)
        entries.push([freshValue(key, ctx), freshValue(value, ctx)]);
      else if (roll === 1) entries.splice(rng.int(0, entries.length - 1), 1);
      else if (entries.length > 0) {
        const i = rng.int(0, entries.length - 1);
        entries[i] = [(entries[i] as [unknown, unknown])[0], freshValue(value, ctx)];
      }
      return sameMap(v as Map<unknown, unknown>, entries);
    }
    case 'object': {
      if (shape?.t !== 'object') return v;
      const optional = shape.props.filter((p) => p.optional);
      if (optional.length === 0) return v;
      const p = rng.pick(optional);
      const out = { ...(v as Record<string, unknown>) };
      if (p.name in out) delete out[p.name];
      else out[p.name] = freshValue(p.shape, ctx);
      return out;
    }
    case 'none':
      return v;
    default:
      return v;
  }
};

/** A list or tuple of scalars: the most common argument, mutated without building a node table. */
const isFlatSequence = (v: unknown): v is unknown[] => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++)
    if (typeof v[i] === 'object' && v[i] !== null && isContainer(v[i])) return false;
  return true;
};

/** One mutation of a flat sequence; draws exactly what the general path draws, so streams agree. */
const mutateFlat = (v: unknown[], shape: Shape | null, ctx: TypedContext): unknown => {
  const id = ctx.rng.chance(1 / 3) ? 0 : ctx.rng.int(0, v.length);
  if (id === 0) return mutateNode({ value: v, shape }, ctx);
  const child = childShape(shapeFor(shape, v), v, id - 1);
  const next = mutateNode({ value: v[id - 1], shape: child }, ctx);
  // Not a Tuple's own slice(): it goes through Symbol.species and builds a second Tuple.
  const items = v instanceof Tuple ? Array.from(v) : (v as unknown[]).slice();
  items[id - 1] = next;
  return sameSequence(v, items);
};

/** Applies `count` single-node mutations to one argument, keeping it within `shape`. */
export const mutateTyped = (
  value: unknown,
  shape: Shape | null,
  count: number,
  ctx: TypedContext,
): unknown => {
  let current = value;
  for (let i = 0; i < count; i++) {
    if (isFlatSequence(current)) {
      current = mutateFlat(current, shape, ctx);
      continue;
    }
    if (!isContainer(current)) {
      // The table of a leaf has one node and no container: nothing to draw.
      current = mutateNode({ value: current, shape }, ctx);
      continue;
    }
    const table = new NodeTable(current, shape);
    // Containers are few next to their elements; favour them so lengths vary too.
    const id =
      table.containers.length > 0 && ctx.rng.chance(1 / 3)
        ? ctx.rng.pick(table.containers)
        : ctx.rng.int(0, table.values.length - 1);
    const next = mutateNode({ value: table.values[id], shape: table.shapes[id] as Shape | null }, ctx);
    current = replaceAt(current, table.pathOf(id), next);
  }
  return current;
};
