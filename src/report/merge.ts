import { CrosscheckError } from '../errors/index.ts';
import { type CrosscheckReport, createReport, parseReport, type ShardInfo } from './report.ts';

const where = 'mergeReports(reports)';

const fail = (message: string): CrosscheckError =>
  new CrosscheckError('INVALID_INPUT', `${where}: ${message}`, { where });

const mergeShards = (reports: readonly CrosscheckReport[], sources: readonly string[]): ShardInfo | null => {
  const sharded = reports.filter((r) => r.run.shard !== null);
  if (sharded.length === 0) return null;
  if (sharded.length !== reports.length) {
    const plain = sources[reports.findIndex((r) => r.run.shard === null)];
    throw fail(
      `${plain} is an unsharded report but others are shards. Merge the shards of one run (\`--shard=i/k\` for every i), or unsharded reports only.`,
    );
  }
  const count = (sharded[0] as CrosscheckReport).run.shard?.count as number;
  const seen = new Map<number, string>();
  reports.forEach((r, i) => {
    const shard = r.run.shard as ShardInfo;
    const source = sources[i] as string;
    if (shard.count !== count) {
      throw fail(
        `${source} is a shard of ${shard.count} but ${sources[0]} is a shard of ${count}. Merge the shards of one run.`,
      );
    }
    for (const index of shard.indexes) {
      const other = seen.get(index);
      if (other !== undefined) {
        throw fail(
          `shard ${index}/${count} is in both ${other} and ${source}; merging it twice would count its checks twice. Pass each shard once.`,
        );
      }
      seen.set(index, source);
    }
  });
  return { count, indexes: [...seen.keys()].sort((a, b) => a - b) };
};

/**
 * Merges shard reports (or reports of separate suites) into one. The records are pooled and the
 * summary recomputed, so merging the shards of a run gives the summary of the unsharded run.
 * Refuses the same shard twice and shards of different splits.
 * @param sources - names of the reports (file paths) for error messages.
 * @public
 */
export const mergeReports = (
  reports: readonly CrosscheckReport[],
  sources: readonly string[] = reports.map((_, i) => `reports[${i}]`),
): CrosscheckReport => {
  if (reports.length === 0)
    throw fail('expected at least one report, got none. Pass the shard reports to merge.');
  // Reports built in code get the same checks as files: shard counts bounded, records whole.
  reports = reports.map((r, i) => parseReport(r, sources[i]));
  const bench = reports.findIndex((r) => r.bench !== undefined);
  if (bench >= 0)
    throw fail(
      `${sources[bench]} is a crosscheck bench report; its pairs and figures merge with mergeBenchReports (\`crosscheck report merge\` picks it for bench shards).`,
    );
  const shard = mergeShards(reports, sources);
  const frameworks = [...new Set(reports.flatMap((r) => r.run.framework.split('+')))].sort();
  const told = reports.filter((r) => r.run.unrecordedFailures !== undefined);
  return createReport(
    reports.flatMap((r) => r.records),
    {
      framework: frameworks.join('+'),
      shard,
      ...(told.length === 0
        ? {}
        : { unrecordedFailures: told.flatMap((r) => r.run.unrecordedFailures ?? []) }),
    },
  );
};

/** Shards a merged report still lacks, e.g. `[2]` for shards 1 and 3 of 3. @public */
export const missingShards = (shard: ShardInfo | null): number[] =>
  shard === null
    ? []
    : Array.from({ length: shard.count }, (_, i) => i + 1).filter((i) => !shard.indexes.includes(i));
