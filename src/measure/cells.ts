import type { Outcome } from '../exec/outcome.ts';
import type { Comparator, PreparedValue } from '../values/index.ts';

/**
 * How timeouts and crashes count (DESIGN.md "Values and outcomes"):
 * - `disagree` (default): an unknown cell disagrees with every other cell, another unknown one
 *   included, and is wrong wherever the reference returns. The measured quantities are then
 *   about the candidates as they behave, hangs included.
 * - `inconclusive`: the same numbers, but any unknown candidate cell makes the verdict
 *   inconclusive.
 * - `exclude`: pairs and cells with an unknown outcome leave every count (the estimates are then
 *   about the inputs where the outcomes are known, which is not an i.i.d. sample of the Gen).
 * @public
 */
export type UnknownPolicy = 'disagree' | 'inconclusive' | 'exclude';

/**
 * Error classes the harness reports when a candidate could not be loaded at all: it never ran,
 * so its cells say nothing about the task. Such a cell agrees with nothing (not even an identical
 * load failure of another candidate) and is wrong wherever the reference returns.
 * @public
 */
export const LOAD_FAILURES: ReadonlySet<string> = new Set(['CompileError', 'EntryNotFound']);

/**
 * One outcome, prepared once for fast comparison. `status`:
 * - `known`: `key` is exact (equal keys ⇒ the outcomes agree), `value` is the prepared return
 *   value when a tolerance may still make two different keys agree;
 * - `unknown`: a timeout or crash; how it counts is the {@link UnknownPolicy}'s business;
 * - `failed`: the candidate did not load (see {@link LOAD_FAILURES}); it agrees with nothing.
 * `key` is null unless the cell is known.
 */
export interface Cell {
  readonly status: 'known' | 'unknown' | 'failed';
  readonly key: string | null;
  readonly value: PreparedValue | null;
  /** Whether the candidate returned normally (a `value` outcome). */
  readonly returned: boolean;
}

const UNKNOWN: Cell = { status: 'unknown', key: null, value: null, returned: false };
const FAILED: Cell = { status: 'failed', key: null, value: null, returned: false };

/** How outcomes become cells and how unknown cells count. */
export interface CellRules {
  readonly compare: Comparator;
  /** Errors agree when their class names match; with this, their messages must match too. */
  readonly compareErrorMessages: boolean;
  readonly unknown: UnknownPolicy;
}

/** Prepares one outcome (once per cell: the comparator's canonical key is the costly part). */
export const toCell = (o: Outcome, rules: Pick<CellRules, 'compare' | 'compareErrorMessages'>): Cell => {
  switch (o.kind) {
    case 'value': {
      const value = rules.compare.prepare(o.tagged);
      return { status: 'known', key: `v${value.key}`, value, returned: true };
    }
    case 'invalid':
      return { status: 'known', key: 'i', value: null, returned: false };
    case 'error':
      if (LOAD_FAILURES.has(o.name)) return FAILED;
      return {
        status: 'known',
        key: rules.compareErrorMessages ? `e${o.name}\u0000${o.message}` : `e${o.name}`,
        value: null,
        returned: false,
      };
    case 'timeout':
    case 'crash':
      return UNKNOWN;
  }
};

/** Whether a cell takes part in the counts under the policy (excluded unknown cells do not). */
export const counts = (cell: Cell, policy: UnknownPolicy): boolean =>
  cell.status !== 'unknown' || policy !== 'exclude';

/** Agreement of two cells: only known cells can agree. */
export const cellsAgree = (a: Cell, b: Cell, compare: Comparator): boolean => {
  if (a.key === null || b.key === null) return false;
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
 * Agreeing and total unordered pairs among the counted cells of one input. Only known cells can
 * agree; failed cells, and unknown cells unless the policy excludes them, are in the total and
 * agree with nothing. Cells with one key all agree; across keys, one comparison of
 * representatives decides for every pair (equal keys mean equal normal forms), so this is exact
 * and costs O(distinct outputs²), not O(m²).
 */
export const pairCounts = (
  cells: readonly Cell[],
  rules: Pick<CellRules, 'compare' | 'unknown'>,
): { agree: number; total: number } => {
  const groups = groupByKey(cells);
  let counted = 0;
  for (const cell of cells) if (counts(cell, rules.unknown)) counted++;
  let agree = 0;
  for (const g of groups) agree += (g.count * (g.count - 1)) / 2;
  for (let a = 0; a < groups.length; a++) {
    const ga = groups[a] as KeyGroup;
    if (ga.cell.value === null) continue;
    for (let b = a + 1; b < groups.length; b++) {
      const gb = groups[b] as KeyGroup;
      if (gb.cell.value !== null && rules.compare.equal(ga.cell.value, gb.cell.value))
        agree += ga.count * gb.count;
    }
  }
  return { agree, total: (counted * (counted - 1)) / 2 };
};
