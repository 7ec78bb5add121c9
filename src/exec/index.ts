/**
 * Execution: runs candidates on inputs and collects the outcome matrix.
 * @packageDocumentation
 */
export type { CandidateRunStats, ExecLimits } from './backend.ts';
export { closeSandboxPools } from './js/index.ts';
export {
  BUDGET_SPENT,
  type CrashOutcome,
  describeOutcome,
  type ErrorOutcome,
  fromWireOutcome,
  type InvalidOutcome,
  type Outcome,
  type OutcomeKind,
  type TimeoutOutcome,
  toWireOutcome,
  type ValueOutcome,
  valueOutcome,
  type WireOutcome,
} from './outcome.ts';
export {
  DEFAULT_ROW_OUTPUT_BYTES,
  type DigestKey,
  defaultRunOutputBytes,
  describeDigest,
  type OutputBudgetOptions,
  type OutputDigest,
  outcomeDigest,
} from './output-budget.ts';
export { type MatrixRow, type OutcomeMatrix, type RunOptions, run } from './run.ts';
