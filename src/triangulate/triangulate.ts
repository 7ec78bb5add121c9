import { type Candidate, isCandidate } from '../candidates/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import { RUN_LIMIT_KEYS, type RunOptions } from '../exec/index.ts';
import { type Args, isGen } from '../inputs/index.ts';
import { isTask, type Task } from '../task/index.ts';
import type { Equality } from '../values/index.ts';
import {
  addLengthInput,
  addLengthView,
  type Callable,
  CallCache,
  candidateCallable,
  dropAt,
  pointwiseView,
  removeLengthView,
  splitInput,
  splitView,
  unionView,
  unpackView,
} from './calls.ts';
import {
  type Counterexample,
  checkHyperproperty,
  type Hyperproperty,
  isHyperproperty,
  type PairVerdict,
} from './hyperproperty.ts';
import { createLogic, type Logic } from './logic.ts';
import { resolveSemantics, type SemanticsOption, type TriangulationSemantics } from './options.ts';
import {
  enumSinvProperty,
  equivalenceProperty,
  fwdEnumProperty,
  fwdInvProperty,
  fwdSinvProperty,
  offByOneProperty,
  postconditionProperty,
  statelessMapProperty,
} from './properties.ts';
import type { PlanPin, TransformPlan, WitnessSampler } from './sampler.ts';
import { maxWitness, ransac, ransacScores, type Selection } from './select.ts';
import { answers, isSpecial } from './special.ts';
import {
  describeTransformation,
  normalizeTransformation,
  parameterNames,
  resolveIndex,
  type Transformation,
  type TransformationSpec,
} from './transformation.ts';

const COMPOSED = Symbol.for('crosscheck.triangulate.composed');

/**
 * A set-valued inverse composed on the host from two programs for a `"NO" | ("YES", t)` output
 * (design §1.4, union decomposition): `none(ī)` lists (a Subset of) the values giving "NO",
 * `some(t, ī)` all values giving ("YES", t).
 * @public
 */
export interface ComposedWitness {
  readonly kind: 'composed';
  readonly id: string;
  readonly label: string;
  readonly none: Candidate;
  readonly some: Candidate;
}

/** Composes a union-decomposed set-valued inverse. @public */
export const unionCompose = (none: Candidate, some: Candidate, label?: string): ComposedWitness => {
  if (!isCandidate(none) || !isCandidate(some)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `unionCompose(none, some): both parts must be candidates, got ${describeValue(isCandidate(none) ? some : none)}.`,
      { where: 'unionCompose(none, some)' },
    );
  }
  const w = {
    kind: 'composed' as const,
    id: `union(${none.id},${some.id})`,
    label: label ?? `${none.label}|${some.label}`,
    none,
    some,
  };
  Object.defineProperty(w, COMPOSED, { value: true });
  return Object.freeze(w);
};

/** A program for the transformed problem: a candidate or a composed witness. @public */
export type WitnessProgram = Candidate | ComposedWitness;

const isWitnessProgram = (x: unknown): x is WitnessProgram =>
  isCandidate(x) ||
  (typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[COMPOSED] === true);

/** Options of {@link triangulate}. @public */
export interface TriangulateOptions<A extends Args = Args> {
  transformation: TransformationSpec;
  /** Programs for τ(d): inverses, set-valued inverses, postconditions, pointwise inverses. */
  witnesses?: readonly WitnessProgram[];
  /** Instead of `witnesses`: plan τ(d) and sample its programs through a model (FWD-INV, FWD-SINV, ENUM-SINV: also the enumerators). */
  sampler?: WitnessSampler;
  /** Plan fields to fix instead of asking the model (a stored plan replays with no decision prompt). */
  pin?: PlanPin;
  /** Witness programs to sample (and, for ENUM-SINV, enumerators). @defaultValue 30 */
  witnessSamples?: number;
  /** ENUM-SINV: programs for the answer enumeration d^<. */
  enumerators?: readonly Candidate[];
  /** Forward inputs L: a Gen (n drawn with `seed`) or a list; default the task's. */
  inputs?: import('../inputs/index.ts').Gen<A> | readonly A[];
  /** @defaultValue 25 */
  n?: number;
  /** Right inputs R: a list, or `'derived'` (default): (p(i), ī) over the forward pool, (o, ī) over enumerated answers. */
  witnessInputs?: readonly Args[] | 'derived';
  /** ENUM-SINV stage 1 left inputs; default L. */
  enumeratorInputs?: readonly Args[];
  /** @defaultValue 'ransac' */
  selection?: 'ransac' | 'max-witness';
  /** @defaultValue 'artifact' */
  semantics?: SemanticsOption;
  /** `'matrix'`: every pair at once (calls batched); `'sequential'`: the authors' loop order. Same results. */
  schedule?: 'matrix' | 'sequential';
  equality?: Equality;
  /** @defaultValue 42 */
  seed?: number;
  run?: Omit<RunOptions, 'signal' | 'onProgress'>;
  signal?: AbortSignal;
}

