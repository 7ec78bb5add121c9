import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Sampling replays from llm-cache/; the checks run Python and sandboxed JS (the first check of
    // a file also starts the sandbox), so allow a minute, which a busy runner needs too.
    testTimeout: 60_000,
    reporters: [
      'default',
      // The summary after Vitest's own output, and the reports CI keeps as an artifact.
      ['crosscheck/vitest-reporter', { json: '.crosscheck/report.json', html: '.crosscheck/report.html' }],
    ],
  },
});
