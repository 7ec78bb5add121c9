/**
 * Execution: runs candidates on inputs and collects the outcome matrix, one outcome per call.
 * It picks a runner per candidate (in-process for trusted functions, the JS sandbox, Python
 * workers, commands), puts untrusted ones behind the OS boundary, and bounds time and output.
 * @packageDocumentation
 */
export type { CandidateRunStats, ExecLimits } from './backend.ts';
/** Internal: what other folders of the engine use; not part of the public API. @internal */
export {
  combineIsolation,
  type IsolationMode,
  type IsolationUsed,
  resolveIsolation,
} from './isolation/index.ts';
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
  pendingText,
  type TimeoutOutcome,
  toWireOutcome,
  type ValueOutcome,
  valueOutcome,
  WIRE,
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
export { closePythonWorkers, configurePython, type PythonOptions } from './python/index.ts';
export {
  type MatrixRow,
  type OutcomeMatrix,
  RUN_LIMIT_KEYS,
  RUN_OPTION_KEYS,
  RunAbortedError,
  type RunOptions,
  run,
} from './run.ts';
export { uniqueLabels } from './unique-labels.ts';