/** The keys {@link triangulate} takes, checked against {@link TriangulateOptions}. @internal */
export const TRIANGULATE_KEYS = knownKeys<TriangulateOptions>({
  transformation: true,
  witnesses: true,
  sampler: true,
  pin: true,
  witnessSamples: true,
  enumerators: true,
  inputs: true,
  n: true,
  witnessInputs: true,
  enumeratorInputs: true,
  selection: true,
  semantics: true,
  schedule: true,
  equality: true,
  seed: true,
  run: RUN_LIMIT_KEYS,
  signal: true,
});

/** One forward candidate's standing. @public */
export interface CandidateSupport {
  readonly index: number;
  readonly label: string;
  readonly id: string;
  /** Labels of the τ(d) programs (or enumerators, views) φ held with, direct or inherited. */
  readonly agreesWith: readonly string[];
  /** Propagated plausibility witnesses (labels, with repetitions). */
  readonly witnesses: readonly string[];
  readonly support: number;
  /** Indexes of the forward candidates in its RANSAC group. */
  readonly group: readonly number[];
  readonly score: number;
  /** The first counterexample against it, when a pair failed. */
  readonly counterexample: (Counterexample & { readonly witness: string }) | null;
  /**
   * Every stage in which this program (or its pointwise view) was checked, with the hyperproperty
   * and the programs of the other side it held with (`inherited` when it took them from an earlier
   * program that agreed with the same witness, without checking the rest).
   */
  readonly passed: readonly StagePass[];
}

/** How one forward program fared in one stage: what φ held with, checked or inherited. @public */
export interface StagePass {
  readonly stage: string;
  readonly hyperproperty: string;
  /** Right-side programs φ was checked to hold with. */
  readonly held: readonly string[];
  /** Right-side programs taken over by inheritance (bijective φ), not checked for this program. */
  readonly inherited: readonly string[];
}

/** The pairs of one stage. @public */
export interface StageResult {
  readonly name: string;
  readonly hyperproperty: string;
  readonly left: readonly string[];
  readonly right: readonly string[];
  readonly inputs: { readonly left: number; readonly right: number };
  readonly pairs: readonly (readonly PairVerdict[])[];
}

/** What {@link triangulate} found. @public */
export interface TriangulationResult {
  readonly task: string;
  readonly transformation: string;
  readonly hyperproperty: { readonly name: string; readonly formula: string; readonly bijective: boolean };
  readonly outcome: 'selected' | 'abstained';
  readonly selected: CandidateSupport | null;
  readonly candidates: readonly CandidateSupport[];
  readonly stages: readonly StageResult[];
  readonly semantics: TriangulationSemantics;
  readonly preset: 'artifact' | 'paper' | 'custom';
  readonly selection: 'ransac' | 'max-witness';
  readonly seed: number;
  readonly durationMs: number;
  readonly inputs: { readonly forward: number; readonly transformed: number; readonly gen: string };
  readonly calls: { readonly requested: number; readonly executed: number; readonly budgetExceeded: number };
  readonly plan: TransformPlan | null;
  readonly tokens: { readonly prompt: number; readonly completion: number } | null;
}

interface Side {
  readonly callables: readonly Callable[];
  /** Left side only: which programs take part (the rest are not checked and get no witness). */
  readonly eligible?: readonly boolean[];
  /** Base witnesses behind each right program (ids, labels), propagated from earlier stages. */
  readonly witnessIds?: readonly (readonly string[])[];
  readonly witnessLabels?: readonly (readonly string[])[];
}

interface StageOutput {
  readonly result: StageResult;
  /** Per left index: right indices agreed with (shared lists under inheritance). */
  readonly agrees: readonly (readonly number[])[];
  readonly wIds: readonly string[][];
  readonly wLabels: readonly string[][];
  /** Per left index: the entry it belongs to (duplicates collapse under artifact pairing). */
  readonly entryOf: readonly number[];
  readonly entries: readonly number[];
  readonly budget: number;
}

