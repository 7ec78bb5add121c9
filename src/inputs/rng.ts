import type fc from 'fast-check';

const UNIT_STEPS = 2 ** 30;

/**
 * The random source of the mutation engines: a thin view over fast-check's `Random`, so seeds and
 * replay work exactly as in fast-check (no `Math.random` anywhere). A class, not closures: one is
 * made per generated input, on the hot path.
 */
export class Rng {
  constructor(private readonly mrng: fc.Random) {}

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min >= max ? min : this.mrng.nextInt(min, max);
  }

  /** A float in [0, 1). */
  unit(): number {
    return this.mrng.nextInt(0, UNIT_STEPS - 1) / UNIT_STEPS;
  }

  /** A float in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.unit();
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[items.length === 1 ? 0 : this.mrng.nextInt(0, items.length - 1)] as T;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.unit() < p;
  }
}

export const rngOf = (mrng: fc.Random): Rng => new Rng(mrng);
