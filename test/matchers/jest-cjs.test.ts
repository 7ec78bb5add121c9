import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CrosscheckReport, parseReport } from '../../src/report/index.ts';
import { installFixture, packTarball } from '../helpers/pack.ts';

/**
 * Jest 30 as configured by default: its CommonJS runtime, no `--experimental-vm-modules`, the
 * packed tarball installed in a scratch project. A plain `.test.js` that `require`s crosscheck,
 * a `.test.ts` through ts-jest and one through babel-jest each load `crosscheck/jest` from
 * `setupFilesAfterEnv` (ts-jest's test file imports nothing of it: tsconfig.json's `types` entry
 * types the matchers), run sandboxed and trusted candidates, fail with the witness where they
 * should, and leave their records in the reporter's JSON report.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'jest-cjs');
let project: string;

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'crosscheck-jest-cjs-'));
  const tarball = await packTarball(join(work, 'pack'));
  project = join(work, 'project');
  await installFixture(FIXTURE, project, tarball);
}, 900_000);

const runJest = (kind: string) =>
  execa(process.execPath, [join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], {
    cwd: join(project, kind),
    reject: false,
    all: true,
    timeout: 300_000,
    env: { CI: '', NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', NODE_OPTIONS: '' },
  });

describe.each(['js', 'ts-jest', 'babel'])('a default-config Jest project (%s)', (kind) => {
  it('should load the CJS build, pass and fail as expected, and write the records to the report', async () => {
    // Act
    const result = await runJest(kind);
    // Assert
    expect(result.all).not.toContain('Must use import to load ES Module');
    // ts-jest type-checks: the matchers are typed from tsconfig "types", with no import.
    expect(result.all).not.toMatch(/error TS\d+/);
    expect(result.all).toMatch(/Tests: +1 failed, 1 passed, 2 total/);
    expect(result.exitCode, result.all).toBe(1);
    expect(result.all).toContain('Witness:');
    const report: CrosscheckReport = parseReport(
      readFileSync(join(project, kind, 'crosscheck-report.json'), 'utf8'),
    );
    expect(report.records.map((r) => [r.test.matcher, r.verdict]).sort()).toEqual([
      ['toAgreeWithReference', 'fail'],
      ['toBeCoherentAcross', 'pass'],
    ]);
    expect(report.records.find((r) => r.kind === 'detection')?.m).toBe(3);
  });
});
