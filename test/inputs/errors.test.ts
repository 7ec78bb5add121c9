import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { gen, shrinkWitness } from '../../src/inputs/index.ts';

/** Runs `f` and returns the CrosscheckError it throws (failing the test otherwise). */
const thrown = async (f: () => unknown): Promise<Error & { code: string; where?: string }> => {
  try {
    await f();
  } catch (error) {
    if (isCrosscheckError(error)) return error as never;
    throw error;
  }
  throw new Error('expected a CrosscheckError, nothing was thrown');
};

describe('typed errors for bad input', () => {
  it('should name an unknown type in a signature, the parameter, and the fix', async () => {
    const error = await thrown(() => gen.fromSignature('(xs: List[Widget], k: int) -> int'));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('unknown type `Widget`');
    expect(error.message).toContain('parameter `xs`');
    expect(error.message).toContain('Supported types');
    expect(error.message).toContain('gen.fromArbitrary');
  });

  it('should name a parameter without annotation', async () => {
    const error = await thrown(() => gen.fromSignature('(lst) -> int'));
    expect(error.message).toContain('parameter `lst` needs a type annotation');
    expect(error.message).toContain('lst: int');
  });

  it('should reject a signature that is not a parameter list', async () => {
    expect((await thrown(() => gen.fromSignature(''))).message).toContain(
      '`signature` must be a non-empty string',
    );
    expect((await thrown(() => gen.fromSignature('(xs: List[int]'))).message).toMatch(
      /ended too early|expected/,
    );
    expect((await thrown(() => gen.fromSignature('(xs: Dict[int]) -> int'))).message).toContain(
      '`Dict` takes 2 type arguments',
    );
  });

  it('should name the path, rule, value and fix of a malformed schema', async () => {
    const badType = await thrown(() =>
      gen.fromJsonSchema({ type: 'array', prefixItems: [{ type: 'integr' }] }),
    );
    expect(badType.message).toContain('#/prefixItems/0/type');
    expect(badType.message).toContain('must be one of string, number, integer');
    expect(badType.message).toContain('"integr"');
    const badEnum = await thrown(() => gen.fromJsonSchema({ type: 'string', enum: [] }));
    expect(badEnum.message).toContain('`enum` must be a non-empty array');
    const notSchema = await thrown(() => gen.fromJsonSchema('number'));
    expect(notSchema.message).toContain('must be a JSON Schema object');
    expect(notSchema.message).toContain('z.toJSONSchema');
    const badRef = await thrown(() => gen.fromJsonSchema({ $ref: 'http://example.com/x' }));
    expect(badRef.message).toContain('only local references');
  });

  it('should reject empty seeds, non-tuple seeds and seeds of different arity', async () => {
    const empty = await thrown(() => gen.fromSeeds([]));
    expect(empty.message).toContain('`seeds` must be a non-empty array of argument tuples');
    expect(empty.message).toContain('an array of length 0');
    expect(empty.message).toContain('gen.fromSeeds([[[1, 2, 3], 2]])');
    const scalar = await thrown(() => gen.fromSeeds([5 as never]));
    expect(scalar.message).toContain('`seeds[0]` must be an argument tuple');
    expect(scalar.message).toContain('5 (number)');
    const arity = await thrown(() => gen.fromSeeds([[1], [1, 2]]));
    expect(arity.message).toContain('`seeds[1]` must have the same number of arguments as seeds[0] (1)');
    const profile = await thrown(() => gen.fromSeeds([[1]], { profile: 'fuzzy' as never }));
    expect(profile.message).toContain("`profile` must be 'typed' or 'difftrust'");
  });

  it('should reject non-tuple examples', async () => {
    const error = await thrown(() => gen.fromExamples([1, 2] as never));
    expect(error.message).toContain('`examples[0]` must be an argument tuple');
    expect(error.message).toContain('[[1, 2], [3, 4]]');
  });

  it('should reject something that is not an arbitrary, and arbitraries that do not give tuples', async () => {
    const error = await thrown(() => gen.fromArbitrary(42 as never));
    expect(error.message).toContain('`arbitrary` must be a fast-check arbitrary');
    const notTuple = await thrown(() => gen.fromArbitrary(fc.integer() as never).generate(3, { seed: 1 }));
    expect(notTuple.code).toBe('INVALID_INPUT');
    expect(notTuple.message).toContain('fc.tuple(fc.integer())');
  });

  it('should reject a missing seed and a bad count', async () => {
    const g = gen.fromSignature('(x: int) -> int');
    expect((await thrown(() => g.generate(3, {} as never))).message).toContain(
      'gen.generate(n, options): `seed` must be an integer, got undefined. Pass e.g. { seed: 42 }.',
    );
    expect((await thrown(() => g.generate(-1, { seed: 1 }))).message).toContain(
      'gen.generate(n, options): `n` must be a non-negative integer, got -1 (number). Pass e.g. { n: 1000 }.',
    );
  });

  it('should reject a reference that is neither function, candidate nor task', async () => {
    const error = await thrown(() => gen.fromSignature('(x: int) -> int').withReference('ref' as never));
    expect(error.message).toContain('`reference` must be a function, a candidate or a task');
  });

  it('should stop with ABORTED when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await thrown(() =>
      gen.fromSignature('(x: int) -> int').generate(10, { seed: 1, signal: controller.signal }),
    );
    expect(error.code).toBe('ABORTED');
  });

  it('should reject a witness that is not an argument tuple', async () => {
    const error = await thrown(() => shrinkWitness(null, 5 as never, () => true));
    expect(error.message).toContain('`args` must be an argument tuple');
  });
});
