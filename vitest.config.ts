import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Jest projects that test/matchers/jest-cjs.test.ts runs with Jest, not Vitest.
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
