import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    reporters: [
      'default',
      // Property runs of the bridge appear in the summary as their own rows.
      ['crosscheck/vitest-reporter', { json: '.crosscheck/report.json', html: '.crosscheck/report.html' }],
    ],
  },
});
