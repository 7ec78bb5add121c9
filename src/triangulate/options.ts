import { CrosscheckError, describeValue } from '../errors/index.ts';

/**
 * Every place where the paper and its authors' checker (just-tri-it `a6e2d56`) differ, as one
 * field (design §1.9). Presets: {@link SEMANTICS}.
 * @public
 */
export interface TriangulationSemantics {
  /** A ∀ fails when the share of angelic elements is at least this (artifact 0.34) or, under `strictThreshold`, not below it. */
  readonly angelicThreshold: number;
  /** `'geq'`: fail when share ≥ threshold (artifact, 0.34 accepts one third); `'not-below'`: fail unless share < threshold (paper, T = 1/3). */
  readonly thresholdRule: 'geq' | 'not-below';
  /** U only for an invalid-input error with exactly this message; null: any invalid-input error. */
  readonly invalidMessage: string | null;
  /** FWD-INV injectivity: vary the inverted argument's position (artifact) or the output (paper). */
  readonly injectivity: 'inverted-position' | 'output';
  /** FWD-INV injectivity over consecutive right inputs (artifact) or all pairs (paper). */
  readonly injectivityPairs: 'consecutive' | 'all';
  /** FWD-SINV: also check that fibers of different outputs are disjoint (paper's L3). */
  readonly sinvDisjointness: boolean;
  /** `'artifact'`: identical forward programs collapse, a duplicate witness stops the scan; `'samples'`: every sample counts. */
  readonly pairing: 'artifact' | 'samples';
  /** Bijective relations: a program agreeing with a witness already matched inherits its partner's witnesses. */
  readonly inherit: boolean;
  /** Equal-length lists with special elements: specials count as equal (artifact) or the strongest special wins. */
  readonly listEquality: 'artifact' | 'strongest';
  /** `A ∈ S` for an answer S: true (artifact) or A (paper's IN_S). */
  readonly angelicMember: 'true' | 'A';
  /** Domains above `maxDomain`: CPython's `random.seed(42); random.sample` (artifact) or a seeded shuffle. */
  readonly domainSampler: 'python' | 'seeded';
  readonly maxDomain: number;
  /** `maxDomain` in the ENUM-SINV stage. */
  readonly enumMaxDomain: number;
  /** Per-call time limit factor in the ENUM-SINV stage. */
  readonly enumTimeoutFactor: number;
  /** A pair check may make at most this many program calls per input (of the larger input side). */
  readonly callBudgetPerInput: number;
  /**
   * Where floats may be close rather than equal, under the default `python` equality.
   * `'artifact'`: only between two floats, at the top level or as elements of two lists of one
   * length; an int against a float, and anything nested deeper, is Python's exact `==` (the
   * authors' checker: 7 and 7.000000000000001 differ). `'equality'`: the task's equality decides
   * (`python`: any float within relative 1e-9, at any depth).
   */
  readonly closeness: 'artifact' | 'equality';
  /**
   * Domains computed by a program (a fiber, an enumerated answer) drop every value with an int
   * outside [−int, int], or a str or list longer than `length`, at any depth, before `maxDomain`
   * applies. The authors' checker does this for every task (its per-task switch is always on at
   * the commit the presets follow); null keeps every value.
   */
  readonly smallValues: { readonly int: number; readonly length: number } | null;
}

const ARTIFACT: TriangulationSemantics = Object.freeze({
  angelicThreshold: 0.34,
  thresholdRule: 'geq',
  invalidMessage: 'Invalid input',
  injectivity: 'inverted-position',
  injectivityPairs: 'consecutive',
  sinvDisjointness: false,
  pairing: 'artifact',
  inherit: true,
  listEquality: 'artifact',
  angelicMember: 'true',
  domainSampler: 'python',
  maxDomain: 50,
  enumMaxDomain: 10,
  enumTimeoutFactor: 2,
  callBudgetPerInput: 500,
  closeness: 'artifact',
  smallValues: Object.freeze({ int: 100, length: 3 }),
});

const PAPER: TriangulationSemantics = Object.freeze({
  ...ARTIFACT,
  angelicThreshold: 1 / 3,
  thresholdRule: 'not-below',
  invalidMessage: null,
  injectivity: 'output',
  injectivityPairs: 'all',
  sinvDisjointness: true,
  pairing: 'samples',
  inherit: false,
  listEquality: 'strongest',
  angelicMember: 'A',
  domainSampler: 'seeded',
  closeness: 'equality',
  smallValues: null,
});

/**
 * The two presets. `artifact` follows the authors' checker (just-tri-it `a6e2d56`) wherever it
 * differs from the paper, its quirks included (the default); the differences that remain are
 * listed in docs/triangulation.md, "Where the artifact preset differs from the authors' checker".
 * `paper` follows the paper's definitions where they differ.
 * @public
 */
export const SEMANTICS: {
  readonly artifact: TriangulationSemantics;
  readonly paper: TriangulationSemantics;
} = Object.freeze({ artifact: ARTIFACT, paper: PAPER });

/** What `semantics` accepts: a preset name, or fields over the artifact preset. @public */
export type SemanticsOption = 'artifact' | 'paper' | Partial<TriangulationSemantics>;

/** Resolves the option and names the preset for messages and records. @internal */
export const resolveSemantics = (
  option: SemanticsOption | undefined,
  where: string,
): { semantics: TriangulationSemantics; preset: 'artifact' | 'paper' | 'custom' } => {
  if (option === undefined || option === 'artifact') return { semantics: ARTIFACT, preset: 'artifact' };
  if (option === 'paper') return { semantics: PAPER, preset: 'paper' };
  if (typeof option !== 'object' || option === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`semantics\` must be 'artifact', 'paper' or an object of TriangulationSemantics fields, got ${describeValue(option)}.`,
      { where },
    );
  }
  for (const key of Object.keys(option)) {
    if (!(key in ARTIFACT)) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: unknown semantics field \`${key}\`; the fields are ${Object.keys(ARTIFACT).join(', ')}.`,
        { where },
      );
    }
  }
  const s = { ...ARTIFACT, ...option };
  if (!(s.angelicThreshold >= 0 && s.angelicThreshold <= 1)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`semantics.angelicThreshold\` must lie in [0, 1], got ${describeValue(s.angelicThreshold)}.`,
      { where },
    );
  }
  if (s.closeness !== 'artifact' && s.closeness !== 'equality') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`semantics.closeness\` must be 'artifact' or 'equality', got ${describeValue(s.closeness)}.`,
      { where },
    );
  }
  const small = s.smallValues as unknown;
  if (
    small !== null &&
    !(
      typeof small === 'object' &&
      Object.keys(small).every((k) => k === 'int' || k === 'length') &&
      Number.isInteger((small as { int?: unknown }).int) &&
      Number.isInteger((small as { length?: unknown }).length) &&
      (small as { int: number }).int >= 0 &&
      (small as { length: number }).length >= 0
    )
  ) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`semantics.smallValues\` must be null or { int, length } with two non-negative integers, got ${describeValue(small)}.`,
      { where },
    );
  }
  for (const k of ['maxDomain', 'enumMaxDomain', 'callBudgetPerInput', 'enumTimeoutFactor'] as const) {
    if (!(typeof s[k] === 'number' && s[k] > 0)) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`semantics.${k}\` must be a positive number, got ${describeValue(s[k])}.`,
        { where },
      );
    }
  }
  return { semantics: Object.freeze(s), preset: 'custom' };
};
