import { readFileSync } from 'node:fs';
import { CrosscheckError, describeValue, ioError } from '../errors/index.ts';
import { type CrosscheckReport, parseReport } from '../report/index.ts';
import { type BenchSection, readBenchSection } from './shard.ts';

/**
 * The typed reader benchmark authors use on a saved report (`crosscheck-report.json` of a test run,
 * or the report of `crosscheck bench`), and the per-model figures they rank. The file's shape is
 * published as `docs/report.schema.json`; this reader checks the same fields with messages that
 * name the field, so a damaged or hand-edited report never reaches a caller half-read.
 * @packageDocumentation
 */

/** A saved report, checked; `bench` is present (and checked) on reports of `crosscheck bench`. @public */
export interface ReadReport extends Omit<CrosscheckReport, 'bench'> {
  readonly bench: BenchSection | null;
}

/** The figure {@link perModel} averages: incoherence (no reference needed) or error against references. @public */
export type PerModelFigure = 'incoherence' | 'error';

const WHERE = 'readReport(source)';

/**
 * Reads and checks a saved report: a file path, its JSON text (a string starting with `{`), or an
 * already parsed value. The summary is recomputed from the records, and the bench section of a
 * `crosscheck bench` report is checked pair by pair and its figures recomputed, so what you read
 * always agrees with the records it came from.
 * @throws CrosscheckError `IO_ERROR` when the file cannot be read; `INVALID_INPUT` naming the
 * first field that does not fit the schema.
 * @public
 */
export const readReport = (source: string | object): ReadReport => {
  let input: unknown = source;
  let name = 'report';
  if (typeof source === 'string') {
    if (source.trimStart().startsWith('{')) input = source;
    else {
      try {
        input = readFileSync(source, 'utf8');
      } catch (error) {
        throw ioError(error, 'read the report', source, WHERE);
      }
      name = source;
    }
  } else if (typeof source !== 'object' || source === null) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${WHERE}: \`source\` must be a report file path, its JSON text or the parsed report, got ${describeValue(source)}.`,
      { where: WHERE },
    );
  }
  const report = parseReport(input, name);
  return { ...report, bench: readBenchSection(report, name) };
};

/**
 * Mean incoherence or mean error per model, as `{ model: figure }` (lower is better), ready for
 * `expect(perModel(a, 'incoherence')).toRankLike(perModel(b, 'incoherence'))`. For a bench
 * report: the mean over the model's pairs that ran (`bench.figures.models`; pairs not run count in
 * no mean). For a test-run report: the mean over the model's task points (`summary.ranking`).
 * Models without the figure (no reference for `error`) are left out.
 * @public
 */
export const perModel = (report: ReadReport, figure: PerModelFigure): Record<string, number> => {
  if (figure !== 'incoherence' && figure !== 'error')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `perModel(report, figure): \`figure\` must be 'incoherence' or 'error', got ${describeValue(figure)}.`,
      { where: 'perModel(report, figure)' },
    );
  const rows = report.bench?.figures.models ?? report.summary.ranking.models;
  const key = figure === 'incoherence' ? 'meanIncoherence' : 'meanError';
  const out: Record<string, number> = {};
  for (const row of rows) {
    const value = row[key];
    if (value !== null) out[row.model] = value;
  }
  return out;
};
