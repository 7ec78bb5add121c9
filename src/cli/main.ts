#!/usr/bin/env node
/**
 * The `crosscheck` command: `bench`, `sample`, `report` and `llm-cache` over the engine. This
 * folder is the only place that speaks in `--flags`; it turns them into the engine's options.
 * @packageDocumentation
 */
import { isCrosscheckError, nearestKey } from '../errors/index.ts';
import { crosscheckVersion } from '../report/index.ts';
import { neutralizeControls } from '../values/index.ts';
import { BENCH_USAGE, runBenchCommand } from './bench.ts';
import { runReviewBenchCommand } from './bench-review.ts';
import { runLlmCacheCommand } from './llm-cache.ts';
import { REPORT_USAGE, reportCommand } from './report.ts';
import { runSampleCommand } from './sample.ts';

const USAGE = `Usage: crosscheck <command>

Options:
  --version, -v   print the version

Commands:
  report   render saved reports, or merge shard reports (crosscheck report --help)
  bench    measure models on a dataset directory without oracles (crosscheck bench --help)
           bench review: grounded review against references (crosscheck bench review --help)
  sample   draw n samples per task from a model into a bench-format directory (crosscheck sample --help)
  llm-cache verify <dir>   check a committed LLM cache directory (crosscheck llm-cache --help)
`;

const main = (argv: readonly string[]): number | Promise<number> => {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${crosscheckVersion()}\n`);
    return 0;
  }
  if (command === 'report') return reportCommand(rest);
  if (command === 'bench' && rest[0] === 'review') return runReviewBenchCommand(rest.slice(1));
  if (command === 'bench') return runBenchCommand(rest);
  if (command === 'sample') return runSampleCommand(rest);
  if (command === 'llm-cache') return runLlmCacheCommand(rest);
  const near = nearestKey(command, ['report', 'bench', 'sample', 'llm-cache']);
  process.stderr.write(
    `crosscheck: unknown command ${JSON.stringify(command)}${near ? `; did you mean \`${near}\`?` : '.'} Run \`crosscheck --help\`.\n`,
  );
  return 2;
};

const fail = (error: unknown, usage: string): void => {
  // Misuse (bad file, unknown format, unknown option) is a message, not a stack trace.
  const known = isCrosscheckError(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  if (!known) throw error;
  process.stderr.write(
    `${neutralizeControls((error as Error).message, { newlines: true })}\n${isCrosscheckError(error) ? '' : `\n${usage}`}`,
  );
  process.exitCode = 2;
};

// A write past the file-size limit (ulimit -f) raises SIGXFSZ, whose default action kills the
// process with no message. Node 20 starts with it ignored; the handler keeps it so whatever the
// runtime or an embedder did, and the write then fails with EFBIG, which every write of the CLI
// reports as a typed error that says what to fix (and what was kept).
process.on('SIGXFSZ', () => {});

const usage = process.argv[2] === 'bench' ? BENCH_USAGE : REPORT_USAGE;
try {
  Promise.resolve(main(process.argv.slice(2))).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => fail(error, usage),
  );
} catch (error) {
  fail(error, usage);
}
