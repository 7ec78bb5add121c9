import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closePythonWorkers, configurePython, harnessPath } from '../../src/exec/python/index.ts';
import {
  Complex,
  CrosscheckError,
  candidates,
  decode,
  defineTask,
  encode,
  FrozenSet,
  PyDict,
  pyFloat,
  run,
  tuple,
} from '../../src/index.ts';

const python = (sources: string[], entry = 'f') =>
  candidates.fromSources(sources, { language: 'python', entry });
const task = defineTask({ name: 'f', timeoutMs: 500 });
const values = (outcomes: readonly { kind: string; tagged?: unknown }[] | undefined) =>
  outcomes?.map((o) => (o.kind === 'value' ? o.tagged : o.kind));

const scratch = mkdtempSync(join(tmpdir(), 'crosscheck-python-test-'));

afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await closePythonWorkers();
});

describe('python runner: values', () => {
  it('should round-trip every tagged type through a Python identity function', async () => {
    // Arrange
    const inputs = [
      [1, -7, 10n ** 30n, 'text', true, null],
      [pyFloat(4), 0.5, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      [tuple<unknown>(1, 'a', tuple()), new Set([1, 2]), new FrozenSet(['x'])],
      [
        new PyDict<unknown, unknown>([
          [tuple(1, 2), 'pair'],
          [3, [true, null]],
        ]),
        { a: 1, b: 'two' },
      ],
      [new Uint8Array([0, 255, 16]), new Complex(1.5, Number.NaN), 'héllo \u{1F600} "quoted"'],
    ];

    // Act
    const matrix = await run(task, python(['def f(*args):\n    return args\n']), inputs);

    // Assert: what comes back decodes to the argument tuple as sent (plain objects become dicts).
    matrix.outcomes[0]?.forEach((outcome, j) => {
      const sent = (encode(inputs[j]) as unknown[]).map((arg) =>
        typeof arg === 'object' &&
        arg !== null &&
        !Array.isArray(arg) &&
        !Object.keys(arg)[0]?.startsWith('$')
          ? { $dict: Object.entries(arg) }
          : arg,
      );
      expect(outcome.kind).toBe('value');
      expect(outcome.kind === 'value' && outcome.value).toEqual(decode({ $tuple: sent } as never));
    });
  });

  it('should keep an integral Python float a float and a big int exact', async () => {
    // Act
    const matrix = await run(task, python(['def f(x):\n    return [x / 2, x * 10 ** 20, float(x)]\n']), [
      [8],
    ]);

    // Assert
    const outcome = matrix.outcomes[0]?.[0];
    expect(outcome?.kind === 'value' && outcome.tagged).toEqual([
      { $float: 4 },
      { $int: '800000000000000000000' },
      { $float: 8 },
    ]);
    expect(decode({ $float: 4 })).toEqual(pyFloat(4));
  });

  it('should write rows of ints as the general encoder does, and send other rows its way', async () => {
    // Arrange: lists of equal-length rows of small ints take a shorter way out of the harness, at
    // the top or inside another value; each shape here sits on one side of its edge (bools,
    // subclasses, big ints, uneven rows).
    const shapes = [
      'sorted({3: 30, 1: 10}.items())',
      '[[1, 2], [3, 4]]',
      '[(1, 2), [3, 4]]',
      '[(5,), (6,)]',
      '[(), ()]',
      '[(1, True)]',
      '[(1, 2 ** 53), (-(2 ** 53), 0)]',
      '[(1, 2 ** 53 + 1)]',
      '[(1, 2), (3,)]',
      '[(1, 2.0)]',
      '[(Liar(3), 1)]',
      '[[0, 1]] * 2049',
      '("n", [(1, 2), (3, 4)])',
      '{"k": [[1, True], [2, 3]]}',
    ];
    const source = [
      'class Liar(int):',
      '    def __repr__(self):',
      '        return "99"',
      '    def __index__(self):',
      '        return 99',
      '    def __format__(self, spec):',
      '        return "99"',
      '',
      'def f(k):',
      `    return [${shapes.join(', ')}][k]`,
      '',
    ].join('\n');

    // Act
    const matrix = await run(
      task,
      python([source]),
      shapes.map((_, k) => [k]),
    );

    // Assert
    const t = (...items: unknown[]) => ({ $tuple: items });
    expect(values(matrix.outcomes[0])).toEqual([
      [t(1, 10), t(3, 30)],
      [
        [1, 2],
        [3, 4],
      ],
      [t(1, 2), [3, 4]],
      [t(5), t(6)],
      [t(), t()],
      [t(1, true)],
      [t(1, 2 ** 53), t(-(2 ** 53), 0)],
      [t(1, { $int: String(2n ** 53n + 1n) })],
      [t(1, 2), t(3)],
      [t(1, { $float: 2 })],
      [t(3, 1)],
      Array.from({ length: 2049 }, () => [0, 1]),
      t('n', [t(1, 2), t(3, 4)]),
      {
        $dict: [
          [
            'k',
            [
              [1, true],
              [2, 3],
            ],
          ],
        ],
      },
    ]);
  });

  it('should give each call its own copy of mutable arguments', async () => {
    // Arrange
    const mutate =
      'def f(xs, d):\n    xs.append(len(xs))\n    d["seen"] = d.get("seen", 0) + 1\n    return [xs, d]\n';
    const input = [[1, 2], new PyDict([['k', [0]]])];

    // Act
    const matrix = await run(task, python([mutate]), [input, input, input]);

    // Assert
    const expected = [
      [1, 2, 2],
      {
        $dict: [
          ['k', [0]],
          ['seen', 1],
        ],
      },
    ];
    expect(values(matrix.outcomes[0])).toEqual([expected, expected, expected]);
  });
});

describe('python runner: inputs', () => {
  it('should read the arguments of each call without touching the inputs the zygote holds', async () => {
    // Arrange: 20,000 inputs of 30 big ints and a string, about 30 MB of Python objects in the
    // zygote. A child that used them in place copies each page of them it touches (a reference
    // count is a write): 2,700 page faults from the 1,000th call to the 19,000th, measured. One
    // that reads its own copy of each call's arguments from the packed form reuses the memory of
    // the call before: 130 to 150. The candidate reports its own faults.
    const inputs = Array.from({ length: 20_000 }, (_, i) => [
      Array.from({ length: 30 }, (_, k) => 100_000 + ((i * 31 + k * 17) % 900_000)),
      `input ${i}`,
    ]);
    const faults =
      'import resource\ndef f(xs, tag):\n    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n';

    // Act
    const matrix = await run(defineTask({ name: 'f' }), python([faults]), inputs);

    // Assert: a few hundred faults at most (the results held until they are sent, the pools
    // that grow), not one per page of inputs.
    const at = (j: number): number => {
      const o = matrix.outcomes[0]?.[j];
      if (o?.kind !== 'value') throw new Error(`call ${j}: ${JSON.stringify(o)}`);
      return o.value as number;
    };
    expect(at(19_000) - at(1_000)).toBeLessThan(1_000);
  });

  it('should give every input type the same value whether it is packed or not', async () => {
    // Arrange: packable inputs (atoms in builtin containers), and ones that are not (a complex,
    // a date), side by side, each repeated so that calls reuse the same stored input.
    const inputs = [
      [[1, 2, 3], 'a', 2n ** 70n, pyFloat(2), -0, true, null],
      [new Set([1, 'x']), new FrozenSet([tuple(1, 2)]), new PyDict([[tuple(1), [1.5]]]), new Uint8Array([7])],
      [new Complex(1, 2), [new Complex(0, -1)]],
      [new Date('2024-01-02T03:04:05Z'), { k: [{ j: null }] }],
    ];
    const twice = [...inputs, ...inputs];
    const identity =
      'def f(*args):\n    args[0] if not isinstance(args[0], list) else args[0].append(0)\n    return [[type(a).__name__ for a in args], list(args)]\n';

    // Act
    const matrix = await run(defineTask({ name: 'f' }), python([identity]), twice);

    // Assert: both runs of each input see the same types and values (a fresh copy each: the
    // first call's append is not seen by the second).
    const row = matrix.outcomes[0] ?? [];
    for (let j = 0; j < inputs.length; j++) {
      expect(row[j]?.kind).toBe('value');
      expect(row[j + inputs.length]).toEqual(row[j]);
    }
    const types = row.map((o) => (o.kind === 'value' ? (o.tagged as unknown[])[0] : o.kind));
    expect(types.slice(0, 4)).toEqual([
      ['list', 'str', 'int', 'float', 'float', 'bool', 'NoneType'],
      ['set', 'frozenset', 'dict', 'bytes'],
      ['complex', 'list'],
      ['datetime', 'dict'],
    ]);
  });
});

describe('python runner: outcomes', () => {
  it('should classify ValueError (and its subclasses) as invalid and other exceptions as errors', async () => {
    // Arrange
    const code = [
      'def f(x):',
      '    if x == 0:',
      '        return int("zero")',
      '    if x == 1:',
      '        return b"\\xff".decode("utf-8")',
      '    if x == 2:',
      '        return {}["missing"]',
      '    return x',
    ].join('\n');

    // Act
    const matrix = await run(task, python([code]), [[0], [1], [2], [3]]);

    // Assert
    expect(matrix.outcomes[0]).toEqual([
      { kind: 'invalid', name: 'ValueError', message: "invalid literal for int() with base 10: 'zero'" },
      {
        kind: 'invalid',
        name: 'UnicodeDecodeError',
        message: "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
      },
      { kind: 'error', name: 'KeyError', message: "'missing'" },
      expect.objectContaining({ kind: 'value', tagged: 3 }),
    ]);
  });

  it('should honour the invalid classes of the task', async () => {
    // Arrange
    const strictTask = defineTask({ name: 'f', invalidInput: ['TypeError'] });

    // Act
    const matrix = await run(strictTask, python(['def f(x):\n    return x + "s"\n']), [[1]]);

    // Assert
    expect(matrix.outcomes[0]?.[0]).toEqual({
      kind: 'invalid',
      name: 'TypeError',
      message: "unsupported operand type(s) for +: 'int' and 'str'",
    });
  });

  it('should turn malformed source and a missing entry into error outcomes with fixes', async () => {
    // Arrange
    const sources = [
      '```python\ndef f(x)\n    return x\n```',
      'def helper(x):\n    return x\n\ndef other(y):\n    return y\n',
      'import not_a_module_anywhere\n\ndef f(x):\n    return x\n',
      'raise SystemExit(2)\n',
    ];

    // Act
    const matrix = await run(task, python(sources), [[1], [2]]);

    // Assert
    expect(matrix.outcomes.map((row) => row[1])).toEqual([
      {
        kind: 'error',
        name: 'CompileError',
        // Python 3.10 and later name the missing token; 3.9 does not.
        message: expect.stringMatching(
          /^SyntaxError: (expected ':'|invalid syntax) \(<candidate>, line 1\)$/,
        ),
      },
      {
        kind: 'error',
        name: 'EntryNotFound',
        message:
          'the code defines no function `f`; it defines `helper`, `other`. Set `entry` to the function to call.',
      },
      {
        kind: 'error',
        name: 'ModuleNotFoundError',
        message: "while loading the candidate: No module named 'not_a_module_anywhere'",
      },
      { kind: 'error', name: 'SystemExit', message: 'while loading the candidate: 2' },
    ]);
  });

  it('should skip the rest of a candidate once its timeout budget is spent', async () => {
    // Act
    const matrix = await run(
      task,
      python(['def f(x):\n    while True:\n        pass\n']),
      [[1], [2], [3], [4], [5]],
      {
        timeoutMs: 200,
        budgetMs: 500,
      },
    );

    // Assert
    expect(matrix.outcomes[0]).toEqual([
      { kind: 'timeout', reason: 'call', ms: 200 },
      { kind: 'timeout', reason: 'call', ms: 200 },
      { kind: 'timeout', reason: 'call', ms: 200 },
      { kind: 'timeout', reason: 'budget', ms: 0 },
      { kind: 'timeout', reason: 'budget', ms: 0 },
    ]);
    expect(matrix.candidates[0]?.stats).toMatchObject({ timeouts: 3, budgetSpent: true });
  });

  it('should resume the batch after an input that killed or hung its worker', async () => {
    // Arrange
    const dies = 'import os\n\ndef f(x):\n    if x == 2:\n        os._exit(9)\n    return x * 10\n';
    const hangs = [
      'import signal',
      '',
      'def f(x):',
      '    if x == 3:',
      '        signal.signal(signal.SIGALRM, signal.SIG_IGN)',
      '        while True:',
      '            pass',
      '    return x * 100',
    ].join('\n');
    const inputs = Array.from({ length: 6 }, (_, i) => [i]);

    // Act
    const matrix = await run(task, python([dies, hangs]), inputs, { timeoutMs: 300 });

    // Assert
    expect(values(matrix.outcomes[0])).toEqual([0, 10, 'crash', 30, 40, 50]);
    expect(matrix.outcomes[0]?.[2]).toEqual({ kind: 'crash', reason: 'the worker exited with code 9' });
    expect(values(matrix.outcomes[1])).toEqual([0, 100, 200, 'timeout', 400, 500]);
    expect(matrix.candidates[0]?.stats).toMatchObject({ crashes: 1, restarts: 1, timeouts: 0 });
    expect(matrix.candidates[1]?.stats).toMatchObject({ crashes: 0, restarts: 1, timeouts: 1 });
  });

  it('should stop a running batch when the run is aborted', async () => {
    // Arrange
    const controller = new AbortController();
    const slow = 'import time\n\ndef f(x):\n    time.sleep(0.05)\n    return x\n';
    const inputs = Array.from({ length: 400 }, (_, i) => [i]);
    setTimeout(() => controller.abort(new Error('enough')), 300);

    // Act
    const result = run(task, python([slow]), inputs, { signal: controller.signal });

    // Assert
    await expect(result).rejects.toMatchObject({
      code: 'ABORTED',
      message: expect.stringMatching(
        /^run: aborted after \d+ of 400 calls; `error.partial` holds what finished\.$/,
      ),
    });
    const partial = await result.catch((error: { partial: { outcomes: unknown[][] } }) => error.partial);
    const done = partial.outcomes[0]?.filter((o) => o !== undefined).length ?? 0;
    expect(done).toBeLessThan(400);
  });

  it('should spread one candidate with many inputs over the pool and keep input order', async () => {
    // Arrange
    const inputs = Array.from({ length: 3000 }, (_, i) => [i]);

    // Act
    const matrix = await run(task, python(['def f(x):\n    return x * x\n']), inputs);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual(inputs.map(([x]) => (x as number) * (x as number)));
  });

  it('should run a split candidate on its share of the inputs, then the whole set, across failures', async () => {
    // Arrange: mutable arguments (each call gets a copy), and a call that kills its child in the
    // second share, so the rest of that share reruns in a fresh child from the same input set.
    const inputs = Array.from({ length: 3000 }, (_, i) => [[i, 1]]);
    const first = (args: number[][]) => args[0]?.[0] as number;
    const split = python([
      'import os\n\ndef f(xs):\n    xs.append(10)\n    if xs[0] == 2500:\n        os._exit(3)\n    return sum(xs)\n',
    ]);
    const pair = python(['def f(xs):\n    return xs[0]\n', 'def f(xs):\n    xs.pop()\n    return len(xs)\n']);
    const expected = inputs.map((args) => (first(args) === 2500 ? 'crash' : first(args) + 11));

    // Act: split (a share per worker), whole (two candidates), split again.
    const once = await run(task, split, inputs);
    const whole = await run(task, pair, inputs);
    const again = await run(task, split, inputs);

    // Assert
    expect(values(once.outcomes[0])).toEqual(expected);
    expect(values(whole.outcomes[0])).toEqual(inputs.map(first));
    expect(values(whole.outcomes[1])).toEqual(inputs.map(() => 1));
    expect(values(again.outcomes[0])).toEqual(expected);
  });
});

describe('python runner: standard library', () => {
  it('should let candidates import and use the standard library under the sandbox policy', async () => {
    // Arrange: modules that read their own files, use frames (namedtuple) or the hash seed.
    const code = [
      'import collections, datetime, fractions, functools, hashlib, heapq, itertools, math, random, re, string, tempfile, typing',
      '',
      'Point = collections.namedtuple("Point", "x y")',
      '',
      'def f(x):',
      '    p = Point(x, fractions.Fraction(1, 3) * 3)',
      '    digest = hashlib.sha256(str(x).encode()).hexdigest()[:8]',
      '    with tempfile.TemporaryFile() as fh:',
      '        fh.write(b"scratch")',
      '    return [p.x, int(p.y), digest, re.sub(r"\\d", "#", "a1b2"), heapq.nsmallest(2, [5, 1, 3])]',
    ].join('\n');

    // Act
    const matrix = await run(task, python([code]), [[7]]);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual([[7, 1, '7902699b', 'a#b#', [1, 3]]]);
  });
});

describe('python runner: reference', () => {
  it('should run a Python ground truth as the task reference', async () => {
    // Arrange
    const [reference] = python(['def f(xs):\n    return sorted(xs)\n']);
    const refTask = defineTask({ name: 'f', reference });
    const cs = python(['def f(xs):\n    return sorted(xs)\n', 'def f(xs):\n    return xs\n']);

    // Act
    const matrix = await run(refTask, cs, [[[3, 1, 2]], [[1, 2]]]);

    // Assert
    expect(values(matrix.reference?.outcomes)).toEqual([
      [1, 2, 3],
      [1, 2],
    ]);
    const disagreements = matrix.outcomes.map(
      (row) =>
        row.filter(
          (o, j) => JSON.stringify(values([o])) !== JSON.stringify(values([matrix.reference!.outcomes[j]!])),
        ).length,
    );
    expect(disagreements).toEqual([0, 1]);
  });
});

describe('python runner: interpreter', () => {
  const saved = process.env.CROSSCHECK_PYTHON;
  afterEach(() => {
    if (saved === undefined) delete process.env.CROSSCHECK_PYTHON;
    else process.env.CROSSCHECK_PYTHON = saved;
    configurePython({});
  });

  it('should reject a missing interpreter with a typed error that says how to fix it', async () => {
    // Arrange
    process.env.CROSSCHECK_PYTHON = '/nonexistent/python3';

    // Act
    const result = run(task, python(['def f(x):\n    return x\n']), [[1]]);

    // Assert
    await expect(result).rejects.toBeInstanceOf(CrosscheckError);
    await expect(result).rejects.toMatchObject({
      code: 'RUNTIME_MISSING',
      message:
        "Python interpreter `/nonexistent/python3` (from CROSSCHECK_PYTHON) was not found. Install Python 3.9 or newer, or point crosscheck at one: set CROSSCHECK_PYTHON, or call configurePython({ python: '/path/to/python3' }) (a virtualenv directory works too).",
    });
  });

  it('should reject a Python older than 3.9', async () => {
    // Arrange: a stand-in interpreter that reports 3.8.
    const fake = join(scratch, 'python3.8');
    writeFileSync(fake, '#!/bin/sh\necho \'[[3, 8, 18], "/usr/bin/python3.8"]\'\n', { mode: 0o755 });
    configurePython({ python: fake });

    // Act
    const result = run(task, python(['def f(x):\n    return x\n']), [[1]]);

    // Assert
    await expect(result).rejects.toMatchObject({
      code: 'RUNTIME_MISSING',
      message: expect.stringMatching(
        /^Python interpreter `.*python3\.8` \(from configurePython\(\{ python \}\)\) is Python 3\.8\.18; crosscheck needs 3\.9 or newer\. Install/,
      ),
    });
  });

  it('should accept a virtualenv-style directory as the interpreter', async () => {
    // Arrange
    const { stdout } = await execa('python3', ['-c', 'import sys; print(sys.executable)']);
    const venv = join(scratch, 'venv');
    mkdirSync(join(venv, 'bin'), { recursive: true });
    symlinkSync(stdout.trim(), join(venv, 'bin', 'python'));
    configurePython({ python: venv });

    // Act
    const matrix = await run(task, python(['def f(x):\n    return x + 1\n']), [[1]]);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual([2]);
  });

  it('should validate configurePython options', () => {
    expect(() => configurePython({ workers: 0 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: 'Expected `workers` to be a positive integer, got 0 (number).',
      }),
    );
  });
});

describe('python runner: process lifetime', () => {
  it('should find the harness shipped in the package', () => {
    expect(harnessPath()).toMatch(/python\/crosscheck_worker$/);
  });

  it('should run each candidate in a fresh directory of its worker and remove it when the candidate ends', async () => {
    // Arrange
    const code =
      'import os\n\ndef f(x):\n    open("note.txt", "w").write("ok")\n    return [os.getcwd(), sorted(os.listdir("."))]\n';

    // Act
    const first = await run(task, python([code]), [[1]]);
    const second = await run(task, python([`${code}# another\n`]), [[1]]);
    const [cwd, listing] = (first.outcomes[0]![0] as unknown as { tagged: [string, string[]] }).tagged;
    const [cwd2, listing2] = (second.outcomes[0]![0] as unknown as { tagged: [string, string[]] }).tagged;
    await closePythonWorkers();

    // Assert: nothing of the first candidate's files reaches the next.
    expect(cwd.startsWith(join(realpathSync(tmpdir()), 'crosscheck-worker-'))).toBe(true);
    expect(listing).toEqual(['note.txt']);
    expect(listing2).toEqual(['note.txt']);
    expect(cwd2).not.toBe(cwd);
    expect(existsSync(cwd)).toBe(false);
    expect(existsSync(cwd2)).toBe(false);
  });

  it('should let a program exit while its idle workers are still running', async () => {
    // Arrange: a script that runs a candidate and never closes the pool.
    const script = join(scratch, 'exits.mts');
    const src = join(import.meta.dirname, '..', '..', 'src', 'index.ts');
    writeFileSync(
      script,
      [
        `import { candidates, defineTask, run } from ${JSON.stringify(src)};`,
        "const cs = candidates.fromSources(['def f(x):\\n    return x\\n'], { language: 'python', entry: 'f' });",
        "const m = await run(defineTask({ name: 'f' }), cs, [[41]]);",
        'console.log(JSON.stringify(m.outcomes[0][0].tagged));',
      ].join('\n'),
    );

    // Act
    const result = await execa('node', ['--import', 'tsx', script], {
      cwd: join(import.meta.dirname, '..', '..'),
      timeout: 180_000,
      reject: false,
    });

    // Assert
    expect({ exitCode: result.exitCode, timedOut: result.timedOut, stdout: result.stdout }).toEqual({
      exitCode: 0,
      timedOut: false,
      stdout: '41',
    });
    // Generous: starting node with tsx compiles the sources, which on a busy machine takes many
    // seconds of wall time; a program that does not exit by itself never would.
  }, 200_000);
});

describe('python runner: pool', () => {
  afterEach(() => configurePython({}));

  it('should keep good candidates exact while others crash their workers in a pool of three', async () => {
    // Arrange
    configurePython({ workers: 3 });
    const good = (k: number) => `def f(x):\n    return x * ${k}\n`;
    const crashing = 'import os\n\ndef f(x):\n    if x % 2:\n        os._exit(1)\n    return -x\n';
    const sources = [good(1), crashing, good(2), crashing, good(3), good(4)];
    const inputs = Array.from({ length: 8 }, (_, i) => [i]);

    // Act
    const matrix = await run(task, python(sources), inputs);

    // Assert
    for (const [row, k] of [
      [0, 1],
      [2, 2],
      [4, 3],
      [5, 4],
    ] as const) {
      expect(values(matrix.outcomes[row])).toEqual(inputs.map(([x]) => (x as number) * k));
      expect(matrix.candidates[row]?.stats).toMatchObject({ crashes: 0, restarts: 0 });
    }
    for (const row of [1, 3]) {
      expect(values(matrix.outcomes[row])).toEqual(
        inputs.map(([x]) => ((x as number) % 2 ? 'crash' : 0 - (x as number))),
      );
      expect(matrix.candidates[row]?.stats).toMatchObject({ crashes: 4, restarts: 4 });
    }
  });
});

describe('python runner: big integers', () => {
  it('should send ints past 4,300 digits both ways, and refuse one larger than the output limit', async () => {
    // Arrange: Python 3.11 refuses such int/text conversions by default, which used to crash the worker.
    const cs = python(['def f(n):\n    return n * 10 ** 5000\n']);
    const big = 7n * 10n ** 4400n;
    // Act
    const m = await run(task, cs, [[1], [big]], { maxOutputBytes: 6000 });
    // Assert
    expect(m.outcomes[0]![0]).toMatchObject({ kind: 'value', tagged: { $int: `1${'0'.repeat(5000)}` } });
    expect(m.outcomes[0]![1]).toEqual({
      kind: 'error',
      name: 'OutputTooLarge',
      message: 'the value is larger than the 6000-byte output limit (raise maxOutputBytes to allow it)',
    });
    expect(m.candidates[0]!.stats.crashes).toBe(0);
  });
});

describe('python runner: state of candidates', () => {
  const STATEFUL = 'calls = 0\ndef f(x):\n    global calls\n    calls += 1\n    return calls\n';

  it('should give identical samples separate state, and the same outcomes when a run is repeated', async () => {
    // Arrange: the same stateful program twice, as two samples of one model often are.
    const cs = python([STATEFUL, STATEFUL]);
    // Act
    const first = await run(task, cs, [[0], [1], [2]]);
    const second = await run(task, cs, [[0], [1], [2]]);
    // Assert
    expect(first.outcomes.map(values)).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(second.outcomes.map(values)).toEqual(first.outcomes.map(values));
  });
});
