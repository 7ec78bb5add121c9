import type { Candidate } from '../src/candidates/index.ts';
import { isCrosscheckError } from '../src/errors/index.ts';
import {
  type CandidateRelationResult,
  callLine,
  checkRelation,
  type Relation,
  type RelationCheck,
  relationRecord,
} from '../src/metamorphic/index.ts';
import { llmRecord } from '../src/report/index.ts';
import type { Task } from '../src/task/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage } from './message.ts';
import type { SatisfyRelationOptions } from './types.ts';

const NAME = 'toSatisfyRelation';
const USE: MatcherUse = {
  name: NAME,
  usage: 'expect(task).toSatisfyRelation(relations.permutation(), candidates)',
  anchor: toSatisfyRelation,
};

/** One candidate's verdict; a violation after the first (which is the Witness block) with its calls. */
const verdictText = (r: CandidateRelationResult, first: boolean): string => {
  switch (r.verdict) {
    case 'held':
      return `held (${r.checked} of ${r.runs} inputs related)`;
    case 'inconclusive':
      return `inconclusive: ${r.inconclusive}`;
    case 'violated': {
      const calls = first ? [] : (r.violation?.calls ?? []).map((c) => `\n  ${callLine(c)}`);
      return `VIOLATED: ${r.violation?.reason}${calls.join('')}`;
    }
  }
};

const candidateLines = (check: RelationCheck): Array<readonly [string, string]> => {
  const first = check.candidates.find((r) => r.violation !== null);
  return check.candidates.map((r) => [r.label, verdictText(r, r === first)] as const);
};

const replayLines = (check: RelationCheck, isNot: boolean): Array<readonly [string, string]> =>
  check.candidates
    .filter((r) => r.violation !== null)
    .map(
      (r) =>
        [
          'Replay',
          `await expect(task)${isNot ? '.not' : ''}.${NAME}(relation, [candidate], { seed: ${check.seed}, path: ${JSON.stringify(r.violation?.path)} });  // candidate: ${r.label}`,
        ] as const,
    );

const hints = (check: RelationCheck): string[] => {
  const partner = check.relation.partner;
  if (check.verdict === 'violated')
    return [
      `A violation proves that the candidate${partner ? ` or its partner ${partner}` : ''} is wrong on at least one of the two calls shown (no reference needed); it does not say which call.`,
      'If the relation itself is too strict for the task (the transformation changes the right answer), fix the relation, not the candidate.',
    ];
  if (check.verdict === 'held')
    return [
      `A pass says these ${check.numRuns} fast-check draws (biased towards small values and edge cases) showed no violation; it bounds no error rate, and a program can keep the relation while being wrong everywhere (a constant keeps every invariance).`,
    ];
  return ['Give a Gen whose inputs the candidates accept, or raise `run.timeoutMs` if they time out.'];
};

/**
 * `await expect(task).toSatisfyRelation(relation, candidates, options)`: each candidate keeps a
 * metamorphic relation on fast-check's draws from the task's inputs; a violation is shrunk and
 * shown with both calls. `.not` passes only when some candidate's violation is witnessed, so an
 * inconclusive check fails both ways.
 * @public
 */
export async function toSatisfyRelation(
  this: MatcherContext,
  task: Task,
  relation: Relation,
  candidates: readonly Candidate[],
  options: SatisfyRelationOptions = {},
): Promise<CrosscheckMatcherResult> {
  checkTask(USE, task, 'received');
  checkOptions(USE, options);
  let check: RelationCheck;
  try {
    check = await checkRelation(task, relation, candidates, options);
  } catch (error) {
    // Misuse and relation bugs throw; the stack starts at the test, as every misuse's does.
    if (isCrosscheckError(error)) Error.captureStackTrace?.(error, toSatisfyRelation);
    throw error;
  }
  // The host inverts `pass` under `.not`: an inconclusive check fails both ways.
  const pass = this.isNot ? check.verdict !== 'violated' : check.verdict === 'held';
  // The partner's model calls (an independent pipeline's) count in the record's LLM section too.
  const partner = relation.partner;
  const called = partner ? [...candidates, partner] : candidates;
  const record = relationRecord(check, candidates, {
    ...recordContext(this, NAME, pass, candidates),
    llm: llmRecord(called),
  });
  const violators = check.candidates.filter((r) => r.verdict === 'violated').map((r) => r.label);
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'task',
      expectedName: 'relation',
      secondArgument: 'candidates',
      summary: `Task ${JSON.stringify(check.task)}, relation "${check.relation.name}" (${check.relation.formula})${check.relation.partner ? ` with partner ${check.relation.partner}` : ''}, ${check.candidates.length} candidates, ${check.numRuns} fast-check runs each from ${check.gen}, seed ${check.seed}.`,
      expected: this.isNot
        ? 'a violation by at least one candidate'
        : 'every candidate keeps the relation on every input drawn',
      received:
        check.verdict === 'violated'
          ? `violated by ${violators.join(', ')}`
          : check.verdict === 'held'
            ? 'no violation'
            : 'inconclusive: some candidate had no pair of values to relate',
      details: [...candidateLines(check), ...replayLines(check, this.isNot)],
      witness: record.witness,
      hints: hints(check),
    });
  return { pass, message, record };
}
