import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkers } from '../../src/exec/command/index.ts';
import { candidates, closeSandboxPools, defineTask, resolveIsolation, run } from '../../src/index.ts';

// The OS boundary as an attacker meets it when the host runs as root (as CI does): a candidate
// that got past every in-process guard (here: a worker with no guard at all, or a vm escape)
// and tries what the kernel alone can stop.

const NODE_WORKER = join(import.meta.dirname, '..', 'fixtures', 'command-node', 'worker.mjs');
const PY_WORKER = join(import.meta.dirname, '..', 'fixtures', 'boundary', 'worker.py');
const PROJECT = join(import.meta.dirname, '..', '..');

const isRoot = process.getuid?.() === 0;
// Without bubblewrap (or as a user that is not root) these are skipped, except under CI or
// CROSSCHECK_ISOLATION=os, which must run them.
const required = process.env.CI !== undefined || process.env.CROSSCHECK_ISOLATION === 'os';
const osAvailable = (() => {
  try {
    return resolveIsolation('os') === 'os';
  } catch (error) {
    if (required) throw error;
    return false;
  }
})();
if (required && !isRoot) throw new Error('the OS boundary tests must run as root under CI');
const skipReason = !osAvailable ? 'bubblewrap cannot run here' : !isRoot ? 'the host is not root' : null;
if (skipReason) console.warn(`os-boundary tests skipped: ${skipReason}`);

const task = defineTask({ name: 'f', timeoutMs: 20_000 });
const values = (outcomes: readonly { kind: string; tagged?: unknown }[] | undefined) =>
  outcomes?.map((o) => (o.kind === 'value' ? o.tagged : o));

// A vm escape in the Node worker: the arguments are arrays of the worker's own realm.
const ESCAPE = "const P = __args.constructor.constructor('return process')();";
const node = (sources: string[], options: { shareWorkers?: boolean } = {}) =>
  candidates.fromCommand(['node', NODE_WORKER], sources, { entry: 'f', language: 'javascript', ...options });
// The interpreter itself, not a version manager's shim (a script that runs more of the home folder).
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).trim();
const python = (sources: string[]) =>
  candidates.fromCommand([PYTHON, PY_WORKER], sources, { entry: 'f', language: 'python' });

afterAll(async () => {
  await closeWorkers();
  await closeSandboxPools();
});

