/**
 * An option of the wrong type is refused, never read as its default: an options argument is
 * absent or a plain object at every entry point, a nested options object (`run`) too, a flag is
 * a boolean, a signal an AbortSignal and a byte count an integer. Each case names the entry
 * point and what arrived.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { coherenceProperty } from '../../src/fast-check/index.ts';
import * as root from '../../src/index.ts';

const { candidates, defineTask } = root;

const task = defineTask({ name: 'inc', inputs: [[1], [2]], reference: (x: number) => x + 1 });
const pool = candidates.fromFunctions([(x: number) => x + 1, (x: number) => 1 + x]);

/** Runs `call` and returns what it threw (synchronously or as a rejection). */
const thrown = async (call: () => unknown): Promise<unknown> => {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
};

const expectRefused = (error: unknown, message: RegExp): void => {
  expect(root.isCrosscheckError(error), String(error)).toBe(true);
  expect((error as root.CrosscheckError).code).toBe('INVALID_OPTION');
  expect((error as Error).message).toMatch(message);
};

describe('options that are not an object', () => {
  const NOT_OBJECTS: ReadonlyArray<readonly [string, unknown]> = [
    ['5', 5],
    ['true', true],
    ['null', null],
    ['"x"', 'x'],
    ['a Map', new Map([['seed', 1]])],
  ];
  const CALLS: Record<string, (options: unknown) => unknown> = {
    toHaveIncoherenceBelow: (o) => expect(task).toHaveIncoherenceBelow(0.5, pool, o as never),
    toAgreeWithReference: (o) => expect(pool[0]).toAgreeWithReference(task, o as never),
    toBeCoherentAcross: (o) => expect(task).toBeCoherentAcross(pool, o as never),
    measure: (o) => root.measure(task, pool, o as never),
  };
  const cases = Object.entries(CALLS).flatMap(([name, call]) =>
    NOT_OBJECTS.filter(([label]) => name !== 'measure' || label === 'a Map').map(
      ([label, value]) => [name, label, () => call(value)] as const,
    ),
  );
  // measure refused primitives and null already; a Map (no own keys) passed as "no options".
  const refusedBefore = new Set([
    'toBeCoherentAcross 5',
    'toBeCoherentAcross true',
    'toBeCoherentAcross "x"',
  ]);

  it.each(cases.filter(([name, label]) => !refusedBefore.has(`${name} ${label}`)))(
    'should refuse %s with options %s',
    async (name, _label, call) => {
      // Act
      const error = await thrown(call);

      // Assert
      expectRefused(error, new RegExp(`^${name}[^:]*: options must be an object, got `));
    },
  );
});

describe('a nested options object that is not an object', () => {
  it.each([
    ['detect', 5, () => root.detect(task, pool, { run: 5 } as never)],
    ['measure', [], () => root.measure(task, pool, { run: [] } as never)],
    ['toBeCoherentAcross', null, () => expect(task).toBeCoherentAcross(pool, { run: null } as never)],
    ['coherenceProperty', 5, () => coherenceProperty(task, pool, { run: 5 } as never)],
  ] as const)('should refuse %s with run %j', async (_name, _value, call) => {
    // Act
    const error = await thrown(call);

    // Assert
    expectRefused(error, /`run` must be an object, got .*\{ run: \{ timeoutMs: … \} \}/);
  });
});

describe('compareErrorMessages', () => {
  it.each([
    ['detect', 'true', () => root.detect(task, pool, { compareErrorMessages: 'true' } as never)],
    ['measure', 1, () => root.measure(task, pool, { compareErrorMessages: 1 } as never)],
    [
      'toBeCoherentAcross',
      'yes',
      () => expect(task).toBeCoherentAcross(pool, { compareErrorMessages: 'yes' } as never),
    ],
    [
      'coherenceProperty',
      'true',
      () =>
        coherenceProperty(task, pool, {
          compareErrorMessages: 'true',
          inputs: fc.tuple(fc.integer()),
        } as never),
    ],
  ] as const)('should refuse %s with %j rather than read it as false', async (_name, _value, call) => {
    // Act
    const error = await thrown(call);

    // Assert
    expectRefused(error, /`compareErrorMessages` must be true or false, got/);
  });
});

describe('signal and maxOutputBytes', () => {
  it.each([
    ['detect', () => root.detect(task, pool, { signal: 5 } as never)],
    ['measure', () => root.measure(task, pool, { signal: 'stop' } as never)],
    ['run', () => root.run(task, pool, [[1]], { signal: {} } as never)],
  ] as const)('should refuse a signal that is not an AbortSignal in %s', async (_name, call) => {
    // Act
    const error = await thrown(call);

    // Assert
    expectRefused(error, /`signal` must be an AbortSignal, got/);
  });

  it.each([
    ['run', () => root.run(task, pool, [[1]], { maxOutputBytes: 1.5 })],
    ['detect', () => root.detect(task, pool, { run: { maxOutputBytes: 1024.5 } })],
  ] as const)('should refuse a fractional maxOutputBytes in %s', async (_name, call) => {
    // Act
    const error = await thrown(call);

    // Assert
    expectRefused(error, /`maxOutputBytes` must be a positive integer, got 1(\.5|024\.5)/);
  });
});
