import fc from 'fast-check';
import { type Candidate, fromFunctions, isCandidate } from '../candidates/index.ts';
import { type Args, GEN_BRAND, type Gen } from '../contract/index.ts';
import {
  CrosscheckError,
  checkKeys,
  describeValue,
  knownKeys,
  readPositiveInt,
  readSeed,
} from '../errors/index.ts';
import type { Outcome } from '../exec/index.ts';
import { type RunOptions, run } from '../exec/index.ts';
import { defineTask, isTask, type Task } from '../task/index.ts';
import { argsKey } from './canonical-key.ts';
import { compareComplexity, complexity } from './structural-shrink.ts';

/** Options of {@link CrosscheckGen.generate}. @public */
export interface GenerateOptions {
  /** The same seed always gives the same inputs. */
  seed: number;
  signal?: AbortSignal;
  /**
   * Most candidate inputs drawn before giving up (duplicates and rejected ones count).
   * @defaultValue `50 * n + 1000`
   */
  maxDraws?: number;
  /** Called after each round with the number of accepted inputs and draws so far. */
  onProgress?: (accepted: number, drawn: number) => void;
}

const GENERATE_KEYS = knownKeys<GenerateOptions>({
  seed: true,
  signal: true,
  maxDraws: true,
  onProgress: true,
});

/** What {@link CrosscheckGen.generateWithReport} found out while drawing. @public */
export interface GenerateReport<A extends Args = Args> {
  /**
   * The distinct valid inputs among the draws, in order of first draw. Each runs once; it stands
   * for `counts[k]` draws.
   */
  readonly inputs: A[];
  /** How many of the valid draws gave `inputs[k]` (its multiplicity). Sums to `sampled`. */
  readonly counts: readonly number[];
  /**
   * The valid draws in order, as indexes into `inputs`: i.i.d. draws from the Gen (its
   * arbitrary conditioned on the validity filters). `generate(n)` returns these.
   */
  readonly draws: readonly number[];
  /** Valid draws: `n`, unless the validity filters rejected too much (see `shortfall`). */
  readonly sampled: number;
  /** Candidate inputs drawn from the source, rejected ones included. */
  readonly drawn: number;
  /** Draws whose canonical key was already seen (they cost no call). */
  readonly duplicates: number;
  /** Distinct draws the validity filters rejected, by reason (`reference: invalid ValueError`, `predicate`). */
  readonly rejected: Readonly<Record<string, number>>;
  /**
   * Distinct draws the reference filter could not judge, by reason (a subset of `rejected`): it
   * timed out, crashed, or never ran because its timeout budget was spent. Unlike inputs it
   * rejects as invalid, these are not a property of the task: leaving them out changes the
   * distribution, so `measure` and `detect` say so (and are inconclusive unless told to exclude them).
   */
  readonly lost: Readonly<Record<string, number>>;
  /** Why fewer than `n` valid draws came back; null when all `n` did. */
  readonly shortfall: string | null;
  /**
   * With a reference filter: its outcome on each returned input (a `value`, in the order of
   * `inputs`), so the reference need not run again on them. Null without one.
   */
  readonly referenceOutcomes: readonly Outcome[] | null;
}

/**
 * A validity check over a batch: true keeps an input, a string rejects it and says why, an
 * outcome keeps it and is the reference's outcome on it.
 */
interface Check<A extends Args> {
  readonly label: string;
  /** True for the reference filter, whose kept inputs come with the reference's outcome. */
  readonly isReference?: boolean;
  test(batch: readonly A[], signal: AbortSignal | undefined): Promise<Array<true | string | Outcome>>;
}

/** Options of {@link CrosscheckGen.withReference}. @public */
export interface ReferenceFilterOptions
  extends Pick<RunOptions, 'timeoutMs' | 'memoryMb' | 'budgetMs' | 'maxOutputBytes'> {
  /** Error class names that mean "invalid input" (the `invalid` outcome). Default: the task's or the language's. */
  invalidInput?: readonly string[];
}

