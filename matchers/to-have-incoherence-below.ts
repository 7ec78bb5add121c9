import type { Candidate } from '../src/candidates/index.ts';
import { type Measurement, measure } from '../src/measure/index.ts';
import { coherenceRecord } from '../src/report/index.ts';
import type { Task } from '../src/task/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { checkOptions, checkPool, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, misuse, num, pct, unknownText } from './message.ts';
import { suiteDelta } from './suite.ts';
import type { IncoherenceBelowOptions } from './types.ts';

const NAME = 'toHaveIncoherenceBelow';
const USE: MatcherUse = {
  name: NAME,
  usage: 'expect(task).toHaveIncoherenceBelow(0.1, candidates)',
  anchor: toHaveIncoherenceBelow,
};

const estimateText = (m: Measurement, confidence: number): string => {
  if (m.inconclusive !== null) return `inconclusive: ${m.inconclusive}`;
  const i = m.incoherence;
  if (!i) return `no estimate: no input had two known outcomes (m = ${m.m}, n = ${m.n})`;
  return `Î = ${num(i.estimate)}, ${pct(confidence)} interval [${num(i.lower)}, ${num(i.upper)}] (ε = ${num(i.epsilon)}, n = ${i.n}, m = ${m.m})`;
};

const details = (m: Measurement): Array<[string, string]> => {
  const out: Array<[string, string]> = [];
  const p = m.provenIncoherence;
  // Pairs that differ only within the tolerance prove no candidate wrong: the bound uses Î′.
  const tolerated = p !== null && m.incoherence !== null && p.estimate < m.incoherence.estimate;
  if (m.errorLowerBound !== null && m.errorLowerBound > 0) {
    out.push([
      'Error bound',
      tolerated
        ? `≥ ${num(m.errorLowerBound)} with the same confidence (max(0, Î′ − ε′) / 2, Theorem 4.1, from Î′ = ${num(p.estimate)}, the disagreements beyond the equality's tolerance)`
        : `≥ ${num(m.errorLowerBound)} with the same confidence (max(0, Î − ε) / 2, Theorem 4.1)`,
    ]);
  }
  if (tolerated)
    out.push([
      'Tolerance',
      `Î′ = ${num(p.estimate)} of Î = ${num((m.incoherence as { estimate: number }).estimate)} are disagreements beyond the equality's tolerance; the rest are floats within twice it, each possibly within it of the truth, which prove no candidate wrong`,
    ]);
  if (m.error)
    out.push([
      'Error',
      `Ê = ${num(m.error.estimate)} [${num(m.error.lower)}, ${num(m.error.upper)}] against the reference`,
    ]);
  const classes = m.classes.map((c) => `{${c.labels.join(', ')}} ${pct(c.share)}`).join(', ');
  out.push(['Classes', `${classes}; semantic entropy ${num(m.semanticEntropy)}`]);
  if (m.incoherence && m.inconclusive !== null)
    out.push([
      'Estimate',
      `Î = ${num(m.incoherence.estimate)} [${num(m.incoherence.lower)}, ${num(m.incoherence.upper)}], not a verdict`,
    ]);
  if (m.unknown.cells > 0)
    out.push([
      'Unknown',
      unknownText(
        m.unknown.cells,
        m.unknownPolicy,
        m.candidates.map((c, i) => [c.label, m.unknown.perCandidate[i] ?? 0] as const),
      ),
    ]);
  if (m.excluded !== null) out.push(['Excluded', m.excluded]);
  return out;
};

/**
 * `await expect(task).toHaveIncoherenceBelow(bound, candidates, { confidence })`: the upper end of
 * the interval around Î (Hoeffding, or with all-pairs Hoeffding ∩ empirical Bernstein) lies below `bound`. `.not` passes only when the lower end is at
 * or above `bound`, so an estimate straddling the bound fails both ways.
 * @public
 */
export async function toHaveIncoherenceBelow(
  this: MatcherContext,
  task: Task,
  bound: number,
  candidates: readonly Candidate[],
  options: IncoherenceBelowOptions = {},
): Promise<CrosscheckMatcherResult> {
  checkTask(USE, task, 'received');
  checkOptions(USE, options);
  if (typeof bound !== 'number' || !(bound > 0 && bound <= 1)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`bound` must be a number in (0, 1]',
      bound,
      'Pass the largest tolerated incoherence, e.g. 0.1.',
      toHaveIncoherenceBelow,
    );
  }
  const { confidence: rawConfidence, ...rest } = options ?? {};
  const confidence = rawConfidence ?? 1 - (suiteDelta() ?? 0.05);
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`confidence` must be a number strictly between 0 and 1',
      confidence,
      'Pass e.g. { confidence: 0.95 }.',
      toHaveIncoherenceBelow,
    );
  }
  checkPool(USE, candidates);
  const m = await measure(task, candidates, { ...rest, delta: 1 - confidence });
  // An inconclusive measurement supports no verdict, so it fails both ways.
  const i = m.inconclusive === null ? m.incoherence : null;
  const below = i !== null && i.upper < bound;
  const above = i !== null && i.lower >= bound;
  const pass = this.isNot ? !above : below;
  const record = coherenceRecord(m, bound, recordContext(this, NAME, pass, candidates));
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'task',
      expectedName: 'bound',
      secondArgument: 'candidates',
      summary: `Task ${JSON.stringify(m.task)}: incoherence of ${m.m} candidates on ${m.n} inputs from ${m.gen} (${m.estimator} estimator, ${m.interval} interval).`,
      expected: this.isNot
        ? `incoherence ≥ ${num(bound)} with confidence ${num(confidence)} (lower end of the interval)`
        : `incoherence < ${num(bound)} with confidence ${num(confidence)} (upper end of the interval)`,
      received: estimateText(m, confidence),
      details: details(m),
      witness: record.witness,
      replay: {
        seed: m.seed,
        args: `${bound}, candidates`,
        option: `{ seed: ${m.seed}, n: ${m.n}${confidence === 0.95 ? '' : `, confidence: ${confidence}`} }`,
      },
      hints:
        m.inconclusive !== null
          ? [
              'Give a Gen that yields enough distinct inputs (or accept fewer with `minInputs`), candidates that load, or raise `run.timeoutMs` if candidates time out.',
            ]
          : i && (this.isNot ? i.upper >= bound && !above : i.estimate < bound && !below)
            ? [
                `The estimate is on the right side, but the interval (±${num(i.epsilon)}) crosses the bound: more inputs (n) narrow it.`,
              ]
            : [],
    });
  return { pass, message, record };
}
