import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import CrosscheckJestReporter from '../../reporter/jest.ts';
import { renderTerminal } from '../../src/report/index.ts';
import { PLAIN_ENV, spawnVitest } from '../helpers/spawn-host.ts';
import { fixtures, summaryText } from './helpers.ts';

/**
 * A test that failed or timed out without writing a record still counts in the crosscheck
 * summary: Vitest saying "2 failed" above "1 check · 0 failed" would hide them.
 */

describe('failed tests without a record', () => {
  it('should be counted and named in the Vitest summary', async () => {
    // Act: a real Vitest run of a suite where one test times out and one throws.
    const result = await spawnVitest(join(fixtures, 'unrecorded-vitest'), { env: { ...PLAIN_ENV } });
    // Assert
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).toContain('2 failed | 1 passed (3)');
    const summary = summaryText(result.stdout);
    expect(summary).toContain('1 check · 0 failed');
    expect(summary).toContain(
      '2 failed tests without a check record (times out before its check runs; throws before its check runs)',
    );
  }, 180_000);

  it('should be counted by the Jest reporter from the aggregated results, matched by file and name', () => {
    // Arrange
    const dir = mkdtempSync(join(tmpdir(), 'crosscheck-unrecorded-'));
    const write = process.stdout.write;
    try {
      const reporter = new CrosscheckJestReporter({ rootDir: '/project' }, { recordsDir: dir });
      process.stdout.write = (() => true) as typeof process.stdout.write;
      // Act
      reporter.onRunComplete(undefined, {
        testResults: [
          {
            testFilePath: '/project/sum.test.js',
            testResults: [
              { status: 'passed', fullName: 'sum adds' },
              { status: 'failed', fullName: 'sum times out' },
            ],
          },
          {
            testFilePath: '/project/broken.test.js',
            testExecError: { message: 'SyntaxError' },
            testResults: [],
          },
        ],
      });
      process.stdout.write = write;
      // Assert
      expect(reporter.report?.run.unrecordedFailures).toEqual([
        { file: 'sum.test.js', name: 'sum times out' },
        { file: 'broken.test.js', name: '(the test file failed to run)' },
      ]);
      expect(renderTerminal(reporter.report!, { color: false, width: 200 })).toContain(
        '2 failed tests without a check record (sum times out; (the test file failed to run))',
      );
    } finally {
      process.stdout.write = write;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
