import type { Candidate } from '../candidates/index.ts';
import type { Outcome } from '../exec/index.ts';
import { outcomeDigest, pendingText } from '../exec/index.ts';
import type { Task } from '../task/index.ts';
import type { Comparator, Equality, PreparedValue } from '../values/index.ts';
import { exactKeys, valueCellKey } from '../values/index.ts';

/**
 * The agreement rule, in one place: the default equality, how an outcome becomes a comparable
 * cell, and when two outcomes or cells agree. `measure`, `detect` and the fast-check bridge all
 * use it, so a pair of outputs cannot agree in one and disagree in another.
 */

/** The language whose values a candidate returns; JavaScript and TypeScript share one number model. */
const languageOf = (c: Candidate): string =>
  c.kind === 'function' ? 'javascript' : c.language === 'typescript' ? 'javascript' : c.language;

/**
 * The default equality of docs/design.md, from the languages of the pool and its reference: a
 * pool of one language compares as that language does (`python` for Python, `strict`
 * otherwise); a pool of several compares as `mixed` (strict, numbers by value), since a
 * distinction one language cannot express (JavaScript has no int/float split) must not count as
 * a disagreement between programs written in two.
 */
export const defaultEquality = (task: Task, candidates: readonly Candidate[]): Equality => {
  if (task.equality !== undefined) return task.equality;
  const languages = new Set(candidates.map(languageOf));
  if (task.reference !== undefined && languages.size > 0) languages.add(languageOf(task.reference));
  if (languages.size > 1) return 'mixed';
  return languages.has('python') ? 'python' : 'strict';
};

/**
 * How timeouts and crashes count (docs/design.md, "Outcomes"):
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
  /**
   * Set for an output kept only as a digest (past the run's output memory budget): `exact` when
   * a different key proves a different value under the mode (no float, no custom equality).
   * Without the value, a tolerance cannot be applied, so other differences are undecided.
   */
  readonly digest?: { readonly exact: boolean };
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
      const digest = outcomeDigest(o);
      if (digest !== null) {
        const mode = rules.compare.mode;
        const k = digest.keys[mode];
        return {
          status: 'known',
          key: k.key,
          value: null,
          returned: true,
          digest: { exact: !k.inexact && exactKeys(mode) },
        };
      }
      const value = rules.compare.prepare(o.tagged);
      return { status: 'known', key: valueCellKey(value.key), value, returned: true };
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

/**
 * Cells of outcomes prepared once under one set of rules, for readers that see the same outputs
 * many times: the benchmark's models share a task's inputs and its reference, and candidates
 * mostly agree. An outcome is looked up by identity and, while its worker text is not parsed yet,
 * by that text, so equal outputs of different runs (and the reference's) are prepared once.
 * It holds what it prepared: scope one to what is in memory anyway (a task's matrix).
 * @internal
 */
export class CellCache {
  readonly #rules: Pick<CellRules, 'compare' | 'compareErrorMessages'>;
  readonly #byOutcome = new Map<Outcome, Cell>();
  readonly #byText = new Map<string, Cell>();

  constructor(rules: Pick<CellRules, 'compare' | 'compareErrorMessages'>) {
    this.#rules = rules;
  }

  /** Whether cells of this cache are the cells `rules` would make. */
  serves(rules: Pick<CellRules, 'compare' | 'compareErrorMessages'>): boolean {
    return (
      rules.compare === this.#rules.compare && rules.compareErrorMessages === this.#rules.compareErrorMessages
    );
  }

