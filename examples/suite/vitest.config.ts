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
    reporters: [
      'default',
      ['crosscheck/vitest-reporter', { json: '.crosscheck/report.json', html: '.crosscheck/report.html' }],
    ],
  },
});
