import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const config = join(import.meta.dirname, 'fixtures', 'jest', 'jest.config.cjs');
const jestBin = createRequire(import.meta.url).resolve('jest/bin/jest');

describe('coherenceProperty with @fast-check/jest', () => {
  it('should run as a jest test.prop and find a shrunk disagreement with fc.check', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [jestBin, '--config', config, '--json', '--ci'],
      {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout) as { success: boolean; numPassedTests: number; numFailedTests: number };
    expect(report.numFailedTests).toBe(0);
    expect(report.numPassedTests).toBe(2);
    expect(report.success).toBe(true);
  });
});
