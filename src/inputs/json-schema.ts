import fc from 'fast-check';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import type { SizeOptions } from './shape-arbitrary.ts';

/**
 * JSON Schema (draft 2020-12 and draft-07 forms) to a fast-check arbitrary. Covers what
 * `z.toJSONSchema()` of zod 4 emits for plain data, so any zod schema works without crosscheck
 * depending on zod.
 */

const WHERE = 'gen.fromJsonSchema(schema)';

type Schema = Record<string, unknown> | boolean;

const KNOWN_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];

const fail = (path: string, rule: string, got: unknown, fix: string): never => {
  throw new CrosscheckError(
    'INVALID_OPTION',
    `${WHERE}: at ${path}, ${rule}, got ${describeValue(got)}. ${fix}`.trim(),
    { where: WHERE },
  );
};

const num = (s: Record<string, unknown>, key: string, path: string): number | undefined => {
  const v = s[key];
  if (v === undefined || typeof v === 'boolean') return undefined;
  if (typeof v !== 'number' || Number.isNaN(v)) fail(`${path}/${key}`, `\`${key}\` must be a number`, v, '');
  return v as number;
};

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  email: () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  'date-time': () => fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  date: () => fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
};

/** What the root of an argument schema means: an argument tuple, or a single argument. @public */
export type SchemaArgs = 'auto' | 'tuple' | 'single';

class SchemaCompiler {
  private depth = 0;
  constructor(
    private readonly root: Schema,
    private readonly options: SizeOptions,
  ) {}

  private resolveRef(ref: unknown, path: string): Schema {
    if (typeof ref !== 'string' || !ref.startsWith('#')) {
      return fail(
        `${path}/$ref`,
        'only local references (#/$defs/...) are supported',
        ref,
        'Inline the schema.',
      );
    }
    let node: unknown = this.root;
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (typeof node !== 'object' && typeof node !== 'boolean') {
      fail(`${path}/$ref`, 'the reference must point into the schema', ref, 'Check the $defs names.');
    }
    return node as Schema;
  }

