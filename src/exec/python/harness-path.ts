import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CrosscheckError } from '../../errors/index.ts';

// A package folder, run as a script (`python <folder>` runs its __main__.py).
const HARNESS = join('python', 'crosscheck_worker');

// This module runs from src/exec/python under tsx or vitest, and from dist/ (ESM or CJS) once
// built; the harness ships in the package's top-level python/ folder in every case.
const moduleDir = (): string =>
  typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));

let cached: string | undefined;

/** Absolute path of the `python/crosscheck_worker` package, found by walking up from this module. @internal */
export const harnessPath = (): string => {
  if (cached) return cached;
  let dir = moduleDir();
  for (;;) {
    const candidate = join(dir, HARNESS);
    if (existsSync(join(candidate, '__main__.py'))) {
      cached = candidate;
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new CrosscheckError(
    'RUNTIME_MISSING',
    `The Python harness ${HARNESS} was not found above ${moduleDir()}. Reinstall crosscheck: the package must ship its python/ folder.`,
  );
};
