import type { Candidate } from '../src/candidates/index.ts';
import { uniqueLabels } from '../src/exec/index.ts';
import { type Detection, detect } from '../src/measure/index.ts';
import { detectionRecord } from '../src/report/index.ts';
import type { Task } from '../src/task/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { checkOptions, checkTask, type MatcherUse } from './guards.ts';
import { formatMessage, num, unknownText } from './message.ts';
import { withSuiteDelta } from './suite.ts';
import type { CoherentAcrossOptions } from './types.ts';

const NAME = 'toBeCoherentAcross';
const USE: MatcherUse = {
  name: NAME,
  usage: 'expect(task).toBeCoherentAcross(candidates)',
  anchor: toBeCoherentAcross,
};

const received = (d: Detection): string => {
  switch (d.verdict) {
    case 'incoherent':
      return `a disagreement on input ${d.witness.original.index + 1} of ${d.required}`;
    case 'coherent':
      return `no disagreement in ${d.inputsRun} inputs: ${d.certificate}`;
    case 'inconclusive':
      return `inconclusive: ${d.reason}`;
  }
};

const hints = (d: Detection, isNot: boolean): string[] => {
  if (isNot && d.verdict === 'coherent') {
    return [
      'The candidates may still disagree on inputs this Gen rarely draws: a smaller epsilon runs more inputs.',
    ];
  }
  if (d.verdict === 'incoherent') {
    return [
      d.proven
        ? 'A disagreement proves that at least one candidate is wrong on the witness, no reference needed (I ≤ 2E).'
        : 'The candidates differ only as floats within twice the equality’s tolerance: each may be within it of the true value (a tolerance is not transitive), so this disagreement does not prove a candidate wrong. Compare against a reference, or pass an equality with the tolerance the task needs.',
      'To tolerate rare disagreement, assert a rate instead: toHaveIncoherenceBelow(bound, candidates).',
    ];
  }
  return [
    'Give a Gen that yields enough distinct valid inputs, or raise `run.timeoutMs` if candidates time out.',
  ];
};

/**
 * `await expect(task).toBeCoherentAcross(candidates, { epsilon, delta })`: PAC detection. Passes
 * when N inputs show no disagreement (the certificate); `.not` passes only on a witnessed
 * disagreement, so an inconclusive run fails both ways.
 * @public
 */
export async function toBeCoherentAcross(
  this: MatcherContext,
  task: Task,
  candidates: readonly Candidate[],
  options: CoherentAcrossOptions = {},
): Promise<CrosscheckMatcherResult> {
  // The pool is checked by detect(), which names itself in the message.
  checkTask(USE, task, 'received');
  checkOptions(USE, options);
  const d = await detect(task, candidates, withSuiteDelta(options));
  const pass = this.isNot ? d.verdict !== 'incoherent' : d.verdict === 'coherent';
  const record = detectionRecord(
    d,
    recordContext(this, NAME, pass, candidates),
    uniqueLabels(candidates.map((c) => c.label)),
  );
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'task',
      expectedName: 'candidates',
      summary: `Task ${JSON.stringify(d.task)}, ${d.m} candidates, PAC detection with ε = ${num(d.epsilon)}, δ = ${num(d.delta)}: N = ${d.required} inputs from ${d.gen}.`,
      expected: this.isNot
        ? `a disagreement within N = ${d.required} inputs`
        : `no disagreement in N = ${d.required} inputs (certifies incoherence ≤ ${num(d.epsilon)} with confidence ${num(1 - d.delta)})`,
      received: received(d),
      details:
        d.unknownCells > 0
          ? [
              [
                'Unknown',
                unknownText(
                  d.unknownCells,
                  d.unknownPolicy,
                  uniqueLabels(candidates.map((c) => c.label)).map(
                    (label, i) => [label, d.unknownPerCandidate[i] ?? 0] as const,
                  ),
                ),
              ],
            ]
          : [],
      witness: record.witness,
      replay: {
        seed: d.seed,
        args: 'candidates',
        option: `{ seed: ${d.seed}, epsilon: ${d.epsilon}, delta: ${d.delta} }`,
      },
      hints: hints(d, this.isNot),
    });
  return { pass, message, record };
}
