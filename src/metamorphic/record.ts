import type { Candidate } from '../candidates/index.ts';
import { describeOutcome } from '../exec/index.ts';
import { poolIdentity } from '../measure/index.ts';
import {
  type CrosscheckRecord,
  propertyRecord,
  type RecordContext,
  type WitnessRecord,
} from '../report/index.ts';
import { toWire } from '../values/index.ts';
import type { RelationCheck } from './check.ts';

/** Longest text a record keeps of one value, as the other property records do. */
const MAX_TEXT = 4000;
const cut = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);
const wire = (x: unknown): string => {
  try {
    return cut(toWire(x));
  } catch {
    return cut(String(x));
  }
};

/**
 * The record of a `toSatisfyRelation` check: a `property` record (fast-check drew biased inputs,
 * so it supports no bound), whose per-candidate rows carry each candidate's verdict and whose
 * witness is the first violating candidate's two calls.
 * @internal
 */
export const relationRecord = (
  check: RelationCheck,
  candidates: readonly Candidate[],
  ctx: RecordContext,
): CrosscheckRecord => {
  const violated = check.candidates.find((c) => c.violation !== null);
  const v = violated?.violation ?? null;
  const witness: WitnessRecord | null =
    v === null
      ? null
      : {
          reason: 'relation violated',
          input: wire(v.input),
          original: wire(v.original),
          shrinkSteps: v.shrinks,
          outputs: v.calls.map((c) => ({
            labels: [`${c.program} on ${wire(c.args)}`],
            kind: c.outcome.kind,
            outcome: cut(describeOutcome(c.outcome)),
          })),
          reference: null,
        };
  const violators = check.candidates.filter((c) => c.verdict === 'violated').map((c) => c.label);
  const runs = check.candidates.reduce((k, c) => k + c.runs, 0);
  return propertyRecord(
    {
      task: check.task,
      m: check.candidates.length,
      gen: check.gen,
      witness,
      durationMs: check.durationMs,
      isolation: check.isolation,
      pool: poolIdentity(
        check.task,
        candidates.map((c) => c.id),
      ),
    },
    {
      property: `toSatisfyRelation: ${check.relation.name}`,
      biased: true,
      outcome:
        check.verdict === 'violated' ? 'falsified' : check.verdict === 'held' ? 'held' : 'too-many-skips',
      seed: check.seed,
      path: v?.path ?? null,
      // Each candidate has its own fast-check run of numRuns draws.
      runsRequested: check.numRuns * check.candidates.length,
      runs,
      skips: check.candidates.reduce((k, c) => k + Object.values(c.skipped).reduce((a, b) => a + b, 0), 0),
      shrinks: v?.shrinks ?? 0,
      inputsRun: runs,
      counterexample: v === null ? null : cut(`[${wire(v.input)}, ${v.transformSeed}]`),
      failure:
        violators.length > 0
          ? cut(`violated by ${violators.join(', ')}${violated ? `: ${violated.violation?.reason}` : ''}`)
          : null,
      candidates: check.candidates.map((c) => ({ label: c.label, ...c.outcomes, verdict: c.verdict })),
    },
    ctx,
  );
};
