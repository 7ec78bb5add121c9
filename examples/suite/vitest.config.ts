import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The example suite `npm run demo` runs: the default reporter, then the crosscheck summary, with
 * the JSON and HTML reports under .crosscheck/ (git ignores it).
 *
 * In your own project, leave out `resolve.alias`: `crosscheck`, `crosscheck/vitest` and
 * `crosscheck/vitest-reporter` come from the installed package. Here they map to this
 * repository's source, so the example runs without a build.
 */
const source = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^crosscheck$/, replacement: source('src/index.ts') },
      { find: /^crosscheck\/vitest$/, replacement: source('matchers/vitest.ts') },
      { find: /^crosscheck\/vitest-reporter$/, replacement: source('reporter/vitest.ts') },
    ],
  },
  test: {
    include: ['*.test.ts'],
    // A check runs its candidates in a sandbox (a confined child process with worker threads);
    // the first one in a process also starts it. On a busy machine that alone can take longer
    // than Vitest's 5 s default, so allow a minute, as for any test that runs candidates.
    testTimeout: 60_000,
    // The three files share one worker process (per core), so the sandbox starts once per
    // process, not once per file. Candidates stay isolated: each runs in its own sandbox context.
    isolate: false,
    reporters: [
      'default',
      ['crosscheck/vitest-reporter', { json: '.crosscheck/report.json', html: '.crosscheck/report.html' }],
    ],
  },
});
