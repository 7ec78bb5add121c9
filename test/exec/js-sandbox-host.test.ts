import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { replaceSandboxHost, sandboxHost } from '../../src/exec/js/index.ts';
import { RemoteSandboxPool } from '../../src/exec/js/remote-pool.ts';
import {
  candidates,
  closeSandboxPools,
  defineTask,
  type Outcome,
  resolveIsolation,
  run,
} from '../../src/index.ts';

// The pool of sandbox workers lives in a child process (the sandbox host). These tests treat
// that child as what it is: a process an escaped candidate may own, or that may die at any time.

const ROOT = join(import.meta.dirname, '..', '..');
const FAKE = join(ROOT, 'test', 'fixtures', 'js-host', 'fake-host.mjs');
const SECRET = 'sk-test-secret';
const execFileAsync = promisify(execFile);

const js = (sources: string[], entry = 'f') =>
  candidates.fromSources(sources, { language: 'javascript', entry });
const range = (n: number) => Array.from({ length: n }, (_, i) => [i]);
const values = (row: readonly Outcome[]) => row.map((o) => (o.kind === 'value' ? o.value : o.kind));

const fakeHost = (mode: string, isolation: 'os' | 'process'): RemoteSandboxPool =>
  new RemoteSandboxPool(isolation, () => ({
    args: [FAKE, mode],
    readOnly: [join(ROOT, 'test', 'fixtures')],
  }));

let savedKey: string | undefined;
beforeAll(() => {
  savedKey = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = SECRET;
});

afterEach(async () => {
  for (const iso of ['os', 'process'] as const) {
    const host = sandboxHost(iso);
    replaceSandboxHost(iso, undefined);
    await host.close();
  }
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await closeSandboxPools();
});

const isolations = (() => {
  try {
    return resolveIsolation('auto') === 'os' ? (['process', 'os'] as const) : (['process'] as const);
  } catch {
    return ['process'] as const;
  }
})();

