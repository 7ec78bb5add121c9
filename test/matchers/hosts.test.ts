import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CrosscheckRecord, parseRecord } from '../../src/report/index.ts';
import { installPackage, spawnJest, spawnVitest } from '../helpers/spawn-host.ts';

/**
 * Real Vitest and Jest runs, as spawned processes on fixture projects: the matchers pass and fail
 * as expected and every record reaches the reporter side intact.
 */

const root = resolve(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-hosts-'));

/** What both fixtures assert, in order: test title, expected state, record kind, verdict, `.not`. */
const EXPECTED = [
  ['passes: coherent pool', 'passed', 'detection', 'pass', false],
  ['fails: incoherent pool', 'failed', 'detection', 'fail', false],
  ['passes: .not on an incoherent pool', 'passed', 'detection', 'pass', true],
  ['passes: incoherence below 0.1', 'passed', 'coherence', 'pass', false],
  ['fails: capped against the reference', 'failed', 'error', 'fail', false],
  ['passes: rankings agree', 'passed', 'ranking', 'pass', false],
] as const;

const checkRecords = (records: readonly CrosscheckRecord[], names: readonly string[]) => {
  expect(records.map((r) => [r.kind, r.verdict, r.test.negated])).toEqual(
    EXPECTED.map((e) => [e[2], e[3], e[4]]),
  );
  expect(records.map((r) => r.test.name)).toEqual(names);
  const incoherent = records[1]!;
  expect(incoherent).toMatchObject({
    task: 'sum',
    tags: { model: 'hand-written' },
    seed: 9,
    m: 3,
    witness: {
      reason: 'candidates disagree',
      input: '[[101]]',
      outputs: [
        { labels: ['sum', 'reversed'], kind: 'value', outcome: '101' },
        { labels: ['capped'], kind: 'value', outcome: '100' },
      ],
      reference: '101',
    },
    data: { verdict: 'incoherent', epsilon: 0.05, delta: 0.05, required: 59 },
  });
  expect(records[0]!.data).toMatchObject({
    verdict: 'coherent',
    certificate: 'incoherence ≤ 0.05 with confidence 0.95 (for these 2 candidates and this Gen)',
  });
};

describe('Vitest fixture project', () => {
  it('should pass and fail as expected and deliver every record through task.meta', async () => {
    // Arrange
    const out = join(work, 'vitest-records.json');
    // Act
    const result = await spawnVitest(join(fixtures, 'vitest-project'), { env: { RECORDS_OUT: out } });
    // Assert
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Array<{
      name: string;
      state: string;
      errors: string[];
      records: unknown[];
    }>;
    expect(result.exitCode, result.all).toBe(1);
    expect(rows.map((r) => [r.name, r.state])).toEqual(EXPECTED.map((e) => [`sum > ${e[0]}`, e[1]]));
    const records = rows.flatMap((r) => r.records.map((x) => parseRecord(x)));
    checkRecords(
      records,
      EXPECTED.map((e) => `sum > ${e[0]}`),
    );
    expect(records[0]!.test.file).toBe(join(fixtures, 'vitest-project', 'sum.spec.ts'));
    expect(rows[1]!.errors[0]).toContain('Witness:  [[101]]');
    expect(rows[1]!.errors[0]).toContain(
      'Replay:   await expect(task).toBeCoherentAcross(candidates, { seed: 9, epsilon: 0.05, delta: 0.05 });',
    );
  });
});

describe('Jest fixture project', () => {
  const project = join(fixtures, 'jest-project');

  beforeAll(async () => {
    await installPackage(project, {
      '.': 'src/index.ts',
      './inputs': 'src/inputs/index.ts',
      './jest': 'matchers/jest.ts',
    });
  });

  it('should pass and fail as expected and append every record to the records directory', async () => {
    // Arrange
    const recordsDir = mkdtempSync(join(work, 'jest-records-'));
    const resultFile = join(work, 'jest-result.json');
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
    expect(tests.map((t) => [t.title, t.status])).toEqual(EXPECTED.map((e) => [e[0], e[1]]));
    const files = readdirSync(recordsDir);
    expect(files).toHaveLength(1);
    const records = readFileSync(join(recordsDir, files[0]!), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => parseRecord(line));
    checkRecords(
      records,
      EXPECTED.map((e) => `sum ${e[0]}`),
    );
    expect(records[0]!.test.file).toBe(join(project, 'sum.spec.mjs'));
    expect(tests[1]!.failureMessages[0]).toContain('Witness:  [[101]]');
  });
});
