import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the shared reference data lives: `$CROSSCHECK_DATA`, else `../shared/data` beside the
 * project. Tests that need it call {@link requireData}: under CI a missing directory is a failure
 * with instructions, elsewhere the test is skipped.
 */
export const sharedDataDir = (): string =>
  resolve(process.env.CROSSCHECK_DATA ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'data'));

export const humanevalDir = (): string => join(sharedDataDir(), 'humaneval');

export const hasHumaneval = (): boolean => existsSync(join(humanevalDir(), 'tasks.jsonl.gz'));

/** Throws under CI when the data is missing; returns false (so the caller skips) elsewhere. */
export const requireData = (): boolean => {
  if (hasHumaneval()) return true;
  if (process.env.CI) {
    throw new Error(
      `The HumanEval reference data is missing at ${humanevalDir()}. ` +
        'Put shared/data beside the project checkout or set CROSSCHECK_DATA to the data directory.',
    );
  }
  return false;
};