interface Ctx {
  readonly logic: Logic;
  readonly semantics: TriangulationSemantics;
  readonly seed: number;
  readonly schedule: 'matrix' | 'sequential';
  readonly signal: AbortSignal | undefined;
}

const runStage = async (
  name: string,
  prop: Hyperproperty,
  left: Side,
  right: Side,
  L: readonly Args[],
  R: readonly Args[],
  ctx: Ctx,
): Promise<StageOutput> => {
  const { semantics } = ctx;
  const nl = left.callables.length;
  const nr = right.callables.length;
  // Under the authors' pairing, identical programs are one dict entry.
  const entryOf: number[] = [];
  const firstById = new Map<string, number>();
  left.callables.forEach((c, i) => {
    if (semantics.pairing === 'artifact') {
      const seen = firstById.get(c.id);
      entryOf.push(seen ?? i);
      if (seen === undefined) firstById.set(c.id, i);
    } else entryOf.push(i);
  });
  const entries = [...new Set(entryOf)];
  // Programs outside the stage (STREAM: a list program whose own view found no witness) are not
  // checked, so they can neither take a witness nor become a witness's first partner.
  const active = entries.filter((li) => left.eligible?.[li] ?? true);
  const memo = new Map<string, Promise<PairVerdict>>();
  const verdict = (li: number, rj: number): Promise<PairVerdict> => {
    const key = `${li},${rj}`;
    let v = memo.get(key);
    if (!v) {
      if (ctx.signal?.aborted)
        throw new CrosscheckError('ABORTED', 'triangulate: aborted.', { where: 'triangulate' });
      v = checkHyperproperty(
        prop,
        left.callables[li] as Callable,
        right.callables[rj] as Callable,
        { left: L, right: R },
        ctx.logic,
        semantics,
        ctx.seed,
      );
      memo.set(key, v);
      // A prefetched verdict may never be awaited; its rejection still reaches whoever awaits it.
      v.catch(() => {});
    }
    return v;
  };
  const inheritOn = semantics.inherit && prop.bijective;
  const matrix = ctx.schedule === 'matrix';
  if (matrix && !inheritOn) {
    // Every pair is visited: check them all at once, so their calls share rounds.
    await Promise.all(active.flatMap((li) => Array.from({ length: nr }, (_, rj) => verdict(li, rj))));
  } else if (matrix) {
    // Under inheritance most rows stop at their first pair that holds, so checking the whole matrix
    // does several times the work the loop below reads. Every row instead checks its pairs in
    // chunks of 1, 2, 4, … (all rows at once, so calls still share rounds) up to its first pair that
    // holds; the loop then checks the rest of a row only when it goes on past that pair. Verdicts
    // are the same as the full matrix's: a pair's verdict depends only on its own calls.
    await Promise.all(
      active.map(async (li) => {
        for (let from = 0, size = 1; from < nr; from += size, size *= 2) {
          const to = Math.min(nr, from + size);
          const vs = await Promise.all(Array.from({ length: to - from }, (_, d) => verdict(li, from + d)));
          if (vs.some((v) => v.kind === 'holds')) return;
        }
      }),
    );
  }
  const pairs: PairVerdict[][] = Array.from({ length: nl }, () =>
    Array.from({ length: nr }, () => ({ kind: 'not-checked' }) as PairVerdict),
  );
  const firstPartner = new Map<string, number>();
  const agreeLists = new Map<number, number[]>();
  let budget = 0;
  for (const li of entries) agreeLists.set(li, []);
  for (const li of active) {
    for (let rj = 0; rj < nr; rj++) {
      if (matrix && !memo.has(`${li},${rj}`)) {
        // Past the chunks: the rest of the row is checked at once.
        for (let r = rj; r < nr; r++) verdict(li, r);
      }
      const v = await verdict(li, rj);
      if (v.kind === 'budget') budget++;
      if (v.kind !== 'holds') {
        (pairs[li] as PairVerdict[])[rj] = v;
        continue;
      }
      const rid = (right.callables[rj] as Callable).id;
      const p0 = firstPartner.get(rid);
      if (inheritOn && p0 !== undefined) {
        agreeLists.set(li, agreeLists.get(p0) as number[]);
        (pairs[li] as PairVerdict[])[rj] = { kind: 'inherited', from: p0 };
        break;
      }
      (pairs[li] as PairVerdict[])[rj] = v;
      if (p0 === undefined) firstPartner.set(rid, li);
      (agreeLists.get(li) as number[]).push(rj);
    }
  }
  const agrees = entryOf.map((e) => agreeLists.get(e) ?? []);
  entryOf.forEach((e, i) => {
    if (e !== i) pairs[i] = pairs[e] as PairVerdict[];
  });
  const wIdsOf = (rj: number) => right.witnessIds?.[rj] ?? [(right.callables[rj] as Callable).id];
  const wLabelsOf = (rj: number) => right.witnessLabels?.[rj] ?? [(right.callables[rj] as Callable).label];
  return {
    result: {
      name,
      hyperproperty: prop.name,
      left: left.callables.map((c) => c.label),
      right: right.callables.map((c) => c.label),
      inputs: { left: L.length, right: R.length },
      pairs,
    },
    agrees,
    wIds: agrees.map((js) => js.flatMap(wIdsOf)),
    wLabels: agrees.map((js) => js.flatMap(wLabelsOf)),
    entryOf,
    entries,
    budget,
  };
};

