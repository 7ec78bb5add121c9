import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * The version of the installed crosscheck, read once from its package.json: bundled code runs
 * from dist/ (one level down), this repository's sources from src/<folder>/ (two levels).
 * `'unknown'` when neither is found (a bundler that moved the file).
 * @internal
 */
export const crosscheckVersion = (): string => {
  if (cached !== undefined) return cached;
  cached = 'unknown';
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'crosscheck' && typeof pkg.version === 'string') {
        cached = pkg.version;
        break;
      }
    } catch {
      // Not this level (or no import.meta.url in this bundle); try the next.
    }
  }
  return cached;
};