  compile(schema: unknown, path: string): fc.Arbitrary<unknown> {
    if (schema === true) return fc.jsonValue();
    if (schema === false) return fail(path, 'a `false` schema accepts no value', schema, 'Remove it.');
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return fail(path, 'a schema must be an object or a boolean', schema, 'Pass a JSON Schema object.');
    }
    const s = schema as Record<string, unknown>;
    if (s.$ref !== undefined) {
      if (++this.depth > 8) {
        return fail(path, 'recursive references are followed at most 8 levels deep', s.$ref, '');
      }
      try {
        return this.compile(this.resolveRef(s.$ref, path), `${path}/$ref`);
      } finally {
        this.depth--;
      }
    }
    const inner = this.compileBody(s, path);
    return s.nullable === true ? fc.option(inner, { nil: null }) : inner;
  }

  private compileBody(s: Record<string, unknown>, path: string): fc.Arbitrary<unknown> {
    if ('const' in s) return fc.constant(s.const);
    if (s.enum !== undefined) {
      if (!Array.isArray(s.enum) || s.enum.length === 0) {
        fail(`${path}/enum`, '`enum` must be a non-empty array', s.enum, '');
      }
      return fc.constantFrom(...(s.enum as unknown[]));
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (s[key] !== undefined) {
        const list = s[key];
        if (!Array.isArray(list) || list.length === 0) {
          fail(`${path}/${key}`, `\`${key}\` must be a non-empty array of schemas`, list, '');
        }
        return fc.oneof(...(list as unknown[]).map((x, i) => this.compile(x, `${path}/${key}/${i}`)));
      }
    }
    if (s.allOf !== undefined) return this.compileAllOf(s, path);
    const type = s.type;
    if (Array.isArray(type)) {
      return fc.oneof(...type.map((t, i) => this.compileType({ ...s, type: t }, t, `${path}/type/${i}`)));
    }
    if (type === undefined) {
      if (s.properties !== undefined) return this.compileType(s, 'object', path);
      if (s.items !== undefined || s.prefixItems !== undefined) return this.compileType(s, 'array', path);
      return fc.jsonValue();
    }
    return this.compileType(s, type, path);
  }

  private compileAllOf(s: Record<string, unknown>, path: string): fc.Arbitrary<unknown> {
    const parts = s.allOf;
    if (!Array.isArray(parts) || parts.length === 0) {
      return fail(`${path}/allOf`, '`allOf` must be a non-empty array of schemas', parts, '');
    }
    const resolved = parts.map((p) =>
      typeof p === 'object' && p !== null && '$ref' in p ? this.resolveRef(p.$ref, path) : p,
    );
    if (
      !resolved.every(
        (p) => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'object',
      )
    ) {
      return fail(
        `${path}/allOf`,
        '`allOf` is supported for object schemas only',
        parts,
        'Merge the schemas.',
      );
    }
    const merged: Record<string, unknown> = { type: 'object', properties: {}, required: [] };
    for (const p of resolved as Record<string, unknown>[]) {
      Object.assign(merged.properties as object, p.properties ?? {});
      (merged.required as unknown[]).push(...((p.required as unknown[]) ?? []));
    }
    return this.compileType(merged, 'object', path);
  }

  private compileType(s: Record<string, unknown>, type: unknown, path: string): fc.Arbitrary<unknown> {
    const maxLength = this.options.maxLength ?? 100;
    switch (type) {
      case 'string': {
        // zod emits a known format together with its own regex; the format's generator is the better fit.
        if (typeof s.format === 'string' && FORMATS[s.format])
          return (FORMATS[s.format] as () => fc.Arbitrary<string>)();
        if (typeof s.pattern === 'string') return this.compilePattern(s.pattern, path);
        const minLength = num(s, 'minLength', path) ?? 0;
        const max = num(s, 'maxLength', path);
        return fc.string({
          minLength,
          maxLength: max ?? Math.max(minLength, maxLength),
          size: this.options.size,
        });
      }
      case 'integer':
      case 'number':
        return this.compileNumber(s, type, path);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return this.compileArray(s, path);
      case 'object':
        return this.compileObject(s, path);
    }
    return fail(
      `${path}/type`,
      `\`type\` must be one of ${KNOWN_TYPES.join(', ')}`,
      type,
      'Fix the schema, or describe the inputs with gen.fromArbitrary(...).',
    );
  }

  private compilePattern(pattern: string, path: string): fc.Arbitrary<string> {
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch {
      return fail(`${path}/pattern`, '`pattern` must be a valid regular expression', pattern, '');
    }
    try {
      return fc.stringMatching(re, { size: this.options.size });
    } catch (error) {
      return fail(
        `${path}/pattern`,
        `\`pattern\` uses regular-expression syntax fast-check cannot generate from (${(error as Error).message})`,
        pattern,
        'Simplify the pattern, or describe the inputs with gen.fromArbitrary(...).',
      );
    }
  }

  private compileNumber(
    s: Record<string, unknown>,
    type: 'integer' | 'number',
    path: string,
  ): fc.Arbitrary<number> {
    const range =
      type === 'integer'
        ? (this.options.int ?? { min: -10_000, max: 10_000 })
        : (this.options.float ?? { min: -1e6, max: 1e6 });
    let min = num(s, 'minimum', path) ?? range.min;
    let max = num(s, 'maximum', path) ?? range.max;
    const exMin = s.exclusiveMinimum === true ? min : num(s, 'exclusiveMinimum', path);
    const exMax = s.exclusiveMaximum === true ? max : num(s, 'exclusiveMaximum', path);
    // Defaults keep numbers moderate; explicit bounds from the schema win.
    if (s.minimum === undefined && exMin === undefined) min = Math.max(min, range.min);
    if (s.maximum === undefined && exMax === undefined) max = Math.min(max, range.max);
    if (min > max) [min, max] = [max, min];
    const step = num(s, 'multipleOf', path);
    if (type === 'integer' || step !== undefined) {
      const unit = step ?? 1;
      if (unit <= 0) fail(`${path}/multipleOf`, '`multipleOf` must be positive', unit, '');
      let lo = Math.ceil(Math.max(min, exMin ?? -Infinity) / unit);
      let hi = Math.floor(Math.min(max, exMax ?? Infinity) / unit);
      if (exMin !== undefined && lo * unit <= exMin) lo++;
      if (exMax !== undefined && hi * unit >= exMax) hi--;
      lo = Math.max(lo, Number.MIN_SAFE_INTEGER);
      hi = Math.min(hi, Number.MAX_SAFE_INTEGER);
      if (lo > hi)
        fail(path, 'the bounds leave no number', { minimum: min, maximum: max }, 'Widen the bounds.');
      return fc.integer({ min: lo, max: hi }).map(
        (k) => k * unit,
        (v) => {
          if (typeof v === 'number' && Number.isInteger(v / unit)) return v / unit;
          throw new Error('not a multiple');
        },
      );
    }
    return fc.double({
      min: exMin ?? min,
      max: exMax ?? max,
      minExcluded: exMin !== undefined,
      maxExcluded: exMax !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    });
  }

  private compileArray(s: Record<string, unknown>, path: string): fc.Arbitrary<unknown[]> {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : null;
    if (prefix) {
      const head = fc.tuple(...prefix.map((x, i) => this.compile(x, `${path}/prefixItems/${i}`)));
      const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
      if (rest === undefined || rest === false) return head;
      const tail = fc.array(this.compile(rest, `${path}/items`), { maxLength: this.options.maxLength ?? 10 });
      return fc.tuple(head, tail).map(([h, t]) => [...h, ...t]);
    }
    const minLength = num(s, 'minItems', path) ?? 0;
    const maxLength = num(s, 'maxItems', path) ?? Math.max(minLength, this.options.maxLength ?? 100);
    const item = s.items === undefined ? fc.jsonValue() : this.compile(s.items, `${path}/items`);
    const constraints = { minLength, maxLength, size: this.options.size };
    return s.uniqueItems === true
      ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) })
      : fc.array(item, constraints);
  }

  private compileObject(s: Record<string, unknown>, path: string): fc.Arbitrary<Record<string, unknown>> {
    const props = s.properties ?? {};
    if (typeof props !== 'object' || props === null || Array.isArray(props)) {
      return fail(`${path}/properties`, '`properties` must be an object of schemas', props, '');
    }
    const required = s.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
      return fail(`${path}/required`, '`required` must be an array of property names', required, '');
    }
    const names = Object.keys(props);
    const extra = s.additionalProperties;
    if (names.length === 0 && typeof extra === 'object' && extra !== null) {
      return fc.dictionary(
        fc.string({ maxLength: 10 }),
        this.compile(extra, `${path}/additionalProperties`),
        {
          maxKeys: this.options.maxLength ?? 10,
          size: this.options.size,
        },
      );
    }
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const name of names) {
      model[name] = this.compile((props as Record<string, unknown>)[name], `${path}/properties/${name}`);
    }
    return fc.record(model, { requiredKeys: (required as string[]).filter((r) => r in model) });
  }
}

