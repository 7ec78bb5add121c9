import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig } from 'tsdown';

const VITEST4 = 'interface Matchers<T = any> extends CrosscheckMatchers<void> {}';
const VITEST5 =
  'interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> extends CrosscheckMatchers<R> {}';

/**
 * Vitest 4 declares `Matchers<T>` and Vitest 5 `Matchers<R, T>`; interfaces merge only with
 * identical type parameters, so each major gets its own declaration file. `crosscheck/vitest`
 * carries Vitest 4's (what the source declares); `crosscheck/vitest/v5` is the same module with
 * Vitest 5's declaration, written here from the built one.
 */
const writeVitest5Declarations = async (outDir: string): Promise<void> => {
  for (const [from, to] of [
    ['vitest.d.mts', 'vitest5.d.mts'],
    ['vitest.d.cts', 'vitest5.d.cts'],
  ] as const) {
    // Each format's pass writes its own file.
    const text = await readFile(join(outDir, from), 'utf8').catch(() => null);
    if (text === null) continue;
    if (!text.includes(VITEST4)) {
      throw new Error(
        `tsdown.config.ts: ${from} no longer declares \`${VITEST4}\`; update the Vitest 5 rewrite.`,
      );
    }
    await writeFile(join(outDir, to), text.replace(VITEST4, VITEST5));
  }
};

/**
 * Packages that ship only ESM (execa and what it imports). Jest's default runtime loads the CJS
 * build with its own `require`, which cannot load ESM, and a lazy `import()` fails there too
 * without `--experimental-vm-modules`; so the CJS build carries them inside. The ESM build keeps
 * them as ordinary dependencies.
 */
const ESM_ONLY_ROOTS = ['execa'];
const bundleEsmOnlyDeps = (id: string, importer: string | undefined): boolean =>
  ESM_ONLY_ROOTS.includes(id) ||
  // Whatever a bundled package imports is bundled with it (builtins stay external).
  (importer?.includes('/node_modules/') === true && !id.startsWith('node:'));

const main = {
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    'fast-check': 'src/fast-check/index.ts',
    vitest: 'matchers/vitest.ts',
    jest: 'matchers/jest.ts',
    'vitest-reporter': 'reporter/vitest.ts',
    'jest-reporter': 'reporter/jest.ts',
    'llm-testing': 'src/llm/testing/index.ts',
  },
  format: {
    esm: {},
    cjs: { deps: { alwaysBundle: bundleEsmOnlyDeps, skipNodeModulesBundle: false } },
  },
  dts: true,
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: false,
  hooks: {
    'build:done': async (ctx: { options: { outDir: string } }) => {
      await writeVitest5Declarations(ctx.options.outDir);
    },
  },
} as const;

/**
 * The sandbox host, started as a confined child process by the JS/TS source runner
 * (src/exec/js/remote-pool.ts), sees only its own folder: no node_modules. So it is built apart,
 * one self-contained file per format with every dependency inside, rather than sharing chunks
 * with the main entries (a shared CJS chunk once pulled in `picocolors` and the host crashed on
 * start). tsdown cleans the output folder once for both configs, before either builds.
 */
const sandboxHost = {
  entry: { 'sandbox-host': 'src/exec/js/sandbox-host.ts' },
  format: {
    esm: { deps: { alwaysBundle: (id: string) => !id.startsWith('node:'), skipNodeModulesBundle: false } },
    cjs: { deps: { alwaysBundle: (id: string) => !id.startsWith('node:'), skipNodeModulesBundle: false } },
  },
  dts: false,
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: false,
} as const;

export default defineConfig([main, sandboxHost]);
