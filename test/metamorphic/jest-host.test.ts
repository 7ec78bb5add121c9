import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/report/index.ts';
import { installPackage, spawnJest } from '../helpers/spawn-host.ts';

/**
 * `toSatisfyRelation` in a real Jest run (a spawned process on a fixture project, the package
 * installed as a user gets it): passes and fails as stated, shows both calls of the shrunk
 * violation, and writes `property` records with each candidate's verdict for the reporter.
 */

const project = resolve(import.meta.dirname, '..', 'fixtures', 'relation-jest');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-relation-jest-'));

describe('toSatisfyRelation in Jest', () => {
  beforeAll(async () => {
    await installPackage(project, { '.': 'src/index.ts', './jest': 'matchers/jest.ts' });
  });

  it('should pass and fail as stated, with both calls in the failure and a record per assertion', async () => {
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
      ['passes: the sum keeps the permutation invariance', 'passed'],
      ['fails: the weighted sum does not', 'failed'],
      ['passes: .not on the weighted sum', 'passed'],
    ]);
    const failure = tests[1]!.failureMessages[0]!;
    expect(failure).toContain('violated by weightedSum');
    expect(failure).toMatch(
      /weightedSum on \[\[-?\d+,-?\d+\]\] → -?\d+\n {2}weightedSum on \[\[-?\d+,-?\d+\]\] → -?\d+/,
    );
    const records = readdirSync(recordsDir).flatMap((f) =>
      readFileSync(join(recordsDir, f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => parseRecord(line)),
    );
    expect(records.map((r) => [r.kind, r.verdict, r.test.negated])).toEqual([
      ['property', 'pass', false],
      ['property', 'fail', false],
      ['property', 'pass', true],
    ]);
    expect(records[1]!.data).toMatchObject({
      property: 'toSatisfyRelation: invariant under reordering argument 0',
      outcome: 'falsified',
      candidates: [
        { label: 'sum', verdict: 'held' },
        { label: 'weightedSum', verdict: 'violated' },
      ],
    });
    expect(records[1]!.witness?.reason).toBe('relation violated');
  });
});
