import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/report/index.ts';
import { installPackage, spawnJest } from '../helpers/spawn-host.ts';

/** toPassGroundedReview in a real Jest run (native ESM), the scripted server started by the spec itself. */
const project = resolve(import.meta.dirname, '..', 'fixtures', 'jest-review');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-review-jest-'));

describe('toPassGroundedReview under Jest', () => {
  beforeAll(async () => {
    await installPackage(project, {
      '.': 'src/index.ts',
      './jest': 'matchers/jest.ts',
      './llm-testing': 'src/llm/testing/index.ts',
    });
  });

  it('should pass and fail as the judge says and append review records', async () => {
    const recordsDir = mkdtempSync(join(work, 'records-'));
    const resultFile = join(work, 'result.json');
    const result = await spawnJest(join(project, 'jest.config.mjs'), {
      args: ['--json', '--outputFile', resultFile],
      env: { CROSSCHECK_RECORDS_DIR: recordsDir },
    });
    const report = JSON.parse(readFileSync(resultFile, 'utf8')) as {
      testResults: Array<{
        assertionResults: Array<{ title: string; status: string; failureMessages: string[] }>;
      }>;
    };
    const tests = report.testResults.flatMap((f) => f.assertionResults);
    expect(result.exitCode, result.all).toBe(1);
    expect(tests.map((t) => [t.title, t.status])).toEqual([
      ['passes: grounded review of the correct median', 'passed'],
      ['fails: grounded review of the lower median', 'failed'],
    ]);
    const message = tests[1]!.failureMessages[0]!;
    expect(message).toContain('Rejected: S2 "even"');
    expect(message).toContain('Judge:   INCORRECT — "The median is 2.5."');
    expect(message).toContain('{ seed: 0, threshold: 0.8 }');
    const files = readdirSync(recordsDir);
    const records = files.flatMap((f) =>
      readFileSync(join(recordsDir, f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => parseRecord(line)),
    );
    expect(records.map((r) => [r.kind, r.verdict])).toEqual([
      ['review', 'pass'],
      ['review', 'fail'],
    ]);
    expect(records[1]!.llm?.live.calls).toBeGreaterThan(0);
  });
});
