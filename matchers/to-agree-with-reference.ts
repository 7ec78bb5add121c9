import { type Candidate, fromFunctions, isCandidate } from '../src/candidates/index.ts';
import { describeOutcome, type Outcome } from '../src/exec/index.ts';
import { measure } from '../src/measure/index.ts';
import { errorRecord } from '../src/report/index.ts';
import { binomialLowerBound, binomialUpperBound, pacDetectionSamples } from '../src/stats/index.ts';
import type { Task } from '../src/task/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, misuse, num, pct, unknownText } from './message.ts';
import { withSuiteDelta } from './suite.ts';
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
 * `await expect(candidate).toAgreeWithReference(task, { maxError })`: the data supports "the
 * candidate (or a trusted function) differs from the task's reference on at most a `maxError`
 * share of the Gen's inputs" at confidence 1 − δ: the exact one-sided binomial (Clopper–Pearson)
 * upper bound on the error is at most `maxError`. Without `maxError`, no input may differ, and
 * the message states the bound that supports. `.not` passes when the exact lower bound is above
 * `maxError` (without it: when some input differs).
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
  const maxError = rawMax ?? null;
  if (maxError !== null && (typeof maxError !== 'number' || !(maxError >= 0 && maxError < 1))) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`maxError` must be a number in (0, 1)',
      maxError,
      'Pass e.g. { maxError: 0.01 }.',
      toAgreeWithReference,
    );
  }
  if (maxError === 0) {
    const delta = typeof rest.delta === 'number' ? rest.delta : 0.05;
    misuse(
      'INVALID_OPTION',
      NAME,
      '`maxError` must be above 0: no finite sample supports "error = 0"',
      maxError,
      `N clean inputs support "error ≤ ε with confidence 1 − δ" for N = ⌈ln δ / ln(1 − ε)⌉ (${pacDetectionSamples(0.01, delta)} inputs for ε = 0.01 at δ = ${delta}). Omit \`maxError\` to require no differing input and get that claim for the inputs run, or pass e.g. { maxError: 0.01, n: ${pacDetectionSamples(0.01, delta) * 2} }.`,
      toAgreeWithReference,
    );
  }
  const m = await measure(task, [candidate], withSuiteDelta(rest));
  // Where the reference did not return, whether the candidate is right is not known; unless the
  // user excluded unknown cells, that makes the check inconclusive, as a short Gen does.
  const inconclusive = [
    m.inconclusive,
    m.unknownPolicy !== 'exclude' && m.unknown.referenceCells > 0 && !m.inconclusive?.includes('reference')
      ? `the reference timed out or crashed on ${m.unknown.referenceCells} inputs, where the candidate cannot be judged`
      : null,
  ]
    .filter((x): x is string => x !== null)
    .join('; ');
  const e = inconclusive === '' ? m.error : null;
  const counts = inconclusive === '' ? m.candidateErrors[0] : undefined;
  const judged = counts && counts.error !== null && counts.n > 0 ? counts : null;
  // Draws are i.i.d. and each is right or wrong: `wrong` of `n` is binomial, so the exact
  // one-sided bounds hold at every n, however small.
  const wrong = judged ? Math.round((judged.error as number) * judged.n) : 0;
  const upper = judged ? binomialUpperBound(wrong, judged.n, m.delta) : null;
  const lower = judged ? binomialLowerBound(wrong, judged.n, m.delta) : null;
  const confidence = pct(1 - m.delta);
  // Without maxError the claim is "no input differs", and the bound it supports is stated.
  const supported = upper !== null && (maxError === null ? wrong === 0 : upper <= maxError);
  const refuted = lower !== null && (maxError === null ? wrong > 0 : lower > maxError);
  const pass = this.isNot ? !refuted : supported;
  const record = errorRecord(m, maxError ?? 0, recordContext(this, NAME, pass, [candidate]));
  const rule =
    upper === null || lower === null
      ? ''
      : `; exact binomial (Clopper–Pearson) one-sided bounds at ${confidence}: error ≤ ${num(upper)}${lower > 0 ? `, error ≥ ${num(lower)}` : ''}`;
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'candidate',
      expectedName: 'task',
      summary: `Task ${JSON.stringify(m.task)}: ${candidate.label} against the reference on ${m.n} inputs from ${m.gen}.`,
      expected:
        maxError === null
          ? this.isNot
            ? 'some input where it differs from the reference'
            : 'no input where it differs from the reference'
          : this.isNot
            ? `error > ${pct(maxError)} at ${confidence} confidence (the exact lower bound above ${pct(maxError)})`
            : `error ≤ ${pct(maxError)} at ${confidence} confidence (the exact upper bound at most ${pct(maxError)})`,
      received:
        inconclusive !== ''
          ? `inconclusive: ${inconclusive}`
          : e && judged
            ? `differs on ${wrong} of ${judged.n} inputs (Ê = ${num(wrong / judged.n)}${rule})`
            : 'no input where both the candidate and the reference finished',
      details: [
        ...(m.unknown.cells > 0 ? [['Unknown', unknownText(m.unknown.cells, m.unknownPolicy)] as const] : []),
        ...(m.unknown.referenceCells > 0
          ? [['Reference', `${m.unknown.referenceCells} timeouts or crashes of the reference`] as const]
          : []),
        ...(m.excluded !== null ? [['Excluded', m.excluded] as const] : []),
      ],
      witness: record.witness,
      replay: {
        seed: m.seed,
        args: 'task',
        option: `{ seed: ${m.seed}, n: ${m.n}${maxError === null ? '' : `, maxError: ${maxError}`} }`,
        witnessOption: maxError === null ? '' : `maxError: ${maxError}`,
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
