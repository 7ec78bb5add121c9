import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * bench/bundled.mjs runs bench:floor as the package ships its code: bundled, without the
 * `__name` wrappers tsx adds. The script it runs must see its own arguments and its own
 * directory, as if it ran from source.
 */
const RUNNER = resolve(import.meta.dirname, '..', '..', 'bench', 'bundled.mjs');
const dir = mkdtempSync(join(tmpdir(), 'crosscheck-bundled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench/bundled.mjs', () => {
  it('bundles a TypeScript script beside itself and runs it with its arguments', async () => {
    const script = join(dir, 'probe.ts');
    writeFileSync(
      script,
      [
        "import { parseArgs } from 'node:util';",
        'const { values } = parseArgs({ options: { tasks: { type: "string" } } });',
        'const report: { dir: string; tasks: string | undefined } = {',
        '  dir: import.meta.dirname,',
        '  tasks: values.tasks,',
        '};',
        'console.log(JSON.stringify(report));',
      ].join('\n'),
    );
    const { stdout } = await execa('node', [RUNNER, script, '--tasks', 'HumanEval/0,HumanEval/1']);
    expect(JSON.parse(stdout)).toEqual({ dir, tasks: 'HumanEval/0,HumanEval/1' });
    const bundle = join(dir, '.probe.bundle.mjs');
    expect(existsSync(bundle)).toBe(true);
    // No keepNames: no __name helper is defined or called.
    expect(readFileSync(bundle, 'utf8')).not.toContain('__name');
  });

  it('refuses an entry that is not a TypeScript file, saying how to call it', async () => {
    const run = await execa('node', [RUNNER], { reject: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('usage: node bench/bundled.mjs <script.ts>');
  });
});
