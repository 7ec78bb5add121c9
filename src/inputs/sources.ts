import fc from 'fast-check';
import type { Args } from '../contract/index.ts';
import { checkKeys, knownKeys, type OptionKeys, optionError, readOptions } from '../errors/index.ts';
import { FrozenSet, PyDict, PyFloat, Tuple } from '../values/index.ts';
import { CrosscheckGen } from './gen.ts';
import { type SchemaArgs, schemaArgsArbitrary } from './json-schema.ts';
import { SeedMutationArbitrary } from './seed-arbitrary.ts';
import { describeShape, inferArgShapes, type Shape } from './shape.ts';
import { argsArbitrary, type SizeOptions } from './shape-arbitrary.ts';
import { parseSignature } from './signature.ts';
import { compareComplexity, complexity } from './structural-shrink.ts';

export type { SizeOptions };

const isArbitrary = (x: unknown): x is fc.Arbitrary<unknown> =>
  x instanceof fc.Arbitrary ||
  (typeof x === 'object' &&
    x !== null &&
    typeof (x as { generate?: unknown }).generate === 'function' &&
    typeof (x as { shrink?: unknown }).shrink === 'function' &&
    typeof (x as { canShrinkWithoutContext?: unknown }).canShrinkWithoutContext === 'function');

const invalid = (where: string, field: string, rule: string, got: unknown, fix: string): never => {
  throw optionError({ where, field, rule, got, fix });
};

const RANGE_KEYS = { min: true, max: true } as const;

/** The keys of {@link SizeOptions}, shared by the sources that take them. */
const SIZE_KEYS = knownKeys<SizeOptions>({
  size: true,
  maxLength: true,
  int: RANGE_KEYS,
  float: RANGE_KEYS,
  specialFloats: true,
});

const checkSizeOptions = (where: string, options: SizeOptions, known: OptionKeys = SIZE_KEYS): void => {
  if (typeof options !== 'object' || options === null) {
    invalid(where, 'options', 'must be an object', options, 'Pass e.g. { maxLength: 20 }.');
  }
  checkKeys({ where }, options, known);
  const { maxLength, int, float } = options;
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 0)) {
    invalid(where, 'maxLength', 'must be a non-negative integer', maxLength, 'Pass e.g. { maxLength: 20 }.');
  }
  for (const [name, range] of [
    ['int', int],
    ['float', float],
  ] as const) {
    if (
      range !== undefined &&
      (typeof range !== 'object' ||
        range === null ||
        !Number.isFinite(range.min) ||
        !Number.isFinite(range.max) ||
        range.min > range.max)
    ) {
      invalid(
        where,
        name,
        'must be { min, max } with finite min <= max',
        range,
        `Pass e.g. { ${name}: { min: 0, max: 100 } }.`,
      );
    }
  }
};

/**
 * Inputs from any fast-check arbitrary over the argument tuple: `gen.fromArbitrary(fc.tuple(fc.array(fc.integer()), fc.nat()))`.
 * fast-check's own shrinker shrinks witnesses from it.
 * @public
 */
export const fromArbitrary = <A extends Args>(
  arbitrary: fc.Arbitrary<A>,
  options: { description?: string } = {},
): CrosscheckGen<A> => {
  if (!isArbitrary(arbitrary)) {
    invalid(
      'gen.fromArbitrary(arbitrary)',
      'arbitrary',
      'must be a fast-check arbitrary over the argument tuple',
      arbitrary,
      'Pass e.g. fc.tuple(fc.array(fc.integer()), fc.nat()).',
    );
  }
  const own = readOptions<{ description?: string }>(
    { where: 'gen.fromArbitrary(arbitrary, options)' },
    options,
    knownKeys<{ description?: string }>({ description: true }),
  );
  return new CrosscheckGen(arbitrary, own.description ?? 'a fast-check arbitrary');
};

/**
 * Inputs from a function signature, TypeScript style `(xs: number[], k: number) => number` or
 * Python style `(xs: List[int], k: int) -> int`. Python types give Python-faithful values (a
 * float is a float even when integral, a tuple a `Tuple`, a dict a `PyDict`).
 * @public
 */
export const fromSignature = (signature: string, options: SizeOptions = {}): CrosscheckGen<unknown[]> => {
  checkSizeOptions('gen.fromSignature(signature, options)', options);
  const params = parseSignature(signature);
  const shapes = params.map((p) => p.shape);
  return new CrosscheckGen(
    argsArbitrary(shapes, options),
    `signature (${params.map((p) => `${p.name}: ${describeShape(p.shape)}`).join(', ')})`,
  );
};

/**
 * Inputs from a JSON Schema, such as `z.toJSONSchema(z.tuple([z.array(z.number()), z.int()]))`.
 * A tuple schema (`prefixItems`) lists the arguments; any other schema is the single argument
 * (set `args: 'tuple'` or `'single'` to say otherwise).
 * @public
 */
