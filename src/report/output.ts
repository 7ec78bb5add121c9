import { isAbsolute, join } from 'node:path';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import { renderHtml } from './render-html.ts';
import { REPORT_FILE, renderJson } from './render-json.ts';
import { renderMarkdown } from './render-markdown.ts';
import { renderTerminal, renderWritten, type TerminalOptions } from './render-terminal.ts';
import type { CrosscheckReport, ShardInfo } from './report.ts';
import { appendStepSummary, writeFileAtomic } from './write.ts';

/** Formats a report renders to. @public */
export type ReportFormat = 'terminal' | 'markdown' | 'html' | 'json';

/** What each format is; the `satisfies` makes a new format a compile error until it is listed. @public */
export const REPORT_FORMATS = {
  terminal: 'text for a terminal (colours unless NO_COLOR)',
  markdown: 'GitHub-flavoured Markdown',
  html: 'one self-contained HTML page with SVG plots',
  json: 'the crosscheck-report.json schema',
} as const satisfies Record<ReportFormat, string>;

const RENDERERS = {
  terminal: renderTerminal,
  markdown: (r) => renderMarkdown(r),
  html: (r) => renderHtml(r),
  json: (r) => renderJson(r),
} satisfies Record<ReportFormat, (report: CrosscheckReport, options?: TerminalOptions) => string>;

/** Checks a format name; throws a `CrosscheckError` naming the option and the formats. @public */
export const resolveFormat = (raw: unknown, where: string): ReportFormat => {
  if (typeof raw === 'string' && Object.hasOwn(REPORT_FORMATS, raw)) return raw as ReportFormat;
  throw new CrosscheckError(
    'INVALID_OPTION',
    `${where}: unknown format ${describeValue(raw)}; expected one of ${Object.keys(REPORT_FORMATS).join(', ')}.`,
    { where },
  );
};

/** Renders a report in one format. @public */
export const renderReport = (
  report: CrosscheckReport,
  format: ReportFormat,
  options: TerminalOptions = {},
): string => RENDERERS[format](report, options);

/** Options of the Vitest and Jest reporters. Relative paths resolve against the project root. @public */
export interface ReporterOptions {
  /**
   * Print the summary after the run.
   * @defaultValue true
   */
  readonly terminal?: boolean;
  /**
   * Path of the JSON report, or false for none.
   * @defaultValue `crosscheck-report.json`; `crosscheck-report.shard-<i>-of-<k>.json` in a shard
   */
  readonly json?: string | false;
  /**
   * Path of a Markdown report, or false for none.
   * @defaultValue false
   */
  readonly markdown?: string | false;
  /**
   * Path of the HTML report, or false for none.
   * @defaultValue false
   */
  readonly html?: string | false;
  /**
   * Append the Markdown summary to `$GITHUB_STEP_SUMMARY` when that variable is set.
   * @defaultValue true
   */
  readonly githubSummary?: boolean;
  /** Colours of the terminal summary. @defaultValue picocolors' detection (honours NO_COLOR) */
  readonly color?: boolean;
  /** Width of the terminal summary. @defaultValue the terminal's, else 100 */
  readonly width?: number;
}

/** {@link ReporterOptions} with defaults applied. @internal */
export interface ResolvedReporterOptions {
  readonly terminal: boolean;
  readonly json: string | false | undefined;
  readonly markdown: string | false;
  readonly html: string | false;
  readonly githubSummary: boolean;
  readonly terminalOptions: TerminalOptions;
}

/** The keys of {@link ReporterOptions}, shared by both reporters. @internal */
export const REPORTER_KEYS = knownKeys<ReporterOptions>({
  terminal: true,
  json: true,
  markdown: true,
  html: true,
  githubSummary: true,
  color: true,
  width: true,
});

/** Validates reporter options (`where` names the reporter). @internal */
export const resolveReporterOptions = (raw: unknown, where: string): ResolvedReporterOptions => {
  const o = (raw ?? {}) as Record<string, unknown>;
  const bad = (key: string, rule: string) =>
    new CrosscheckError(
      'INVALID_OPTION',
      `${where}: option \`${key}\` ${rule}, got ${describeValue(o[key])}.`,
      {
        where: `${where} { ${key} }`,
      },
    );
  if (typeof o !== 'object' || Array.isArray(o)) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: options must be an object, got ${describeValue(raw)}.`,
      {
        where,
      },
    );
  }
  checkKeys({ where }, o, REPORTER_KEYS);
  const flag = (key: string, fallback: boolean): boolean => {
    if (o[key] === undefined) return fallback;
    if (typeof o[key] !== 'boolean') throw bad(key, 'must be a boolean');
    return o[key];
  };
  const path = (key: string, fallback: string | false | undefined): string | false | undefined => {
    if (o[key] === undefined) return fallback;
    if (o[key] === false || (typeof o[key] === 'string' && o[key] !== '')) return o[key] as string | false;
    throw bad(key, 'must be a file path or false');
  };
  if (o.width !== undefined && !(Number.isInteger(o.width) && (o.width as number) > 0)) {
    throw bad('width', 'must be a positive integer');
  }
  const color = o.color === undefined ? undefined : flag('color', false);
  return {
    terminal: flag('terminal', true),
    json: path('json', undefined),
    markdown: path('markdown', false) ?? false,
    html: path('html', false) ?? false,
    githubSummary: flag('githubSummary', true),
    terminalOptions: {
      ...(color === undefined ? {} : { color }),
      ...(o.width === undefined ? {} : { width: o.width as number }),
    },
  };
};

/** Default JSON path: one file per shard, so shards run in one checkout do not overwrite each other. @internal */
export const defaultJsonPath = (shard: ShardInfo | null): string =>
  shard === null || shard.indexes.length !== 1
    ? REPORT_FILE
    : `crosscheck-report.shard-${shard.indexes[0]}-of-${shard.count}.json`;

/**
 * Writes every output the options ask for; `print` receives the terminal summary, followed by
 * where the files went.
 * @returns the files written.
 * @internal
 */
export const writeOutputs = (
  report: CrosscheckReport,
  options: ResolvedReporterOptions,
  root: string,
  print: (text: string) => void,
): string[] => {
  const at = (p: string) => (isAbsolute(p) ? p : join(root, p));
  const written: string[] = [];
  const json = options.json === undefined ? defaultJsonPath(report.run.shard) : options.json;
  if (json !== false) {
    writeFileAtomic(at(json), renderJson(report));
    written.push(at(json));
  }
  const markdown = options.markdown !== false || options.githubSummary ? renderMarkdown(report) : '';
  if (options.markdown !== false) {
    writeFileAtomic(at(options.markdown), markdown);
    written.push(at(options.markdown));
  }
  if (options.html !== false) {
    writeFileAtomic(at(options.html), renderHtml(report));
    written.push(at(options.html));
  }
  if (options.githubSummary) appendStepSummary(markdown);
  if (options.terminal) {
    const where = written.length ? `\n${renderWritten(written, options.terminalOptions)}` : '';
    print(`${renderTerminal(report, options.terminalOptions)}${where}`);
  }
  return written;
};