const isTupleSchema = (s: unknown): boolean => {
  if (typeof s !== 'object' || s === null) return false;
  const o = s as Record<string, unknown>;
  return (
    (o.type === 'array' || o.type === undefined) && (Array.isArray(o.prefixItems) || Array.isArray(o.items))
  );
};

/**
 * The arbitrary of argument tuples for a schema: a tuple schema (`prefixItems`, as
 * `z.tuple([...])` exports) gives the arguments position by position; any other schema describes a
 * single argument, unless `args` says otherwise.
 */
export const schemaArgsArbitrary = (
  schema: unknown,
  options: SizeOptions & { args?: SchemaArgs } = {},
): fc.Arbitrary<unknown[]> => {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    fail(
      '#',
      'the schema must be a JSON Schema object',
      schema,
      'Pass e.g. z.toJSONSchema(z.tuple([z.number()])).',
    );
  }
  const compiler = new SchemaCompiler(schema as Schema, options);
  const mode = options.args ?? 'auto';
  if (mode === 'tuple' || (mode === 'auto' && isTupleSchema(schema))) {
    if (!isTupleSchema(schema) && (schema as { type?: unknown }).type !== 'array') {
      fail('#', "with `args: 'tuple'` the schema must describe an array", schema, "Use `args: 'single'`.");
    }
    return compiler.compile(schema, '#') as fc.Arbitrary<unknown[]>;
  }
  return compiler.compile(schema, '#').map(
    (v) => [v],
    (t) => {
      if (Array.isArray(t) && t.length === 1) return t[0];
      throw new Error('not a one-argument tuple');
    },
  );
};
