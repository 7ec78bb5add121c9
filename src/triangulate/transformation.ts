import {
  CrosscheckError,
  checkKeys,
  describeValue,
  type KnownKeys,
  knownKeys,
  type OptionKeys,
} from '../errors/index.ts';
import { type Hyperproperty, isHyperproperty } from './hyperproperty.ts';

/**
 * A problem transformation and its hyperproperty (design §3.2). Decompositions wrap the
 * transformation they prepare, as the authors nest their adapters.
 * @public
 */
export type Transformation =
  | {
      readonly kind: 'fwd-inv' | 'fwd-sinv' | 'enum-sinv';
      readonly invert?: number | string;
      readonly bijective?: boolean;
    }
  | { readonly kind: 'stream'; readonly inner: Transformation }
  | {
      readonly kind: 'split-suffix';
      readonly param?: number | string;
      readonly length?: number;
      readonly inner: Transformation;
    }
  | {
      /** Drops the int parameter `length`, which is the length of parameter `of` (design §1.4). */
      readonly kind: 'remove-length';
      readonly length: number | string;
      readonly of: number | string;
      readonly inner: Transformation;
    }
  | {
      /** Adds an int parameter `<of>_len` just before parameter `of`: its length (design §1.4). */
      readonly kind: 'add-length';
      readonly of: number | string;
      readonly inner: Transformation;
    }
  | {
      /** A single tuple parameter becomes one parameter per element (design §1.4). */
      readonly kind: 'unpack-tuple';
      readonly inner: Transformation;
    }
  | { readonly kind: 'equivalence' | 'off-by-one' | 'postcondition' };

/** What `transformation` accepts: a name (inverting argument 0), a descriptor or a custom hyperproperty. @public */
export type TransformationSpec = 'fwd-inv' | 'fwd-sinv' | 'enum-sinv' | Transformation | Hyperproperty;

/** Which argument a transformation inverts, and whether the forward function is a bijection. */
type InvertOptions = { invert?: number | string; bijective?: boolean };
const INVERT_KEYS = knownKeys<InvertOptions>({ invert: true, bijective: true });

/** The options of a `tri.*` builder, once every key is known (an object only; the rest is checked later). */
const known = <T extends object>(where: string, o: T, keys: KnownKeys<T> & OptionKeys): T => {
  if (typeof o === 'object' && o !== null) checkKeys({ where }, o, keys);
  return o;
};

/** Builders of transformation descriptors. @public */
export const tri = {
  fwdInv: (o: InvertOptions = {}): Transformation => ({
    kind: 'fwd-inv',
    ...known('tri.fwdInv(options)', o, INVERT_KEYS),
  }),
  fwdSinv: (o: InvertOptions = {}): Transformation => ({
    kind: 'fwd-sinv',
    ...known('tri.fwdSinv(options)', o, INVERT_KEYS),
  }),
  enumSinv: (o: InvertOptions = {}): Transformation => ({
    kind: 'enum-sinv',
    ...known('tri.enumSinv(options)', o, INVERT_KEYS),
  }),
  stream: (inner: Transformation): Transformation => ({ kind: 'stream', inner }),
  splitSuffix: (
    inner: Transformation,
    o: { param?: number | string; length?: number } = {},
  ): Transformation => ({
    kind: 'split-suffix',
    ...known(
      'tri.splitSuffix(inner, options)',
      o,
      knownKeys<{ param?: number | string; length?: number }>({ param: true, length: true }),
    ),
    inner,
  }),
  removeLength: (
    inner: Transformation,
    o: { length: number | string; of: number | string },
  ): Transformation => ({
    kind: 'remove-length',
    ...known(
      'tri.removeLength(inner, options)',
      o,
      knownKeys<{ length: number | string; of: number | string }>({ length: true, of: true }),
    ),
    inner,
  }),
  addLength: (inner: Transformation, o: { of: number | string }): Transformation => ({
    kind: 'add-length',
    ...known('tri.addLength(inner, options)', o, knownKeys<{ of: number | string }>({ of: true })),
    inner,
  }),
  unpackTuple: (inner: Transformation): Transformation => ({ kind: 'unpack-tuple', inner }),
  equivalence: (): Transformation => ({ kind: 'equivalence' }),
  offByOne: (): Transformation => ({ kind: 'off-by-one' }),
  postcondition: (): Transformation => ({ kind: 'postcondition' }),
} as const;

/** Parameter names of a Python (`(a: int, b: int) -> int`) or TypeScript (`(a: number) => number`) signature. @internal */
export const parameterNames = (signature: string | undefined): string[] | null => {
  if (!signature) return null;
  const open = signature.indexOf('(');
  if (open < 0) return null;
  let depth = 0;
  let close = -1;
  for (let i = open; i < signature.length; i++) {
    const c = signature[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || c === '>') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close < 0) return null;
  const body = signature.slice(open + 1, close);
  const parts: string[] = [];
  let cur = '';
  depth = 0;
  for (const c of body) {
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    if (c === ')' || c === ']' || c === '}' || c === '>') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur.trim() !== '') parts.push(cur);
  return parts.map((p) => (p.trim().split(/[:=?]/)[0] ?? '').trim().replace(/^\*+/, ''));
};