  cell(o: Outcome): Cell {
    let cell = this.#byOutcome.get(o);
    if (cell !== undefined) return cell;
    const text = pendingText(o);
    if (text === null) cell = toCell(o, this.#rules);
    else {
      cell = this.#byText.get(text);
      if (cell === undefined) {
        cell = toCell(o, this.#rules);
        this.#byText.set(text, cell);
      }
    }
    this.#byOutcome.set(o, cell);
    return cell;
  }
}

/** Whether a cell takes part in the counts under the policy (excluded unknown cells do not). */
export const counts = (cell: Cell, policy: UnknownPolicy): boolean =>
  cell.status !== 'unknown' || policy !== 'exclude';

/** Whether a different key proves that a cell and another exact cell differ. */
const exactCell = (c: Cell, compare: Comparator): boolean => {
  if (c.digest !== undefined) return c.digest.exact;
  if (c.value === null) return true;
  return !c.value.inexact && exactKeys(compare.mode);
};

/**
 * How two cells relate: true (agree), false (disagree) or null (undecided: one is a digest and a
 * tolerance or custom equality could still make them agree). Only known cells can agree; a
 * failed or unknown cell disagrees with everything. A verdict is never stronger than its
 * evidence, so undecided pairs are left out of counts.
 */
export const relate = (a: Cell, b: Cell, compare: Comparator): boolean | null => {
  if (a.key === null || b.key === null) return false;
  if (a.key === b.key) return true;
  if (a.digest !== undefined || b.digest !== undefined) {
    return exactCell(a, compare) && exactCell(b, compare) ? false : null;
  }
  if (a.value === null || b.value === null) return false;
  return compare.equal(a.value, b.value);
};

/**
 * How two outcomes relate under the rules: {@link relate} on their cells. A timeout, a crash or
 * a load failure agrees with nothing (as `unknown: 'disagree'` counts it); errors agree by class
 * name, and by message too with `compareErrorMessages`. For many comparisons, convert each
 * outcome once with {@link toCell} and call {@link relate}.
 */
export const relateOutcomes = (
  a: Outcome,
  b: Outcome,
  rules: Pick<CellRules, 'compare' | 'compareErrorMessages'>,
): boolean | null => relate(toCell(a, rules), toCell(b, rules), rules.compare);

/**
 * Whether two cells disagree so that at least one of them is wrong whatever the truth: the
 * premise of I ≤ 2E. Under a float tolerance two outputs can each be close to the truth and not
 * to each other, so a disagreement proves something only when they are apart beyond it
 * ({@link Comparator.apart}). A timeout, crash or load failure counts as wrong (as `error` counts
 * it); an error or rejection and a value, or errors of two classes, cannot both be the truth. A
 * digest keeps no value to measure the distance on, so its disagreement proves nothing here.
 */
export const provenApart = (a: Cell, b: Cell, compare: Comparator): boolean => {
  if (a.key === null || b.key === null) return true;
  if (a.key === b.key) return false;
  const valued = (c: Cell) => c.value !== null || c.digest !== undefined;
  if (!valued(a) || !valued(b)) return true;
  if (a.value === null || b.value === null) return false;
  return compare.apart(a.value, b.value);
};

/** Agreement of two cells (an undecided pair does not agree; see {@link relate}). */
export const cellsAgree = (a: Cell, b: Cell, compare: Comparator): boolean => relate(a, b, compare) === true;

/** Proven disagreement of two cells (an undecided pair does not disagree). */
export const cellsDisagree = (a: Cell, b: Cell, compare: Comparator): boolean =>
  relate(a, b, compare) === false;

/** Whether every cell is known and has one and the same key (then every two agree). */
const oneKey = (cells: readonly Cell[]): boolean => {
  const key = cells[0]?.key;
  if (key === null || key === undefined) return false;
  for (let i = 1; i < cells.length; i++) if ((cells[i] as Cell).key !== key) return false;
  return true;
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
 * agree with nothing. Pairs left undecided by a digest are out of the total. Cells with one key all agree; across keys, one comparison of
 * representatives decides for every pair (equal keys mean equal normal forms), so this is exact
 * and costs O(distinct outputs²), not O(m²).
 */
export const pairCounts = (
  cells: readonly Cell[],
  rules: Pick<CellRules, 'compare' | 'unknown'>,
  rel: (a: Cell, b: Cell) => boolean | null = (a, b) => relate(a, b, rules.compare),
): { agree: number; total: number; undecided: number } => {
  // The common case, every cell known with one key (all candidates agree): every pair agrees.
  if (oneKey(cells)) {
    const pairs = (cells.length * (cells.length - 1)) / 2;
    return { agree: pairs, total: pairs, undecided: 0 };
  }
  const groups = groupByKey(cells);
  let counted = 0;
  for (const cell of cells) if (counts(cell, rules.unknown)) counted++;
  let agree = 0;
  let undecided = 0;
  for (const g of groups) agree += (g.count * (g.count - 1)) / 2;
  for (let a = 0; a < groups.length; a++) {
    const ga = groups[a] as KeyGroup;
    for (let b = a + 1; b < groups.length; b++) {
      const gb = groups[b] as KeyGroup;
      // Two cells without a value or digest (errors) with different keys: no comparison needed.
      if (ga.cell.value === null && gb.cell.value === null && !ga.cell.digest && !gb.cell.digest) continue;
      const r = rel(ga.cell, gb.cell);
      if (r === true) agree += ga.count * gb.count;
      else if (r === null) undecided += ga.count * gb.count;
    }
  }
  return { agree, total: (counted * (counted - 1)) / 2 - undecided, undecided };
};