/** What φ held with for left program i of a stage: the pairs checked to hold, then what it took over by inheritance. */
const stagePass = (st: StageOutput, i: number): StagePass => {
  const row = st.result.pairs[i] ?? [];
  const right = st.result.right;
  // The pair marked inherited held too: holding with a witness already matched is what triggers it.
  const held = row.flatMap((v, j) =>
    v.kind === 'holds' || v.kind === 'inherited' ? [right[j] as string] : [],
  );
  const inheritedAt = row.findIndex((v) => v.kind === 'inherited');
  const inherited =
    inheritedAt < 0
      ? []
      : (st.agrees[i] ?? []).map((j) => right[j] as string).filter((label) => !held.includes(label));
  return { stage: st.result.name, hyperproperty: st.result.hyperproperty, held, inherited };
};

const dedupArgs = (xs: readonly Args[]): Args[] => {
  const seen = new Set<string>();
  const out: Args[] = [];
  for (const x of xs) {
    let key: string;
    try {
      key = JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
      key = `${x.constructor?.name}:${key}`;
    } catch {
      continue;
    }
    if (!seen.has(key)) {
      seen.add(key);
      out.push(x);
    }
  }
  return out;
};

const fail = (message: string): never => {
  throw new CrosscheckError('INVALID_OPTION', `triangulate: ${message}`, {
    where: 'triangulate(task, forward, options)',
  });
};

/**
 * Semantic triangulation (design §3.3): checks each forward candidate against programs for a
 * transformed problem under a hyperproperty, then selects by RANSAC or abstains. Bad programs
 * never throw; misuse throws a `CrosscheckError` saying what to fix.
 * @public
 */
