import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    'fast-check': 'src/fast-check/index.ts',
    vitest: 'matchers/vitest.ts',
    jest: 'matchers/jest.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: false,
});
