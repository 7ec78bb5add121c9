import { CrosscheckError } from '../errors/index.ts';

/** The facts of each replay miss (what was looked for, where, what is recorded), without a fix. */
const facts = new WeakMap<object, string>();

/**
 * A replay-miss error: its facts, then a fix. The facts are kept apart so that a caller who
 * knows the command the user ran (the CLI) can word the fix as that command.
 */
export const replayMiss = (
  factLines: readonly string[],
  fix: readonly string[],
  where: string,
): CrosscheckError => {
  const text = factLines.join('\n');
  const error = new CrosscheckError('LLM_REPLAY_MISS', `${text}\n${fix.join('\n')}`, { where });
  facts.set(error, text);
  return error;
};

/** The facts of a replay-miss error (without its fix), or undefined for any other error. @internal */
export const replayMissFacts = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null ? facts.get(error) : undefined;
