import { describe, expect, it } from 'vitest';
import { gen } from '../../src/inputs/index.ts';
import { kindOf } from '../../src/inputs/value-kind.ts';
import { FrozenSet, PyDict, PyFloat, pyFloat, Tuple, toWire, tuple } from '../../src/values/index.ts';

const isPyFloat = (x: unknown): boolean =>
  x instanceof PyFloat || (typeof x === 'number' && !Number.isInteger(x)) || Object.is(x, -0);

describe('gen.fromSignature', () => {
  it('should generate TypeScript-typed arguments as plain JS values', async () => {
    const inputs = await gen
      .fromSignature('(xs: number[], k: number, names: Array<string>, pair: [boolean, string]) => number')
      .generate(100, { seed: 1 });
    for (const [xs, k, names, pair] of inputs as unknown[][]) {
      expect(Array.isArray(xs) && !(xs instanceof Tuple)).toBe(true);
      for (const x of xs as unknown[]) expect(typeof x).toBe('number');
      expect(typeof k).toBe('number');
      for (const n of names as unknown[]) expect(typeof n).toBe('string');
      expect(Array.isArray(pair) && !(pair instanceof Tuple)).toBe(true);
      expect(typeof (pair as unknown[])[0]).toBe('boolean');
    }
  });

  it('should generate Python-typed arguments with the codec classes so types survive the trip to Python', async () => {
    const inputs = await gen
      .fromSignature(
        '(xs: List[int], t: Tuple[int, ...], p: Tuple[int, str], d: Dict[str, float], s: Set[int], f: FrozenSet[str], x: float) -> int',
      )
      .generate(100, { seed: 2 });
    for (const [xs, t, p, d, s, f, x] of inputs as unknown[][]) {
      for (const v of xs as unknown[]) expect(Number.isInteger(v)).toBe(true);
      expect(t).toBeInstanceOf(Tuple);
      expect(p).toBeInstanceOf(Tuple);
      expect((p as unknown[]).length).toBe(2);
      expect(d).toBeInstanceOf(PyDict);
      for (const v of (d as Map<unknown, unknown>).values()) expect(isPyFloat(v)).toBe(true);
      expect(s).toBeInstanceOf(Set);
      expect(f).toBeInstanceOf(FrozenSet);
      expect(isPyFloat(x)).toBe(true);
    }
  });

  it('should cover Optional, Union, nested and literal types', async () => {
    const inputs = await gen
      .fromSignature(
        "(a: Optional[int], b: Union[int, str], c: List[List[int]], d: int | None, e: Literal['x', 'y'])",
      )
      .generate(200, { seed: 3 });
    const kinds = (i: number) => new Set(inputs.map((args) => kindOf(args[i])));
    expect([...kinds(0)].sort()).toEqual(['int', 'none']);
    expect([...kinds(1)].sort()).toEqual(['int', 'str']);
    expect([...kinds(3)].sort()).toEqual(['int', 'none']);
    expect(new Set(inputs.map((a) => a[4]))).toEqual(new Set(['x', 'y']));
    for (const args of inputs)
      for (const row of args[2] as unknown[][]) expect(Array.isArray(row)).toBe(true);
  });

  it('should respect size controls', async () => {
    const inputs = await gen
      .fromSignature('(xs: List[int], s: str) -> int', { maxLength: 3, int: { min: 0, max: 9 } })
      .generate(100, { seed: 4 });
    for (const [xs, s] of inputs as [number[], string][]) {
      expect(xs.length).toBeLessThanOrEqual(3);
      expect(s.length).toBeLessThanOrEqual(3);
      for (const x of xs) expect(x >= 0 && x <= 9).toBe(true);
    }
  });
});

describe('gen.fromJsonSchema', () => {
  it('should generate values that satisfy a zod-style tuple schema', async () => {
    // What z.toJSONSchema(z.tuple([z.array(z.int().min(0).max(9)), z.object({...}), z.enum([...])])) emits.
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [
        { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 }, maxItems: 5 },
        {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 4 },
            age: { type: 'number', exclusiveMinimum: 0 },
          },
          required: ['name'],
          additionalProperties: false,
        },
        { type: 'string', enum: ['red', 'green'] },
        { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] },
      ],
    };
    const inputs = await gen.fromJsonSchema(schema).generate(100, { seed: 1 });
    for (const [xs, person, color, email] of inputs as unknown[][]) {
      expect((xs as number[]).length).toBeLessThanOrEqual(5);
      for (const x of xs as number[]) expect(Number.isInteger(x) && x >= 0 && x <= 9).toBe(true);
      const p = person as { name: string; age?: number };
      expect(p.name.length >= 1 && p.name.length <= 4).toBe(true);
      if (p.age !== undefined) expect(p.age).toBeGreaterThan(0);
      expect(['red', 'green']).toContain(color);
      expect(email === null || (typeof email === 'string' && email.includes('@'))).toBe(true);
    }
  });

  it('should treat a non-tuple schema as the single argument, and follow $defs references', async () => {
    const schema = {
      type: 'object',
      properties: { point: { $ref: '#/$defs/point' } },
      required: ['point'],
      $defs: { point: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }] } },
    };
    const inputs = await gen.fromJsonSchema(schema).generate(20, { seed: 2 });
    for (const args of inputs) {
      expect(args.length).toBe(1);
      const point = (args[0] as { point: number[] }).point;
      expect(point.length).toBe(2);
    }
  });
});

describe('gen.fromJsonSchema string rules', () => {
  it('should generate strings matching a pattern and prefer a known format over its regex', async () => {
    const schema = {
      type: 'array',
      prefixItems: [
        { type: 'string', pattern: '^[a-z]{2,4}-\\d{2}$' },
        // zod 4 exports z.email() as a format plus its own (lookahead-using) regex.
        {
          type: 'string',
          format: 'email',
          pattern:
            "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
        },
      ],
    };
    const inputs = await gen.fromJsonSchema(schema).generate(50, { seed: 1 });
    for (const [code, email] of inputs as [string, string][]) {
      expect(code).toMatch(/^[a-z]{2,4}-\d{2}$/);
      expect(email).toContain('@');
    }
  });
});

describe('gen.fromExamples', () => {
  it('should infer the shape of the examples and include them', async () => {
    const examples = [
      [[1, 2, 3], 'a b'],
      [[7], 'c'],
    ];
    const inputs = await gen.fromExamples(examples).generate(300, { seed: 1 });
    const wires = new Set(inputs.map((a) => toWire(a)));
    for (const e of examples) expect(wires.has(toWire(e))).toBe(true);
    for (const [xs, s] of inputs as [number[], string][]) {
      for (const x of xs) expect(Number.isInteger(x)).toBe(true);
      expect(typeof s).toBe('string');
    }
  });

  it('should keep Python floats floats when the examples are Python values', async () => {
    const inputs = await gen.fromExamples([[pyFloat(1), tuple(1, 2)]]).generate(100, { seed: 2 });
    for (const [x, t] of inputs) {
      expect(isPyFloat(x)).toBe(true);
      expect(t).toBeInstanceOf(Tuple);
    }
  });
});