const KINDS = [
  'fwd-inv',
  'fwd-sinv',
  'enum-sinv',
  'stream',
  'split-suffix',
  'remove-length',
  'add-length',
  'unpack-tuple',
  'equivalence',
  'off-by-one',
  'postcondition',
];

/** Decompositions wrap an inner transformation: an example for the error that names a missing one. */
const WRAPPERS: Record<string, string> = {
  stream: 'tri.stream(tri.fwdSinv())',
  'split-suffix': 'tri.splitSuffix(tri.fwdSinv())',
  'remove-length': "tri.removeLength(tri.fwdInv(), { length: 'n', of: 'xs' })",
  'add-length': "tri.addLength(tri.fwdInv(), { of: 'xs' })",
  'unpack-tuple': 'tri.unpackTuple(tri.fwdInv())',
};

/** Checks a transformation spec and turns names into descriptors. Throws a typed error naming the fix. @internal */
export const normalizeTransformation = (spec: unknown, where: string): Transformation | Hyperproperty => {
  if (isHyperproperty(spec)) return spec;
  if (spec === 'fwd-inv' || spec === 'fwd-sinv' || spec === 'enum-sinv') return { kind: spec };
  if (
    typeof spec !== 'object' ||
    spec === null ||
    !KINDS.includes((spec as { kind?: string }).kind as string)
  ) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`transformation\` must be 'fwd-inv', 'fwd-sinv', 'enum-sinv', a descriptor from tri.* or a hyperproperty from defineHyperproperty(), got ${describeValue(spec)}.`,
      { where },
    );
  }
  const t = spec as Transformation;
  if (WRAPPERS[t.kind] !== undefined && (t as { inner?: unknown }).inner === undefined) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: a '${t.kind}' transformation needs \`inner\`, e.g. ${WRAPPERS[t.kind]}.`,
      { where },
    );
  }
  if (t.kind === 'remove-length') {
    for (const key of ['length', 'of'] as const) {
      const v = t[key];
      if (typeof v !== 'string' && typeof v !== 'number') {
        throw new CrosscheckError(
          'INVALID_OPTION',
          `${where}: 'remove-length' needs \`${key}\` (a parameter name or index), got ${describeValue(v)}; e.g. tri.removeLength(tri.fwdInv(), { length: 'n', of: 'xs' }).`,
          { where },
        );
      }
    }
  }
  if (t.kind === 'add-length' && typeof t.of !== 'string' && typeof t.of !== 'number') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: 'add-length' needs \`of\` (the list or string parameter, a name or index), got ${describeValue(t.of)}; e.g. tri.addLength(tri.fwdInv(), { of: 'xs' }).`,
      { where },
    );
  }
  if ('inner' in t) {
    const inner = normalizeTransformation(t.inner, where);
    if (isHyperproperty(inner)) return { ...t, inner: inner as never };
    return { ...t, inner };
  }
  return t;
};

/** Resolves `invert` (an index or a parameter name) against the task's signature. @internal */
export const resolveIndex = (
  invert: number | string | undefined,
  names: readonly string[] | null,
  arity: number | null,
  where: string,
  what = 'invert',
): number => {
  if (invert === undefined) return 0;
  if (typeof invert === 'number') {
    if (!Number.isInteger(invert) || invert < 0 || (arity !== null && invert >= arity)) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: \`${what}\` must be an argument index in [0, ${arity === null ? 'arity' : arity - 1}], got ${describeValue(invert)}.`,
        { where },
      );
    }
    return invert;
  }
  const k = names?.indexOf(invert) ?? -1;
  if (k < 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      names
        ? `${where}: \`${what}\` names no parameter: ${JSON.stringify(invert)}; the task's parameters are ${names.join(', ')}.`
        : `${where}: \`${what}\` is the name ${JSON.stringify(invert)} but the task has no signature; pass an index or give defineTask a signature.`,
      { where },
    );
  }
  return k;
};

/** A transformation as text: `fwd-sinv(l_suffix) ∘ split-suffix(l, 1)`. @internal */
export const describeTransformation = (
  t: Transformation | Hyperproperty,
  names: readonly string[] | null,
): string => {
  if (isHyperproperty(t)) return t.name;
  const name = (i: number | string | undefined) =>
    typeof i === 'string' ? i : (names?.[i ?? 0] ?? `#${i ?? 0}`);
  switch (t.kind) {
    case 'fwd-inv':
    case 'fwd-sinv':
    case 'enum-sinv':
      return `${t.kind}(${name(t.invert)})${t.bijective === false ? ' [not bijective]' : ''}`;
    case 'stream':
      return `${describeTransformation(t.inner, null)} ∘ stream`;
    case 'split-suffix':
      return `${describeTransformation(t.inner, null)} ∘ split-suffix(${name(t.param)}, ${t.length ?? 1})`;
    case 'remove-length':
      return `${describeTransformation(t.inner, null)} ∘ remove-length(${name(t.length)} = len(${name(t.of)}))`;
    case 'add-length':
      return `${describeTransformation(t.inner, null)} ∘ add-length(len(${name(t.of)}))`;
    case 'unpack-tuple':
      return `${describeTransformation(t.inner, null)} ∘ unpack-tuple`;
    default:
      return t.kind;
  }
};
