import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every check calls the pipeline's samples, replayed from llm-cache/; a busy CI runner needs
    // more than Vitest's 5 s default, so allow a minute.
    testTimeout: 60_000,
    reporters: ['default', ['crosscheck/vitest-reporter', { json: '.crosscheck/report.json' }]],
  },
});
