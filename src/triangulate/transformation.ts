import { CrosscheckError, describeValue } from '../errors/index.ts';
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
  | { readonly kind: 'equivalence' | 'off-by-one' | 'postcondition' };

/** What `transformation` accepts: a name (inverting argument 0), a descriptor or a custom hyperproperty. @public */
export type TransformationSpec = 'fwd-inv' | 'fwd-sinv' | 'enum-sinv' | Transformation | Hyperproperty;

/** Builders of transformation descriptors. @public */
export const tri = {
  fwdInv: (o: { invert?: number | string; bijective?: boolean } = {}): Transformation => ({
    kind: 'fwd-inv',
    ...o,
  }),
  fwdSinv: (o: { invert?: number | string; bijective?: boolean } = {}): Transformation => ({
    kind: 'fwd-sinv',
    ...o,
  }),
  enumSinv: (o: { invert?: number | string; bijective?: boolean } = {}): Transformation => ({
    kind: 'enum-sinv',
    ...o,
  }),
  stream: (inner: Transformation): Transformation => ({ kind: 'stream', inner }),
  splitSuffix: (
    inner: Transformation,
    o: { param?: number | string; length?: number } = {},
  ): Transformation => ({
    kind: 'split-suffix',
    ...o,
    inner,
  }),
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
  'equivalence',
  'off-by-one',
  'postcondition',
];

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
  if ((t.kind === 'stream' || t.kind === 'split-suffix') && t.inner === undefined) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: a '${t.kind}' transformation needs \`inner\`, e.g. tri.${t.kind === 'stream' ? 'stream' : 'splitSuffix'}(tri.fwdSinv()).`,
      { where },
    );
  }
  if (t.kind === 'stream' || t.kind === 'split-suffix') {
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
    default:
      return t.kind;
  }
};
