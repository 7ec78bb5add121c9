import { describe, expect, it } from 'vitest';
import {
  optionError,
  problemOf,
  readMs,
  readOneOf,
  readPositiveInt,
  readProbability,
  readSeed,
  readTags,
} from '../../src/errors/index.ts';
import {
  type CrosscheckError,
  candidates,
  defineTask,
  gen,
  isCrosscheckError,
  measure,
} from '../../src/index.ts';

/** The validation kit: one message shape, one rule per kind of option, shared by every API. */

const thrown = async (f: () => unknown): Promise<CrosscheckError> => {
  try {
    await f();
  } catch (error) {
    expect(isCrosscheckError(error)).toBe(true);
    return error as CrosscheckError;
  }
  throw new Error('expected a CrosscheckError');
};

const at = { where: 'api(options)', field: 'x' };

describe('optionError', () => {
  it('should name the API, the field, the rule, what arrived and the fix, and carry them as data', () => {
    // Act
    const error = optionError({ ...at, rule: 'must be odd', got: 2, example: 3 });
    // Assert
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe('api(options): `x` must be odd, got 2 (number). Pass e.g. { x: 3 }.');
    expect(error.where).toBe('api(options, { x })');
    expect(problemOf(error)).toMatchObject({ field: 'x', rule: 'must be odd', got: 2, example: 3 });
  });
});

describe('readers', () => {
  it('should return the fallback for an absent value and the value when it passes', () => {
    expect(readSeed(at, undefined, 7)).toBe(7);
    expect(readSeed(at, -3)).toBe(-3);
    expect(readPositiveInt(at, undefined, 10)).toBe(10);
    expect(readPositiveInt(at, 0, undefined, 0)).toBe(0);
    expect(readProbability(at, 0.1)).toBe(0.1);
    expect(readMs(at, undefined, 250)).toBe(250);
    expect(readOneOf(at, 'b', ['a', 'b'])).toBe('b');
    expect(readTags(at, { model: 'm', t: 0.5, ok: true })).toEqual({ model: 'm', t: 0.5, ok: true });
  });

  it.each([
    ['readSeed', () => readSeed(at, 1.5), 'must be an integer, got 1.5 (number)'],
    ['readSeed', () => readSeed(at, undefined), 'must be an integer, got undefined'],
    [
      'readPositiveInt',
      () => readPositiveInt(at, 0, 10),
      'must be a positive integer, got 0 (number). Pass e.g. { x: 10 }.',
    ],
    [
      'readProbability',
      () => readProbability(at, 1),
      'must be a number strictly between 0 and 1, got 1 (number)',
    ],
    [
      'readMs',
      () => readMs(at, Number.NaN, 250),
      'must be a positive number of milliseconds, got NaN (number)',
    ],
    ['readOneOf', () => readOneOf(at, 'c', ['a', 'b']), 'must be "a" or "b", got "c" (string)'],
    ['readTags', () => readTags(at, { m: null }), '`x.m` must be a string, number or boolean, got null'],
  ])('%s should reject what breaks its rule', (_name, read, message) => {
    // Act / Assert
    expect(read).toThrow(message);
  });
});

describe('one seed rule', () => {
  it('should reject the same seeds with the same rule in gen.generate and in measure', async () => {
    // Arrange
    const task = defineTask({ name: 'id', inputs: gen.fromSignature('(x: int) -> int') });
    const cs = candidates.fromFunctions([(x: number) => x, (x: number) => x]);
    for (const seed of [1.5, Number.NaN, 2 ** 60, '1']) {
      // Act
      const fromGen = await thrown(() => gen.fromSignature('(x: int) -> int').generate(3, { seed } as never));
      const fromMeasure = await thrown(() => measure(task, cs, { seed } as never));
      // Assert
      expect(problemOf(fromGen)?.rule).toBe('must be an integer');
      expect(problemOf(fromMeasure)?.rule).toBe(problemOf(fromGen)?.rule);
    }
  });
});

describe('candidate labels and tags', () => {
  it('should check fromCommand labels and tags with the same rules and code as fromSources', async () => {
    // Act
    const label = await thrown(() =>
      candidates.fromCommand(['node', 'w.js'], [{ source: 'x', label: '' }], { entry: 'f', language: 'js' }),
    );
    const tags = await thrown(() =>
      candidates.fromCommand(['node', 'w.js'], ['x'], { entry: 'f', language: 'js', tags: 'm' as never }),
    );
    const fromSources = await thrown(() =>
      candidates.fromSources(['x'], { entry: 'f', language: 'python', tags: 'm' as never }),
    );
    // Assert
    expect(label.code).toBe('INVALID_OPTION');
    expect(label.message).toContain('`sources[0].label` must be a non-empty string, got "" (string)');
    expect(tags.code).toBe(fromSources.code);
    expect(problemOf(tags)?.rule).toBe(problemOf(fromSources)?.rule);
  });
});
