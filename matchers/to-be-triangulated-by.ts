import { type Candidate, isCandidate } from '../src/candidates/index.ts';
import type { Args } from '../src/inputs/index.ts';
import type { Task } from '../src/task/index.ts';
import {
  plurality,
  type TriangulationResult,
  triangulate,
  triangulationRecord,
} from '../src/triangulate/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, negated, testIdentity } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, misuse } from './message.ts';
import {
  classesText,
  counterexampleLines,
  DOES_NOT_PROVE,
  pairsText,
  passedText,
  summaryText,
  supportLine,
} from './triangulation-message.ts';
import type { TriangulatedByOptions } from './types.ts';

const NAME = 'toBeTriangulatedBy';
const USE: MatcherUse = {
  name: NAME,
  usage: "expect(task).toBeTriangulatedBy(forward, { transformation: 'fwd-inv', witnesses })",
  anchor: toBeTriangulatedBy,
};

/** Every pair of the last stage failed outright: the only evidence `.not` accepts. */
const definiteRejection = (r: TriangulationResult): boolean => {
  const pairs = r.stages[r.stages.length - 1]?.pairs.flat() ?? [];
  return pairs.length > 0 && pairs.every((v) => v.kind === 'fails');
};

const hints = (r: TriangulationResult, agreeing: boolean, isNot: boolean): string[] => {
  if (isNot) {
    return r.outcome === 'selected'
      ? ['A witness agrees with a forward candidate: the pool is not rejected.']
      : [
          'An abstention that is not a rejection of every pair (budget stops, inherited pairs) is no evidence against the pool.',
        ];
  }
  const out: string[] = [];
  if (r.outcome === 'abstained' && agreeing) {
    out.push(
      'The forward candidates agree with each other but no witness agrees with any of them: a shared error that incoherence cannot see.',
    );
  }
  out.push(
    'Triangulation cannot tell which side is wrong; if the witnesses may share an error, add witnesses from another model or a hand-written one.',
  );
  if (r.calls.budgetExceeded > 0)
    out.push(`${r.calls.budgetExceeded} pair checks stopped at the call budget: pass fewer inputs.`);
  return out;
};

/**
 * `await expect(task).toBeTriangulatedBy(forward, { transformation, witnesses })`: RANSAC over the
 * plausibility witnesses selects a forward candidate (and, with `selects`, that one; with
 * `minSupport`, with at least that many witnesses). `.not` passes only when every pair fails.
 * @public
 */
export async function toBeTriangulatedBy(
  this: MatcherContext,
  task: Task,
  forward: readonly Candidate[],
  options: TriangulatedByOptions,
): Promise<CrosscheckMatcherResult> {
  checkTask(USE, task, 'received');
  checkOptions(USE, options);
  if (typeof options !== 'object' || options === null) {
    misuse(
      'INVALID_OPTION',
      NAME,
      'options must be an object',
      options,
      `Write ${USE.usage}.`,
      toBeTriangulatedBy,
    );
  }
  const { selects, minSupport = 1, ...rest } = options;
  if (selects !== undefined && typeof selects !== 'string' && !isCandidate(selects)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`selects` must be a candidate or its label',
      selects,
      'Pass the candidate you expect to be selected.',
      toBeTriangulatedBy,
    );
  }
  const r = await triangulate(task, forward, rest);
  const inputs = (Array.isArray(rest.inputs) ? rest.inputs : null) as readonly Args[] | null;
  const base = inputs
    ? await plurality(task, forward, { inputs, ...(rest.run ? { run: rest.run } : {}) }).catch(() => null)
    : null;
  const wanted = selects === undefined ? null : typeof selects === 'string' ? selects : selects.label;
  const ok =
    r.selected !== null &&
    r.selected.support >= minSupport &&
    (wanted === null ||
      r.selected.label === wanted ||
      r.selected.group.some((i) => r.candidates[i]?.label === wanted));
  const pass = this.isNot ? !definiteRejection(r) : ok;
  const agreeing = base?.classes.some((c) => c.length === forward.length && forward.length >= 2) === true;
  const classLine = base ? classesText(base.classes, forward) : null;
  const pl = base?.selection.kind === 'selected' ? (forward[base.selection.index]?.label ?? null) : null;
  const record = triangulationRecord(
    r,
    { test: testIdentity(this, NAME), pass: pass !== negated(this), tags: forward.map((c) => c.tags) },
    {
      classes: base
        ? base.classes.map((c) => ({
            labels: c.map((i) => forward[i]?.label ?? String(i)),
            share: c.length / forward.length,
          }))
        : [],
      baselines: base ? { plurality: pl, majority: null } : null,
    },
  );
  const witnessCount = (rest.witnesses ?? []).length;
  const cx = counterexampleLines(r.candidates);
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'task',
      expectedName: 'forward',
      secondArgument: 'options',
      summary: summaryText(r, witnessCount),
      expected: this.isNot
        ? 'every forward candidate rejected by every witness'
        : `a forward candidate with ${minSupport > 1 ? `≥ ${minSupport} plausibility witnesses` : 'a plausibility witness'} (${r.selection === 'ransac' ? 'RANSAC' : 'max-witness'})${wanted ? `, selecting ${wanted}` : ''}`,
      received:
        r.outcome === 'abstained'
          ? `abstention: ${pairsText(r)}`
          : `${r.selected?.label} selected with support ${r.selected?.support} (score ${r.selected?.score}); ${pairsText(r)}`,
      details: [
        ...(r.selected ? ([['Selected', passedText(r.selected)]] as const) : []),
        ['Support', supportLine(r)],
        ...(classLine ? ([['Classes', classLine]] as const) : []),
        ...(cx.length > 0 ? ([['Failures', `\n${cx.join('\n')}`]] as const) : []),
      ],
      replay: { seed: r.seed, args: 'forward', option: `{ ...options, seed: ${r.seed} }` },
      hints: r.selected
        ? [...hints(r, agreeing, this.isNot), DOES_NOT_PROVE]
        : hints(r, agreeing, this.isNot),
    });
  return { pass, message, record };
}