describe.skipIf(skipReason !== null)('the OS boundary under a root host', () => {
  it('should refuse a sysctl, core_pattern and sysrq-trigger opened for writing, from Node and from Python', async () => {
    // Arrange: open for writing without writing, so a breach on a weaker boundary changes nothing.
    const targets = ['/proc/sys/kernel/core_pattern', '/proc/sys/vm/swappiness', '/proc/sysrq-trigger'];
    const js = `function f(path) { ${ESCAPE}
      const fs = P.getBuiltinModule('fs');
      try { fs.closeSync(fs.openSync(path, 'r+')); return ['opened', P.getuid()]; }
      catch (e) { return [e.code, P.getuid()]; } }`;
    const py = [
      'import os',
      'def f(path):',
      '    try:',
      '        os.close(os.open(path, os.O_RDWR))',
      '        return ["opened", os.getuid()]',
      '    except OSError as e:',
      '        import errno',
      '        return [errno.errorcode[e.errno], os.getuid()]',
    ].join('\n');

    // Act
    const matrix = await run(
      task,
      [...node([js]), ...python([py])],
      targets.map((t) => [t]),
      { isolation: 'os' },
    );

    // Assert
    for (const row of matrix.outcomes) {
      for (const outcome of values(row) ?? []) {
        const [result, uid] = outcome as [string, number];
        expect(result).not.toBe('opened');
        expect(['EROFS', 'EACCES', 'EPERM', 'ENOENT']).toContain(result);
        expect(uid).not.toBe(0);
      }
    }
  });

  it('should leave no setuid file on the host: the working directory is a nosuid tmpfs of the sandbox', async () => {
    // Arrange: a candidate makes a setuid copy of a shell in its working directory.
    const js = `function f() { ${ESCAPE}
      const fs = P.getBuiltinModule('fs');
      const file = P.cwd() + '/suid-sh';
      fs.copyFileSync('/bin/sh', file);
      fs.chmodSync(file, 0o4755);
      let opened = true;
      try { fs.chmodSync(P.cwd() + '/..', 0o777); } catch { opened = false; }
      const mount = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\\n').find((l) => l.split(' ')[4] === P.cwd());
      return [file, fs.statSync(file).uid, String(mount), opened]; }`;

    // Act
    const matrix = await run(task, node([js]), [[]], { isolation: 'os' });

    // Assert: while the worker is still alive (idle in its pool), nothing of it is on the host.
    expect(matrix.outcomes[0]?.[0]).toMatchObject({ kind: 'value' });
    const [file, owner, mount, opened] = (values(matrix.outcomes[0]) ?? [])[0] as [
      string,
      number,
      string,
      boolean,
    ];
    expect(existsSync(file)).toBe(false);
    expect(opened).toBe(false);
    expect(owner).not.toBe(0);
    expect(mount).toMatch(/nosuid/);
    expect(mount).toMatch(/nodev/);
  });

  it('should cap a fork bomb at the task limit with a value, and a disk filler at the size of its directory', async () => {
    // Arrange: up to 400 sleeping children, then the count that started; and 200 MiB of files.
    const bomb = [
      'import os, time, errno',
      'def f(n):',
      '    kids, why = [], "none"',
      '    for _ in range(n):',
      '        try:',
      '            pid = os.fork()',
      '        except OSError as e:',
      '            why = errno.errorcode[e.errno]',
      '            break',
      '        if pid == 0:',
      '            time.sleep(30)',
      '            os._exit(0)',
      '        kids.append(pid)',
      '    for pid in kids:',
      '        os.kill(pid, 9)',
      '        os.waitpid(pid, 0)',
      '    return [len(kids), why]',
    ].join('\n');
    const filler = [
      'import os, errno',
      'def f(n):',
      '    chunk, total = b"x" * (1 << 20), 0',
      '    try:',
      '        for i in range(n):',
      '            with open("fill-%d" % (i // 16), "ab") as out:',
      '                out.write(chunk)',
      '                out.flush()',
      '            total += len(chunk)',
      '    except OSError as e:',
      '        return [total, errno.errorcode[e.errno]]',
      '    return [total, "none"]',
    ].join('\n');

    // Act
    const bombs = await run(task, python([bomb]), [[400]], { isolation: 'os' });
    const fills = await run(task, python([filler]), [[200]], { isolation: 'os' });

    // Assert
    const [started, why] = (values(bombs.outcomes[0]) ?? [])[0] as [number, string];
    expect(why).toBe('EAGAIN');
    expect(started).toBeLessThan(256);
    const [written, full] = (values(fills.outcomes[0]) ?? [])[0] as [number, string];
    expect(full).toBe('ENOSPC');
    expect(written).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it('should let the worker write its progress file in place but not replace it', async () => {
    // Arrange
    const py = [
      'import os, errno',
      'def f():',
      '    path = os.environ["CROSSCHECK_PROGRESS_FILE"]',
      '    out = []',
      '    for act in (lambda: os.close(os.open(path, os.O_RDWR)), lambda: os.unlink(path), lambda: os.rename(path, path + "x")):',
      '        try:',
      '            act()',
      '            out.append("ok")',
      '        except OSError as e:',
      '            out.append(errno.errorcode[e.errno])',
      '    return out',
    ].join('\n');

    // Act
    const matrix = await run(task, python([py]), [[]], { isolation: 'os' });

    // Assert: writable (the zygote shares the running call through it), but neither removable
    // nor renamable (its folder is root's, and it is a mount point).
    const [[write, unlink, rename]] = values(matrix.outcomes[0]) as [[string, string, string]];
    expect(write).toBe('ok');
    expect(['EACCES', 'EBUSY', 'EPERM']).toContain(unlink);
    expect(['EACCES', 'EBUSY', 'EPERM']).toContain(rename);
  });

  it('should bound the progress file, on the host’s disk, to the size of the working directory', async () => {
    // Arrange: one byte written at an offset past the limit makes the file that long (sparse
    // here, so the test itself fills no disk; a candidate writing real bytes meets the same limit).
    const py = [
      'import os, errno, signal',
      'signal.signal(signal.SIGXFSZ, signal.SIG_IGN)',
      'def f(offset):',
      '    fd = os.open(os.environ["CROSSCHECK_PROGRESS_FILE"], os.O_RDWR)',
      '    try:',
      '        os.pwrite(fd, b"x", offset)',
      '        return "written"',
      '    except OSError as e:',
      '        return errno.errorcode[e.errno]',
      '    finally:',
      '        os.close(fd)',
    ].join('\n');

    // Act
    const matrix = await run(task, python([py]), [[1 << 20], [100 << 20]], { isolation: 'os' });

    // Assert
    expect(values(matrix.outcomes[0])).toEqual(['written', 'EFBIG']);
  });

  it('should bound the ArrayBuffer bytes of JS candidates, which V8’s heap limit does not count', async () => {
    // Arrange: 4 GiB of typed arrays, kept alive, against a 64 MiB heap limit, beside two honest
    // candidates; then, in a run that allows 512 MiB, 1.2 GiB of them, which only a sandbox
    // sized for that limit holds.
    const hog = (mb: number) => `function f(x) {
      const keep = [];
      for (let i = 0; i < ${mb / 64}; i++) keep.push(new Uint8Array(64 << 20).fill(1));
      return keep.length * 64;
    }`;
    const good = 'function f(x) { return x * 2; }';
    const js = (sources: string[]) => candidates.fromSources(sources, { language: 'javascript', entry: 'f' });
    const shown = (row: readonly { kind: string; tagged?: unknown; reason?: string }[] | undefined) =>
      (row ?? []).map((o) => (o.kind === 'value' ? o.tagged : `${o.kind}: ${o.reason ?? ''}`));

    // Act
    const small = await run(task, js([good, hog(4096), good]), [[1], [2]], { isolation: 'os', memoryMb: 64 });
    const large = await run(task, js([hog(1216)]), [[1]], { isolation: 'os', memoryMb: 512 });

    // Assert: the hog met the bound and, run again alone, was blamed; the others were untouched.
    expect(shown(small.outcomes[0])).toEqual([2, 4]);
    for (const outcome of shown(small.outcomes[1])) expect(outcome).toMatch(/^crash: .*memory bound.*alone$/);
    expect(shown(small.outcomes[2])).toEqual([2, 4]);
    expect(shown(large.outcomes[0])).toEqual([1216]);
  }, 120_000);

  it('should refuse ptrace, mount, unshare, keyctl and bpf through the seccomp filter', async () => {
    // Arrange
    const py = [
      'import ctypes, errno',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'CALLS = {"ptrace": 101, "mount": 165, "unshare": 272, "keyctl": 250, "bpf": 321, "perf_event_open": 298}',
      'def f(name):',
      '    args = {"unshare": (0x10000000,), "mount": (b"none", b"/tmp", b"tmpfs", 0, None)}.get(name, (0, 0, 0, 0, 0))',
      '    r = libc.syscall(CALLS[name], *args)',
      '    return [r, errno.errorcode.get(ctypes.get_errno(), "0")]',
    ].join('\n');
    const names = ['ptrace', 'mount', 'unshare', 'keyctl', 'bpf', 'perf_event_open'];

    // Act
    const matrix = await run(
      task,
      python([py]),
      names.map((n) => [n]),
      { isolation: 'os' },
    );

    // Assert: every one fails with EPERM, the filter's answer (x86-64 system call numbers).
    const results = values(matrix.outcomes[0]) as [number, string][];
    if (process.arch === 'x64') expect(results).toEqual(names.map(() => [-1, 'EPERM']));
  });

  it('should refuse through the seccomp filter every call that has the kernel signal another process', async () => {
    // Arrange: processes of a sandbox share its uid, so a Python candidate could otherwise stop
    // or kill its zygote through SIGIO (F_SETOWN and F_SETSIG on a descriptor of its own) or a
    // pidfd, past the audit hook. Each call is made so that without the filter it would succeed
    // (or, for pidfd_send_signal, fail with EBADF): only the filter answers EPERM or ENOSYS.
    const py = [
      'import ctypes, errno, os, signal',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.syscall.restype = ctypes.c_long',
      'def f(name):',
      '    r, w = os.pipe()',
      '    me = os.getpid()',
      '    one = ctypes.c_int(1)',
      '    owner = (ctypes.c_int * 2)(1, me)',
      '    info = ctypes.create_string_buffer(128)',
      '    info[0:12] = (int(signal.SIGWINCH).to_bytes(4, "little") + bytes(4) + (-1).to_bytes(4, "little", signed=True))',
      '    calls = {',
      '        "F_SETOWN": (72, r, 8, me),',
      '        "F_SETOWN, high bits": (72, r, 8 | (1 << 32), me),',
      '        "F_SETSIG": (72, r, 10, int(signal.SIGWINCH)),',
      '        "F_SETOWN_EX": (72, r, 15, ctypes.addressof(owner)),',
      '        "F_SETFL O_ASYNC": (72, r, 4, 0o20000 | 0o4000),',
      '        "FIOASYNC": (16, r, 0x5452, ctypes.addressof(one)),',
      '        "pidfd_open": (434, me, 0),',
      '        "pidfd_send_signal": (424, r, int(signal.SIGWINCH), 0, 0),',
      '        "rt_sigqueueinfo": (129, me, int(signal.SIGWINCH), ctypes.addressof(info)),',
      '        "F_SETFL O_NONBLOCK": (72, r, 4, 0o4000),',
      '    }',
      '    ret = libc.syscall(*(ctypes.c_long(a) for a in calls[name]))',
      '    return [min(ret, 0), errno.errorcode.get(ctypes.get_errno(), "0") if ret < 0 else "0"]',
    ].join('\n');
    const refused: Record<string, string> = {
      F_SETOWN: 'EPERM',
      'F_SETOWN, high bits': 'EPERM',
      F_SETSIG: 'EPERM',
      F_SETOWN_EX: 'EPERM',
      'F_SETFL O_ASYNC': 'EPERM',
      FIOASYNC: 'EPERM',
      pidfd_open: 'ENOSYS',
      pidfd_send_signal: 'ENOSYS',
      rt_sigqueueinfo: 'EPERM',
    };
    const names = [...Object.keys(refused), 'F_SETFL O_NONBLOCK'];

    // Act
    const matrix = await run(
      task,
      python([py]),
      names.map((n) => [n]),
      { isolation: 'os' },
    );

    // Assert: refused by the filter; a plain F_SETFL still works.
    const results = values(matrix.outcomes[0]) as [number, string][];
    if (process.arch === 'x64')
      expect(Object.fromEntries(names.map((n, i) => [n, results[i]]))).toEqual({
        ...Object.fromEntries(Object.entries(refused).map(([n, e]) => [n, [-1, e]])),
        'F_SETFL O_NONBLOCK': [0, '0'],
      });
  });
});

describe('command workers serve one candidate each', () => {
  it('should keep a candidate that hooks its worker from forging the next candidate’s results', async () => {
    // Arrange: the hooker rewrites every reply its worker sends from now on; the innocent
    // candidates, more than there are workers, spend CPU so they wait for a worker in turn.
    const hooker = `function f(x) {
      const J = __args.constructor.constructor('return JSON')();
      if (!J.hooked) {
        const original = J.stringify;
        J.stringify = (m) => original(m && m.t === 'out' ? { ...m, outcomes: m.outcomes.map(() => [0, 'forged']) } : m);
        J.hooked = true;
      }
      return x; }`;
    const innocent = 'function f(x) { const end = Date.now() + 100; while (Date.now() < end) {} return x; }';
    const innocents = Array.from({ length: availableParallelism() + 1 }, (_, i) => `${innocent} // ${i}`);

    // Act
    const matrix = await run(task, node([hooker, ...innocents]), [[1], [2]]);
    const shared = await run(task, node([hooker, ...innocents], { shareWorkers: true }), [[1], [2]]);

    // Assert: fresh workers by default; the option documented as trust does share them.
    for (const row of matrix.outcomes.slice(1)) expect(values(row)).toEqual([1, 2]);
    expect(shared.outcomes.slice(1).flatMap((row) => values(row))).toContain('forged');
  });

  it('should refuse a shareWorkers that is not a boolean', () => {
    expect(() => node(['function f() {}'], { shareWorkers: 'yes' as never })).toThrow(/shareWorkers/);
  });
});

// A host in a process of its own: a host whose event loop blocks or that dies must fail the test,
// not hang or kill the test runner.
const HOST = (isolation: string, source: string) => `
import { candidates, defineTask, run } from ${JSON.stringify(join(PROJECT, 'src', 'index.ts'))};
import { closeWorkers } from ${JSON.stringify(join(PROJECT, 'src', 'exec', 'command', 'index.ts'))};
const cs = candidates.fromCommand(['node', ${JSON.stringify(NODE_WORKER)}], [${JSON.stringify(source)}], { entry: 'f', language: 'javascript' });
const m = await run(defineTask({ name: 'f', timeoutMs: 20000 }), cs, [[1]], { isolation: ${JSON.stringify(isolation)} });
await closeWorkers();
console.log(JSON.stringify(m.outcomes));
`;

const hostRun = (isolation: string, source: string) =>
  execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOST(isolation, source)], {
    cwd: PROJECT,
    reject: false,
    timeout: 90_000,
  });

