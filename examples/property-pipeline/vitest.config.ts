import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each property runs the model's samples of the step (replayed from llm-cache/) in the
    // sandbox, which the first test of a file also starts: a busy CI runner needs far more than
    // Vitest's 5 s default, so allow a minute.
    testTimeout: 60_000,
    reporters: [
      'default',
      // Property runs of the bridge appear in the summary as their own rows.
      ['crosscheck/vitest-reporter', { json: '.crosscheck/report.json', html: '.crosscheck/report.html' }],
    ],
  },
});
