import type { Candidate } from '../src/candidates/index.ts';
import { checkKeys, isPlainObject, type OptionKeys } from '../src/errors/index.ts';
import { isTask, type Task } from '../src/task/index.ts';
import { misuse } from './message.ts';
import { MATCHER_KEYS } from './option-keys.ts';

/** A matcher as its argument guards speak of it. */
export interface MatcherUse {
  /** `toBeCoherentAcross`: the prefix of every misuse message. */
  readonly name: string;
  /** How the matcher is written, `expect(task).toBeCoherentAcross(candidates)`: the fix a guard suggests. */
  readonly usage: string;
  /** The matcher itself: a misuse's stack trace starts at its caller. */
  // biome-ignore lint/complexity/noBannedTypes: any function can anchor a stack trace
  readonly anchor: Function;
}

/**
 * The task guard of the matchers that run candidates: `task` must come from defineTask(). It is
 * the received value of `expect(task)` or, for `expect(candidate)`, an argument; the message
 * names it accordingly.
 */
export function checkTask(use: MatcherUse, task: unknown, as: 'received' | 'argument'): asserts task is Task {
  if (isTask(task)) return;
  misuse(
    'INVALID_TASK',
    use.name,
    as === 'received'
      ? 'the received value must be a task from defineTask()'
      : '`task` must come from defineTask()',
    task,
    `Write ${use.usage}.`,
    use.anchor,
  );
}

/**
 * The pool guard: agreement needs an array of at least two candidates. Whether each element is a
 * candidate is left to `measure` and `detect`, which check it for every caller.
 */
export function checkPool(use: MatcherUse, candidates: unknown): asserts candidates is readonly Candidate[] {
  if (Array.isArray(candidates) && candidates.length >= 2) return;
  misuse(
    'INVALID_CANDIDATES',
    use.name,
    '`candidates` must be an array of at least two candidates',
    candidates,
    'Agreement needs two programs to compare.',
    use.anchor,
  );
}

/**
 * The options guard of every matcher, run before a matcher reads any option: options are absent
 * or a plain object (`5`, `true`, `null` or a string would otherwise read as "no options", or
 * as the keys `0`, `1`… of a string), and every key is one the matcher knows (nested `run`
 * keys too), so a misspelt option (`epsilion`) is refused with the nearest known one instead of
 * falling back to its default.
 */
export function checkOptions(use: Pick<MatcherUse, 'name' | 'anchor'>, options: unknown): void {
  if (options === undefined) return;
  if (!isPlainObject(options)) {
    misuse(
      'INVALID_OPTION',
      use.name,
      'options must be an object',
      options,
      'Pass an object of options, e.g. { seed: 42 }, or leave them out.',
      use.anchor,
    );
  }
  const known = (MATCHER_KEYS as Readonly<Record<string, OptionKeys>>)[use.name];
  if (known === undefined) throw new Error(`crosscheck: no option keys listed for ${use.name}`);
  try {
    checkKeys({ where: use.name }, options as object, known);
  } catch (error) {
    // The stack starts at the test that misspelt the option, as every misuse's does.
    Error.captureStackTrace?.(error as Error, use.anchor);
    throw error;
  }
}
