import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/**
 * The quick start of docs/reference.md, verbatim but for the package name, run as a plain script: it prints
 * its outcomes and then exits by itself, with JavaScript (worker threads) and Python (worker
 * processes) candidates, and no close call. Idle pools must not keep Node alive. The bound on
 * the wait is generous on purpose: this checks that the process ends, not how fast.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'node_modules', '.cache', 'crosscheck-quick-start');

/** The first `ts` block after the "Quick start" heading. */
const quickStart = (): string => {
  const readme = readFileSync(join(ROOT, 'docs', 'reference.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(section);
  if (!block) throw new Error('docs/reference.md: no ```ts block after "## Quick start"');
  return block[1] as string;
};

describe("the reference's quick start as a script", () => {
  it('should print the outcomes and exit by itself, with no close call', async () => {
    // Arrange: inside the repository, so `fast-check` resolves as in a user's project.
    const code = quickStart().replace(`from 'crosscheck'`, `from '${join(ROOT, 'src', 'index.ts')}'`);
    expect(code).not.toMatch(/close(SandboxPools|PythonWorkers)/);
    mkdirSync(DIR, { recursive: true });
    const script = join(DIR, 'quick-start.mts');
    writeFileSync(script, code);
    // Act
    const result = await execa(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      reject: false,
      all: true,
      timeout: 180_000,
    });
    // Assert
    expect(result.timedOut, `the script did not exit by itself:\n${result.all}`).toBe(false);
    expect(result.exitCode, result.all).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('timeout after 1000 ms (call)');
  }, 200_000);
});
