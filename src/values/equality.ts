import { CrosscheckError, describeValue } from '../errors/index.ts';
import { decode } from './codec.ts';
import type { Tagged } from './codec-core.ts';
import {
  apart,
  hasInexact,
  type Normal,
  type NormalRules,
  normalKey,
  tolerantEqual,
  toNormal,
} from './normal-form.ts';

/**
 * How two returned values are judged equal (docs/design.md, "Agreement"):
 * - `strict`: structural and type-aware (`1` vs `"1"` differ, a Python int vs float differ),
 *   NaN equals NaN, −0 equals +0, Map/Set/object keys unordered, floats within relative 1e-9;
 * - `python`: Python `==` (1 == 1.0 == True, tuple ≠ list, dict/set unordered), floats as
 *   `math.isclose(rel_tol=1e-9)`; NaN equals NaN so that agreement stays reflexive;
 * - `mixed`: `strict`, except that numbers compare by value (a Python int, a Python float and a
 *   JS number are one kind). The default for a pool of several languages: JavaScript has one
 *   number type, so an int/float split cannot be read off a JS result, and JS `0` against
 *   Python `0.0` is not a disagreement about the task;
 * - `difftrust`: the incoherence paper artifact's comparison (numbers and bools within relative
 *   1e-3, list equals tuple element-wise, dicts compared in iteration order);
 * - a function `(a, b) => boolean` over decoded values.
 * @public
 */
export type EqualityMode = 'strict' | 'python' | 'mixed' | 'difftrust';
/** @public */
export type Equality = EqualityMode | ((a: unknown, b: unknown) => boolean);

const RULES: Record<EqualityMode, NormalRules & { relTol: number }> = {
  strict: {
    boolIsNumber: false,
    complexIsNumber: false,
    mergeIntFloat: false,
    mergeTupleList: false,
    mergeMaps: false,
    orderedMaps: false,
    mergeSets: false,
    relTol: 1e-9,
  },
  python: {
    boolIsNumber: true,
    complexIsNumber: true,
    mergeIntFloat: true,
    mergeTupleList: false,
    mergeMaps: true,
    orderedMaps: false,
    mergeSets: true,
    relTol: 1e-9,
  },
  // strict's distinctions but one: the int/float split, which only some languages make.
  mixed: {
    boolIsNumber: false,
    complexIsNumber: false,
    mergeIntFloat: true,
    mergeTupleList: false,
    mergeMaps: false,
    orderedMaps: false,
    mergeSets: false,
    relTol: 1e-9,
  },
  difftrust: {
    boolIsNumber: true,
    complexIsNumber: true,
    mergeIntFloat: true,
    mergeTupleList: true,
    mergeMaps: true,
    orderedMaps: true,
    mergeSets: true,
    relTol: 1e-3,
  },
};

/** A prepared value: its exact canonical key, and whether a tolerance could still make it equal to another (it holds a float). */
export interface PreparedValue {
  readonly key: string;
  readonly inexact: boolean;
  /** @internal */
  readonly normal: Normal | null;
  /** @internal */
  readonly tagged: Tagged;
}

/**
 * Compares tagged values under one equality mode. `key` is exact (equal keys ⇒ equal values);
 * `equal` adds the tolerance only when both sides hold floats, and then only between two floats
 * (ints stay exact, except in difftrust), so the common case is one string comparison.
 * @public
 */
export interface Comparator {
  readonly mode: EqualityMode | 'custom';
  prepare(tagged: Tagged): PreparedValue;
  equal(a: PreparedValue, b: PreparedValue): boolean;
  /**
   * Whether `a` and `b` differ so that no value equals both: then, of two candidates returning
   * them, at least one is wrong whatever the truth. Stronger than `!equal(a, b)` under a float
   * tolerance, which is not transitive (a ≈ truth ≈ b without a ≈ b). A custom equality is taken
   * to be an equivalence relation (then `!equal`): crosscheck cannot check that it is.
   */
  apart(a: PreparedValue, b: PreparedValue): boolean;
  /** Convenience: prepare and compare two tagged values. */
  equalTagged(a: Tagged, b: Tagged): boolean;
}

const isMode = (x: unknown): x is EqualityMode =>
  x === 'strict' || x === 'python' || x === 'mixed' || x === 'difftrust';

/**
 * Whether a different canonical key proves two exact values (no float) different under the mode:
 * true wherever ints compare exactly, that is everywhere but difftrust.
 * @internal
 */
export const exactKeys = (mode: EqualityMode | 'custom'): boolean =>
  mode !== 'custom' && mode !== 'difftrust';

/** Builds the comparator of an equality mode; throws a typed error for anything else. @public */
export const comparator = (equality: Equality): Comparator => {
  if (typeof equality === 'function') {
    const prepare = (tagged: Tagged): PreparedValue => ({
      key: JSON.stringify(tagged),
      inexact: true,
      normal: null,
      tagged,
    });
    const equal = (a: PreparedValue, b: PreparedValue): boolean =>
      a.key === b.key || equality(decode(a.tagged), decode(b.tagged)) === true;
    return {
      mode: 'custom',
      prepare,
      equal,
      apart: (a, b) => !equal(a, b),
      equalTagged: (a, b) => equal(prepare(a), prepare(b)),
    };
  }
  if (!isMode(equality)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `Expected \`equality\` to be 'strict', 'python', 'mixed', 'difftrust' or a function (a, b) => boolean, got ${describeValue(equality)}.`,
      { where: 'equality' },
    );
  }
  const rules = RULES[equality];
  const tolerance = { relTol: rules.relTol, ints: equality === 'difftrust', orderedMaps: rules.orderedMaps };
  const prepare = (tagged: Tagged): PreparedValue => {
    const normal = toNormal(tagged, rules);
    return { key: normalKey(normal), inexact: hasInexact(normal), normal, tagged };
  };
  const equal = (a: PreparedValue, b: PreparedValue): boolean => {
    if (a.key === b.key) return true;
    // Exact values on both sides can only be equal within a tolerance in difftrust, where
    // integers are close too; otherwise one float suffices (3 and 3.0000000000000004 agree).
    if (!a.inexact && !b.inexact && exactKeys(equality)) return false;
    return tolerantEqual(a.normal as Normal, b.normal as Normal, tolerance);
  };
  return {
    mode: equality,
    prepare,
    equal,
    apart: (a, b) => a.key !== b.key && apart(a.normal as Normal, b.normal as Normal, rules.relTol),
    equalTagged: (a, b) => equal(prepare(a), prepare(b)),
  };
};
