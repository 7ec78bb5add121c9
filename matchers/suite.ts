import { checkKeys, knownKeys, optionError, readPositiveInt, readProbability } from '../src/errors/index.ts';

/**
 * The suite-level confidence: set once (in a setup file), it gives every statistical check that
 * is not given its own δ the Bonferroni share δ_suite / k, so that with k such checks the chance
 * that any of their claims is false stays at most δ_suite (union bound).
 */

/** Options of {@link configureSuite}. @public */
export interface SuiteOptions {
  /** Chance, over the whole suite, that at least one claim is false. In (0, 1). */
  delta: number;
  /** How many statistical checks the suite holds (k): each gets δ = delta / checks. */
  checks: number;
}

let perCheck: number | null = null;

const SUITE_KEYS = knownKeys<SuiteOptions>({ delta: true, checks: true });

/**
 * Sets a suite-level δ once for every `toBeCoherentAcross`, `toHaveIncoherenceBelow` and
 * `toAgreeWithReference` not given its own `delta` (or `confidence`): each runs at
 * δ = delta / checks (Bonferroni), so all k claims hold together with probability ≥ 1 − delta.
 * `configureSuite(null)` restores the per-check default (δ = 0.05 each). Call it in a setup file;
 * the reporter's summary states the suite-wide meaning either way.
 * @public
 */
export const configureSuite = (options: SuiteOptions | null): void => {
  const where = 'configureSuite(options)';
  if (options === null) {
    perCheck = null;
    return;
  }
  if (typeof options !== 'object') {
    throw optionError({
      where,
      field: 'options',
      rule: 'must be an object { delta, checks } or null',
      got: options,
      fix: 'Pass e.g. { delta: 0.05, checks: 20 }.',
    });
  }
  checkKeys({ where }, options, SUITE_KEYS);
  const delta = readProbability({ where, field: 'delta' }, (options as Partial<SuiteOptions>).delta);
  const checks = readPositiveInt({ where, field: 'checks' }, (options as Partial<SuiteOptions>).checks);
  perCheck = delta / checks;
};

/** The δ a check runs at when not given one: the suite's share, else undefined (the check's own default). @internal */
export const suiteDelta = (): number | undefined => perCheck ?? undefined;

/** `options` with the suite's δ share when it sets no `delta` of its own. @internal */
export const withSuiteDelta = <O extends { delta?: number }>(options: O | undefined): O => {
  const own = options ?? ({} as O);
  const delta = suiteDelta();
  return own.delta === undefined && delta !== undefined ? { ...own, delta } : own;
};
