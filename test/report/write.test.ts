import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrosscheckError } from '../../src/errors/index.ts';
import {
  appendStepSummary,
  createReport,
  resolveReporterOptions,
  writeFileAtomic,
  writeOutputs,
} from '../../src/report/index.ts';
import { suiteRecords } from './records.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'crosscheck-write-'));

describe('writeFileAtomic', () => {
  it('should replace the file and leave no temporary file behind', () => {
    // Arrange
    const d = dir();
    const path = join(d, 'nested', 'report.json');
    // Act
    writeFileAtomic(path, 'one');
    writeFileAtomic(path, 'two');
    // Assert
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(join(d, 'nested'))).toEqual(['report.json']);
  });
});

describe('appendStepSummary', () => {
  it('should append to $GITHUB_STEP_SUMMARY only when it is set', () => {
    // Arrange
    const file = join(dir(), 'summary.md');
    writeFileSync(file, '# earlier step\n');
    // Act
    const wrote = appendStepSummary('## crosscheck\n', { GITHUB_STEP_SUMMARY: file });
    const skipped = appendStepSummary('## crosscheck\n', {});
    // Assert
    expect([wrote, skipped]).toEqual([true, false]);
    expect(readFileSync(file, 'utf8')).toBe('# earlier step\n## crosscheck\n\n');
  });
});

describe('writeOutputs', () => {
  it('should write every requested format under the root and print the summary', () => {
    // Arrange
    const root = dir();
    const report = createReport(suiteRecords(), { framework: 'vitest', shard: { count: 2, indexes: [2] } });
    const printed: string[] = [];
    const options = resolveReporterOptions(
      { html: 'out/r.html', markdown: 'out/r.md', githubSummary: false, color: false },
      'test',
    );
    // Act
    const written = writeOutputs(report, options, root, (t) => printed.push(t));
    // Assert
    expect(written).toEqual([
      join(root, 'crosscheck-report.shard-2-of-2.json'),
      join(root, 'out/r.md'),
      join(root, 'out/r.html'),
    ]);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('crosscheck  10 checks');
    expect(printed[0]).toMatch(
      /\n\n {2}Reports {2}\S+crosscheck-report\.shard-2-of-2\.json[\s·]+\S+r\.md[\s·]+\S+r\.html\n$/,
    );
  });
});

describe('resolveReporterOptions', () => {
  it('should name the option, the rule and what arrived', () => {
    // Act, Assert
    expect(() => resolveReporterOptions({ html: true }, 'crosscheck/vitest-reporter')).toThrow(
      CrosscheckError,
    );
    expect(() => resolveReporterOptions({ html: true }, 'crosscheck/vitest-reporter')).toThrow(
      'crosscheck/vitest-reporter: option `html` must be a file path or false, got true (boolean).',
    );
    expect(() => resolveReporterOptions({ output: 'x' }, 'crosscheck/vitest-reporter')).toThrow(
      'crosscheck/vitest-reporter: unknown option `output`. The options are `terminal`, `json`, `markdown`, `html`, `githubSummary`, `color`, `width`.',
    );
    expect(() => resolveReporterOptions({ width: 0 }, 'crosscheck/jest-reporter')).toThrow(
      'crosscheck/jest-reporter: option `width` must be a positive integer, got 0 (number).',
    );
  });
});
