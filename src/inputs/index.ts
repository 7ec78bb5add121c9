/**
 * Inputs: the `Gen` of the incoherence paper. Sources (fast-check arbitraries, signatures, JSON
 * schemas, examples, seed mutation), deduplication, validity filters and witness shrinking.
 * @packageDocumentation
 */
import { fromArbitrary, fromExamples, fromJsonSchema, fromSeeds, fromSignature } from './sources.ts';

export {
  CrosscheckGen,
  type GenerateOptions,
  type GenerateReport,
  isCrosscheckGen,
  type ReferenceFilterOptions,
} from './gen.ts';
export { type Args, GEN_BRAND, type Gen, isGen } from './gen-contract.ts';
export type { SchemaArgs } from './json-schema.ts';
export { type ShrinkWitnessOptions, type ShrunkWitness, shrinkWitness } from './shrink-witness.ts';
export {
  type ExampleOptions,
  fromArbitrary,
  fromExamples,
  fromJsonSchema,
  fromSeeds,
  fromSignature,
  type SeedOptions,
  type SizeOptions,
} from './sources.ts';
export { type Complexity, compareComplexity, complexity } from './structural-shrink.ts';

/**
 * The input sources, as one namespace: `gen.fromArbitrary`, `gen.fromSignature`,
 * `gen.fromJsonSchema`, `gen.fromExamples`, `gen.fromSeeds`. Each returns a {@link CrosscheckGen}
 * with `.filter(predicate)` and `.withReference(reference)`.
 * @public
 */
export const gen = { fromArbitrary, fromSignature, fromJsonSchema, fromExamples, fromSeeds } as const;
