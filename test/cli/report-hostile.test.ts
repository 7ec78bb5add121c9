import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Checkpoint, type PairResult } from '../../src/bench/index.ts';
import { reportCommand } from '../../src/cli/report.ts';
import {
  createReport,
  mergeReports,
  parseReport,
  renderJson,
  writeFileAtomic,
} from '../../src/report/index.ts';
import { suiteRecords } from '../report/records.ts';
import { crosscheck } from '../reporter/helpers.ts';

/**
 * Hostile report files and a full disk: each ends in a typed CrosscheckError, and on the command
 * line in one line on stderr and a non-zero exit, never an out-of-memory abort, a TypeError from
 * a renderer or a raw stack trace.
 */
const work = mkdtempSync(join(tmpdir(), 'crosscheck-report-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const good = (): Record<string, unknown> =>
  JSON.parse(renderJson(createReport(suiteRecords(), { framework: 'vitest', shard: null })));

const file = (name: string, value: unknown): string => {
  const path = join(work, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

const runIn = (args: string[]) => {
  try {
    return reportCommand(args, { stdout: () => undefined, readFile: (p) => readFileSync(p, 'utf8') });
  } catch (error) {
    return error;
  }
};

const hostile: Array<[string, () => unknown]> = [
  [
    'a shard count of 1e9',
    () => ({ ...good(), run: { framework: 'vitest', shard: { count: 1e9, indexes: [1] } } }),
  ],
  [
    'a record without its test',
    () => {
      const r = good();
      const records = r.records as Record<string, unknown>[];
      delete records[0]?.test;
      return r;
    },
  ],
  [
    'a record whose data is null',
    () => {
      const r = good();
      (r.records as Record<string, unknown>[])[0]!.data = null;
      return r;
    },
  ],
  [
    'a record whose classes are a string',
    () => {
      const r = good();
      (r.records as Record<string, unknown>[])[0]!.classes = 'all';
      return r;
    },
  ],
  [
    'a witness whose outputs are missing',
    () => {
      const r = good();
      (r.records as Record<string, unknown>[])[0]!.witness = { reason: 'x', input: '[]', original: '[]' };
      return r;
    },
  ],
  ['a run that is null', () => ({ ...good(), run: null })],
];

describe('crosscheck report on hostile files', () => {
  it.each(hostile)('should refuse %s with a typed error naming the field', (_name, make) => {
    // Arrange
    const path = file(`${_name.replace(/\W+/g, '-')}.json`, make());

    // Act
    const render = runIn([path, '--format', 'markdown']);
    const merge = runIn(['merge', path, path, '--out', join(work, 'merged.json')]);

    // Assert
    for (const error of [render, merge]) {
      expect(error).toMatchObject({ name: 'CrosscheckError', code: 'INVALID_INPUT' });
    }
  });

  it('should refuse a report object built in code with a huge shard count in mergeReports', () => {
    // Arrange
    const report = { ...good(), run: { framework: 'vitest', shard: { count: 1e9, indexes: [1] } } };

    // Act
    const attempt = () => mergeReports([report as never]);

    // Assert
    expect(attempt).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('should still read every record the reporters write', () => {
    // Act
    const report = parseReport(good());

    // Assert
    expect(report.records).toHaveLength(suiteRecords().length);
  });

  it('should print one line and exit non-zero for a hostile report on the command line', async () => {
    // Arrange
    const path = file('cli-shard.json', hostile[0]![1]());

    // Act
    const result = await crosscheck(['report', 'merge', path, '--out', join(work, 'cli-merged.json')]);

    // Assert
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/run\.shard must be null or/);
  }, 180_000);
});

/** A 64 KiB tmpfs, for a real ENOSPC; null when this machine does not let us mount one. */
let full: string | null = null;
beforeAll(() => {
  const dir = join(work, 'tiny');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    full = dir;
  } catch {
    full = null;
  }
});
afterAll(() => {
  if (full !== null) execFileSync('umount', [full], { stdio: 'ignore' });
});

describe('writes to a full disk', () => {
  it('should turn ENOSPC from an atomic report write into a typed IO_ERROR naming the path', (ctx) => {
    if (full === null) return ctx.skip();
    // Arrange
    const path = join(full, 'report.html');

    // Act
    let error: unknown;
    try {
      writeFileAtomic(path, 'x'.repeat(1024 * 1024));
    } catch (e) {
      error = e;
    }

    // Assert
    expect(error).toMatchObject({ name: 'CrosscheckError', code: 'IO_ERROR' });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/ENOSPC, the disk is full/);
  });

  it('should turn ENOSPC from a benchmark checkpoint write into a typed IO_ERROR', (ctx) => {
    if (full === null) return ctx.skip();
    // Arrange
    const checkpoint = Checkpoint.open(join(full, 'bench', 'checkpoint.jsonl'), { seed: 1 });
    const pair = {
      model: 'm',
      task: 't',
      status: 'failed',
      reason: 'x'.repeat(256 * 1024),
    } as unknown as PairResult;

    // Act
    let error: unknown;
    try {
      checkpoint.add(pair);
    } catch (e) {
      error = e;
    }

    // Assert
    expect(error).toMatchObject({ name: 'CrosscheckError', code: 'IO_ERROR' });
    expect((error as Error).message).toMatch(/checkpoint\.jsonl: ENOSPC/);
  });

  it('should print one line without a stack trace and exit non-zero when the CLI hits a full disk', async (ctx) => {
    if (full === null) return ctx.skip();
    // Arrange: a report whose HTML rendering is larger than the disk.
    const records = Array.from({ length: 40 }, () => suiteRecords()).flat();
    const path = file('big.json', renderJson(createReport(records, { framework: 'vitest', shard: null })));

    // Act
    const result = await crosscheck(['report', path, '--format', 'html', '--out', join(full, 'big.html')]);

    // Assert
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/ENOSPC, the disk is full/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 180_000);
});
