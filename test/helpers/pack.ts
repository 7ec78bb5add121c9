import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { execa } from 'execa';

/**
 * The package as a user installs it: `npm pack` (whose `prepack` builds dist/) and a scratch
 * project that installs the tarball beside its own dev dependencies, from npm's cache where it
 * can (`--prefer-offline`; the registry fills what is missing).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * A tarball packed once for the whole run, by CI (.ci/run packs before the heavy suite, which
 * then needs no `npm pack` per file and so can run its files side by side). Unset, each file
 * packs the checkout itself.
 */
const SHARED_TARBALL = process.env.CROSSCHECK_TARBALL;

/** Packs this repository into `dir` (or copies CROSSCHECK_TARBALL there) and returns the tarball's path. */
export const packTarball = async (dir: string): Promise<string> => {
  mkdirSync(dir, { recursive: true });
  if (SHARED_TARBALL !== undefined && SHARED_TARBALL !== '') {
    if (!existsSync(SHARED_TARBALL)) {
      throw new Error(
        `CROSSCHECK_TARBALL names ${SHARED_TARBALL}, which does not exist; unset it to pack here`,
      );
    }
    const copy = join(dir, basename(SHARED_TARBALL));
    copyFileSync(SHARED_TARBALL, copy);
    return copy;
  }
  await execa('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, timeout: 300_000 });
  const tarball = readdirSync(dir).find((f) => /^crosscheck-.*\.tgz$/.test(f));
  if (!tarball) throw new Error(`npm pack left no crosscheck-*.tgz in ${dir}`);
  return join(dir, tarball);
};

/**
 * Copies the fixture folder to `target` and installs its package.json plus the tarball there.
 * Returns npm's output for messages.
 */
export const installFixture = async (fixture: string, target: string, tarball: string): Promise<string> => {
  cpSync(fixture, target, { recursive: true });
  const result = await execa(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', tarball],
    { cwd: target, timeout: 600_000, all: true, reject: false },
  );
  if (result.exitCode !== 0 || !existsSync(join(target, 'node_modules', 'crosscheck'))) {
    throw new Error(`npm install in ${target} failed:\n${result.all}`);
  }
  return result.all ?? '';
};
