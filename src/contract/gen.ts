import type { Arbitrary } from 'fast-check';

/**
 * The contract between input generators and the rest of the engine. The generators themselves
 * live in src/inputs; tasks, runners and measures depend only on this interface.
 */

/** Brand of every {@link Gen}, shared across copies of the package. @internal */
export const GEN_BRAND: unique symbol = Symbol.for('crosscheck.gen') as never;

/** An argument tuple: the positional arguments of one call. @public */
export type Args = readonly unknown[];

/**
 * A deterministic, seeded stream of argument tuples (the `Gen` of the incoherence paper).
 * @public
 */
export interface Gen<A extends Args = Args> {
  readonly [GEN_BRAND]: true;
  /** Says which distribution this is, for reports ("guarantees hold for this Gen"). */
  readonly description: string;
  /**
   * Draws `n` argument tuples; the same seed always gives the same tuples. May return fewer than
   * `n` when the source is exhausted (a finite domain, a strict validity filter).
   */
  generate(n: number, options: { seed: number; signal?: AbortSignal }): Promise<A[]>;
  /**
   * Optional: the same distribution as a fast-check arbitrary, before validity filters. Lets
   * fast-check drive the Gen (`coherenceProperty`) and shrink witnesses with its own shrinker.
   */
  readonly arbitrary?: Arbitrary<A>;
  /** Optional: whether an input passes the Gen's validity filters (a reference, predicates). */
  accepts?(args: A, options?: { signal?: AbortSignal }): Promise<boolean>;
  /**
   * Optional: fast-check's shrink context for a tuple this Gen drew (the same object), so its
   * arbitrary can shrink values it cannot shrink bare (`.map`, `fc.stringMatching`).
   */
  shrinkContext?(args: A): { readonly context: unknown } | undefined;
  /**
   * Optional: true when structural shrinking (shorter collections, numbers toward 0) stays within
   * this Gen's values. Without it, a witness the arbitrary cannot shrink stays as drawn.
   */
  readonly structuralShrink?: boolean;
}

/** True for any {@link Gen}. @public */
export const isGen = (x: unknown): x is Gen =>
  typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[GEN_BRAND] === true;
