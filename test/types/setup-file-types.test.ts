import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Matcher types when the matchers are registered by a setup file (`setupFilesAfterEnv:
 * ['crosscheck/jest']`, Vitest's `setupFiles`) and no test file imports them: the project adds
 * `crosscheck/jest` (or `crosscheck/vitest`) to `compilerOptions.types`, as ts-jest users do.
 * Checked with `tsc --noEmit` over a test file that uses the matchers without importing them,
 * against the built package (its `exports`, its `typesVersions` for `moduleResolution: node`, its
 * declarations), under each module resolution a ts-jest project may use. Without the types entry
 * the same file fails: that is the mistake this guards against.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'node_modules', '.cache', 'crosscheck-setup-types-build');
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let project: string;

/** A test file that never imports crosscheck/jest: the setup file registered the matchers. */
const JEST_TEST = `import { candidates, defineTask } from 'crosscheck';

const task = defineTask({ name: 'len', inputs: [[[1, 2]]], reference: (xs: number[]) => xs.length });
const pool = candidates.fromFunctions([(xs: number[]) => xs.length]);

it('coheres', async () => {
  await expect(task).toBeCoherentAcross(pool, { epsilon: 0.05, delta: 0.05 });
  // @ts-expect-error epsilon is a number: the matcher is typed, not any
  await expect(task).toBeCoherentAcross(pool, { epsilon: 'small' });
  expect([3, 2, 1]).toRankLike([3, 1, 2], { minSpearman: 0.5, alpha: 0.2 });
});
`;

/** The same for Vitest, whose `expect` is imported from 'vitest'. */
const VITEST_TEST = `import { candidates, defineTask } from 'crosscheck';
import { expect, it } from 'vitest';

const task = defineTask({ name: 'len', inputs: [[[1, 2]]], reference: (xs: number[]) => xs.length });
const pool = candidates.fromFunctions([(xs: number[]) => xs.length]);

it('coheres', async () => {
  await expect(task).toBeCoherentAcross(pool, { epsilon: 0.05, delta: 0.05 });
  // @ts-expect-error epsilon is a number: the matcher is typed, not any
  await expect(task).toBeCoherentAcross(pool, { epsilon: 'small' });
});
`;

/** Type-checks `file` of the project with the given module settings and `types`. */
const typecheck = async (file: string, module: string, moduleResolution: string, types: string[]) => {
  const config = join(project, `tsconfig.${file}.${moduleResolution}.${types.length}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module,
        moduleResolution,
        esModuleInterop: true,
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types,
      },
      files: [file],
    }),
  );
  const result = await execa(process.execPath, [tscBin, '-p', config], {
    cwd: project,
    reject: false,
    all: true,
  });
  return { exitCode: result.exitCode, output: result.all ?? '' };
};

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  await execa(
    process.execPath,
    [join(ROOT, 'node_modules', 'tsdown', 'dist', 'run.mjs'), '--out-dir', OUT, '--log-level', 'error'],
    { cwd: ROOT, timeout: 600_000 },
  );
  // The package as installed: its package.json and dist/; its own dependencies resolve from the
  // build's real path, inside this repository's node_modules.
  project = mkdtempSync(join(tmpdir(), 'crosscheck-setup-types-'));
  const installed = join(project, 'node_modules', 'crosscheck');
  mkdirSync(installed, { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
  symlinkSync(OUT, join(installed, 'dist'), 'dir');
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  for (const types of ['jest', 'node']) {
    symlinkSync(
      join(ROOT, 'node_modules', '@types', types),
      join(project, 'node_modules', '@types', types),
      'dir',
    );
  }
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
  writeFileSync(join(project, 'sum.test.ts'), JEST_TEST);
  writeFileSync(join(project, 'sum.vitest.test.ts'), VITEST_TEST);
}, 900_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each([
  ['commonjs', 'node10'],
  ['node16', 'node16'],
  ['esnext', 'bundler'],
])('a ts-jest project (module %s, moduleResolution %s)', (module, moduleResolution) => {
  it('types the matchers from "types": ["jest", "crosscheck/jest"], with no import in the test file', async () => {
    const { exitCode, output } = await typecheck('sum.test.ts', module, moduleResolution, [
      'jest',
      'crosscheck/jest',
    ]);
    expect(output).toBe('');
    expect(exitCode).toBe(0);
  });

  it('does not know the matchers without the types entry', async () => {
    const { exitCode, output } = await typecheck('sum.test.ts', module, moduleResolution, ['jest']);
    expect(exitCode).not.toBe(0);
    expect(output).toContain("Property 'toBeCoherentAcross' does not exist");
  });
});

describe('a Vitest project with the matchers in setupFiles', () => {
  it('types the matchers from "types": ["crosscheck/vitest"]', async () => {
    const { exitCode, output } = await typecheck('sum.vitest.test.ts', 'esnext', 'bundler', [
      'crosscheck/vitest',
    ]);
    expect(output).toBe('');
    expect(exitCode).toBe(0);
  });
});
