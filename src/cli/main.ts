#!/usr/bin/env node
/** The `crosscheck` command. */
import { isCrosscheckError } from '../errors/index.ts';
import { REPORT_USAGE, reportCommand } from './report.ts';

const USAGE = `Usage: crosscheck <command>

Commands:
  report   render saved reports, or merge shard reports (crosscheck report --help)
`;

const main = (argv: readonly string[]): number => {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'report') return reportCommand(rest);
  process.stderr.write(
    `crosscheck: unknown command ${JSON.stringify(command)}; run \`crosscheck --help\`.\n`,
  );
  return 2;
};

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // Misuse (bad file, unknown format, unknown option) is a message, not a stack trace.
  const known = isCrosscheckError(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  if (!known) throw error;
  process.stderr.write(`${(error as Error).message}\n${isCrosscheckError(error) ? '' : `\n${REPORT_USAGE}`}`);
  process.exitCode = 2;
}
