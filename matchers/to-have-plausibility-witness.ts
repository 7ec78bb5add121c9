import { type Candidate, isCandidate } from '../src/candidates/index.ts';
import type { Task } from '../src/task/index.ts';
import { triangulate, triangulationRecord } from '../src/triangulate/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, negated, testIdentity } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, misuse } from './message.ts';
import {
  counterexampleLines,
  DOES_NOT_PROVE,
  pairsText,
  passedText,
  summaryText,
} from './triangulation-message.ts';
import type { PlausibilityWitnessOptions } from './types.ts';

const NAME = 'toHavePlausibilityWitness';
const USE: MatcherUse = {
  name: NAME,
  usage: "expect(candidate).toHavePlausibilityWitness(task, { transformation: 'fwd-inv', witnesses })",
  anchor: toHavePlausibilityWitness,
};

/**
 * `await expect(candidate).toHavePlausibilityWitness(task, { transformation, witnesses, min })`:
 * at least `min` (default 1) of the witnesses satisfy the hyperproperty with this candidate.
 * `.not` passes only when every witness definitely fails.
 * @public
 */
export async function toHavePlausibilityWitness(
  this: MatcherContext,
  candidate: Candidate,
  task: Task,
  options: PlausibilityWitnessOptions,
): Promise<CrosscheckMatcherResult> {
  if (!isCandidate(candidate)) {
    misuse(
      'INVALID_CANDIDATES',
      NAME,
      'the received value must be a candidate',
      candidate,
      `Write ${USE.usage}.`,
      toHavePlausibilityWitness,
    );
  }
  checkTask(USE, task, 'argument');
  checkOptions(USE, options);
  if (typeof options !== 'object' || options === null) {
    misuse(
      'INVALID_OPTION',
      NAME,
      'options must be an object',
      options,
      `Write ${USE.usage}.`,
      toHavePlausibilityWitness,
    );
  }
  const { min = 1, ...rest } = options;
  const r = await triangulate(task, [candidate], rest);
  const row = r.stages[r.stages.length - 1]?.pairs[0] ?? [];
  const holding = row.filter((v) => v.kind === 'holds' || v.kind === 'inherited').length;
  const support = r.candidates[0]?.support ?? 0;
  const pass = this.isNot ? !(row.length > 0 && row.every((v) => v.kind === 'fails')) : support >= min;
  const record = triangulationRecord(r, {
    test: testIdentity(this, NAME),
    pass: pass !== negated(this),
    tags: [candidate.tags],
  });
  const cx = counterexampleLines(
    row.flatMap((v, j) =>
      v.kind === 'fails' && v.counterexample
        ? [
            {
              ...(r.candidates[0] as NonNullable<(typeof r.candidates)[0]>),
              counterexample: {
                ...v.counterexample,
                witness: r.stages[r.stages.length - 1]?.right[j] ?? `#${j}`,
              },
            },
          ]
        : [],
    ),
  );
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'candidate',
      expectedName: 'task',
      secondArgument: 'options',
      summary: summaryText(r, (rest.witnesses ?? []).length),
      expected: this.isNot
        ? 'every witness definitely rejects the candidate'
        : `at least ${min} plausibility witness${min === 1 ? '' : 'es'}`,
      received: `${support} (${holding} witness${holding === 1 ? '' : 'es'} hold; ${pairsText(r)})`,
      details: [
        ...(support > 0 && r.candidates[0] ? ([['Passed', passedText(r.candidates[0])]] as const) : []),
        ...(cx.length > 0 ? ([['Failures', `\n${cx.join('\n')}`]] as const) : []),
      ],
      replay: { seed: r.seed, args: 'task', option: `{ ...options, seed: ${r.seed} }` },
      hints: [
        'A plausibility witness is a program for the transformed problem that satisfies the hyperproperty with this candidate; a wrong witness can reject a right candidate, so check the witness too.',
        ...(support > 0 ? [DOES_NOT_PROVE] : []),
      ],
    });
  return { pass, message, record };
}
