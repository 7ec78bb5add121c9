import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkers } from '../../src/exec/command/index.ts';
import { CrosscheckError, candidates, defineTask, run } from '../../src/index.ts';

const WORKER = join(import.meta.dirname, '..', 'fixtures', 'command-node', 'worker.mjs');
const node = (sources: string[], args: string[] = []) =>
  candidates.fromCommand(['node', WORKER, ...args], sources, { entry: 'f', language: 'javascript' });
const task = defineTask({ name: 'f', timeoutMs: 300 });
const values = (outcomes: readonly { kind: string; tagged?: unknown }[] | undefined) =>
  outcomes?.map((o) => (o.kind === 'value' ? o.tagged : o.kind));

afterAll(() => closeWorkers());

describe('command candidates through an independent Node.js worker', () => {
  it('should run JavaScript candidates and classify their outcomes', async () => {
    // Arrange
    const sources = [
      'function f(x) { return [x * 2, { half: x / 2 }, new Map([[x, "v"]])]; }',
      'function f(x) { if (x < 0) throw new RangeError("negative"); if (x === 0) throw new TypeError("zero"); return x; }',
      'function f(x) { while (true) {} }',
      '```js\nfunction f(x) {\n  return x +\n```',
      'function g(x) { return x; }',
    ];

    // Act
    const matrix = await run(task, node(sources), [[3], [-1], [0]]);

    // Assert
    expect(matrix.outcomes[0]?.[0]).toMatchObject({
      kind: 'value',
      tagged: [6, { half: 1.5 }, { $map: [[3, 'v']] }],
    });
    expect(matrix.outcomes[1]?.slice(1)).toEqual([
      { kind: 'invalid', name: 'RangeError', message: 'negative' },
      { kind: 'error', name: 'TypeError', message: 'zero' },
    ]);
    expect(matrix.outcomes[2]).toEqual(Array(3).fill({ kind: 'timeout', reason: 'call', ms: 300 }));
    expect(matrix.outcomes[3]?.[0]).toEqual({
      kind: 'error',
      name: 'CompileError',
      message: 'Unexpected end of input',
    });
    expect(matrix.outcomes[4]?.[0]).toEqual({
      kind: 'error',
      name: 'EntryNotFound',
      message: 'no function f',
    });
  });

  it('should replace a command worker that dies or stops answering, and resume after that input', async () => {
    // Arrange
    const sources = [
      'function f(x) { if (x === 1) __hostExit(5); return x + 100; }',
      'function f(x) { if (x === 2) __hostSleep(60); return x + 200; }',
    ];

    // Act
    const matrix = await run(task, node(sources, ['--test-hooks']), [[0], [1], [2], [3]]);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual([100, 'crash', 102, 103]);
    expect(matrix.outcomes[0]?.[1]).toEqual({ kind: 'crash', reason: 'the worker exited with code 5' });
    expect(values(matrix.outcomes[1])).toEqual([200, 201, 'timeout', 203]);
    expect(matrix.candidates.map((c) => c.stats.restarts)).toEqual([1, 1]);
  });

  it('should agree with the Python runner on the same function', async () => {
    // Arrange
    const js = node(['function f(xs) { return xs.filter((x) => x % 2 === 0).map((x) => x * x); }']);
    const py = candidates.fromSources(['def f(xs):\n    return [x * x for x in xs if x % 2 == 0]\n'], {
      language: 'python',
      entry: 'f',
    });

    // Act
    const matrix = await run(task, [...js, ...py], [[[1, 2, 3, 4]], [[]], [[6]]]);

    // Assert
    expect(values(matrix.outcomes[0])).toEqual(values(matrix.outcomes[1]));
    expect(values(matrix.outcomes[0])).toEqual([[4, 16], [], [36]]);
  });
});

