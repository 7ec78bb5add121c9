import { defineConfig } from 'vitest/config';
import { ALL_TESTS, HEAVY_FILES, NOT_QUICK, NOT_TESTS, OS_BOUNDARY_FILES } from './test/suites.ts';

/**
 * Three projects (test/suites.ts says which file goes where):
 * - `quick`: `npm test`, every module's tests, a few minutes on two cores;
 * - `heavy`: host projects, packing and installing, dataset-wide runs, type checks;
 * - `os-boundary`: the hostile corpora again, with the OS boundary required.
 * `npm run test:heavy` runs the last two, `npm run test:all` all three. One config rather than
 * two keeps one set of defaults, and `npx vitest run <file or folder>` finds a file in whichever
 * project holds it.
 */
export default defineConfig({
  test: {
    // Hang guards, not verdicts: a test that spawns a host project or a sandbox can take several
    // times its quiet-machine time on a busy runner (CI reruns the quick suite beside two busy
    // loops), and no outcome here depends on wall time.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Inert unless CROSSCHECK_CPU_LOG names a file: then each test file logs its CPU time there.
    setupFiles: ['./test/helpers/cpu-meter.ts'],
    // Vitest's default leaves one core idle (cores − 1); most files wait on child processes.
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: [...ALL_TESTS],
          exclude: [...NOT_TESTS, ...NOT_QUICK],
          // Five files at a time on two cores: a quick file spends part of its wall time
          // waiting (child processes starting, limits and timeouts running out; compare its CPU
          // time from test/helpers/cpu-meter.ts), so one worker per core leaves the cores idle.
          maxWorkers: '250%',
          // Each worker runs its files one after another in one process, so Vitest's start-up
          // and the import of src/ are paid once per worker instead of once per file: 448 s of
          // CPU became 281 s (about 1.2 s a file), and 345 s of wall time 257 s, on a quiet
          // machine. Every file cleans up what it starts (pools, workers, servers, temp dirs)
          // and sets no module state another file reads; a file run alone, and the heavy
          // projects, still get a process of their own.
          isolate: false,
        },
      },
      {
        extends: true,
        // One file at a time when several would run `npm pack`, whose prepack rebuilds dist/ in
        // place; side by side when CI packed once beforehand (CROSSCHECK_TARBALL, test/helpers/pack.ts).
        test: {
          name: 'heavy',
          include: [...HEAVY_FILES],
          exclude: [...NOT_TESTS],
          maxWorkers: process.env.CROSSCHECK_TARBALL ? '100%' : 1,
        },
      },
      {
        extends: true,
        test: {
          name: 'os-boundary',
          include: [...OS_BOUNDARY_FILES],
          exclude: [...NOT_TESTS],
          env: { CROSSCHECK_ISOLATION: 'os' },
        },
      },
    ],
  },
});
