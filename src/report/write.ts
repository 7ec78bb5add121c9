import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ioError, withIo } from '../errors/index.ts';

/**
 * Writes a file atomically: a temporary file in the same directory, then a rename. A reader (or a
 * CI step collecting artifacts) never sees half a report, and a crash leaves the old one intact.
 * @public
 */
export const writeFileAtomic = (path: string, text: string): void => {
  const dir = dirname(path);
  withIo('create the directory', dir, () => mkdirSync(dir, { recursive: true }));
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw ioError(error, 'write', path);
  }
};

/**
 * Appends Markdown to the GitHub Actions job summary when `$GITHUB_STEP_SUMMARY` is set.
 * @returns whether it wrote.
 * @public
 */
export const appendStepSummary = (markdown: string, env: NodeJS.ProcessEnv = process.env): boolean => {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return false;
  withIo('append the job summary to', file, () =>
    appendFileSync(file, markdown.endsWith('\n') ? `${markdown}\n` : `${markdown}\n\n`),
  );
  return true;
};

/**
 * The environment variable that carries a Jest run's records directory from the reporter (which
 * creates it, in the main process) to the matchers (which append to it, in the workers).
 * @public
 */
export const RECORDS_ENV = 'CROSSCHECK_RECORDS_DIR';
