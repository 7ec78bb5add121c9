import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closePythonWorkers, configurePython } from '../../src/exec/python/index.ts';
import { candidates, defineTask, type Outcome, run } from '../../src/index.ts';

// What the zygote does to make a candidate cheaper (directories handed from one child to the
// next, `site` replaced by the harness, cached exception heads, threading's fork hook emptied)
// must leave every candidate exactly what it would get alone. One worker, so that every
// candidate of a run goes through the same zygote, one after another.

const python = (sources: string[], entry = 'f') =>
  candidates.fromSources(sources, { language: 'python', entry });
const task = defineTask({ name: 'f', timeoutMs: 2000 });
const values = (outcomes: readonly Outcome[] | undefined) =>
  outcomes?.map((o) => (o.kind === 'value' ? o.tagged : `${o.kind}: ${'message' in o ? o.message : ''}`));

const scratch = mkdtempSync(join(tmpdir(), 'crosscheck-zygote-test-'));

afterEach(async () => {
  configurePython({});
  await closePythonWorkers();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Records, when it loads, what its directory looked like on arrival, then leaves something
// behind in it for the next candidate of the same worker.
const arrivalThenLeave = (leave: string, tag: string) =>
  [
    'import os',
    'here = os.getcwd()',
    'st = os.stat(here, follow_symlinks=False)',
    'try:',
    '    attrs = sorted(os.listxattr(here))',
    'except OSError:',
    '    attrs = []',
    'ARRIVAL = [sorted(os.listdir(here)), oct(st.st_mode), st.st_mtime_ns == 123456789 * 10**9, attrs]',
    'try:',
    ...leave.split('\n').map((line) => `    ${line}`),
    'except OSError:',
    '    pass',
    'def f(x):',
    '    return ARRIVAL',
    `# ${tag}`,
    '',
  ].join('\n');

const LEAVE: Record<string, string> = {
  nothing: 'pass',
  file: 'open("note.txt", "w").write("from the previous candidate")',
  subdir: 'os.mkdir("kept")',
  hidden: 'open(".hidden", "w").write("x")',
  xattr: 'os.setxattr(here, "user.crosscheck", b"leak")',
  chmod: 'os.chmod(here, 0o755)',
  utime: 'os.utime(here, (123456789, 123456789))',
  replaced: 'os.rmdir(here)\nos.mkdir(here, 0o755)\nopen(os.path.join(here, "note.txt"), "w").write("x")',
  symlink: 'os.rmdir(here)\nos.symlink("/tmp", here)',
};

describe('python zygote: each candidate gets a fresh directory', () => {
  it('should give the next candidate an empty, untouched directory whatever the last one left', async () => {
    // Arrange: each kind of trace, twice in a row, and a well-behaved candidate after each.
    configurePython({ workers: 1 });
    const sources = Object.entries(LEAVE).flatMap(([kind, leave]) => [
      arrivalThenLeave(leave, `${kind} 1`),
      arrivalThenLeave(leave, `${kind} 2`),
      arrivalThenLeave('pass', `after ${kind}`),
    ]);

    // Act
    const matrix = await run(task, python(sources), [[1], [2]]);

    // Assert
    const fresh = [[], '0o40700', false, []];
    sources.forEach((_, i) => {
      expect(values(matrix.outcomes[i]), `candidate ${i}`).toEqual([fresh, fresh]);
    });
  });
});

// The zygote's own bookkeeping, driven directly: a candidate that got past the audit hook (as
// readline's history files once did) could write into a spare directory of an earlier child,
// or beside the directories, after the zygote last checked them. What it handed out next must
// still be empty, and the working folder hold nothing but the zygote's directories.
const PLANTED = `
import json, os, sys, tempfile
sys.path.insert(0, sys.argv[1])
from crosscheck_worker import zygote as z

import shutil
out = {}
for kind in ("file", "xattr", "chmod", "replaced", "ballast"):
    work = tempfile.mkdtemp()
    zy = z.Zygote(None, os.open(os.devnull, os.O_WRONLY), [0], work, 0)
    made = zy.new_dir()
    zy.release_dir(made)
    assert zy.spare == [made], (zy.spare, made)
    if kind == "file":
        open(os.path.join(made, "config.txt"), "w").write("planted by another candidate")
    elif kind == "xattr":
        try:
            os.setxattr(made, "user.crosscheck", b"planted")
        except OSError:
            open(os.path.join(made, ".x"), "w").write("no xattrs here")
    elif kind == "chmod":
        os.chmod(made, 0o755)
    elif kind == "replaced":
        os.rmdir(made)
        os.symlink(tempfile.gettempdir(), made)
    elif kind == "ballast":
        open(os.path.join(work, "ballast"), "w").write("x" * 4096)
        os.mkdir(os.path.join(work, "stray"))
    got = zy.new_dir()
    st = os.lstat(got)
    out[kind] = [os.listdir(got), oct(st.st_mode), sorted(os.listdir(work)) == [os.path.basename(got)]]
    shutil.rmtree(work)
print(json.dumps(out))
`;

describe('python zygote: directories changed after they were checked', () => {
  it('should hand out no spare directory that changed, and clear what is left beside the directories', () => {
    // Act
    const run = spawnSync('python3', ['-c', PLANTED, join(import.meta.dirname, '..', '..', 'python')], {
      encoding: 'utf8',
    });

    // Assert
    expect(run.status, run.stderr).toBe(0);
    const fresh = [[], '0o40700', true];
    expect(JSON.parse(run.stdout)).toEqual({
      file: fresh,
      xattr: fresh,
      chmod: fresh,
      replaced: fresh,
      ballast: fresh,
    });
  });
});

describe('python zygote: site-packages without site', () => {
  it('should import site-packages modules and .pth directories, run no .pth import line, and keep exit()', async () => {
    // Arrange: a virtualenv whose site-packages holds a module, a .pth naming a directory, and
    // a .pth whose import line would mark builtins if it ran.
    const venv = join(scratch, 'venv');
    await execa('python3', ['-m', 'venv', '--without-pip', venv]);
    const { stdout } = await execa(join(venv, 'bin', 'python'), [
      '-c',
      'import site; print(site.getsitepackages()[0])',
    ]);
    const sitePackages = stdout.trim();
    // Inside the virtualenv: under bubblewrap only the interpreter's prefix is mounted.
    const extra = join(venv, 'extra');
    mkdirSync(extra);
    writeFileSync(join(sitePackages, 'cc_site_probe.py'), 'VALUE = "from site-packages"\n');
    writeFileSync(join(extra, 'cc_pth_probe.py'), 'VALUE = "from a .pth directory"\n');
    writeFileSync(join(sitePackages, 'cc_extra.pth'), `# a comment\n${extra}\n`);
    writeFileSync(join(sitePackages, 'cc_side.py'), 'import builtins\nbuiltins.CC_PTH_RAN = True\n');
    writeFileSync(join(sitePackages, 'cc_hook.pth'), 'import cc_side\n');
    configurePython({ python: venv, workers: 1 });
    const source = [
      'import builtins, sys',
      'import cc_site_probe, cc_pth_probe',
      'def f(x):',
      '    return [cc_site_probe.VALUE, cc_pth_probe.VALUE, hasattr(builtins, "CC_PTH_RAN"),',
      '            callable(exit), callable(quit), sys.prefix.endswith("venv")]',
      '',
    ].join('\n');
    const exits = 'def f(x):\n    exit(4)\n';

    // Act
    const matrix = await run(task, python([source, exits]), [[1]]);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual([
      ['from site-packages', 'from a .pth directory', false, true, true, true],
    ]);
    expect(matrix.outcomes[1]?.[0]).toMatchObject({ kind: 'error', name: 'SystemExit', message: '4' });
  });
});

describe('python zygote: exception classes', () => {
  it('should classify each exception by its class at the time it is raised', async () => {
    // Arrange: built-in classes (whose heads are kept for the run), a subclass, a class that
    // renames itself between calls, and a metaclass that claims to equal ValueError.
    configurePython({ workers: 1 });
    const builtinErrors = [
      'def f(x):',
      '    if x % 3 == 0:',
      '        raise ValueError("bad %d" % x)',
      '    if x % 3 == 1:',
      '        raise KeyError(x)',
      '    raise TypeError("type \\"%d\\"" % x)',
      '',
    ].join('\n');
    const renamed = [
      'class E(Exception):',
      '    pass',
      'def f(x):',
      '    E.__name__ = "ValueError" if x % 2 else "Other"',
      '    raise E("m%d" % x)',
      '',
    ].join('\n');
    const impostor = [
      'class Meta(type):',
      '    def __eq__(cls, other):',
      '        return True',
      '    def __hash__(cls):',
      '        return hash(ValueError)',
      'class E(Exception, metaclass=Meta):',
      '    pass',
      'def f(x):',
      '    raise E("m")',
      '',
    ].join('\n');
    const sub = 'class Bad(ValueError):\n    pass\ndef f(x):\n    raise Bad(str(x))\n';
    const inputs = [[0], [1], [2], [3], [4], [5]];

    // Act
    const matrix = await run(task, python([builtinErrors, renamed, impostor, sub]), inputs);

    // Assert
    const brief = (row: readonly Outcome[] | undefined) =>
      row?.map((o) => (o.kind === 'invalid' || o.kind === 'error' ? [o.kind, o.name, o.message] : o.kind));
    expect(brief(matrix.outcomes[0])).toEqual([
      ['invalid', 'ValueError', 'bad 0'],
      ['error', 'KeyError', '1'],
      ['error', 'TypeError', 'type "2"'],
      ['invalid', 'ValueError', 'bad 3'],
      ['error', 'KeyError', '4'],
      ['error', 'TypeError', 'type "5"'],
    ]);
    expect(brief(matrix.outcomes[1])).toEqual(
      inputs.map(([x]) =>
        (x as number) % 2 ? ['invalid', 'ValueError', `m${x}`] : ['error', 'Other', `m${x}`],
      ),
    );
    expect(brief(matrix.outcomes[2])).toEqual(inputs.map(() => ['error', 'E', 'm']));
    expect(brief(matrix.outcomes[3])).toEqual(inputs.map(([x]) => ['invalid', 'Bad', String(x)]));
  });
});

describe('python zygote: threading and random in children', () => {
  it('should keep threading usable but refuse threads, and give each candidate its own random stream', async () => {
    // Arrange
    configurePython({ workers: 1 });
    const threads = [
      'import threading',
      'def f(x):',
      '    lock = threading.Lock()',
      '    with lock:',
      '        name = threading.current_thread().name',
      '    alive = threading.main_thread().is_alive()',
      '    try:',
      '        threading.Thread(target=print).start()',
      '        started = "started"',
      '    except PermissionError as e:',
      '        started = str(e)',
      '    return [name, alive, threading.active_count(), started]',
      '',
    ].join('\n');
    const draw = (k: number) => `import random\ndef f(x):\n    return random.getrandbits(64)\n# ${k}\n`;

    // Act
    const matrix = await run(task, python([threads, draw(1), draw(2), draw(3)]), [[1]]);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual([
      ['MainThread', true, 1, 'crosscheck: starting threads is not allowed for a candidate'],
    ]);
    const draws = [1, 2, 3].map((i) => JSON.stringify(matrix.outcomes[i]?.[0]));
    expect(new Set(draws).size).toBe(3);
  });
});

describe('python zygote: descriptors', () => {
  // Python 3.9 closes descriptors one number at a time; the child lists the open ones instead.
  // Checked on each interpreter found here: python3, and 3.9 / 3.10 on PATH or under pyenv.
  const pyenv = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
  const fromPyenv = existsSync(pyenv)
    ? readdirSync(pyenv)
        .filter((v) => /^3\.(9|10)\./.test(v))
        .map((v) => join(pyenv, v, 'bin', 'python3'))
    : [];
  const interpreters = ['python3', 'python3.9', 'python3.10', ...fromPyenv].flatMap((name) => {
    const found = spawnSync(name, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
    return found.status === 0 ? [found.stdout.trim()] : [];
  });

  it.each([...new Set(interpreters)])(
    'should leave a candidate no descriptor above 5 (its lifeline) under %s',
    async (exe) => {
      // Arrange
      configurePython({ python: exe, workers: 1 });
      const probe = [
        'import os',
        'def f(x):',
        '    open_fds = []',
        '    for fd in range(1024):',
        '        try:',
        '            os.fstat(fd)',
        '            open_fds.append(fd)',
        '        except OSError:',
        '            pass',
        '    return open_fds',
        '',
      ].join('\n');

      // Act
      const matrix = await run(task, python([probe, `${probe}# again\n`]), [[1]]);

      // Assert
      expect(values(matrix.outcomes[0])).toEqual([[0, 1, 2, 3, 4, 5]]);
      expect(values(matrix.outcomes[1])).toEqual([[0, 1, 2, 3, 4, 5]]);
    },
  );
});