describe.each(isolations)('the JavaScript sandbox host under %s isolation', (isolation) => {
  it('should survive the child being killed mid-run and give every candidate its exact outcomes', async () => {
    // Arrange: calls slow enough that the run is still going when the child dies.
    const task = defineTask({ name: 'f', timeoutMs: 5000 });
    const cs = js([
      'function f(x) { const t = Date.now(); while (Date.now() - t < 3) {} return x * 2 }',
      'function f(x) { const t = Date.now(); while (Date.now() - t < 3) {} return x + 1 }',
      'function f(x) { return -x }',
    ]);
    // Enough calls that the run is far from done at the 20th outcome, where the child is killed.
    const n = 100;
    const host = sandboxHost(isolation);
    let killedPid: number | null = null;
    let doneAtKill = -1;
    // Act: kill the child once some, not all, outcomes are in.
    const m = await run(task, cs, range(n), {
      isolation,
      onProgress: (done, total) => {
        if (killedPid === null && done >= 20 && done < total && host.pid !== null) {
          killedPid = host.pid;
          doneAtKill = done;
          process.kill(killedPid, 'SIGKILL');
        }
      },
    });
    // Assert
    expect(killedPid).not.toBeNull();
    expect(doneAtKill).toBeLessThan(3 * n);
    expect(host.pid).not.toBe(killedPid);
    expect(values(m.outcomes[0]!)).toEqual(range(n).map(([x]) => x! * 2));
    expect(values(m.outcomes[1]!)).toEqual(range(n).map(([x]) => x! + 1));
    expect(values(m.outcomes[2]!)).toEqual(range(n).map(([x]) => -x!));
    expect(m.isolation).toBe(isolation);
  });

  it('should give crash outcomes to the candidate that kills the child, and exact ones to the others', async () => {
    // A candidate cannot kill the child from inside its context, so a stand-in host plays one
    // that got out: it dies whenever a job holds the culprit, and answers x * 2 otherwise.
    replaceSandboxHost(isolation, fakeHost('killer', isolation));
    const task = defineTask({ name: 'f' });
    const cs = js(['function f(x) { return x * 2 }', 'function f(x) { /* KILL_HOST */ return x }']);
    const m = await run(task, cs, range(5), { isolation });
    expect(values(m.outcomes[0]!)).toEqual([0, 2, 4, 6, 8]);
    for (const o of m.outcomes[1]!) {
      expect(o).toMatchObject({ kind: 'crash' });
      expect((o as { reason: string }).reason).toMatch(/killed by SIGKILL|code 137/);
    }
    expect(m.candidates[0]!.stats.crashes).toBe(0);
    expect(m.candidates[1]!.stats.crashes).toBeGreaterThan(0);
  });

  it('should die with the host, even when the host is killed with SIGKILL mid-run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crosscheck-orphan-'));
    const script = join(dir, 'script.mts');
    writeFileSync(
      script,
      `import { sandboxHost } from ${JSON.stringify(join(ROOT, 'src', 'exec', 'js', 'index.ts'))};
import { candidates, defineTask, run } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};
const cs = candidates.fromSources(['function f(x) { for (;;) {} }'], { language: 'javascript', entry: 'f' });
const running = run(defineTask({ name: 'f', timeoutMs: 60000 }), cs, [[1]], { isolation: ${JSON.stringify(isolation)} });
const timer = setInterval(() => {
  const pid = sandboxHost(${JSON.stringify(isolation)}).pid;
  if (pid !== null) { console.log(pid); clearInterval(timer); }
}, 20);
await running;
`,
    );
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      const host = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const pid = await new Promise<number>((resolve, reject) => {
        host.stdout.once('data', (d) => resolve(Number(String(d).trim())));
        host.once('exit', () => reject(new Error('the host exited before its sandbox host started')));
      });
      expect(alive(pid)).toBe(true);
      host.kill('SIGKILL');
      // Generous: only a child that never goes fails this.
      for (let i = 0; i < 300 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(pid)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('should run many input sets one after another in the same child', async () => {
    const task = defineTask({ name: 'f' });
    const cs = js(['function f(x) { return x * 2 }']);
    const host = sandboxHost(isolation);
    let pid: number | null = null;
    // More sets than the child keeps, then the first ones again, which it has dropped by then.
    for (const k of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]) {
      const m = await run(task, cs, range(k), { isolation });
      expect(values(m.outcomes[0]!)).toEqual(range(k).map(([x]) => x! * 2));
      expect(m.candidates[0]!.stats.restarts).toBe(0);
      pid ??= host.pid;
      expect(host.pid).toBe(pid);
    }
  });

  it('should keep the secret of the host environment out of the child', async () => {
    // The host runs as its own program with the secret in its initial environment (what
    // /proc/<pid>/environ shows); the stand-in host is trusted test code with the whole of
    // `process`, so it plays an escape that got past every in-process guard.
    const dir = mkdtempSync(join(tmpdir(), 'crosscheck-secret-'));
    const script = join(dir, 'script.mts');
    writeFileSync(
      script,
      `import { replaceSandboxHost } from ${JSON.stringify(join(ROOT, 'src', 'exec', 'js', 'index.ts'))};
import { RemoteSandboxPool } from ${JSON.stringify(join(ROOT, 'src', 'exec', 'js', 'remote-pool.ts'))};
import { candidates, closeSandboxPools, defineTask, run } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};
replaceSandboxHost(${JSON.stringify(isolation)}, new RemoteSandboxPool(${JSON.stringify(isolation)}, () => ({ args: [${JSON.stringify(FAKE)}, 'env'], readOnly: [${JSON.stringify(dirname(FAKE))}] })));
const cs = candidates.fromSources(['function f(x) { return x }'], { language: 'javascript', entry: 'f' });
const m = await run(defineTask({ name: 'f' }), cs, [[1]], { isolation: ${JSON.stringify(isolation)} });
console.log(JSON.stringify(m.outcomes[0][0].value));
await closeSandboxPools();
`,
    );
    try {
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        env: { ...process.env, OPENAI_API_KEY: SECRET },
        timeout: 150_000,
      });
      const seen = JSON.parse(stdout.trim()) as string;
      // Under 'process' the child runs as the same user, outside any namespace: the host's
      // /proc environ is readable there (README, Isolation). Its own environment is scrubbed.
      if (isolation === 'os') expect(seen).toBe('nothing');
      else expect(seen.split(',')).not.toContain('process.env');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should turn a forging child into typed outcomes, row by row, and keep the honest row exact', async () => {
    replaceSandboxHost(isolation, fakeHost('forge', isolation));
    const task = defineTask({ name: 'f', timeoutMs: 700 });
    const cs = js([
      'function f(x) { return x * 2 }',
      ...[1, 2, 3, 4, 5].map((k) => `function f(x) { return ${k} }`),
    ]);
    const m = await run(task, cs, range(3), { isolation });
    const [honest, fifty, outOfRange, forged, twice, strayRow] = m.outcomes;
    expect(values(honest!)).toEqual([0, 2, 4]);
    for (const row of [fifty!, outOfRange!, strayRow!]) {
      expect(row.map((o) => o.kind === 'error' && o.name)).toEqual([
        'ProtocolError',
        'ProtocolError',
        'ProtocolError',
      ]);
    }
    // A forged timeout gets the host's own limit, not the child's figure; unknown codes are errors.
    expect(forged![0]).toEqual({ kind: 'timeout', reason: 'call', ms: 700 });
    expect(forged![1]).toMatchObject({ kind: 'error', name: 'ProtocolError' });
    expect(forged![2]).toMatchObject({ kind: 'error', name: 'ProtocolError' });
    // The first copy of each input counts; the second rejects the rest of the row.
    expect(values(twice!)).toEqual([0, 2, 4]);
    for (const c of m.candidates) {
      expect(c.stats.timeouts).toBeLessThanOrEqual(3);
      expect(c.stats.crashes).toBeLessThanOrEqual(3);
      expect(c.stats.restarts).toBeLessThanOrEqual(3);
      expect(c.stats.durationMs).toBeLessThan(1e9);
    }
  });

  it("should turn a child's forged value texts into errors of that row and keep the honest row exact", async () => {
    replaceSandboxHost(isolation, fakeHost('texts', isolation));
    const m = await run(
      defineTask({ name: 'f' }),
      js(['function f(x) { return x * 2 }', 'function f(x) { return 1 }']),
      range(3),
      { isolation },
    );
    const [honest, forged] = m.outcomes;
    expect(values(honest!)).toEqual([0, 2, 4]);
    expect(forged!.map((o) => o.kind === 'error' && o.name)).toEqual([
      'ProtocolError',
      'ProtocolError',
      'ProtocolError',
    ]);
    expect((forged![0] as { message: string }).message).toMatch(/not JSON/);
    expect((forged![1] as { message: string }).message).toMatch(/no value and no other outcome/);
    expect((forged![2] as { message: string }).message).toMatch(/malformed value/);
  });

  it('should cut off a child that floods its pipe with an endless line, and survive', async () => {
    replaceSandboxHost(isolation, fakeHost('flood', isolation));
    const task = defineTask({ name: 'f' });
    const m = await run(task, js(['function f(x) { return x }', 'function f(x) { return 1 }']), range(3), {
      isolation,
      maxOutputBytes: 1024,
    });
    for (const row of m.outcomes) {
      for (const o of row) {
        expect(o).toMatchObject({ kind: 'crash' });
        expect((o as { reason: string }).reason).toMatch(/longer than the host accepts/);
      }
    }
    expect(process.memoryUsage().rss).toBeLessThan(2 * 1024 * 1024 * 1024);
  });
});

describe('a program that runs sandboxed JavaScript', () => {
  it('should exit on its own once run() returns, with the sandbox host idle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crosscheck-idle-'));
    const script = join(dir, 'script.mts');
    writeFileSync(
      script,
      `import { candidates, defineTask, run } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};
const task = defineTask({ name: 'f' });
const cs = candidates.fromSources(['function f(x) { return x + 1 }'], { language: 'javascript', entry: 'f' });
const m = await run(task, cs, [[1], [2]]);
console.log(JSON.stringify(m.outcomes[0].map((o) => o.value)));
`,
    );
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      const code = await new Promise<number | string>((resolve) => {
        // Generous: a busy machine must not fail this, only a process that never exits.
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve('did not exit');
        }, 150_000);
        child.on('exit', (c) => {
          clearTimeout(timer);
          resolve(c ?? -1);
        });
      });
      expect(code).toBe(0);
      expect(out.trim()).toBe('[2,3]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