/**
 * fast-check's bias frequency for every draw. `fc.sample` raises it with the run index (2 for
 * the first 9 values, 3 up to 99, 4 up to 999...), so a value's distribution would depend on
 * where it falls in a batch; one fixed frequency makes the draws identically distributed (4: what
 * fast-check uses for runs 100–999 of a check).
 */
const DRAW_BIAS = 4;

/**
 * `inner`, generated at one fixed bias frequency (shrinking unchanged). Records each value's
 * shrink context: a `.map`ped or regex arbitrary cannot shrink a bare value, but with the context
 * of its generation fast-check's own shrinker can, and its shrinks stay in its domain.
 */
class FixedBias<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly inner: fc.Arbitrary<T>,
    private readonly bias: number,
    private readonly contexts: WeakMap<object, unknown>,
  ) {
    super();
  }
  generate(mrng: fc.Random): fc.Value<T> {
    const value = this.inner.generate(mrng, this.bias);
    const x = value.value_;
    // A value the arbitrary shrinks without its context needs no entry: a WeakMap entry per draw
    // (tens of thousands per task) costs the collector more than the check.
    if (
      typeof x === 'object' &&
      x !== null &&
      (value.context !== undefined || !this.inner.canShrinkWithoutContext(x))
    )
      this.contexts.set(x, value.context);
    return value;
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.inner.shrink(value, context);
  }
}

const STALE_ROUNDS = 8;
const MAX_BATCH = 20_000;

const mixSeed = (seed: number, round: number): number =>
  round === 0 ? seed | 0 : (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(round, 0x85ebca6b)) | 0;

const outcomeReason = (o: Outcome): string => {
  switch (o.kind) {
    case 'value':
      return 'value';
    case 'invalid':
      return `invalid ${o.name}`;
    case 'error':
      return `error ${o.name}`;
    case 'timeout':
      return o.reason === 'budget' ? 'timeout (not run: timeout budget spent)' : `timeout (${o.reason})`;
    default:
      return `crash (${o.reason})`;
  }
};

/** True for a reason {@link outcomeReason} gives an input the reference did not answer. */
const isLoss = (reason: string): boolean => reason.startsWith('timeout') || reason.startsWith('crash');

/** Says how many rejections were inputs the reference never ran (its timeout budget was spent). */
const notJudged = (rejected: Record<string, number>): string => {
  const n = Object.entries(rejected)
    .filter(([reason]) => reason.includes('not run'))
    .reduce((sum, [, count]) => sum + count, 0);
  const [top] = Object.entries(rejected).sort((a, b) => b[1] - a[1]);
  const most = top === undefined ? '' : `; most often ${top[0]} (${top[1]})`;
  return n === 0
    ? most
    : ` (${n} never ran: the reference spent its timeout budget on slow inputs; raise budgetMs/timeoutMs or narrow the inputs)${most}`;
};

/**
 * The Gen every `gen.*` source returns: a fast-check arbitrary (the distribution) and validity
 * filters. Draws are i.i.d.; equal ones (by canonical key) are judged and run once and counted
 * as often as they were drawn. `arbitrary` is the unfiltered distribution, so
 * fast-check can drive and shrink it; {@link CrosscheckGen.accepts} applies the filters.
 * @public
 */
export class CrosscheckGen<A extends Args = Args> implements Gen<A> {
  readonly [GEN_BRAND] = true as const;
  readonly description: string;
  readonly arbitrary: fc.Arbitrary<A>;
  /**
   * Whether structural shrinking (shorter collections, numbers toward 0, kinds kept) stays within
   * this Gen's values, so a witness its arbitrary cannot shrink may still shrink that way. True
   * for the type-driven sources (`fromSeeds`); false for a user's arbitrary, whose constraints
   * (`minLength`, `.map`, regexes) structural shrinking cannot see.
   */
  readonly structuralShrink: boolean;
  readonly #checks: readonly Check<A>[];
  /** The fast-check shrink context of each input this Gen drew, by identity. */
  readonly #contexts = new WeakMap<object, unknown>();

