/**
 * Which test files run where. `npm test` runs the quick suite: every module's own tests, in a
 * few minutes. `npm run test:heavy` runs what must stay slow: real host projects installed from
 * the packed package, full dataset runs, the compiler over every host's types, and the hostile
 * corpora again under the OS boundary. CI runs both (`npm run test:all` does too); nothing is
 * dropped. test/suites.test.ts checks that the quick suite still reaches every source folder.
 */

/** Files of the heavy suite: each spawns whole projects, builds or installs, or replays a dataset. */
export const HEAVY_FILES = [
  // The guides and example projects, each installed from `npm pack` and run as a user would.
  'test/examples-projects.test.ts',
  // Jest host projects (CommonJS, ts-jest, babel-jest) installed from the packed package.
  'test/matchers/jest-cjs.test.ts',
  // Real Vitest and Jest runs of the host fixture projects.
  'test/matchers/hosts.test.ts',
  'test/reporter/jest.test.ts',
  'test/review/jest-host.test.ts',
  'test/metamorphic/jest-host.test.ts',
  'test/fast-check/property-records.test.ts',
  // The full HumanEval replay (2 models × 150 tasks) and the dataset-wide measurements.
  'test/llm/humaneval-replay.test.ts',
  'test/data/humaneval-measure.test.ts',
  'test/data/humaneval-python.test.ts',
  // The bench figures pinned on 10 HumanEval tasks × 3 models × 600 inputs (seed-for-seed):
  // a dataset run; the bench's mechanisms keep their quick tests in test/bench.
  'test/bench/pin.test.ts',
  // Three real Vitest runs of a host project with the crosscheck reporter (whole and two shards)
  // and its HTML report in Chromium; the reporter's own modules keep quick tests.
  'test/reporter/vitest.test.ts',
  // Holds one core with twelve spinning processes for several seconds, on purpose: beside the
  // quick suite's other files it would slow them all, and it needs the whole core to itself.
  'test/exec/busy-machine.test.ts',
  // More real host runs: the LLM cache's record-and-replay suite (three Vitest runs), toRankModels
  // in a Jest project installed from the package, the example suite through `npm run demo:suite`
  // (the demo runs it too), and the HTML report of a 400-task run in Chromium.
  'test/llm/vitest-suite.test.ts',
  'test/matchers/rank-models-jest.test.ts',
  'test/examples/suite.test.ts',
  'test/reporter/html-table.test.ts',
  // Grounded review on HumanEval programs from the shared data, the review bench four times over
  // and its CLI; the review's mechanisms keep their quick tests in test/review.
  'test/review/humaneval.test.ts',
  // A Vitest run inside the test: the triangulation bench test must fail under CI without its data.
  'test/triangulate/bench-cli-ci.test.ts',
  // docs/report.schema.json against a real Vitest run of every check kind and a real bench run,
  // and the HTML report of that run screenshotted in headless Chromium.
  'test/report/schema.test.ts',
  'test/reporter/screenshots.test.ts',
  // tsdown's build of dist/ and the type checks of every host entry.
  'test/build/dist.test.ts',
  'test/types/types.test.ts',
  // The matchers typed from a tsconfig "types" entry (setup-file users), against a fresh build.
  'test/types/setup-file-types.test.ts',
] as const;

/**
 * The hostile corpora and the boundary tests, run by the os-boundary project with
 * `CROSSCHECK_ISOLATION=os`, where a missing or broken bubblewrap fails (ISOLATION_UNAVAILABLE)
 * instead of falling back. The quick suite runs the ones that test a module's own behaviour
 * (the command backend, the isolation modes) under the default isolation as well.
 */
export const OS_BOUNDARY_FILES = [
  'test/exec/python-hostile.test.ts',
  'test/exec/command.test.ts',
  'test/exec/js-hostile.test.ts',
  'test/exec/host-bounds.test.ts',
  'test/exec/isolation-boundary.test.ts',
  'test/exec/isolation.test.ts',
  'test/exec/os-boundary.test.ts',
] as const;

/**
 * Of those, the ones only the os-boundary project runs: the OS boundary itself (escapes a root
 * host must refuse, the seccomp filter, setuid files) and the hostile corpora (100 s of the quick
 * suite's wall time, most of it waiting for hostile programs to hit their limits). Under the
 * default isolation, `auto`, a machine with bubblewrap would run them under the same boundary
 * twice; the modules they attack keep their quick tests (python.test.ts, js-pool.test.ts,
 * command.test.ts, isolation.test.ts).
 */
export const OS_BOUNDARY_ONLY = [
  'test/exec/os-boundary.test.ts',
  'test/exec/python-hostile.test.ts',
  'test/exec/js-hostile.test.ts',
  'test/exec/host-bounds.test.ts',
  'test/exec/isolation-boundary.test.ts',
] as const;

/** Files the quick suite leaves to the heavy command. */
export const NOT_QUICK = [...HEAVY_FILES, ...OS_BOUNDARY_ONLY] as const;

/** Every test file of the repository (fixtures are projects that tests run, not tests). */
export const ALL_TESTS = ['test/**/*.test.ts'] as const;

/** Never collected as tests: fixture projects run by the tests, and installed dependencies. */
export const NOT_TESTS = ['**/node_modules/**', 'test/fixtures/**'] as const;

/**
 * The files that run longest, longest first (a fresh-clone CI run's times): the sequencer
 * (test/helpers/sequencer.ts) starts them first, so that none is left to run alone at the end.
 */
export const LONGEST_FILES = [
  'test/data/humaneval-measure.test.ts',
  'test/data/humaneval-python.test.ts',
  'test/examples-projects.test.ts',
  'test/types/types.test.ts',
  'test/llm/humaneval-replay.test.ts',
  'test/exec/python-hostile.test.ts',
  'test/bench/pin.test.ts',
  'test/bench/bench.test.ts',
  'test/exec/js-sandbox-host.test.ts',
  'test/cli/bench-out.test.ts',
  'test/llm/cache.test.ts',
] as const;
