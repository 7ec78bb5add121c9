import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * What a program that runs candidates leaves in the temp folder: nothing, whether it closes the
 * pools or simply ends, and not even the sandbox's seccomp program when it is killed. Each case
 * runs a real program (JavaScript and Python candidates, the machine's default isolation) with
 * TMPDIR set to a fresh folder of its own, then lists that folder.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const program = (ending: 'close' | 'end' | 'hang'): string => `
import { candidates, closeSandboxPools, defineTask, run } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};
import { closePythonWorkers } from ${JSON.stringify(join(ROOT, 'src', 'exec', 'python', 'index.ts'))};
const task = defineTask({ name: 'f' });
const js = candidates.fromSources(['function f(x) { return x + 1 }'], { language: 'javascript', entry: 'f' });
const py = candidates.fromSources(['def f(x):\\n    return x + 1'], { language: 'python', entry: 'f' });
const a = await run(task, js, [[1]]);
const b = await run(task, py, [[1]]);
console.log(JSON.stringify([a.isolation, a.outcomes[0][0].value, b.outcomes[0][0].value]));
${ending === 'close' ? 'await Promise.all([closeSandboxPools(), closePythonWorkers()]);' : ''}
${ending === 'hang' ? 'setInterval(() => {}, 1000);' : ''}
`;

/** Runs the program with a temp folder of its own; returns what it printed and that folder. */
const runProgram = async (ending: 'close' | 'end' | 'hang') => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-tempcheck-'));
  const temp = join(dir, 'tmp');
  dirs.push(dir);
  const script = join(dir, 'program.mts');
  writeFileSync(script, program(ending));
  mkdirSync(temp);
  const child = execa(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { TMPDIR: temp },
    reject: false,
    timeout: 150_000,
  });
  let printed = '';
  if (ending === 'hang') {
    // Killed once it has printed its results: its pools are running.
    await new Promise<void>((resolve) => {
      child.stdout?.on('data', (d: Buffer) => {
        printed += d.toString();
        if (printed.includes('\n')) resolve();
      });
      void child.then(() => resolve());
    });
    child.kill('SIGKILL');
    await child;
  } else {
    printed = String((await child).stdout);
  }
  // Only crosscheck's own folders: tsx, which runs the program, keeps a cache there too.
  return {
    printed: printed.trim(),
    left: readdirSync(temp).filter((name) => name.startsWith('crosscheck-')),
  };
};

describe('the temp folder after a program that ran candidates', () => {
  it('should hold nothing once the program closed its pools', async () => {
    const { printed, left } = await runProgram('close');
    expect(printed).toMatch(/^\["(os|process)",2,2\]$/);
    expect(left).toEqual([]);
  });

  it('should hold nothing once the program ended without closing them', async () => {
    const { printed, left } = await runProgram('end');
    expect(printed).toMatch(/^\["(os|process)",2,2\]$/);
    expect(left).toEqual([]);
  });

  it('should hold no seccomp program after the program was killed', async () => {
    const { printed, left } = await runProgram('hang');
    expect(printed).toMatch(/^\["(os|process)",2,2\]$/);
    // A killed program runs no exit hook, so its workers' folders stay; the filter never does.
    expect(left.filter((name) => name.startsWith('crosscheck-seccomp-'))).toEqual([]);
  });
});
