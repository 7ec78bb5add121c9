import fc from 'fast-check';
import { mutateDifftrust } from './mutate-difftrust.ts';
import { mutateTyped, type TypedContext } from './mutate-typed.ts';
import { rngOf } from './rng.ts';
import type { Shape } from './shape.ts';
import { shrinkArgs } from './structural-shrink.ts';

/** How seed mutation behaves. */
export interface SeedMutationSettings {
  readonly profile: 'typed' | 'difftrust';
  /** Per input, one of these mutation counts is picked; each argument gets that many mutations. */
  readonly mutations: readonly number[];
  /** typed: one shape per argument position. */
  readonly shapes: readonly Shape[];
  readonly python: boolean;
  readonly maxLength: number;
}

/**
 * Seed mutation as a fast-check arbitrary: fast-check's seeded `Random` drives every choice, so
 * `fc.sample`, `fc.assert` and replay by seed and path work as for any arbitrary. Values carry no
 * context; shrinking is structural and type-preserving.
 */
export class SeedMutationArbitrary extends fc.Arbitrary<unknown[]> {
  constructor(
    private readonly seeds: readonly (readonly unknown[])[],
    private readonly settings: SeedMutationSettings,
  ) {
    super();
  }

  generate(mrng: fc.Random): fc.Value<unknown[]> {
    const rng = rngOf(mrng);
    const seed = rng.pick(this.seeds);
    const count = rng.pick(this.settings.mutations);
    const { profile, shapes, python, maxLength } = this.settings;
    const ctx: TypedContext = { rng, python, maxLength };
    const args = seed.map((value, i) =>
      profile === 'difftrust'
        ? mutateDifftrust(value, count, rng)
        : mutateTyped(value, shapes[i] ?? null, count, ctx),
    );
    return new fc.Value(args, undefined);
  }

  canShrinkWithoutContext(value: unknown): value is unknown[] {
    return Array.isArray(value) && value.length === (this.seeds[0]?.length ?? 0);
  }

  shrink(value: unknown[]): fc.Stream<fc.Value<unknown[]>> {
    return fc.stream(mapIterator(shrinkArgs(value), (args) => new fc.Value(args, undefined)));
  }
}

function* mapIterator<T, U>(items: Iterator<T>, f: (x: T) => U): IterableIterator<U> {
  for (let r = items.next(); !r.done; r = items.next()) yield f(r.value);
}
