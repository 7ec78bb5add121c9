import type { Reporter as JestReporter } from '@jest/reporters';
import type { Config } from '@jest/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { Reporter as VitestReporter } from 'vitest/node';
import type CrosscheckJestReporter from '../../reporter/jest.ts';
import type { JestReporterOptions } from '../../reporter/jest.ts';
import type CrosscheckReporter from '../../reporter/vitest.ts';
import type { ReporterOptions } from '../../reporter/vitest.ts';

/** The reporters fit the frameworks' own reporter types (checked by tsc, which runs on tests). */
describe('reporter types', () => {
  it('should be a Vitest Reporter constructed from typed options', () => {
    expectTypeOf<CrosscheckReporter>().toMatchTypeOf<VitestReporter>();
    expectTypeOf<ConstructorParameters<typeof CrosscheckReporter>>().toEqualTypeOf<
      [options?: ReporterOptions]
    >();
  });

  it('should be a Jest Reporter constructed as Jest constructs reporters (global config, options)', () => {
    expectTypeOf<CrosscheckJestReporter>().toMatchTypeOf<JestReporter>();
    expectTypeOf<Config.GlobalConfig>().toMatchTypeOf<
      ConstructorParameters<typeof CrosscheckJestReporter>[0]
    >();
    expectTypeOf<{ html: 'r.html'; recordsDir: '/tmp' }>().toMatchTypeOf<JestReporterOptions>();
  });
});
