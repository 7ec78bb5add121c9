/**
 * Measures: incoherence and error over the full outcome matrix, Hoeffding intervals, the error
 * lower bound, PAC detection, equivalence classes and shrunk witnesses (DESIGN.md "Measures").
 * @packageDocumentation
 */
export type { CandidateRan, EquivalenceClass, UnknownCounts } from './analyze.ts';
/**
 * The per-input analysis behind `measure`, for the benchmark runner, which measures each model
 * on its own rows of one shared matrix. Not re-exported by the package. @internal
 */
export { Accumulator, equivalenceClasses, intervalOf, meanOf, semanticEntropy } from './analyze.ts';
/** Internal: what other folders of the engine use; not part of the public API. @internal */
export { LOAD_FAILURES, relate, toCell, type UnknownPolicy } from './cells.ts';
export { certificateText, type Detection, type DetectionVerdict, detect } from './detect.ts';
export { type CandidateError, type Measurement, measure } from './measure.ts';
export {
  type CommonOptions,
  DEFAULT_SEED,
  type DetectOptions,
  type Estimator,
  type MeasureOptions,
} from './options.ts';
export { poolIdentity } from './pool.ts';
export type { Witness, WitnessOutput, WitnessReason } from './witness.ts';