  /** @internal */
  constructor(
    arbitrary: fc.Arbitrary<A>,
    description: string,
    checks: readonly Check<A>[] = [],
    options: { structuralShrink?: boolean } = {},
  ) {
    this.arbitrary = arbitrary;
    this.description = description;
    this.#checks = checks;
    this.structuralShrink = options.structuralShrink === true;
  }

  /**
   * The context fast-check's shrinker needs for `args`, when this Gen drew exactly that tuple
   * (the same object); undefined otherwise.
   */
  shrinkContext(args: A): { readonly context: unknown } | undefined {
    return this.#contexts.has(args) ? { context: this.#contexts.get(args) } : undefined;
  }

  /**
   * Draws `n` valid argument tuples, i.i.d. from the Gen (its arbitrary, conditioned on the
   * validity filters): duplicates are kept, so a mean over them estimates the mean under the Gen.
   * The same seed gives the same tuples. Fewer than `n` only when the filters reject nearly
   * every draw ({@link CrosscheckGen.generateWithReport} says why).
   */
  async generate(n: number, options: GenerateOptions): Promise<A[]> {
    const report = await this.generateWithReport(n, options);
    return report.draws.map((k) => report.inputs[k] as A);
  }

  /**
   * Like {@link CrosscheckGen.generate}, as distinct inputs with their multiplicities (run each
   * once, weight it by its count), and says how many draws were duplicates or rejected, and why.
   */
  async generateWithReport(n: number, options: GenerateOptions): Promise<GenerateReport<A>> {
    const where = 'gen.generate(n, options)';
    readPositiveInt({ where, field: 'n' }, n, undefined, 0);
    if (typeof options === 'object' && options !== null) checkKeys({ where }, options, GENERATE_KEYS);
    const seed = readSeed({ where, field: 'seed' }, (options as Partial<GenerateOptions> | undefined)?.seed);
    const { signal, onProgress } = options;
    const maxDraws = options.maxDraws ?? 50 * n + 1000;
    const inputs: A[] = [];
    const counts: number[] = [];
    const draws: number[] = [];
    const referenceOf = new Map<A, Outcome>();
    // Per canonical key: the index in `inputs` once a valid draw used it, -1 when valid but not
    // used yet, or the reason the filters rejected it. A key is judged once; later draws of it
    // cost nothing.
    const status = new Map<string, number | string>();
    const valid = new Map<string, A>();
    const rejected: Record<string, number> = {};
    const lost: Record<string, number> = {};
    let drawn = 0;
    let duplicates = 0;
    let stale = 0;
    for (let round = 0; draws.length < n && drawn < maxDraws && stale < STALE_ROUNDS; round++) {
      if (signal?.aborted) {
        throw new CrosscheckError('ABORTED', `${where}: aborted after ${draws.length} of ${n} inputs.`, {
          where,
          cause: signal.reason,
        });
      }
      const need = n - draws.length;
      const keepRate = drawn === 0 ? 1 : Math.max(draws.length / drawn, 0.02);
      const size = Math.min(MAX_BATCH, maxDraws - drawn, Math.max(64, Math.ceil((need / keepRate) * 1.2)));
      const batch = this.#draw(size, mixSeed(seed, round), where);
      drawn += batch.length;
      // Parallel arrays, not an object per draw: a batch holds up to 20,000 draws.
      const keys: string[] = new Array(batch.length);
      let survivors: A[] = [];
      let survivorKeys: string[] = [];
      const pending = new Set<string>();
      for (let i = 0; i < batch.length; i++) {
        const args = batch[i] as A;
        const key = argsKey(args);
        keys[i] = key;
        if (status.has(key) || pending.has(key)) duplicates++;
        else {
          pending.add(key);
          survivors.push(args);
          survivorKeys.push(key);
        }
      }
      for (const check of this.#checks) {
        if (survivors.length === 0) break;
        const verdicts = await check.test(survivors, signal);
        const keptArgs: A[] = [];
        const keptKeys: string[] = [];
        // One reason string per verdict, not one per rejected draw.
        const reasons = new Map<string, string>();
        for (let i = 0; i < survivors.length; i++) {
          const args = survivors[i] as A;
          const key = survivorKeys[i] as string;
          const verdict = verdicts[i];
          if (verdict === true || typeof verdict === 'object') {
            if (typeof verdict === 'object') referenceOf.set(args, verdict);
            keptArgs.push(args);
            keptKeys.push(key);
            continue;
          }
          let reason = reasons.get(verdict as string);
          if (reason === undefined) {
            reason = `${check.label}: ${verdict}`;
            reasons.set(verdict as string, reason);
          }
          rejected[reason] = (rejected[reason] ?? 0) + 1;
          if (check.isReference === true && isLoss(verdict as string)) lost[reason] = (lost[reason] ?? 0) + 1;
          status.set(key, reason);
        }
        survivors = keptArgs;
        survivorKeys = keptKeys;
      }
      for (let i = 0; i < survivors.length; i++) {
        const key = survivorKeys[i] as string;
        status.set(key, -1);
        valid.set(key, survivors[i] as A);
      }
      // The valid draws in draw order, up to n: rejection sampling, so they are i.i.d. from the
      // filtered distribution, duplicates included.
      const before = draws.length;
      for (const key of keys) {
        if (draws.length >= n) break;
        const at = status.get(key);
        if (typeof at !== 'number') continue;
        let k = at;
        if (k < 0) {
          k = inputs.push(valid.get(key) as A) - 1;
          counts.push(0);
          status.set(key, k);
          valid.delete(key);
        }
        counts[k] = (counts[k] as number) + 1;
        draws.push(k);
      }
      stale = draws.length === before ? stale + 1 : 0;
      onProgress?.(draws.length, drawn);
    }
    const distinct = status.size;
    const shortfall =
      draws.length >= n
        ? null
        : `gave up after ${drawn} draws with ${draws.length} valid: ${distinct} distinct inputs, of which the validity filters rejected ${Object.values(rejected).reduce((a, b) => a + b, 0)}${notJudged(rejected)}`;
    const referenceOutcomes = this.#checks.some((c) => c.isReference === true)
      ? inputs.map((args) => referenceOf.get(args) as Outcome)
      : null;
    return {
      inputs,
      counts,
      draws,
      sampled: draws.length,
      drawn,
      duplicates,
      rejected,
      lost,
      shortfall,
      referenceOutcomes,
    };
  }