export const triangulate = async <A extends Args>(
  task: Task<A>,
  forward: readonly Candidate[],
  options: TriangulateOptions<A>,
): Promise<TriangulationResult> => {
  const started = performance.now();
  const where = 'triangulate(task, forward, options)';
  if (!isTask(task)) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `triangulate: expected a task from defineTask(), got ${describeValue(task)}.`,
      { where },
    );
  }
  if (!Array.isArray(forward) || forward.length === 0 || !forward.every(isCandidate)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `triangulate: \`forward\` must be a non-empty array of candidates, got ${describeValue(forward)}.`,
      { where },
    );
  }
  if (typeof options !== 'object' || options === null)
    fail(`expected options { transformation, witnesses }, got ${describeValue(options)}.`);
  checkKeys({ where }, options, TRIANGULATE_KEYS);
  let transformation = normalizeTransformation(options.transformation, 'triangulate');
  const { semantics, preset } = resolveSemantics(options.semantics, 'triangulate');
  const seed = options.seed ?? 42;
  let witnesses = options.witnesses ?? [];
  let plan: TransformPlan | null = null;
  let sampledEnumerators: Candidate[] = [];
  if (options.sampler && witnesses.length === 0) {
    const t = transformation;
    if (isHyperproperty(t) || (t.kind !== 'fwd-inv' && t.kind !== 'fwd-sinv' && t.kind !== 'enum-sinv')) {
      fail(
        `a \`sampler\` plans 'fwd-inv', 'fwd-sinv' and 'enum-sinv' only, got ${describeTransformation(t, parameterNames(task.signature))}; pass \`witnesses\` for other transformations.`,
      );
    }
    const kind = (t as { kind: 'fwd-inv' | 'fwd-sinv' | 'enum-sinv' }).kind;
    const invert = (t as { invert?: number | string }).invert;
    plan = await options.sampler.plan(task, kind, {
      ...(invert !== undefined ? { invert } : {}),
      ...(options.pin ?? {}),
    });
    if (plan.union) {
      // Union decomposition: the i-th "NO" program and the i-th ("YES", t) program make one witness.
      const n = options.witnessSamples ?? 30;
      const none = await options.sampler.programs(plan, n, plan.union.none);
      const some = await options.sampler.programs(plan, n, plan.union.some);
      witnesses = none
        .slice(0, Math.min(none.length, some.length))
        .map((c, i) => unionCompose(c, some[i] as Candidate));
    } else witnesses = await options.sampler.programs(plan, options.witnessSamples ?? 30);
    if (plan.enumeration && (options.enumerators ?? []).length === 0) {
      sampledEnumerators = await options.sampler.programs(
        plan,
        options.witnessSamples ?? 30,
        plan.enumeration,
      );
      if (sampledEnumerators.length === 0)
        fail(`the sampler returned no enumerator program for ${plan.enumeration.signature}.`);
    }
    const inner = { ...(t as Transformation), kind, invert: plan.invert } as Transformation;
    // The plan decided STREAM: the witnesses solve the pointwise problem's inverse.
    transformation = plan.stream
      ? { kind: 'stream', inner }
      : plan.removeLength
        ? { kind: 'remove-length', ...plan.removeLength, inner }
        : plan.split
          ? { kind: 'split-suffix', param: 0, length: 1, inner }
          : inner;
    if (witnesses.length === 0)
      fail(`the sampler returned no witness program for ${plan.problem.signature}.`);
  }
  if (!Array.isArray(witnesses) || !witnesses.every(isWitnessProgram))
    fail(`\`witnesses\` must be an array of candidates, got ${describeValue(witnesses)}.`);
  if (witnesses.length === 0)
    fail('no witnesses: pass `witnesses` (programs for the transformed problem, e.g. inverses).');
  const names = parameterNames(task.signature);
  // Inputs L.
  const source = options.inputs ?? task.inputs;
  let L: Args[];
  let gen = 'inputs';
  if (isGen(source)) {
    const n = options.n ?? 25;
    L = [...(await source.generate(n, { seed, ...(options.signal ? { signal: options.signal } : {}) }))];
    gen = source.description;
  } else if (Array.isArray(source)) {
    L = [...source];
    if (!L.every(Array.isArray)) fail('`inputs` must be argument tuples; wrap single arguments: [[1], [2]].');
  } else {
    L = fail('no inputs: pass `inputs` (a Gen or argument tuples) or give the task inputs.');
  }
  if (L.length === 0) fail('zero forward inputs: every ∀ over them would hold vacuously. Pass inputs.');
  const R0 = options.witnessInputs ?? 'derived';
  if (R0 !== 'derived' && (!Array.isArray(R0) || !R0.every(Array.isArray))) {
    fail(`\`witnessInputs\` must be argument tuples or 'derived', got ${describeValue(R0)}.`);
  }
  const cache = new CallCache(
    task,
    { ...(options.run ?? {}), ...(options.signal ? { signal: options.signal } : {}) },
    semantics.invalidMessage,
  );
  const ctx: Ctx = {
    logic: createLogic(semantics, options.equality ?? task.equality ?? 'python'),
    semantics,
    seed,
    schedule: options.schedule ?? 'matrix',
    signal: options.signal,
  };
  const fwdName = task.entry ?? task.name;
  const nameOf = (c: Candidate): string => (c.kind === 'function' ? c.label : c.entry);
  const asCallable = (w: WitnessProgram): Callable =>
    w.kind === 'composed'
      ? {
          ...unionView(
            candidateCallable(cache, w.none, nameOf(w.none)),
            candidateCallable(cache, w.some, nameOf(w.some)),
          ),
          label: w.label,
        }
      : candidateCallable(cache, w, nameOf(w));
  let fwd: Callable[] = forward.map((c) => candidateCallable(cache, c, fwdName));
  const wit = witnesses.map(asCallable);
  const stages: StageOutput[] = [];
  let hp: Hyperproperty;

  // Unwraps decompositions: split-suffix rewrites the forward side; stream adds a pointwise stage.
  let t: Transformation | Hyperproperty = transformation;
  let streamed = false;
  let invertOffset: number | null = null;
  let arity: number | null = names?.length ?? (L[0] as Args).length;
  let paramNames = names;
  // Length and tuple adapters: views of the forward (and enumerator) programs with inputs to match.
  // Inside a stream they apply to the pointwise problem, so they wait until it exists.
  type Adapter = { view: (c: Callable) => Callable; input: (i: Args) => Args | null };
  const adapters: { before: Adapter[]; after: Adapter[] } = { before: [], after: [] };
  const lengthLanguage = forward.find((c) => c.kind !== 'function')?.language;
  const adapt = (a: Adapter) => {
    (streamed ? adapters.after : adapters.before).push(a);
  };
  const shiftInvert = (at: number, by: 1 | -1) => {
    if (invertOffset !== null && invertOffset >= at) invertOffset += by;
  };
  const isDecomposition = (x: Transformation | Hyperproperty): boolean =>
    !isHyperproperty(x) &&
    (x.kind === 'split-suffix' ||
      x.kind === 'stream' ||
      x.kind === 'remove-length' ||
      x.kind === 'add-length' ||
      x.kind === 'unpack-tuple');
  while (isDecomposition(t)) {
    t = t as Transformation;
    if (t.kind === 'remove-length' || t.kind === 'add-length' || t.kind === 'unpack-tuple') {
      // Streamed: the pointwise problem has one parameter, named by no signature.
      const names1 = streamed ? null : paramNames;
      const arity1 = streamed ? 1 : arity;
      if (t.kind === 'remove-length') {
        const length = resolveIndex(t.length, names1, arity1, 'triangulate', 'length');
        const of = resolveIndex(t.of, names1, arity1, 'triangulate', 'of');
        if (length === of)
          fail(`'remove-length' needs two parameters: \`length\` and \`of\` both name parameter ${length}.`);
        adapt({ view: (c) => removeLengthView(c, length, of), input: (i) => dropAt(i, length) });
        if (!streamed) {
          paramNames = paramNames ? dropAt(paramNames, length).map(String) : null;
          arity = arity === null ? null : arity - 1;
          shiftInvert(length, -1);
        }
      } else if (t.kind === 'add-length') {
        const of = resolveIndex(t.of, names1, arity1, 'triangulate', 'of');
        adapt({ view: (c) => addLengthView(c, of), input: (i) => addLengthInput(i, of, lengthLanguage) });
        if (!streamed) {
          paramNames = paramNames
            ? [...paramNames.slice(0, of), `${paramNames[of]}_len`, ...paramNames.slice(of)]
            : null;
          arity = arity === null ? null : arity + 1;
          shiftInvert(of, 1);
        }
      } else {
        if (arity1 !== null && arity1 !== 1)
          fail(`'unpack-tuple' needs a task with one (tuple) parameter; this one has ${arity1}.`);
        adapt({
          view: unpackView,
          input: (i) => (Array.isArray(i[0]) ? [...(i[0] as unknown[])] : null),
        });
        if (!streamed) {
          const first = L.find((i) => Array.isArray(i[0]))?.[0] as unknown[] | undefined;
          paramNames = null;
          arity = first ? first.length : null;
        }
      }
      if (!streamed) {
        const a = adapters.before[adapters.before.length - 1] as Adapter;
        fwd = fwd.map(a.view);
        L = L.map(a.input).filter((i): i is Args => i !== null);
      }
    } else if (t.kind === 'split-suffix') {
      const param = resolveIndex(t.param, paramNames, arity, 'triangulate', 'param');
      const length = t.length ?? 1;
      fwd = fwd.map((f) => splitView(f, param));
      L = L.map((i) => splitInput(i, param, length));
      paramNames = paramNames
        ? [
            ...paramNames.slice(0, param),
            `${paramNames[param]}_prefix`,
            `${paramNames[param]}_suffix`,
            ...paramNames.slice(param + 1),
          ]
        : null;
      arity = arity === null ? null : arity + 1;
      invertOffset = param + 1;
    } else {
      if (streamed) fail('stream inside stream is not supported.');
      streamed = true;
    }
    t = (t as { inner: Transformation }).inner;
  }
  const listFwd = fwd;
  const listL = L;
  // The pointwise views before any adapter inside the stream: the map law calls them on elements.
  let pointFwd = fwd;
  if (streamed) {
    fwd = fwd.map(pointwiseView);
    L = dedupArgs(L.flatMap((i) => (Array.isArray(i[0]) ? (i[0] as unknown[]).map((x) => [x]) : [])));
    arity = 1;
    paramNames = null;
    pointFwd = fwd;
    for (const a of adapters.after) {
      fwd = fwd.map(a.view);
      L = L.map(a.input).filter((i): i is Args => i !== null);
      // An element's arity after unpacking, or one more or less after a length adapter.
      arity = (L[0] as Args | undefined)?.length ?? arity;
    }
  }
  if (adapters.before.length + adapters.after.length > 0 && L.length === 0)
    fail(
      'no forward input is left after the decompositions: check `length`/`of` and that tuple inputs are tuples.',
    );
  const k = isHyperproperty(t)
    ? 0
    : 'invert' in t && t.invert !== undefined
      ? resolveIndex(t.invert, paramNames, arity, 'triangulate')
      : (invertOffset ?? 0);
  const bijective = isHyperproperty(t) ? t.bijective : !('bijective' in t && t.bijective === false);
  const forwardOutputsR = async (): Promise<Args[]> => {
    const outs = await Promise.all(fwd.flatMap((f) => L.map(async (i) => [await f.call(i, 1), i] as const)));
    return dedupArgs(
      outs.filter(([o]) => !isSpecial(o)).map(([o, i]) => [o, ...i.slice(0, k), ...i.slice(k + 1)]),
    );
  };
  const kind = isHyperproperty(t) ? 'custom' : t.kind;
  let R: Args[] = R0 === 'derived' ? [] : [...R0];
  if (kind === 'enum-sinv') {
    const enumerators =
      options.enumerators && options.enumerators.length > 0 ? options.enumerators : sampledEnumerators;
    if (!Array.isArray(enumerators) || enumerators.length === 0 || !enumerators.every(isCandidate)) {
      fail(
        "'enum-sinv' needs `enumerators`: programs for the answer enumeration d^< (stage 1 checks them against the set-valued inverses).",
      );
    }
    let en: Callable[] = enumerators.map((c) => candidateCallable(cache, c, `${fwdName}_enum`));
    let EL: Args[] = options.enumeratorInputs ? [...options.enumeratorInputs] : L;
    for (const a of adapters.before) en = en.map(a.view);
    if (options.enumeratorInputs)
      for (const a of adapters.before) EL = EL.map(a.input).filter((i): i is Args => i !== null);
    if (streamed) en = en.map(pointwiseView);
    for (const a of adapters.after) en = en.map(a.view);
    if (invertOffset !== null && !streamed && options.enumeratorInputs) {
      EL = EL.map((i) => splitInput(i, (invertOffset as number) - 1, 1));
    }
    if (invertOffset !== null && !streamed) en = en.map((e) => splitView(e, (invertOffset as number) - 1));
    if (R0 === 'derived') {
      const outs = await Promise.all(
        en.flatMap((e) =>
          EL.map(async (i) => [answers(await e.call(i, semantics.enumTimeoutFactor)), i] as const),
        ),
      );
      R = dedupArgs(
        outs.flatMap(([a, i]) =>
          isSpecial(a)
            ? []
            : a.values.filter((o) => !isSpecial(o)).map((o) => [o, ...i.slice(0, k), ...i.slice(k + 1)]),
        ),
      );
    }
    hp = enumSinvProperty(k, bijective);
    const s1 = await runStage('enum-sinv', hp, { callables: en }, { callables: wit }, EL, R, ctx);
    stages.push(s1);
    const surviving = en.map((_, i) => i).filter((i) => (s1.wIds[i] as string[]).length > 0);
    const s2 = await runStage(
      'fwd-enum',
      fwdEnumProperty(),
      { callables: fwd },
      {
        callables: surviving.map((i) => en[i] as Callable),
        witnessIds: surviving.map((i) => s1.wIds[i] as string[]),
        witnessLabels: surviving.map((i) => s1.wLabels[i] as string[]),
      },
      L,
      [],
      ctx,
    );
    stages.push(s2);
  } else {
    switch (kind) {
      case 'fwd-inv':
        hp = fwdInvProperty(k, bijective);
        if (R0 === 'derived') R = await forwardOutputsR();
        break;
      case 'fwd-sinv':
        hp = fwdSinvProperty(k, bijective);
        if (R0 === 'derived') R = await forwardOutputsR();
        break;
      case 'equivalence':
        hp = equivalenceProperty();
        break;
      case 'off-by-one':
        hp = offByOneProperty();
        break;
      case 'postcondition':
        hp = postconditionProperty();
        break;
      default:
        hp = t as Hyperproperty;
    }
    stages.push(
      await runStage(streamed ? 'pointwise' : kind, hp, { callables: fwd }, { callables: wit }, L, R, ctx),
    );
  }
  if (streamed) {
    const inner = stages[stages.length - 1] as StageOutput;
    const triangulated = fwd.map((_, i) => (inner.wIds[i] as string[]).length > 0);
    const views = fwd.map((_, i) => i).filter((i) => triangulated[i] && inner.entryOf[i] === i);
    // As the authors' checker does: the map law is checked only for the list programs whose own
    // pointwise view triangulated. Otherwise a list program that is wrong on one-element lists (its
    // view fails) could pass the map law against another program's view and inherit its witnesses.
    stages.push(
      await runStage(
        'stateless-map',
        statelessMapProperty(),
        { callables: listFwd, eligible: triangulated },
        {
          callables: views.map((i) => pointFwd[i] as Callable),
          witnessIds: views.map((i) => inner.wIds[i] as string[]),
          witnessLabels: views.map((i) => inner.wLabels[i] as string[]),
        },
        listL,
        [],
        ctx,
      ),
    );
  }
  const last = stages[stages.length - 1] as StageOutput;
  // The stages whose left side is the forward programs (ENUM-SINV's first stage checks enumerators).
  const forwardStages = stages.filter((st) => st.result.name !== 'enum-sinv');
  // Selection over entries (distinct programs under artifact pairing).
  const entrySupport = last.entries.map((e) => ({ witnesses: last.wIds[e] as string[] }));
  const method = options.selection ?? 'ransac';
  const sel: Selection = method === 'ransac' ? ransac(entrySupport) : maxWitness(entrySupport);
  const { score, group } = ransacScores(entrySupport);
  const entryPos = new Map(last.entries.map((e, j) => [e, j]));
  const candidates: CandidateSupport[] = forward.map((c, i) => {
    const j = entryPos.get(last.entryOf[i] as number) as number;
    const row = last.result.pairs[i] ?? [];
    const fi = row.findIndex((v) => v.kind === 'fails' && v.counterexample !== null);
    const fv = row[fi];
    return {
      index: i,
      label: c.label,
      id: c.id,
      agreesWith: (last.agrees[i] ?? []).map((rj) => last.result.right[rj] as string),
      witnesses: last.wLabels[i] as string[],
      support: (last.wIds[i] as string[]).length,
      group: (group[j] ?? []).flatMap((g) =>
        forward.map((_, x) => x).filter((x) => last.entryOf[x] === last.entries[g]),
      ),
      score: method === 'ransac' ? (score[j] as number) : (last.wIds[i] as string[]).length,
      counterexample:
        fv && fv.kind === 'fails' && fv.counterexample
          ? { ...fv.counterexample, witness: last.result.right[fi] as string }
          : null,
      passed: forwardStages.map((st) => stagePass(st, i)),
    };
  });
  const selected =
    sel.kind === 'selected' ? (candidates[last.entries[sel.index] as number] as CandidateSupport) : null;
  const first = stages[0] as StageOutput;
  return {
    task: task.name,
    transformation: describeTransformation(transformation, names),
    hyperproperty: { name: hp.name, formula: hp.formula, bijective: hp.bijective },
    outcome: selected ? 'selected' : 'abstained',
    selected,
    candidates,
    stages: stages.map((s) => s.result),
    semantics,
    preset,
    selection: method,
    seed,
    durationMs: performance.now() - started,
    inputs: { forward: listL.length, transformed: first.result.inputs.right, gen },
    calls: {
      requested: cache.requested,
      executed: cache.executed,
      budgetExceeded: stages.reduce((a, s) => a + s.budget, 0),
    },
    plan,
    tokens: options.sampler && plan ? options.sampler.tokens() : null,
  };
};
