/**
 * Metamorphic relations: checks that need no oracle because they relate a program to itself (or
 * to a partner program) across a transformation of its input: invariance under reordering or an
 * irrelevant addition, an inverse (decode(encode(x)) = x), a set-valued view, or the equivalence
 * of two independent pipelines. fast-check draws the inputs and shrinks a violation, which
 * proves the program (or its partner) wrong on at least one of the two calls shown. Works over
 * every candidate: sandboxed sources, model samples and in-process functions (pipelines).
 * @packageDocumentation
 */
export {
  type CompareOptions,
  type EquivalentOptions,
  type InvariantOptions,
  type InverseOptions,
  type OutputEquality,
  type OutputView,
  type PermutationOptions,
  relations,
} from './builders.ts';
export {
  type CandidateRelationResult,
  checkRelation,
  RELATION_CHECK_KEYS,
  type RelationCheck,
  type RelationCheckOptions,
  type RelationViolation,
} from './check.ts';
export type { PairEvaluation, RelationCall } from './evaluate.ts';
export {
  type CandidateViolation,
  callLine,
  type RelationProperty,
  type RelationPropertyOptions,
  relationProperty,
} from './property.ts';
export { relationRecord } from './record.ts';
export {
  defineRelation,
  isRelation,
  type RelateContext,
  type RelateResult,
  type Relation,
  type RelationSpec,
  type TransformContext,
} from './relation.ts';
