import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resetIsolationProbe } from '../../src/exec/isolation/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, defineTask, measure, resolveIsolation, run } from '../../src/index.ts';
import { coherenceRecord } from '../../src/report/index.ts';
import { holdsFor, processesMarked } from '../helpers/processes.ts';

const saved = { isolation: process.env.CROSSCHECK_ISOLATION, bwrap: process.env.CROSSCHECK_BWRAP };
const setEnv = (name: string, value: string | undefined): void => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterEach(() => {
  setEnv('CROSSCHECK_ISOLATION', saved.isolation);
  setEnv('CROSSCHECK_BWRAP', saved.bwrap);
  resetIsolationProbe();
});
afterAll(() => closePythonWorkers());

const osAvailable = (() => {
  try {
    return resolveIsolation('os') === 'os';
  } catch {
    return false;
  }
})();

const task = defineTask({ name: 'who', timeoutMs: 5000 });
const python = candidates.fromSources(
  ['import os\ndef who(x):\n    return [os.getuid() != 0, "OPENAI_API_KEY" in os.environ, x]\n'],
  { language: 'python', entry: 'who' },
);
const trusted = candidates.fromFunctions([(x: number) => x]);
const withoutBubblewrap = (): void => {
  process.env.CROSSCHECK_BWRAP = '/nonexistent/bwrap';
};

describe('isolation: choosing it', () => {
  it("should refuse 'os' without bubblewrap, saying how to install it and what holds without it", () => {
    // Arrange
    withoutBubblewrap();
    setEnv('CROSSCHECK_ISOLATION', undefined);

    // Act
    const act = () => resolveIsolation('os');

    // Assert
    expect(act).toThrow(
      expect.objectContaining({
        code: 'ISOLATION_UNAVAILABLE',
        message: expect.stringMatching(
          /`\/nonexistent\/bwrap` was not found.*apt-get install bubblewrap.*not an OS boundary/,
        ),
      }),
    );
  });

  it('should refuse to run untrusted candidates under CROSSCHECK_ISOLATION=os without bubblewrap, even if the option asks for less', async () => {
    // Arrange
    withoutBubblewrap();
    process.env.CROSSCHECK_ISOLATION = 'os';

    // Act
    const byEnv = run(task, python, [[1]]);
    const lowered = run(task, python, [[1]], { isolation: 'process' });

    // Assert
    await expect(byEnv).rejects.toMatchObject({ code: 'ISOLATION_UNAVAILABLE' });
    await expect(lowered).rejects.toMatchObject({ code: 'ISOLATION_UNAVAILABLE' });
  });

  it("should fall back to 'process' under 'auto' without bubblewrap, and say so in the matrix", async () => {
    // Arrange
    withoutBubblewrap();
    setEnv('CROSSCHECK_ISOLATION', undefined);

    // Act
    const matrix = await run(task, python, [[1]]);

    // Assert
    expect(resolveIsolation()).toBe('process');
    expect(matrix.isolation).toBe('process');
    expect(matrix.outcomes[0]?.[0]).toMatchObject({ kind: 'value', tagged: [false, false, 1] });
  });

  it("should record 'none' for trusted functions, which need no sandbox even when 'os' is required", async () => {
    // Arrange
    withoutBubblewrap();
    process.env.CROSSCHECK_ISOLATION = 'os';

    // Act
    const matrix = await run(task, trusted, [[1]]);

    // Assert
    expect(matrix.isolation).toBe('none');
  });

  it('should reject an unknown mode in the option or the variable', async () => {
    // Arrange
    process.env.CROSSCHECK_ISOLATION = 'container';

    // Act
    const byEnv = () => resolveIsolation();
    setEnv('CROSSCHECK_ISOLATION', undefined);
    const byOption = run(task, trusted, [[1]], { isolation: 'vm' as never });

    // Assert
    process.env.CROSSCHECK_ISOLATION = 'container';
    expect(byEnv).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', where: 'CROSSCHECK_ISOLATION' }));
    await expect(byOption).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});

describe.skipIf(!osAvailable)("isolation: 'os' with bubblewrap", () => {
  it('should run Python candidates as an unprivileged uid without the host environment, and record it down to the report record', async () => {
    // Arrange
    process.env.OPENAI_API_KEY ??= 'sk-test-secret';

    // Act
    const matrix = await run(task, python, [[1]], { isolation: 'os' });
    const m = await measure(task, [...python, ...python], { inputs: [[2]], run: { isolation: 'os' } });
    const record = coherenceRecord(m, 0, {
      test: { file: null, name: 'who', matcher: 'toHaveIncoherenceBelow', negated: false },
      pass: true,
    });

    // Assert
    expect(matrix.isolation).toBe('os');
    expect(matrix.outcomes[0]?.[0]).toMatchObject({ kind: 'value', tagged: [true, false, 1] });
    expect(m.isolation).toBe('os');
    expect(record.isolation).toBe('os');
  });

  it("should record 'os' for JS sources, whose pool runs in the confined sandbox host", async () => {
    // Arrange
    const js = candidates.fromSources(['function who(x) { return x; }'], {
      language: 'javascript',
      entry: 'who',
    });

    // Act
    const matrix = await run(task, [...js, ...python], [[1]], { isolation: 'os' });

    // Assert
    expect(matrix.isolation).toBe('os');
  });

  it('should leave no worker behind when the host is killed while a candidate loops with its alarm ignored', async () => {
    // Arrange: a host process runs a hostile candidate through an interpreter path unique to
    // this test, so its processes can be told apart from every other worker on the machine.
    const dir = mkdtempSync(join(tmpdir(), 'crosscheck-orphan-'));
    const real = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).trim();
    symlinkSync(real, join(dir, 'python3'));
    // The interpreter's folder is mounted into the sandbox, whose uid (when the host is root) is
    // not its owner: like any interpreter's folder it must be readable by others.
    chmodSync(dir, 0o755);
    const source = readFileSync(
      join(import.meta.dirname, '..', 'fixtures', 'python-hostile', 'ignore_alarm.py'),
      'utf8',
    );
    writeFileSync(
      join(dir, 'host.mts'),
      [
        `import { candidates, defineTask, run } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'src', 'index.ts'))};`,
        `const cs = candidates.fromSources([${JSON.stringify(source)}], { language: 'python', entry: 'f' });`,
        `await run(defineTask({ name: 'f', timeoutMs: 600000 }), cs, [[1]], { isolation: 'os' });`,
      ].join('\n'),
    );
    const host = spawn(process.execPath, ['--import', 'tsx', join(dir, 'host.mts')], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, CROSSCHECK_PYTHON: join(dir, 'python3') },
      stdio: 'ignore',
    });
    const running = (): number => processesMarked(dir, host.pid);
    // bwrap, its init, the worker's zygote and the child it forked for the candidate, for half a
    // second: the candidate is in its loop.
    expect(await holdsFor(() => running() >= 4, 10)).toBe(true);

    // Act
    host.kill('SIGKILL');

    // Assert
    expect(await holdsFor(() => running() === 0, 20)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  }, 300_000);
});
