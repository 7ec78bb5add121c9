import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `crosscheck bench --out`, as a user runs it (its own process): one writer per output, and a
 * write that fails for lack of room (a file-size limit, a full disk) ends with a message that
 * says what to fix, keeping what finished.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'test', 'bench', 'fixtures', 'run-bench.ts');

/** A small JavaScript dataset: `tasks` tasks, two models of two candidates each; `spin` ms per call. */
const buildDataset = (dir: string, tasks: number, spin = 0): void => {
  mkdirSync(join(dir, 'candidates'), { recursive: true });
  const busy = spin > 0 ? `const until = Date.now() + ${spin}; while (Date.now() < until) {}` : '';
  const rows = Array.from({ length: tasks }, (_, i) => ({
    task_id: `T/${i}`,
    entry_point: 'f',
    language: 'javascript',
    ground_truth_code: `function f(x) { return x * 2 + ${i}; }`,
    seed_inputs_tagged: [0, 1, 2, 3, 4].map((k) => ({ $tuple: [k] })),
  }));
  writeFileSync(join(dir, 'tasks.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  for (const model of ['alpha', 'beta']) {
    const codes = (i: number) => [
      `function f(x) { ${busy} return x * 2 + ${i}; }`,
      `function f(x) { ${busy} return x > 3 ? x : x * 2 + ${i}; }`,
    ];
    const lines = rows.map((_, i) => JSON.stringify({ task_id: `T/${i}`, codes: codes(i) }));
    writeFileSync(join(dir, 'candidates', `${model}.jsonl`), `${lines.join('\n')}\n`);
  }
};

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
}

/** Runs the CLI in a bash child, so a `ulimit` can apply to it alone. */
const bench = (data: string, out: string, ulimit = ''): { child: ChildProcess; exit: Promise<Exit> } => {
  const args = ['--data', data, '--m', '2', '--n', '20', '--jobs', '1', '--out', out];
  const command = `${ulimit ? `ulimit ${ulimit}; ` : ''}exec "$0" --import tsx "$@"`;
  const child = spawn('bash', ['-c', command, process.execPath, CLI, ...args], {
    cwd: ROOT,
    // Under a file-size limit, no tsx cache: its files would be written under the same limit as
    // the report. Elsewhere the cache stays: without it each run compiles every source again.
    env: { ...process.env, NO_COLOR: '1', ...(ulimit ? { TSX_DISABLE_CACHE: '1' } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exit = new Promise<Exit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  return { child, exit };
};

/** The pair lines of a checkpoint (lines cut short by a failed write are left out). */
const pairLines = (out: string): string[] =>
  existsSync(`${out}.checkpoint`)
    ? readFileSync(`${out}.checkpoint`, 'utf8')
        .split('\n')
        .flatMap((l) => {
          try {
            const e = JSON.parse(l);
            return e.kind === 'pair' ? [`${e.pair.model} ${e.pair.task}`] : [];
          } catch {
            return [];
          }
        })
    : [];

const waitFor = async (done: () => boolean, ms: number): Promise<void> => {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('crosscheck bench --out', () => {
  let dir: string;
  let data: string;
  let slow: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'crosscheck-bench-out-'));
    data = join(dir, 'data');
    buildDataset(data, 3);
    slow = join(dir, 'slow');
    // 10 ms per call: the first run outlasts the poll that pauses it, without burning much CPU.
    buildDataset(slow, 6, 10);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('should let one of two runs on the same --out write it, and stop the other with a clear error', async () => {
    // Arrange
    const out = join(dir, 'race', 'bench.json');
    const first = bench(slow, out);
    await waitFor(() => existsSync(`${out}.checkpoint`), 120_000);
    // The first run is paused mid-run (alive, its work unfinished) while the second one starts,
    // however slow the machine is.
    first.child.kill('SIGSTOP');
    // Act
    const second = await bench(slow, out).exit;
    first.child.kill('SIGCONT');
    const firstExit = await first.exit;
    // Assert
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`crosscheck bench: ${out} is being written by another run (process`);
    expect(second.stderr).toContain(`${out}.lock`);
    expect(firstExit.code, firstExit.stderr).toBe(0);
    const lines = pairLines(out);
    expect(lines).toHaveLength(12);
    expect(new Set(lines).size).toBe(12);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 300_000);

  it('should refuse an --out whose lock a live process holds, and take over one a dead process left', async () => {
    // Arrange: a live holder (a sleeping process) and a dead one (a process that has exited).
    const live = join(dir, 'live', 'bench.json');
    mkdirSync(join(dir, 'live'));
    const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    writeFileSync(
      `${live}.lock`,
      JSON.stringify({ pid: sleeper.pid, host: (await import('node:os')).hostname(), startedAt: Date.now() }),
    );
    const stale = join(dir, 'stale', 'bench.json');
    mkdirSync(join(dir, 'stale'));
    const dead = spawnSync('bash', ['-c', 'echo $$']).stdout.toString().trim();
    writeFileSync(
      `${stale}.lock`,
      JSON.stringify({ pid: Number(dead), host: (await import('node:os')).hostname(), startedAt: 0 }),
    );
    try {
      // Act
      const refused = await bench(data, live).exit;
      const resumed = await bench(data, stale).exit;
      // Assert
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`is being written by another run (process ${sleeper.pid}`);
      expect(existsSync(`${live}.checkpoint`)).toBe(false);
      expect(existsSync(`${live}.lock`)).toBe(true);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(pairLines(stale)).toHaveLength(6);
      expect(existsSync(`${stale}.lock`)).toBe(false);
    } finally {
      sleeper.kill();
    }
  }, 300_000);

  it('should end a run that hits the file-size limit with a typed message, keeping the finished pairs', async () => {
    // Arrange: 4 KiB (ulimit -f counts 1,024-byte blocks) holds the checkpoint's header and a
    // few pairs, not all six.
    const out = join(dir, 'fsize', 'bench.json');
    // Act
    const limited = await bench(data, out, '-f 4').exit;
    const kept = pairLines(out);
    const rerun = await bench(data, out).exit;
    // Assert
    expect(limited.signal, limited.stderr).toBeNull();
    expect(limited.code, limited.stderr).toBe(2);
    expect(limited.stderr).toContain(`cannot write the checkpoint ${out}.checkpoint: EFBIG`);
    expect(limited.stderr).toContain('file-size limit');
    expect(limited.stderr).toContain('the pairs that finished are kept in the checkpoint');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(6);
    expect(existsSync(`${out}.lock`)).toBe(false);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${kept.length} of 6 pairs were resumed`);
    expect(pairLines(out)).toHaveLength(6);
  }, 300_000);
});
