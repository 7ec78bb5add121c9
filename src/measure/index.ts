/**
 * Measures: incoherence and error over the full outcome matrix, their intervals (Hoeffding ∩
 * empirical Bernstein, or Hoeffding for the paired estimator), the error
 * lower bound, PAC detection, equivalence classes and shrunk witnesses.
 * @packageDocumentation
 */

/** Internal: what other folders of the engine use; not part of the public API. @internal */
export {
  type Cell,
  CellCache,
  type CellRules,
  defaultEquality,
  LOAD_FAILURES,
  relate,
  relateOutcomes,
  toCell,
  type UnknownPolicy,
} from './agreement.ts';
export type { CandidateRan, EquivalenceClass, UnknownCounts } from './analyze.ts';
/**
 * The per-input analysis behind `measure`, for the benchmark runner, which measures each model
 * on its own rows of one shared matrix. Not re-exported by the package. @internal
 */
export {
  Accumulator,
  equivalenceClasses,
  errorLowerBoundOf,
  intervalOf,
  meanOf,
  semanticEntropy,
} from './analyze.ts';
export {
  type CoherentDetection,
  certificateText,
  type Detection,
  type DetectionBase,
  type DetectionVerdict,
  detect,
  type IncoherentDetection,
  type InconclusiveDetection,
} from './detect.ts';
export { type CandidateError, type Measurement, measure } from './measure.ts';
export {
  type CommonOptions,
  DEFAULT_SEED,
  type DetectOptions,
  type Estimator,
  type MeasureOptions,
  type ReferenceLoss,
} from './options.ts';
export { poolIdentity } from './pool.ts';
export type { Witness, WitnessOutput, WitnessReason } from './witness.ts';
