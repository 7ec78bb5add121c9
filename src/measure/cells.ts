import type { Outcome } from '../exec/outcome.ts';
import { outcomeDigest } from '../exec/output-budget.ts';
import { valueCellKey } from '../values/digest.ts';
import type { Comparator, PreparedValue } from '../values/index.ts';

/**
 * One outcome, prepared once for fast comparison: `key` is exact (equal keys ⇒ the outcomes
 * agree), `value` is the prepared return value when a tolerance may still make two different keys
 * agree. `key` is null for an unknown outcome (timeout, crash), which agrees or disagrees with
 * nothing (DESIGN.md "Values and outcomes").
 */
export interface Cell {
  readonly key: string | null;
  readonly value: PreparedValue | null;
  /**
   * Set for an output kept only as a digest (past the run's output memory budget): `exact` when
   * a different key proves a different value under the mode (no float, no custom equality).
   * Without the value, a tolerance cannot be applied, so other differences are undecided.
   */
  readonly digest?: { readonly exact: boolean };
}

const UNKNOWN: Cell = { key: null, value: null };

/** How outcomes become cells. */
export interface CellRules {
  readonly compare: Comparator;
  /** Errors agree when their class names match; with this, their messages must match too. */
  readonly compareErrorMessages: boolean;
}

/** Prepares one outcome (once per cell: the comparator's canonical key is the costly part). */
export const toCell = (o: Outcome, rules: CellRules): Cell => {
  switch (o.kind) {
    case 'value': {
      const digest = outcomeDigest(o);
      if (digest !== null) {
        const mode = rules.compare.mode;
        const k = digest.keys[mode];
        return {
          key: k.key,
          value: null,
          digest: { exact: !k.inexact && (mode === 'strict' || mode === 'python') },
        };
      }
      const value = rules.compare.prepare(o.tagged);
      return { key: valueCellKey(value.key), value };
    }
    case 'invalid':
      return { key: 'i', value: null };
    case 'error':
      return { key: rules.compareErrorMessages ? `e${o.name}\u0000${o.message}` : `e${o.name}`, value: null };
    case 'timeout':
    case 'crash':
      return UNKNOWN;
  }
};

/** Whether a different key proves that a cell and another exact cell differ. */
const exactCell = (c: Cell, compare: Comparator): boolean => {
  if (c.digest !== undefined) return c.digest.exact;
  if (c.value === null) return true;
  return !c.value.inexact && (compare.mode === 'strict' || compare.mode === 'python');
};

/**
 * How two known cells relate: true (agree), false (disagree) or null (undecided: one is a digest
 * and a tolerance or custom equality could still make them agree). A verdict is never stronger
 * than its evidence, so undecided pairs are left out of counts, like unknown cells.
 */
export const relate = (a: Cell, b: Cell, compare: Comparator): boolean | null => {
  if (a.key === b.key) return true;
  if (a.digest !== undefined || b.digest !== undefined) {
    return exactCell(a, compare) && exactCell(b, compare) ? false : null;
  }
  if (a.value === null || b.value === null) return false;
  return compare.equal(a.value, b.value);
};

/** Agreement of two known cells (an undecided pair does not agree; see {@link relate}). */
export const cellsAgree = (a: Cell, b: Cell, compare: Comparator): boolean => relate(a, b, compare) === true;

/** Proven disagreement of two known cells (an undecided pair does not disagree). */
export const cellsDisagree = (a: Cell, b: Cell, compare: Comparator): boolean =>
  relate(a, b, compare) === false;

/** A group of known cells with the same key on one input. */
interface KeyGroup {
  readonly cell: Cell;
  count: number;
}

/** Known cells of one input grouped by exact key, in first-seen order. */
export const groupByKey = (cells: readonly Cell[]): KeyGroup[] => {
  const groups = new Map<string, KeyGroup>();
  for (const cell of cells) {
    if (cell.key === null) continue;
    const g = groups.get(cell.key);
    if (g) g.count++;
    else groups.set(cell.key, { cell, count: 1 });
  }
  return [...groups.values()];
};

/**
 * Agreeing and total unordered pairs among the known cells of one input. Cells with one key all
 * agree; across keys, one comparison of representatives decides for every pair (equal keys mean
 * equal normal forms), so this is exact and costs O(distinct outputs²), not O(m²).
 */
export const pairCounts = (
  cells: readonly Cell[],
  compare: Comparator,
): { agree: number; total: number; undecided: number } => {
  const groups = groupByKey(cells);
  let known = 0;
  let agree = 0;
  let undecided = 0;
  for (const g of groups) {
    known += g.count;
    agree += (g.count * (g.count - 1)) / 2;
  }
  for (let a = 0; a < groups.length; a++) {
    const ga = groups[a] as KeyGroup;
    for (let b = a + 1; b < groups.length; b++) {
      const gb = groups[b] as KeyGroup;
      // Two cells without a value or digest (errors) with different keys: no comparison needed.
      if (ga.cell.value === null && gb.cell.value === null && !ga.cell.digest && !gb.cell.digest) continue;
      const r = relate(ga.cell, gb.cell, compare);
      if (r === true) agree += ga.count * gb.count;
      else if (r === null) undecided += ga.count * gb.count;
    }
  }
  return { agree, total: (known * (known - 1)) / 2 - undecided, undecided };
};
