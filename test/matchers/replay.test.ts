import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { fromFunctions } from '../../src/candidates/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { defineTask } from '../../src/task/index.ts';

/**
 * The Replay lines of a failure message are statements a user pastes into the test: run as code
 * with the names the hint line uses, each fails again with the same witness.
 */

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const capped = (xs: number[]) => xs.reduce((a, b) => a + Math.min(b, 100), 0);
const inputs = gen.fromArbitrary(fc.tuple(fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 8 })), {
  description: 'lists of 0..200',
});
const task = defineTask({ name: 'sum', inputs, reference: sum });
const candidates = fromFunctions({ sum, capped });
const candidate = candidates[1]!;

const AsyncFunction = (async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

/** The message of the assertion's failure. */
const failure = async (assertion: () => Promise<void>): Promise<string> => {
  try {
    await assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed; the replay test needs a failing one');
};

/** The Replay lines of a message, each a statement without the label and the trailing comment. */
const replayLines = (message: string): string[] => {
  const lines = message.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Replay:'));
  expect(start, message).toBeGreaterThan(0);
  const block = lines.slice(start, lines.indexOf('', start) < 0 ? undefined : lines.indexOf('', start));
  return block.map((l) =>
    l
      .replace(/^Replay:/, '')
      .replace(/\/\/.*$/, '')
      .trim(),
  );
};

const witnessOf = (message: string): string => /Witness: +(\S+)/.exec(message)?.[1] ?? 'none';

describe.each([
  ['toBeCoherentAcross', () => expect(task).toBeCoherentAcross(candidates, { seed: 9 })],
  [
    'toHaveIncoherenceBelow',
    () => expect(task).toHaveIncoherenceBelow(0.01, candidates, { seed: 3, n: 300 }),
  ],
  ['toAgreeWithReference', () => expect(candidate).toAgreeWithReference(task, { seed: 4, n: 200 })],
])('the replay hint of %s', (_name, assertion) => {
  it('should be code that, pasted into the test, fails again on the same witness', async () => {
    // Arrange
    const message = await failure(assertion);
    const lines = replayLines(message);
    // Act
    const replayed = await Promise.all(
      lines.map((line) =>
        failure(() =>
          new AsyncFunction('expect', 'task', 'candidates', 'candidate', line)(
            expect,
            task,
            candidates,
            candidate,
          ),
        ),
      ),
    );
    // Assert
    expect(lines).toHaveLength(2);
    for (const again of replayed) expect(witnessOf(again)).toBe(witnessOf(message));
  });
});
