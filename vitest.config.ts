import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/helpers/sequencer.ts';
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
/**
 * Workers per core, as a number: Vitest 4 leaves a project's percentage (`'250%'`) at the root's
 * worker count, where a number takes effect. Projects that run together (heavy and
 * os-boundary) must have the same count or distinct `sequence.groupOrder`s.
 */
const perCore = (k: number): number => Math.max(1, Math.round(availableParallelism() * k));

/**
 * Hang guards of the heavy projects. Five files share two cores there, each spawning installs,
 * child test runs or whole-dataset runs, so one test's wall time is a multiple of its quiet one
 * and moves with the runner: the HumanEval run through the Python runner took 83 s on a quiet
 * machine, 121 s in a local CI run and over 180 s on a slower CI runner, where the guard failed
 * it. Ten minutes still stops a real hang well inside CI's time.
 */
const HEAVY_HANG_GUARDS = { testTimeout: 600_000, hookTimeout: 600_000 } as const;

export default defineConfig({
  test: {
    // Hang guards, not verdicts: a test that spawns a host project or a sandbox can take several
    // times its quiet-machine time on a busy runner (CI reruns the quick suite beside two busy
    // loops), and no outcome here depends on wall time.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    // Inert unless CROSSCHECK_CPU_LOG names a file: then each test file logs its CPU time there.
    setupFiles: ['./test/helpers/cpu-meter.ts'],
    // Vitest's default leaves one core idle (cores − 1); most files wait on child processes.
    maxWorkers: perCore(1),
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: [...ALL_TESTS],
          exclude: [...NOT_TESTS, ...NOT_QUICK],
          // Three workers on two cores, each running its files one after another in one
          // process (isolate: false), so Vitest's start-up and the import of src/ are paid once
          // per worker instead of once per file (about 1.2 s of CPU a file). Measured on two
          // quiet cores: a process per file, two at a time, 400 s of wall time and 486 s of
          // CPU; one process per worker, two workers 257 s and 281 s, three 257 s and 295 s,
          // five 273 s and 330 s. Three leave room for files that wait (child processes,
          // limits running out) on a busier machine. Every file cleans up what it starts
          // (pools, workers, servers, temp dirs) and sets no module state another file reads; a
          // file run alone, and the heavy projects, still get a process of their own.
          maxWorkers: perCore(1.5),
          // Runs before the other two in `npm run test:all`, which share a worker count.
          sequence: { groupOrder: 0 },
          isolate: false,
        },
      },
      {
        extends: true,
        // One file at a time when several would run `npm pack`, whose prepack rebuilds dist/ in
        // place; five at a time on two cores when CI packed once beforehand (CROSSCHECK_TARBALL,
        // test/helpers/pack.ts): most heavy files wait on npm installs and child Vitest or Jest
        // runs. At three, a fresh-clone CI run kept 2.8 files running on average and used about
        // one core (687 s of CPU in 698 s).
        test: {
          name: 'heavy',
          include: [...HEAVY_FILES],
          exclude: [...NOT_TESTS],
          maxWorkers: process.env.CROSSCHECK_TARBALL ? perCore(2.5) : 1,
          sequence: { groupOrder: 1 },
          ...HEAVY_HANG_GUARDS,
        },
      },
      {
        extends: true,
        test: {
          name: 'os-boundary',
          include: [...OS_BOUNDARY_FILES],
          exclude: [...NOT_TESTS],
          env: { CROSSCHECK_ISOLATION: 'os' },
          // Beside the heavy files, in the same worker count.
          maxWorkers: process.env.CROSSCHECK_TARBALL ? perCore(2.5) : 1,
          sequence: { groupOrder: 1 },
          ...HEAVY_HANG_GUARDS,
        },
      },
    ],
  },
});
