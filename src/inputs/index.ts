/**
 * Inputs: the `Gen` of the incoherence paper. Sources (fast-check arbitraries, signatures, JSON
 * schemas, examples, seed mutation), deduplication, validity filters and witness shrinking.
 * @packageDocumentation
 */
import { fromArbitrary, fromExamples, fromJsonSchema, fromSeeds, fromSignature } from './sources.ts';

export { type Args, GEN_BRAND, type Gen, isGen } from '../contract/index.ts';
export {
  CrosscheckGen,
  type GenerateOptions,
  type GenerateReport,
  isCrosscheckGen,
  type ReferenceFilterOptions,
} from './gen.ts';
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
 *
 * ```ts
 * const inputs = gen.fromSignature('(xs: List[int], k: int) -> int', { maxLength: 20 });
 * const seeded = gen.fromSeeds([[[3, 1, 2], 1]], { language: 'python' }).withReference(groundTruth);
 * const task = defineTask({ name: 'kth', inputs: seeded });
 * const xs = await seeded.generate(1000, { seed: 42 }); // same seed, same 1,000 distinct valid inputs
 * const { args } = await shrinkWitness(seeded, xs[0], async (a) => disagree(a)); // smaller, still failing
 * ```
 * @public
 */
export const gen = { fromArbitrary, fromSignature, fromJsonSchema, fromExamples, fromSeeds } as const;

/** Internal: what other folders of the engine use; not part of the public API. @internal */
export { argsKey } from './canonical-key.ts';
