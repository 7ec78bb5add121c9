import { createHash } from 'node:crypto';
import type { CandidateRan } from './analyze.ts';

/**
 * The identity of a pool: the task name and the multiset of candidate ids (ids derive from the
 * code), hashed. Two checks of the same task on the same programs share it in any order and in
 * any run; a check of one of its candidates alone does not. The summary compares error and
 * disagreement only within one pool.
 * @public
 */
export const poolIdentity = (task: string, candidateIds: readonly string[]): string =>
  createHash('sha256')
    .update(JSON.stringify([task, [...candidateIds].sort()]))
    .digest('hex')
    .slice(0, 16);

/**
 * Why a pool says nothing about agreement: fewer than two candidates returned a value on any
 * input (they failed to load, or only threw, hung or crashed). Identical failures are not
 * agreement about the task. Null when two or more returned. Names each silent candidate's problem.
 * @internal
 */
export const silentPoolReason = (labels: readonly string[], ran: readonly CandidateRan[]): string | null => {
  const returned = ran.filter((r) => r.returned).length;
  if (returned >= 2) return null;
  const silent = ran.flatMap((r, i) =>
    r.returned ? [] : [`${labels[i] ?? `#${i}`} (${r.loadProblem ?? r.firstProblem ?? 'did not run'})`],
  );
  return `only ${returned} of ${ran.length} candidates returned a value, so agreement says nothing: ${silent.join('; ')}`;
};
