/**
 * `crosscheck/vitest-reporter`: a Vitest 4 reporter that gathers the records the matchers leave in
 * `task.meta.crosscheck` and writes the suite summary (terminal, JSON, Markdown, HTML). Use it
 * beside the default reporter:
 *
 * ```ts
 * import CrosscheckReporter from 'crosscheck/vitest-reporter';
 * export default defineConfig({ test: { reporters: ['default', new CrosscheckReporter({ html: 'crosscheck.html' })] } });
 * ```
 * or by name: `reporters: ['default', ['crosscheck/vitest-reporter', { html: 'crosscheck.html' }]]`.
 * @packageDocumentation
 */
import { relative, sep } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import {
  type CrosscheckRecord,
  type CrosscheckReport,
  createReport,
  parseRecord,
  type ReporterOptions,
  relativeToRoot,
  resolveReporterOptions,
  type UnrecordedFailure,
  writeOutputs,
} from '../src/report/index.ts';

const NAME = 'crosscheck/vitest-reporter';

/** Records of the run's tests, in test order. */
const collect = (modules: ReadonlyArray<TestModule>, root: string): CrosscheckRecord[] =>
  modules.flatMap((module) =>
    [...module.children.allTests()].flatMap((test) => {
      // The matchers augment TaskMeta; the reporter must not import them, so read it untyped.
      const raw = (test.meta() as { crosscheck?: unknown }).crosscheck;
      return Array.isArray(raw) ? raw.map((r) => relativeToRoot(parseRecord(r), root)) : [];
    }),
  );

/**
 * Tests Vitest reports failed (an assertion, a timeout, a throw) that left no record: a check that
 * hung or threw before it could write one must still show in the summary.
 */
const unrecorded = (modules: ReadonlyArray<TestModule>, root: string): UnrecordedFailure[] =>
  modules.flatMap((module) =>
    [...module.children.allTests()].flatMap((test) => {
      const raw = (test.meta() as { crosscheck?: unknown }).crosscheck;
      if (test.result().state !== 'failed' || (Array.isArray(raw) && raw.length > 0)) return [];
      const file = relative(root, module.moduleId).split(sep).join('/');
      return [{ file: file.startsWith('..') ? module.moduleId : file, name: test.fullName }];
    }),
  );

/** The crosscheck suite summary for Vitest. @public */
export default class CrosscheckReporter implements Reporter {
  private readonly options;
  private vitest: Vitest | undefined;
  /** The report of the last run, for programmatic use. */
  report: CrosscheckReport | undefined;

  constructor(options: ReporterOptions = {}) {
    this.options = resolveReporterOptions(options, NAME);
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const config = this.vitest?.config;
    const root = config?.root ?? process.cwd();
    const shard = config?.shard ? { count: config.shard.count, indexes: [config.shard.index] } : null;
    this.report = createReport(collect(testModules, root), {
      framework: 'vitest',
      shard,
      unrecordedFailures: unrecorded(testModules, root),
    });
    const log = this.vitest
      ? (text: string) => this.vitest?.logger.log(text)
      : (text: string) => process.stdout.write(`${text}\n`);
    writeOutputs(this.report, this.options, root, log);
  }
}

export type { ReporterOptions } from '../src/report/index.ts';