describe('command candidates: misuse', () => {
  it('should reject a command that cannot be found with a typed error', async () => {
    // Arrange
    const cs = candidates.fromCommand(['/nonexistent/worker'], ['x'], { entry: 'f', language: 'ruby' });

    // Act
    const result = run(task, cs, [[1]]);

    // Assert
    await expect(result).rejects.toBeInstanceOf(CrosscheckError);
    await expect(result).rejects.toMatchObject({
      code: 'RUNTIME_MISSING',
      message:
        'The command (ruby) worker `/nonexistent/worker` did not start: the executable was not found. Check that `/nonexistent/worker` runs on this machine and implements docs/protocol.md (it must write a "hello" line on fd 4 first).',
    });
  });

  it('should refuse timeouts, crashes and "ended" reported by a worker, for that candidate only', async () => {
    // Arrange: a worker that answers each call with whatever its candidate's code names: a
    // forged timeout, a forged crash, the Python zygote's "ended", or too many outcomes.
    const forger = [
      "const w = (m) => require('fs').writeSync(4, JSON.stringify(m) + '\\n');",
      "w({ t: 'hello', protocol: 2, language: 'forger' });",
      "let code = '';",
      "require('readline').createInterface({ input: require('fs').createReadStream('', { fd: 3 }) }).on('line', (l) => {",
      '  const m = JSON.parse(l);',
      "  if (m.t === 'load') { code = m.code; w({ t: 'loaded', id: m.id, ok: true }); }",
      "  if (m.t !== 'run') return;",
      '  for (let i = m.from; i < m.to; i++) {',
      "    const o = code === 'timeout' ? [3, 'call', 1] : code === 'crash' ? [4, 'x'] : [0, i];",
      "    if (code === 'ended') w({ t: 'ended', id: m.id, cause: 'timeout', at: i, cpuMs: 1 });",
      "    else if (code === 'many') w({ t: 'out', id: m.id, from: i, outcomes: Array(50).fill([0, 1]), done: true });",
      "    else w({ t: 'out', id: m.id, from: i, outcomes: [o], done: i === m.to - 1 });",
      '  }',
      '});',
    ].join('\n');
    const cs = candidates.fromCommand(
      ['node', '-e', forger],
      ['timeout', 'crash', 'ended', 'many', 'honest'],
      {
        entry: 'f',
        language: 'forger',
      },
    );

    // Act
    const matrix = await run(task, cs, [[1], [2]]);

    // Assert
    for (const row of matrix.outcomes.slice(0, 4)) {
      expect(row.map((o) => o.kind === 'error' && o.name)).toEqual(['ProtocolError', 'ProtocolError']);
    }
    expect(values(matrix.outcomes[4])).toEqual([0, 1]);
  });

  it('should reject a command that does not speak the protocol', async () => {
    // Arrange
    const cs = candidates.fromCommand(['node', '-e', 'console.log("hello?")'], ['x'], {
      entry: 'f',
      language: 'javascript',
    });

    // Act
    const result = run(task, cs, [[1]]);

    // Assert
    await expect(result).rejects.toMatchObject({
      code: 'RUNTIME_MISSING',
      message: expect.stringMatching(
        /^The command \(javascript\) worker `node -e .*` did not start: the worker exited with code 0\./,
      ),
    });
  });

  it('should give up on a worker that never says hello, after 20 s of its own time, and say so', async () => {
    // Arrange: a worker that starts and then waits forever (it uses no CPU, so its own time is
    // its wall time, and the guard fires at 20 s).
    const cs = candidates.fromCommand(['node', '-e', 'setInterval(() => {}, 60000)'], ['x'], {
      entry: 'f',
      language: 'javascript',
    });

    // Act
    const result = run(task, cs, [[1]]);

    // Assert
    await expect(result).rejects.toMatchObject({
      code: 'RUNTIME_MISSING',
      message: expect.stringMatching(/did not start: no hello within (\d+) ms/),
    });
    const waited = Number(
      /no hello within (\d+) ms/.exec(((await result.catch((e: Error) => e)) as Error).message)?.[1],
    );
    expect(waited).toBeGreaterThanOrEqual(20_000);
  }, 300_000);

  it('should validate fromCommand arguments with messages that name the fix', () => {
    expect(() => candidates.fromCommand([] as never, ['x'], { entry: 'f', language: 'ruby' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_CANDIDATES',
        message:
          "Expected `command` to be an array [executable, ...args] of strings, got an array of length 0. For example ['node', 'worker.mjs'].",
      }),
    );
    expect(() => candidates.fromCommand(['ruby'], ['x'], { entry: 'f', language: '' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_CANDIDATES',
        message: 'Expected `language` to name the language of the sources (e.g. \'ruby\'), got "" (string).',
      }),
    );
  });

  it('should build one candidate per source with stable ids and labels', () => {
    // Act
    const [a, b] = candidates.fromCommand(
      ['ruby', 'w.rb'],
      ['def f; end', { source: 'def g; end', label: 'mine' }],
      {
        entry: 'f',
        language: 'ruby',
        tags: { model: 'm1' },
      },
    );

    // Assert
    expect(a).toMatchObject({
      kind: 'command',
      label: 'm1#0',
      command: ['ruby', 'w.rb'],
      code: 'def f; end',
    });
    expect(b).toMatchObject({ label: 'mine', tags: { model: 'm1', sample: 1 } });
    expect(a?.id).toBe(
      candidates.fromCommand(['ruby', 'w.rb'], ['def f; end'], { entry: 'f', language: 'ruby' })[0]?.id,
    );
  });
});
