/**
 * Semantic triangulation (docs/triangulation.md): a forward program is accepted
 * only when a program for a transformed problem (an inverse, a set-valued inverse, an answer
 * enumerator) satisfies a hyperproperty with it; RANSAC over the agreements selects one program
 * or abstains. Baselines (plurality, majority, CodeT, postconditions) use the same checker.
 * @packageDocumentation
 */
export { type BaselineResult, codeT, majority, plurality, postcondition } from './baselines.ts';
export {
  renderTriangulationTable,
  runTriangulationBench,
  type TriangulationBenchMethod,
  type TriangulationBenchOptions,
  type TriangulationBenchResult,
  type TriangulationBenchRow,
} from './bench.ts';
export type { Callable } from './calls.ts';
export {
  type Counterexample,
  defineHyperproperty,
  type Hyperproperty,
  type HyperpropertyContext,
  isHyperproperty,
  type PairVerdict,
  type TracedCall,
} from './hyperproperty.ts';
export { createLogic, type Logic, type Truth } from './logic.ts';
export { resolveSemantics, SEMANTICS, type SemanticsOption, type TriangulationSemantics } from './options.ts';
export {
  enumSinvProperty,
  equivalenceProperty,
  fwdEnumProperty,
  fwdInvProperty,
  fwdSinvProperty,
  offByOneProperty,
  postconditionProperty,
  statelessMapProperty,
} from './properties.ts';
export { PythonRandom } from './python-random.ts';
export { type TriangulationData, type TriangulationRecordExtra, triangulationRecord } from './record.ts';
export {
  enumerationSignature,
  type PlanPin,
  PROMPTS,
  parseSignature,
  type SamplerTransformation,
  type TransformedProblem,
  type TransformPlan,
  type TriangulationSamplerOptions,
  transformedSignature,
  triangulationSampler,
  type WitnessSampler,
} from './sampler.ts';
export {
  COMBINATION_ORDER,
  combine,
  maxWitness,
  ransac,
  ransacScores,
  type Selection,
  type SupportEntry,
} from './select.ts';
export {
  A,
  type Answers,
  answers,
  D,
  fromOutcome,
  isSpecial,
  type Special,
  strongest,
  subset,
  tolerate,
  U,
} from './special.ts';
export {
  parameterNames,
  type Transformation,
  type TransformationSpec,
  tri,
} from './transformation.ts';
export {
  type CandidateSupport,
  type ComposedWitness,
  type StagePass,
  type StageResult,
  TRIANGULATE_KEYS,
  type TriangulateOptions,
  type TriangulationResult,
  triangulate,
  unionCompose,
  type WitnessProgram,
} from './triangulate.ts';
