import { type Candidate, fromFunctions, isCandidate } from '../src/candidates/index.ts';
import { describeOutcome, type Outcome } from '../src/exec/index.ts';
import { measure } from '../src/measure/index.ts';
import { errorRecord } from '../src/report/index.ts';
import type { Task } from '../src/task/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, misuse, num, pct, unknownText } from './message.ts';
import type { AgreeWithReferenceOptions } from './types.ts';

const NAME = 'toAgreeWithReference';
const USE: MatcherUse = {
  name: NAME,
  usage: 'expect(candidate).toAgreeWithReference(task)',
  anchor: toAgreeWithReference,
};

/** An output as a diff shows it: the decoded value, or the description of an exception or hang. */
const shown = (o: Outcome): unknown => (o.kind === 'value' ? o.value : describeOutcome(o));

const asCandidate = (received: unknown): Candidate | null => {
  if (isCandidate(received)) return received;
  if (typeof received === 'function') {
    const fn = received as (...args: never[]) => unknown;
    return fromFunctions({ [fn.name || 'candidate']: fn })[0] ?? null;
  }
  return null;
};

/**
 * `await expect(candidate).toAgreeWithReference(task, { maxError })`: the candidate (or a trusted
 * function) differs from the task's reference on at most a `maxError` share of inputs.
 * @public
 */
export async function toAgreeWithReference(
  this: MatcherContext,
  received: Candidate | ((...args: never[]) => unknown),
  task: Task,
  options: AgreeWithReferenceOptions = {},
): Promise<CrosscheckMatcherResult> {
  const candidate = asCandidate(received);
  if (!candidate) {
    return misuse(
      'INVALID_CANDIDATES',
      NAME,
      'the received value must be a candidate or a function',
      received,
      `Write ${USE.usage}.`,
      toAgreeWithReference,
    );
  }
  checkTask(USE, task, 'argument');
  checkOptions(USE, options);
  if (!task.reference) {
    misuse(
      'INVALID_TASK',
      NAME,
      `the task ${JSON.stringify(task.name)} must have a reference`,
      task.reference,
      'Give defineTask({ reference }), or compare candidates with toBeCoherentAcross.',
      toAgreeWithReference,
    );
  }
  const { maxError: rawMax, ...rest } = options ?? {};
  const maxError = rawMax ?? 0;
  if (typeof maxError !== 'number' || !(maxError >= 0 && maxError < 1)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`maxError` must be a number in [0, 1)',
      maxError,
      'Pass e.g. { maxError: 0.01 }.',
      toAgreeWithReference,
    );
  }
  const m = await measure(task, [candidate], rest);
  // Where the reference did not return, whether the candidate is right is not known; unless the
  // user excluded unknown cells, that makes the check inconclusive, as a short Gen does.
  const inconclusive = [
    m.inconclusive,
    m.unknownPolicy !== 'exclude' && m.unknown.referenceCells > 0
      ? `the reference timed out or crashed on ${m.unknown.referenceCells} inputs, where the candidate cannot be judged`
      : null,
  ]
    .filter((x): x is string => x !== null)
    .join('; ');
  const e = inconclusive === '' ? m.error : null;
  const pass = this.isNot ? !(e !== null && e.estimate > maxError) : e !== null && e.estimate <= maxError;
  const record = errorRecord(m, maxError, recordContext(this, NAME, pass, [candidate]));
  const wrong = e ? Math.round(e.estimate * e.n) : 0;
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'candidate',
      expectedName: 'task',
      summary: `Task ${JSON.stringify(m.task)}: ${candidate.label} against the reference on ${m.n} inputs from ${m.gen}.`,
      expected: this.isNot
        ? `differs from the reference on more than ${pct(maxError)} of inputs`
        : maxError === 0
          ? 'no input where it differs from the reference'
          : `differs from the reference on at most ${pct(maxError)} of inputs`,
      received:
        inconclusive !== ''
          ? `inconclusive: ${inconclusive}`
          : e
            ? `differs on ${wrong} of ${e.n} inputs (Ê = ${num(e.estimate)}, ${pct(1 - e.delta)} interval [${num(e.lower)}, ${num(e.upper)}])`
            : 'no input where both the candidate and the reference finished',
      details: [
        ...(m.unknown.cells > 0 ? [['Unknown', unknownText(m.unknown.cells, m.unknownPolicy)] as const] : []),
        ...(m.unknown.referenceCells > 0
          ? [['Reference', `${m.unknown.referenceCells} timeouts or crashes of the reference`] as const]
          : []),
      ],
      witness: record.witness,
      replay: {
        seed: m.seed,
        args: 'task',
        option: `{ seed: ${m.seed}, n: ${m.n}, maxError: ${maxError} }`,
        witnessOption: `maxError: ${maxError}`,
      },
    });
  // The candidate's and the reference's outputs on the witness, for the host's diff.
  const witness = m.witness;
  const outputs =
    witness?.referenceOutcome && witness.outcomes[0]
      ? { actual: shown(witness.outcomes[0]), expected: shown(witness.referenceOutcome) }
      : {};
  return { pass, message, record, ...outputs };
}
