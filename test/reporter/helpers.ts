import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import type { CrosscheckReport } from '../../src/report/index.ts';

/** Shared by the reporter tests: the CLI, reading reports, masking timings. */

export const root = resolve(import.meta.dirname, '..', '..');
export const fixtures = join(root, 'test', 'fixtures');

/** Runs `crosscheck <args>` from source (the bin is the built `dist/cli.mjs`). */
export const crosscheck = (args: readonly string[], env: Record<string, string> = {}) =>
  execa(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), ...args], {
    cwd: root,
    reject: false,
    env: { NO_COLOR: '1', ...env },
    timeout: 60_000,
  });

export const readReport = (path: string): CrosscheckReport => JSON.parse(readFileSync(path, 'utf8'));

/** The report with every duration set to 0: runs differ only there. */
export const withoutTimings = (report: CrosscheckReport) => ({
  records: report.records.map((r) => ({ ...r, timings: { durationMs: 0 } })),
  summary: { ...report.summary, rows: report.summary.rows.map((r) => ({ ...r, durationMs: 0 })) },
});

/**
 * The reporter's summary from a run's stdout, timings masked as `[...]ms` (the time column is
 * last and left-aligned, so its width changes nothing else).
 */
export const summaryText = (stdout: string): string => {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => /^ {3}crosscheck {2}\d+ check/.test(l));
  if (start < 0) throw new Error(`no crosscheck summary in:\n${stdout}`);
  const end = lines.findIndex((l, i) => i > start && /^ {2}Spearman\(coherent share/.test(l));
  return lines
    .slice(start, end < 0 ? undefined : end + 1)
    .join('\n')
    .replace(/\b\d+ms$/gm, '[...]ms')
    .trimEnd();
};

/** Path of Debian's chromium, or null. */
export const findChromium = (): string | null => {
  for (const name of [process.env.CHROMIUM_PATH, 'chromium', 'chromium-browser']) {
    if (!name) continue;
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
    } catch {}
  }
  return null;
};