const modes = [...(skipReason === null ? ['os'] : []), 'process'];

describe.each(modes)('the host and a candidate’s files (%s)', (isolation) => {
  it('should not block on a FIFO or follow a symlink put in place of the progress file', async () => {
    // Arrange: the candidate swaps the progress file for a FIFO (a link where that fails) and
    // ends its worker, so the host reads the file's last value.
    const source = `function f(x) { ${ESCAPE}
      const fs = P.getBuiltinModule('fs'); const cp = P.getBuiltinModule('child_process');
      const file = P.env.CROSSCHECK_PROGRESS_FILE;
      try { fs.renameSync(file, file + '.old'); cp.execFileSync('mkfifo', [file]); }
      catch { try { fs.unlinkSync(file); fs.symlinkSync('/etc/shadow', file); } catch {} }
      P.exit(3); }`;

    // Act
    const result = await hostRun(isolation, source);

    // Assert: the run ends (the call crashed) instead of blocking the host for good.
    expect(result.timedOut).toBe(false);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0][0]).toMatchObject({ kind: 'crash' });
  });

  it('should survive a folder chain deeper than PATH_MAX left behind, and remove it in the background', async () => {
    // Arrange: 40 levels of 200-character names, 8,000 characters, twice PATH_MAX (4,096).
    const source = `function f(x) { ${ESCAPE}
      const fs = P.getBuiltinModule('fs');
      const cwd = P.cwd();
      const name = 'd'.repeat(200);
      for (let i = 0; i < 40; i++) { fs.mkdirSync(name); P.chdir(name); }
      fs.writeFileSync('deep', 'x');
      return cwd; }`;

    // Act
    const result = await hostRun(isolation, source);

    // Assert: the host finished and reported; its workspace goes within a few seconds.
    expect(result.exitCode, result.stderr).toBe(0);
    const [outcome] = JSON.parse(result.stdout)[0];
    expect(outcome).toMatchObject({ kind: 'value' });
    const workspace = dirname(outcome.tagged as string);
    expect(workspace.startsWith(tmpdir())).toBe(true);
    for (let i = 0; i < 100 && existsSync(workspace); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(workspace)).toBe(false);
  });
});
