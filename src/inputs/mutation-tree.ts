import { FrozenSet, PyFloat, Tuple } from '../values/index.ts';
import { kindOf, sameMap, sameSequence, sameSet } from './value-kind.ts';

/**
 * The nodes of a value as the mutation engines see them, in pre-order: the value itself, then
 * list/tuple/set elements, then dict keys and values in turn (as the incoherence paper's artifact
 * counts them). A node is addressed by its path of child indexes; {@link replaceAt} rebuilds only
 * the containers along the path, so seeds are never changed in place.
 */

export const childrenOf = (v: unknown): unknown[] => {
  const kind = kindOf(v);
  if (kind === 'list' || kind === 'tuple') return v as unknown[];
  if (kind === 'set') return [...(v as Set<unknown>)];
  if (kind === 'dict' || kind === 'map') {
    const out: unknown[] = [];
    for (const [k, x] of v as Map<unknown, unknown>) out.push(k, x);
    return out;
  }
  if (kind === 'object') return Object.values(v as Record<string, unknown>);
  return [];
};

/**
 * Whether a value's children are nodes: lists, tuples, sets, dicts, maps and plain objects;
 * frozensets and opaque values are leaves. What `kindOf` says, with the cheap tests first: this
 * runs for every node a mutation skips.
 */
export const isContainer = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  if (v instanceof PyFloat || v instanceof FrozenSet) return false;
  if (v instanceof Set || v instanceof Map) return true;
  return Object.getPrototypeOf(v) === Object.prototype;
};

/** How many nodes a value has (itself included). Walks containers without copying them. */
export const countNodes = (v: unknown): number => {
  if (typeof v !== 'object' || v === null) return 1;
  let n = 1;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      n += typeof x !== 'object' || x === null ? 1 : countNodes(x);
    }
    return n;
  }
  if (!isContainer(v)) return 1;
  if (v instanceof Set) for (const x of v) n += countNodes(x);
  else if (v instanceof Map) for (const [k, x] of v) n += countNodes(k) + countNodes(x);
  else for (const x of Object.values(v)) n += countNodes(x);
  return n;
};

/** Builds a container like `like` from a flat child list (dicts: key, value, key, value, ...). */
export const rebuild = (like: unknown, children: unknown[]): unknown => {
  const kind = kindOf(like);
  if (kind === 'list' || kind === 'tuple') return sameSequence(like as unknown[], children);
  if (kind === 'set') return sameSet(like as Set<unknown>, children);
  if (kind === 'object') {
    const out: Record<string, unknown> = {};
    Object.keys(like as object).forEach((k, i) => {
      out[k] = children[i];
    });
    return out;
  }
  const entries: Array<[unknown, unknown]> = [];
  for (let i = 0; i + 1 < children.length; i += 2) entries.push([children[i], children[i + 1]]);
  return sameMap(like as Map<unknown, unknown>, entries);
};

/** A copy of `root` with the node at `path` replaced. */
export const replaceAt = (root: unknown, path: readonly number[], value: unknown, depth = 0): unknown => {
  if (depth === path.length) return value;
  // A tuple's own slice() goes through Symbol.species and builds a second Tuple; a plain copy is
  // enough, rebuild makes the one Tuple.
  const children = root instanceof Tuple ? Array.from(root) : childrenOf(root).slice();
  const i = path[depth] as number;
  children[i] = replaceAt(children[i], path, value, depth + 1);
  return rebuild(root, children);
};
