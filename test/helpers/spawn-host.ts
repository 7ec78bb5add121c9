import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

/**
 * Real test runners on fixture projects, as separate processes: Vitest, Jest, an npm script. Each
 * run gets the parent's environment with `CI` cleared (so the host behaves as on a laptop) plus
 * the caller's variables, never throws on a non-zero exit, and keeps stdout, stderr and both
 * interleaved (`all`, for assertion messages).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const TSDOWN = join(ROOT, 'node_modules', 'tsdown', 'dist', 'run.mjs');

/** No colours and no GitHub job summary: output a test can compare as text. */
export const PLAIN_ENV = { GITHUB_STEP_SUMMARY: '', NO_COLOR: '1' } as const;

/** Options of a spawned run. */
export interface SpawnOptions {
  /** Arguments after the runner's own. */
  readonly args?: readonly string[];
  /** Variables added to the environment (after `CI` is cleared). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory. @defaultValue this process's */
  readonly cwd?: string;
  /** Kill the run after this many milliseconds. @defaultValue 120000 */
  readonly timeoutMs?: number;
}

const spawn = async (file: string, args: readonly string[], options: SpawnOptions) => {
  const subprocess = execa(file, [...args, ...(options.args ?? [])], {
    reject: false,
    env: { CI: '', ...options.env },
    all: true,
    timeout: options.timeoutMs ?? 120_000,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const result = await subprocess;
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    all: result.all,
    pid: subprocess.pid,
  };
};

/** How a spawned run ended. */
export type HostRun = Awaited<ReturnType<typeof spawn>>;

/** `vitest run --root <project> ...args`, with this repository's Vitest. */
export const spawnVitest = (project: string, options: SpawnOptions = {}): Promise<HostRun> =>
  spawn(process.execPath, [VITEST, 'run', '--root', project], options);

/** `jest --config <config> ...args` as native ESM (`--experimental-vm-modules`), with this repository's Jest. */
export const spawnJest = (config: string, options: SpawnOptions = {}): Promise<HostRun> =>
  spawn(process.execPath, ['--experimental-vm-modules', JEST, '--config', config], options);

/** `npm run <script>` in this repository, as a user types it. */
export const spawnNpmScript = (script: string, options: SpawnOptions = {}): Promise<HostRun> =>
  spawn('npm', ['run', script], { cwd: ROOT, ...options });

/**
 * Bundles entries of the source as the package would ship them (ESM, `@jest/globals` left
 * external) and installs them as `crosscheck` in the project's node_modules, so a fixture imports
 * `crosscheck`, `crosscheck/jest`, ... as a user does.
 * @param exports the package's export subpaths and the source file of each, e.g. `{ '.': 'src/index.ts' }`
 */
export const installPackage = async (project: string, exports: Readonly<Record<string, string>>) => {
  const target = join(project, 'node_modules', 'crosscheck');
  const sources = Object.values(exports);
  await execa(
    process.execPath,
    [
      TSDOWN,
      '--no-config',
      ...sources,
      '-d',
      target,
      '-f',
      'esm',
      '--deps.never-bundle',
      '@jest/globals',
      '--logLevel',
      'error',
      '--no-report',
    ],
    { cwd: ROOT, timeout: 120_000 },
  );
  // The sources span several top-level folders, so tsdown keeps their paths under the target.
  const built = Object.fromEntries(
    Object.entries(exports).map(([subpath, source]) => [subpath, `./${source.replace(/\.ts$/, '.mjs')}`]),
  );
  writeFileSync(
    join(target, 'package.json'),
    JSON.stringify({ name: 'crosscheck', type: 'module', exports: built }),
  );
};
