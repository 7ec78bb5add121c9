/**
 * crosscheck: oracle-free correctness checks for LLM-generated code.
 *
 * Values cross every process and thread boundary in one tagged-JSON codec; `run` executes
 * candidates (trusted functions, sandboxed JS/TS, Python, any command) on inputs and returns the
 * outcome matrix; `gen` makes the inputs.
 * @packageDocumentation
 */
export {
  type Candidate,
  type CandidateOptions,
  type CandidateProblem,
  type CandidateTags,
  type CommandCandidate,
  type CommandOptions,
  extractCode,
  type FunctionCandidate,
  fromCommand,
  fromFunctions,
  fromSources,
  isCandidate,
  type SourceCandidate,
  type SourceLanguage,
  type SourceOptions,
  type SourceSpec,
} from './candidates/index.ts';
export { CrosscheckError, type CrosscheckErrorCode, isCrosscheckError } from './errors/index.ts';

import { candidates as sourceCandidates } from './candidates/index.ts';
import { fromModel } from './llm/index.ts';

/** The candidate builders, as a namespace (`fromModel` samples them from an LLM). @public */
export const candidates = Object.freeze({ ...sourceCandidates, fromModel });
export {
  type CandidateRunStats,
  type CrashOutcome,
  closeSandboxPools,
  describeOutcome,
  type ErrorOutcome,
  type ExecLimits,
  fromWireOutcome,
  type InvalidOutcome,
  type MatrixRow,
  type Outcome,
  type OutcomeKind,
  type OutcomeMatrix,
  type OutputDigest,
  outcomeDigest,
  type RunOptions,
  run,
  type TimeoutOutcome,
  toWireOutcome,
  type ValueOutcome,
  valueOutcome,
  type WireOutcome,
} from './exec/index.ts';
export {
  type IsolationMode,
  type IsolationUsed,
  resolveIsolation,
} from './exec/isolation/index.ts';
export { closePythonWorkers, configurePython, type PythonOptions } from './exec/python/index.ts';
export {
  type Args,
  CrosscheckGen,
  type ExampleOptions,
  type Gen,
  type GenerateOptions,
  type GenerateReport,
  gen,
  isCrosscheckGen,
  isGen,
  type ReferenceFilterOptions,
  type SeedOptions,
  type ShrinkWitnessOptions,
  type ShrunkWitness,
  type SizeOptions,
  shrinkWitness,
} from './inputs/index.ts';
export {
  BUILTIN_PRICES,
  type CacheMode,
  type CacheModeSource,
  type ChatMessage,
  type ChatRequest,
  type Completion,
  codegenMessages,
  costOf,
  createLlm,
  type FromModelOptions,
  fromModel,
  type Llm,
  type LlmCall,
  type LlmJson,
  type LlmOptions,
  type LlmProvenance,
  type LlmUsage,
  PRICES_AS_OF,
  type Price,
  type Prices,
  type PromptTemplate,
  type Purpose,
  type SampleCandidatesOptions,
  type SamplingOptions,
  type UsageLedger,
  type UsageTotals,
  usageTotals,
} from './llm/index.ts';
export {
  type CandidateError,
  type CommonOptions,
  certificateText,
  DEFAULT_SEED,
  type Detection,
  type DetectionVerdict,
  type DetectOptions,
  detect,
  type EquivalenceClass,
  type Estimator,
  type Measurement,
  type MeasureOptions,
  measure,
  type UnknownCounts,
  type Witness,
  type WitnessOutput,
  type WitnessReason,
} from './measure/index.ts';
export type { Interval } from './stats/index.ts';
export * as stats from './stats/index.ts';
export { defineTask, isTask, type Task, type TaskSpec } from './task/index.ts';
export * as triangulation from './triangulate/index.ts';
export {
  type CandidateSupport,
  type Counterexample,
  defineHyperproperty,
  type Hyperproperty,
  type HyperpropertyContext,
  SEMANTICS,
  subset,
  type TransformationSpec,
  type TransformPlan,
  type TriangulateOptions,
  type TriangulationResult,
  type TriangulationSemantics,
  tri,
  triangulate,
  triangulationSampler,
  unionCompose,
  type WitnessSampler,
} from './triangulate/index.ts';
export {
  type Comparator,
  Complex,
  comparator,
  decode,
  type EncodeLimits,
  type Equality,
  type EqualityMode,
  encode,
  FrozenSet,
  formatTagged,
  fromWire,
  type PreparedValue,
  PyDict,
  PyFloat,
  pyFloat,
  type Tagged,
  Tuple,
  toWire,
  tuple,
} from './values/index.ts';
