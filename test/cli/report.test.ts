import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCommand } from '../../src/cli/report.ts';
import { CrosscheckError } from '../../src/errors/index.ts';
import { createReport, renderJson } from '../../src/report/index.ts';
import { suiteRecords } from '../report/records.ts';
import { crosscheck } from '../reporter/helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'crosscheck-cli-'));
const ESC = String.fromCharCode(27);

const saved = (
  name: string,
  records = suiteRecords(),
  shard: { count: number; indexes: number[] } | null = null,
) => {
  const path = join(work, name);
  writeFileSync(path, renderJson(createReport(records, { framework: 'vitest', shard })));
  return path;
};

/** Runs the subcommand in-process, collecting what it prints. */
const run = (args: string[]) => {
  const out: string[] = [];
  const code = reportCommand(args, { stdout: (t) => out.push(t), readFile: (p) => readFileSync(p, 'utf8') });
  return { code, out: out.join('') };
};

describe('crosscheck report', () => {
  it('should render a saved report in each format', () => {
    // Arrange
    const file = saved('all.json');
    // Act
    const terminal = run([file, '--no-color', '--width', '120']);
    const markdown = run([file, '--format', 'markdown']);
    const html = run([file, '--format', 'html', '--out', join(work, 'all.html')]);
    const json = run([file, '--format', 'json']);
    // Assert
    expect(terminal).toMatchObject({ code: 0 });
    expect(terminal.out).toContain(
      'crosscheck  10 checks · 2 failed · 3 tasks (9 task × model pairs) · 2 pairs flagged (vitest)',
    );
    expect(markdown.out).toMatch(/^## crosscheck report\n/);
    expect(html.out).toBe(`crosscheck: wrote html report to ${join(work, 'all.html')}\n`);
    expect(readFileSync(join(work, 'all.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(JSON.parse(json.out)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  it('should merge shard reports given to the renderer', () => {
    // Arrange
    const records = suiteRecords();
    const a = saved('a.json', records.slice(0, 4), { count: 2, indexes: [1] });
    const b = saved('b.json', records.slice(4), { count: 2, indexes: [2] });
    // Act
    const { out } = run([a, b, '--no-color', '--width', '140']);
    // Assert
    expect(out).toContain(
      '10 checks · 2 failed · 3 tasks (9 task × model pairs) · 2 pairs flagged (vitest, shards 1, 2 of 2)',
    );
  });

  it('should name the option and the formats for an unknown format', () => {
    // Act, Assert
    expect(() => run([saved('f.json'), '--format', 'pdf'])).toThrow(CrosscheckError);
    expect(() => run([saved('f.json'), '--format', 'pdf'])).toThrow(
      'crosscheck report --format: unknown format "pdf" (string); expected one of terminal, markdown, html, json.',
    );
  });

  it('should say which file cannot be read or is not a report', () => {
    // Arrange
    const results = join(work, 'results.json');
    writeFileSync(results, '{"numTotalTests": 3}');
    // Act, Assert
    expect(() => run([results])).toThrow(
      `crosscheck report (${results}): expected a crosscheck/report object, got an object with keys [numTotalTests]. Pass a crosscheck-report.json written by a crosscheck reporter.`,
    );
    expect(() => run([join(work, 'missing.json')])).toThrow(
      new RegExp(`^crosscheck report: cannot read ${join(work, 'missing.json')}: ENOENT`),
    );
    expect(() => run([])).toThrow(
      'crosscheck report: expected at least one report file, got none. Pass the crosscheck-report.json files.',
    );
  });
});

describe('crosscheck report merge', () => {
  it('should write the merged JSON report', () => {
    // Arrange
    const records = suiteRecords();
    const a = saved('m1.json', records.slice(0, 6), { count: 2, indexes: [1] });
    const b = saved('m2.json', records.slice(6), { count: 2, indexes: [2] });
    const out = join(work, 'merged.json');
    // Act
    const result = run(['merge', a, b, '--out', out]);
    // Assert
    expect(result).toEqual({ code: 0, out: `crosscheck: merged 2 reports (10 records) into ${out}\n` });
    const merged = JSON.parse(readFileSync(out, 'utf8'));
    expect(merged.summary).toEqual(createReport(records, { framework: 'vitest', shard: null }).summary);
  });

  it('should say INCOMPLETE and exit 1 when shards of the run are missing, and still write what it has', () => {
    // Arrange: shards 1 and 3 of 3.
    const records = suiteRecords();
    const a = saved('p1.json', records.slice(0, 4), { count: 3, indexes: [1] });
    const c = saved('p3.json', records.slice(7), { count: 3, indexes: [3] });
    const out = join(work, 'partial.json');
    // Act
    const result = run(['merge', a, c, '--out', out]);
    // Assert
    expect(result).toEqual({
      code: 1,
      out: `crosscheck: merged 2 reports (7 records) into ${out}; INCOMPLETE: shard 2/3 missing\n`,
    });
    expect(JSON.parse(readFileSync(out, 'utf8')).run.shard).toEqual({ count: 3, indexes: [1, 3] });
  });

  it('should require --out', () => {
    // Act, Assert
    expect(() => run(['merge', saved('x.json')])).toThrow(
      "crosscheck report merge: --out is required (the merged JSON report's path). Example: crosscheck report merge shard-*.json --out crosscheck-report.json",
    );
  });
});

describe('the crosscheck command', () => {
  it('should exit 2 with the message and no stack trace on misuse', async () => {
    // Act
    const result = await crosscheck(['report', saved('e.json'), '--format', 'pdf']);
    // Assert
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'crosscheck report --format: unknown format "pdf" (string); expected one of terminal, markdown, html, json.',
    );
  });

  it('should refuse an unknown flag naming the nearest known one and every flag', async () => {
    // Act
    const result = await crosscheck(['report', '--colour']);
    // Assert
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^crosscheck report: unknown flag `--colour`; did you mean `--color`\? /);
    expect(result.stderr).toContain('`--no-color`, `--help`.');
  });

  it('should colour under FORCE_COLOR and honour NO_COLOR', async () => {
    // Arrange
    const file = saved('c.json');
    // Act
    const forced = await crosscheck(['report', file], { FORCE_COLOR: '1', NO_COLOR: '' });
    const both = await crosscheck(['report', file], { FORCE_COLOR: '1', NO_COLOR: '1' });
    // Assert
    expect(forced.stdout).toContain(ESC);
    expect(both.stdout).not.toContain(ESC);
  });
});
