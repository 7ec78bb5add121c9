import { readFileSync, statSync } from 'node:fs';
import { mergeBenchReports } from '../bench/index.ts';
import { CrosscheckError, describeValue, ioError } from '../errors/index.ts';
import {
  type CrosscheckReport,
  mergeReports,
  missingShards,
  parseReport,
  renderJson,
  renderReport,
  resolveFormat,
  writeFileAtomic,
} from '../report/index.ts';
import { flagNumber } from './flag-number.ts';
import { parseFlags } from './parse-flags.ts';

/** Usage of `crosscheck report`. */
export const REPORT_USAGE = `Usage:
  crosscheck report <report.json...> [--format terminal|markdown|html|json] [--out <file>]
      Render saved reports (several are merged first). Default: terminal to stdout.
  crosscheck report merge <report.json...> --out <file>
      Merge shard reports into one JSON report: a test run's (vitest/jest --shard=i/k), or
      crosscheck bench --shard i/k reports into the report of the unsharded run.

Options:
  --format <f>   terminal, markdown, html or json (default terminal)
  --out <file>   write to a file (atomically) instead of stdout
  --width <n>    terminal width (default: the terminal's, else 100)
  --no-color     no colours in terminal output (NO_COLOR also works)
  -h, --help     this help
`;

/** What a subcommand does with the process, so tests can run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly readFile: (path: string) => string;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  readFile: (path) => {
    // Checked before reading: a multi-gigabyte file would fail inside readFileSync itself.
    const size = statSync(path).size;
    if (size > MAX_REPORT_CHARS) {
      throw new CrosscheckError(
        'INVALID_INPUT',
        `crosscheck report: ${path} is ${size} bytes, more than a report may hold (${MAX_REPORT_CHARS}).`,
      );
    }
    return readFileSync(path, 'utf8');
  },
};

/** Largest report file read (characters): far past any real suite, short of exhausting memory. */
const MAX_REPORT_CHARS = 256 * 1024 * 1024;

const load = (paths: readonly string[], io: CliIo, where: string): CrosscheckReport[] => {
  if (paths.length === 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected at least one report file, got none. Pass the crosscheck-report.json files.`,
      { where },
    );
  }
  return paths.map((path) => {
    let text: string;
    try {
      text = io.readFile(path);
    } catch (error) {
      throw ioError(error, 'read', path, where);
    }
    // A report is input like any other: bounded before it is parsed, every record checked after.
    if (text.length > MAX_REPORT_CHARS) {
      throw new CrosscheckError(
        'INVALID_INPUT',
        `${where}: ${path} is ${text.length} characters, more than the ${MAX_REPORT_CHARS} a report may hold; is it a crosscheck-report.json?`,
        { where },
      );
    }
    return parseReport(text, path);
  });
};

/** `crosscheck report ...`: returns the exit code. */
export const reportCommand = (args: readonly string[], io: CliIo = defaultIo): number => {
  const { values, positionals } = parseFlags('crosscheck report', {
    args: [...args],
    allowPositionals: true,
    options: {
      format: { type: 'string', short: 'f' },
      out: { type: 'string', short: 'o' },
      width: { type: 'string' },
      color: { type: 'boolean' },
      'no-color': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(REPORT_USAGE);
    return 0;
  }
  if (positionals[0] === 'merge') {
    const where = 'crosscheck report merge';
    if (values.out === undefined) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: --out is required (the merged JSON report's path). Example: crosscheck report merge shard-*.json --out crosscheck-report.json`,
        { where },
      );
    }
    if (values.format !== undefined && values.format !== 'json') {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: merge writes JSON; --format ${describeValue(values.format)} is not supported. Render the merged file with \`crosscheck report <file> --format ...\`.`,
        { where },
      );
    }
    const files = positionals.slice(1);
    const reports = load(files, io, where);
    if (reports.some((r) => r.bench !== undefined)) {
      const bench = mergeBenchReports(reports, files);
      writeFileAtomic(values.out, renderJson(bench.report));
      const gaps = [
        ...(bench.missingShards.length
          ? [`shard${bench.missingShards.length === 1 ? '' : 's'} ${bench.missingShards.join(', ')} missing`]
          : []),
        ...(bench.missingPairs > 0 ? [`${bench.missingPairs} pairs of the given shards unfinished`] : []),
      ];
      io.stdout(
        `crosscheck: merged ${files.length} bench report${files.length === 1 ? '' : 's'} (${bench.pairs} pairs, ${bench.report.records.length} records) into ${values.out}${gaps.length ? `; INCOMPLETE: ${gaps.join('; ')}` : ''}\n`,
      );
      // The merged report is written either way; a CI job should still see that work is missing.
      return gaps.length ? 1 : 0;
    }
    const merged = mergeReports(reports, files);
    writeFileAtomic(values.out, renderJson(merged));
    const missing = missingShards(merged.run.shard);
    const count = merged.run.shard?.count;
    io.stdout(
      `crosscheck: merged ${files.length} report${files.length === 1 ? '' : 's'} (${merged.records.length} records) into ${values.out}` +
        (missing.length > 0
          ? `; INCOMPLETE: shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`
          : '') +
        '\n',
    );
    // As for bench shards: the merged report is written, and a CI job still sees checks missing.
    return missing.length > 0 ? 1 : 0;
  }
  const where = 'crosscheck report';
  const format = resolveFormat(values.format ?? 'terminal', `${where} --format`);
  const width = flagNumber(where, 'width', values.width as string | undefined, 100);
  if (width !== undefined && !(Number.isInteger(width) && width > 0)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: --width must be a positive integer, got ${describeValue(values.width)}.`,
      { where },
    );
  }
  const reports = load(positionals, io, where);
  const report =
    reports.length === 1
      ? (reports[0] as CrosscheckReport)
      : reports.some((r) => r.bench !== undefined)
        ? mergeBenchReports(reports, positionals).report
        : mergeReports(reports, positionals);
  const color = values['no-color'] ? false : values.out !== undefined ? false : values.color;
  const text = renderReport(report, format, {
    ...(color === undefined ? {} : { color }),
    ...(width === undefined ? {} : { width }),
  });
  if (values.out !== undefined) {
    writeFileAtomic(values.out, text);
    io.stdout(`crosscheck: wrote ${format} report to ${values.out}\n`);
  } else {
    io.stdout(text);
  }
  return 0;
};
