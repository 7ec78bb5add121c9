import type { Outcome } from '../exec/outcome.ts';
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
      const value = rules.compare.prepare(o.tagged);
      return { key: `v${value.key}`, value };
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

/** Agreement of two known cells. */
export const cellsAgree = (a: Cell, b: Cell, compare: Comparator): boolean => {
  if (a.key === b.key) return true;
  if (a.value === null || b.value === null) return false;
  return compare.equal(a.value, b.value);
};

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
export const pairCounts = (cells: readonly Cell[], compare: Comparator): { agree: number; total: number } => {
  const groups = groupByKey(cells);
  let known = 0;
  let agree = 0;
  for (const g of groups) {
    known += g.count;
    agree += (g.count * (g.count - 1)) / 2;
  }
  for (let a = 0; a < groups.length; a++) {
    const ga = groups[a] as KeyGroup;
    if (ga.cell.value === null) continue;
    for (let b = a + 1; b < groups.length; b++) {
      const gb = groups[b] as KeyGroup;
      if (gb.cell.value !== null && compare.equal(ga.cell.value, gb.cell.value)) agree += ga.count * gb.count;
    }
  }
  return { agree, total: (known * (known - 1)) / 2 };
};