  #draw(size: number, seed: number, where: string): A[] {
    const batch = fc.sample(new FixedBias(this.arbitrary, DRAW_BIAS, this.#contexts), {
      seed,
      numRuns: size,
    });
    for (const args of batch) {
      if (!Array.isArray(args)) {
        throw new CrosscheckError(
          'INVALID_INPUT',
          `${where}: every input must be an argument tuple (an array), but ${this.description} produced ${describeValue(args)}. Wrap single arguments, e.g. fc.tuple(fc.integer()).`,
          { where },
        );
      }
    }
    return batch;
  }

  /** True when `args` passes every validity filter of this Gen (the reference accepts it, predicates hold). */
  async accepts(args: A, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    for (const check of this.#checks) {
      const [verdict] = await check.test([args], options.signal);
      if (typeof verdict === 'string' || verdict === undefined) return false;
    }
    return true;
  }

  /** The same distribution, keeping only inputs for which `predicate` holds (it may be async). */
  filter(predicate: (...args: A) => boolean | Promise<boolean>, label = 'predicate'): CrosscheckGen<A> {
    if (typeof predicate !== 'function') {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `gen.filter(predicate): \`predicate\` must be a function (...args) => boolean, got ${describeValue(predicate)}.`,
        { where: 'gen.filter(predicate)' },
      );
    }
    const check: Check<A> = {
      label,
      async test(batch) {
        const out: Array<true | string> = [];
        for (const args of batch) {
          try {
            out.push((await predicate(...args)) === true ? true : 'false');
          } catch (error) {
            out.push(`threw ${(error as Error)?.name ?? 'an error'}`);
          }
        }
        return out;
      },
    };
    return new CrosscheckGen(
      this.arbitrary,
      `${this.description}, filtered by ${label}`,
      [...this.#checks, check],
      { structuralShrink: this.structuralShrink },
    );
  }

  /**
   * The same distribution, keeping only inputs the reference accepts: its outcome is a `value`
   * (not `invalid`, an error, a timeout or a crash). `reference` is a function, a candidate (for
   * example Python ground truth from `fromSources`) or a task with a reference.
   */
  withReference(
    reference: ((...args: never[]) => unknown) | Candidate | Task,
    options: ReferenceFilterOptions = {},
  ): CrosscheckGen<A> {
    const where = 'gen.withReference(reference)';
    let task: Task;
    if (isTask(reference)) {
      if (!reference.reference) {
        throw new CrosscheckError(
          'INVALID_OPTION',
          `${where}: the task ${JSON.stringify(reference.name)} has no reference. Give defineTask({ reference }) or pass the reference itself.`,
          { where },
        );
      }
      task = defineTask({
        name: `${reference.name} (validity filter)`,
        reference: reference.reference,
        invalidInput: options.invalidInput ?? reference.invalidInput,
        timeoutMs: options.timeoutMs ?? reference.timeoutMs,
      });
    } else if (typeof reference === 'function' || isCandidate(reference)) {
      const candidate =
        typeof reference === 'function' ? (fromFunctions({ reference })[0] as Candidate) : reference;
      task = defineTask({
        name: 'reference validity filter',
        reference: candidate,
        invalidInput: options.invalidInput,
        timeoutMs: options.timeoutMs,
      });
    } else {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`reference\` must be a function, a candidate or a task with a reference, got ${describeValue(reference)}. For Python ground truth: fromSources([code], { language: 'python', entry })[0].`,
        { where },
      );
    }
    const check: Check<A> = {
      label: 'reference',
      isReference: true,
      async test(batch, signal) {
        // Smallest inputs first: when cost grows with size, a timeout budget spent on the big
        // ones late in the batch still leaves the small ones judged.
        const order = batch.map((args, i) => ({ i, size: complexity(args) }));
        order.sort((a, b) => compareComplexity(a.size, b.size) || a.i - b.i);
        const sorted = order.map((o) => batch[o.i] as A);
        const matrix = await run(task, [], sorted, {
          signal,
          memoryMb: options.memoryMb,
          timeoutMs: options.timeoutMs,
          budgetMs: options.budgetMs,
          maxOutputBytes: options.maxOutputBytes,
        });
        const sortedOutcomes = matrix.reference?.outcomes ?? [];
        const outcomes: Outcome[] = new Array(batch.length);
        order.forEach((o, k) => {
          outcomes[o.i] = sortedOutcomes[k] as Outcome;
        });
        return outcomes.map((o) => (o.kind === 'value' ? o : outcomeReason(o)));
      },
    };
    const label = task.reference?.label ?? 'reference';
    return new CrosscheckGen(
      this.arbitrary,
      `${this.description}, valid for ${label}`,
      [...this.#checks, check],
      { structuralShrink: this.structuralShrink },
    );
  }
}

/** True for a Gen built by `gen.*` (with an arbitrary and filters). @public */
export const isCrosscheckGen = (x: unknown): x is CrosscheckGen => x instanceof CrosscheckGen;