export const fromJsonSchema = (
  schema: unknown,
  options: SizeOptions & { args?: SchemaArgs } = {},
): CrosscheckGen<unknown[]> => {
  const where = 'gen.fromJsonSchema(schema, options)';
  checkSizeOptions(
    where,
    options,
    knownKeys<SizeOptions & { args?: SchemaArgs }>({ ...SIZE_KEYS, args: true }),
  );
  if (options.args !== undefined && !['auto', 'tuple', 'single'].includes(options.args)) {
    invalid(where, 'args', "must be 'auto', 'tuple' or 'single'", options.args, '');
  }
  const title =
    typeof (schema as { title?: unknown })?.title === 'string'
      ? ` ${(schema as { title: string }).title}`
      : '';
  return new CrosscheckGen(schemaArgsArbitrary(schema, options), `JSON schema${title}`);
};

const PYTHON_CLASSES = [PyFloat, Tuple, PyDict, FrozenSet] as const;

/** True when a value holds one of the codec's Python classes, so the inputs are meant for Python. */
const looksPython = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return typeof v === 'bigint';
  if (PYTHON_CLASSES.some((C) => v instanceof (C as unknown as new () => object))) return true;
  if (Array.isArray(v)) return v.some(looksPython);
  if (v instanceof Set) return [...v].some(looksPython);
  if (v instanceof Map) return [...v].some(([k, x]) => looksPython(k) || looksPython(x));
  return false;
};

const checkTuples = (where: string, field: string, values: unknown, fix: string): unknown[][] => {
  if (!Array.isArray(values) || values.length === 0) {
    invalid(where, field, 'must be a non-empty array of argument tuples', values, fix);
  }
  const tuples = values as unknown[];
  tuples.forEach((t, i) => {
    if (!Array.isArray(t)) {
      invalid(
        where,
        `${field}[${i}]`,
        'must be an argument tuple (an array of positional arguments)',
        t,
        fix,
      );
    }
  });
  const arity = (tuples[0] as unknown[]).length;
  tuples.forEach((t, i) => {
    if ((t as unknown[]).length !== arity) {
      invalid(
        where,
        `${field}[${i}]`,
        `must have the same number of arguments as ${field}[0] (${arity})`,
        t,
        'Every call takes the same positional arguments.',
      );
    }
  });
  return tuples as unknown[][];
};

/** Options of {@link fromExamples}. @public */
export interface ExampleOptions extends SizeOptions {
  /** Target language of the values; `'python'` keeps integral floats floats. Default: guessed from the examples. */
  language?: 'python' | 'javascript';
}

/**
 * Inputs of the shape of some example argument tuples: the types are inferred (a list of ints, a
 * dict of str to float, ...) and new values are generated around the examples (their numbers,
 * characters and words), the examples themselves included.
 * @public
 */
export const fromExamples = (
  examples: readonly Args[],
  options: ExampleOptions = {},
): CrosscheckGen<unknown[]> => {
  const where = 'gen.fromExamples(examples, options)';
  checkSizeOptions(where, options, knownKeys<ExampleOptions>({ ...SIZE_KEYS, language: true }));
  const tuples = checkTuples(
    where,
    'examples',
    examples,
    'Write each example as an array of arguments: [[1, 2], [3, 4]].',
  );
  const shapes = inferArgShapes(tuples);
  const python = options.language ? options.language === 'python' : tuples.some(looksPython);
  const generated = argsArbitrary(shapes, { ...options, python });
  // constantFrom shrinks toward its first entries: simplest first, so shrinking never grows.
  const simplestFirst = [...tuples].sort((a, b) => compareComplexity(complexity(a), complexity(b)));
  const arbitrary = fc.oneof(
    { arbitrary: fc.constantFrom(...simplestFirst), weight: 1 },
    { arbitrary: generated, weight: 4 },
  );
  return new CrosscheckGen(arbitrary, `examples (${shapes.map(describeShape).join(', ')})`);
};

/** Options of {@link fromSeeds}. @public */
export interface SeedOptions {
  /**
   * `typed` (default): type-aware mutation that keeps every value within the type the seeds
   * show. `difftrust`: the incoherence paper's distribution (types may drift), for comparing
   * with its numbers.
   */
  profile?: 'typed' | 'difftrust';
  /**
   * Mutation counts; each input picks one and mutates every argument that many times.
   * @defaultValue `[1, 10, 30]` for difftrust (the paper's), `[1, 2, 3, 5, 8, 13, 21]` for typed:
   * more inputs near the seeds, where preconditions still hold, and some far from them
   */
  mutations?: readonly number[];
  /** typed: cap on the length of strings and collections grown by mutation. @defaultValue 100 */
  maxLength?: number;
  /** Target language; `'python'` keeps integral floats floats. Default: guessed from the seeds. */
  language?: 'python' | 'javascript';
  /**
   * typed: a signature whose annotations type what the seeds leave open (the elements of a list
   * that is empty in every seed). Unparseable signatures throw.
   */
  signature?: string;
}

