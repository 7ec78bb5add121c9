import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/report/index.ts';
import { installPackage, spawnJest } from '../helpers/spawn-host.ts';

/**
 * `toRankModels` in a real Jest run (a spawned process on a fixture project, the package
 * installed as a user gets it): passes where every stated pair is separated, fails listing the
 * unsupported pair, and writes an `order` record for the reporter.
 */

const project = resolve(import.meta.dirname, '..', 'fixtures', 'rank-models-jest');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-rank-models-jest-'));

describe('toRankModels in Jest', () => {
  beforeAll(async () => {
    await installPackage(project, { '.': 'src/index.ts', './jest': 'matchers/jest.ts' });
  });

  it('should pass and fail as stated, with the unsupported pair in the failure output and the records', async () => {
    // Arrange
    const recordsDir = mkdtempSync(join(work, 'records-'));
    const resultFile = join(work, 'result.json');
    // Act
    const result = await spawnJest(join(project, 'jest.config.mjs'), {
      args: ['--json', '--outputFile', resultFile],
      env: { CROSSCHECK_RECORDS_DIR: recordsDir },
    });
    // Assert
    const report = JSON.parse(readFileSync(resultFile, 'utf8')) as {
      testResults: Array<{
        assertionResults: Array<{ title: string; status: string; failureMessages: string[] }>;
      }>;
    };
    const tests = report.testResults.flatMap((f) => f.assertionResults);
    expect(result.exitCode, result.all).toBe(1);
    expect(tests.map((t) => [t.title, t.status])).toEqual([
      ['passes: strong above both', 'passed'],
      ['fails: weak above weaker is not supported', 'failed'],
    ]);
    const failure = tests[1]!.failureMessages[0]!;
    expect(failure).toContain('1 of 3 stated pairs not supported');
    expect(failure).toMatch(/Unsupported: +weak above weaker: not separated/);
    const files = readdirSync(recordsDir);
    const records = files.flatMap((f) =>
      readFileSync(join(recordsDir, f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => parseRecord(line)),
    );
    expect(records.map((r) => [r.kind, r.verdict])).toEqual([
      ['order', 'pass'],
      ['order', 'pass'],
      ['order', 'fail'],
    ]);
    expect(records[2]!.data).toMatchObject({
      metric: 'incoherence',
      confidence: 0.95,
      stated: ['strong', 'weak', 'weaker'],
      unsupported: [{ above: 'weak', below: 'weaker' }],
    });
  });
});
