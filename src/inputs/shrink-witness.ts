import type fc from 'fast-check';
import { type Args, type Gen, isGen } from '../contract/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import { compareComplexity, complexity, shrinkArgs } from './structural-shrink.ts';

/** Options of {@link shrinkWitness}. @public */
export interface ShrinkWitnessOptions {
  /**
   * Most calls of `stillFails` (each may run every candidate once).
   * @defaultValue 500
   */
  maxSteps?: number;
  signal?: AbortSignal;
}

const SHRINK_KEYS = knownKeys<ShrinkWitnessOptions>({ maxSteps: true, signal: true });

/** What {@link shrinkWitness} found. @public */
export interface ShrunkWitness<A extends Args = Args> {
  /** The smallest failing input found; never more complex than the original. */
  readonly args: A;
  /** How many candidate inputs were tried. */
  readonly steps: number;
  /** How many times a smaller failing input replaced the current one. */
  readonly improvements: number;
  /**
   * `arbitrary`: the Gen's fast-check shrinker; `structural`: shorter collections, numbers toward
   * 0 (no Gen, or a Gen whose values are closed under it); `none`: the Gen's arbitrary cannot
   * shrink this input and structural shrinks could leave the Gen, so it stays as it was.
   */
  readonly via: 'arbitrary' | 'structural' | 'none';
}

type Shrinkable<A> = { value: A; context: unknown };

/** The Gen's arbitrary and the context to shrink `args` with, when it can. */
const withArbitrary = <A extends Args>(
  gen: Gen<A> | null,
  args: A,
): { arbitrary: fc.Arbitrary<A>; context: unknown } | null => {
  const arbitrary = gen?.arbitrary;
  if (!arbitrary) return null;
  const known = gen?.shrinkContext?.(args);
  if (known) return { arbitrary, context: known.context };
  return arbitrary.canShrinkWithoutContext(args) ? { arbitrary, context: undefined } : null;
};

/**
 * Shrinks a failing input (a witness) while `stillFails` keeps holding: fast-check's shrinker
 * when the Gen has an arbitrary that recognises the input, structural shrinking otherwise
 * (shorter lists and strings, numbers toward 0, types kept). When the Gen has validity filters
 * (a reference, predicates), every smaller input must pass them too, so the witness stays a valid
 * input. Candidates more complex than the current witness are skipped, so the result is never
 * larger than the original.
 * @public
 */
export const shrinkWitness = async <A extends Args>(
  gen: Gen<A> | null,
  args: A,
  stillFails: (args: A) => boolean | Promise<boolean>,
  options: ShrinkWitnessOptions = {},
): Promise<ShrunkWitness<A>> => {
  const where = 'shrinkWitness(gen, args, stillFails)';
  if (typeof options === 'object' && options !== null) {
    checkKeys({ where: `${where.slice(0, -1)}, options)` }, options, SHRINK_KEYS);
  }
  if (gen !== null && !isGen(gen)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`gen\` must be a Gen or null, got ${describeValue(gen)}.`,
      {
        where,
      },
    );
  }
  if (!Array.isArray(args)) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${where}: \`args\` must be an argument tuple (an array), got ${describeValue(args)}. Wrap single arguments: [x].`,
      { where },
    );
  }
  if (typeof stillFails !== 'function') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`stillFails\` must be a function (args) => boolean, got ${describeValue(stillFails)}.`,
      { where },
    );
  }
  const maxSteps = options.maxSteps ?? 500;
  const shrinker = withArbitrary(gen, args);
  // A witness must stay a value of the Gen: fast-check's shrinker keeps to its arbitrary's
  // domain; structural shrinking cannot see an arbitrary's constraints, so it runs only without
  // a Gen or for a Gen that says its values are closed under it.
  const via = shrinker ? 'arbitrary' : gen === null || gen.structuralShrink === true ? 'structural' : 'none';
  if (via === 'none') return { args, steps: 0, improvements: 0, via };
  const arbitrary = shrinker?.arbitrary ?? null;
  const shrinks = (current: Shrinkable<A>): Iterable<Shrinkable<A>> =>
    arbitrary
      ? (arbitrary.shrink(current.value, current.context) as Iterable<Shrinkable<A>>)
      : mapShrinks(shrinkArgs(current.value));
  const fails = async (candidate: A): Promise<boolean> => {
    try {
      if (gen?.accepts && !(await gen.accepts(candidate, { signal: options.signal }))) return false;
      return (await stillFails(candidate)) === true;
    } catch {
      return false;
    }
  };
  let current: Shrinkable<A> = { value: args, context: shrinker?.context };
  let size = complexity(args);
  let steps = 0;
  let improvements = 0;
  search: while (steps < maxSteps) {
    for (const candidate of shrinks(current)) {
      if (steps >= maxSteps || options.signal?.aborted) break search;
      const candidateSize = complexity(candidate.value);
      if (compareComplexity(candidateSize, size) > 0) continue;
      steps++;
      if (await fails(candidate.value)) {
        current = { value: candidate.value, context: candidate.context };
        size = candidateSize;
        improvements++;
        continue search;
      }
    }
    break;
  }
  return { args: current.value, steps, improvements, via };
};

function* mapShrinks<A>(values: Iterable<A>): Generator<Shrinkable<A>> {
  for (const value of values) yield { value, context: undefined };
}