/** Where the seeds leave an element type open, take it from the signature. */
const refine = (seed: Shape | null, declared: Shape | null): Shape | null => {
  if (seed === null) return declared;
  if (declared === null) return seed;
  switch (seed.t) {
    case 'list':
      return declared.t === 'list' ? { t: 'list', item: refine(seed.item, declared.item) } : seed;
    case 'vartuple':
      return declared.t === 'vartuple' ? { t: 'vartuple', item: refine(seed.item, declared.item) } : seed;
    case 'set':
      return declared.t === 'set' ? { ...seed, item: refine(seed.item, declared.item) } : seed;
    case 'dict':
      return declared.t === 'dict'
        ? { ...seed, key: refine(seed.key, declared.key), value: refine(seed.value, declared.value) }
        : seed;
    default:
      return seed;
  }
};

/**
 * Inputs by mutating seed inputs (EvalPlus-style type-aware mutation, table 6 of the incoherence
 * paper). Each input picks a seed and mutates every argument; profile `typed` keeps types,
 * profile `difftrust` reproduces the paper tool's distribution.
 *
 * The typed profile infers one type per argument from all seeds (`list[int]`, `tuple[int, str]`,
 * `dict[str, int] | None`, ...). Where the seeds leave an element type open (a list that is empty
 * in every seed), `signature` can say it; otherwise new elements are small ints. Pass
 * `language: 'python'` for Python candidates whose seeds happen to hold no Python-only values, so
 * that a float mutated onto 4.0 stays a float.
 * @public
 */
export const fromSeeds = (seeds: readonly Args[], options: SeedOptions = {}): CrosscheckGen<unknown[]> => {
  const where = 'gen.fromSeeds(seeds, options)';
  if (typeof options !== 'object' || options === null) {
    invalid(where, 'options', 'must be an object', options, "Pass e.g. { profile: 'typed' }.");
  }
  checkKeys(
    { where },
    options,
    knownKeys<SeedOptions>({
      profile: true,
      mutations: true,
      maxLength: true,
      language: true,
      signature: true,
    }),
  );
  const tuples = checkTuples(
    where,
    'seeds',
    seeds,
    'Give at least one seed, each an array of arguments: gen.fromSeeds([[[1, 2, 3], 2]]).',
  );
  const profile = options.profile ?? 'typed';
  if (profile !== 'typed' && profile !== 'difftrust') {
    invalid(where, 'profile', "must be 'typed' or 'difftrust'", profile, "Use 'typed' to keep types.");
  }
  const mutations = options.mutations ?? (profile === 'difftrust' ? [1, 10, 30] : [1, 2, 3, 5, 8, 13, 21]);
  if (
    !Array.isArray(mutations) ||
    mutations.length === 0 ||
    !mutations.every((m) => Number.isInteger(m) && m >= 0)
  ) {
    invalid(
      where,
      'mutations',
      'must be a non-empty array of non-negative integers',
      mutations,
      'Pass e.g. [1, 10, 30].',
    );
  }
  const maxLength = options.maxLength ?? 100;
  if (!Number.isInteger(maxLength) || maxLength < 1) {
    invalid(where, 'maxLength', 'must be a positive integer', maxLength, 'Pass e.g. { maxLength: 100 }.');
  }
  let shapes = inferArgShapes(tuples);
  if (options.signature !== undefined) {
    const declared = parseSignature(options.signature).map((p) => p.shape);
    if (declared.length !== shapes.length) {
      invalid(
        where,
        'signature',
        `must declare as many parameters as the seeds have arguments (${shapes.length})`,
        options.signature,
        'Check the signature matches the seeds.',
      );
    }
    shapes = shapes.map((s, i) => refine(s, declared[i] ?? null) as Shape);
  }
  const python =
    profile === 'difftrust' || (options.language ? options.language === 'python' : tuples.some(looksPython));
  const arbitrary = new SeedMutationArbitrary(tuples, { profile, mutations, shapes, python, maxLength });
  // Mutation reaches structurally smaller values of the seeds' kinds, so structural shrinks
  // (re-checked against the Gen's filters) stay inputs this Gen could draw.
  return new CrosscheckGen(
    arbitrary,
    `${tuples.length} seed${tuples.length === 1 ? '' : 's'} mutated (${profile}, ${mutations.join('/')} mutations${profile === 'typed' ? `; ${shapes.map(describeShape).join(', ')}` : ''})`,
    [],
    { structuralShrink: true },
  );
};
