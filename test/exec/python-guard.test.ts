import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, defineTask, type Outcome, run } from '../../src/index.ts';
import { isolationModes } from '../helpers/os-boundary.ts';

// The in-process guards of the Python worker, attacked from candidate code through the public API:
// the audit hook (its references, its frames), the doors to native code and raw memory, and the
// candidate code the harness runs while it encodes a result. Each runs under 'process' and, as
// root with bubblewrap, under 'os' (where the hook is defence in depth inside the boundary).

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'python-guard');
const SECRET_NAME = 'OPENAI_API_KEY';
const SECRET_VALUE = 'sk-guard-secret';

const MODES = isolationModes('python-guard');

const fixture = (name: string) =>
  candidates.fromSources([{ source: readFileSync(join(FIXTURES, `${name}.py`), 'utf8'), label: name }], {
    language: 'python',
    entry: 'f',
  })[0]!;

// A candidate is one source: the frame attacks are their routes to a frame plus the attack.
const routed = (name: string) =>
  candidates.fromSources(
    [
      {
        source: `${readFileSync(join(FIXTURES, 'frame_routes.py'), 'utf8')}\n${readFileSync(join(FIXTURES, `${name}.py`), 'utf8')}`,
        label: name,
      },
    ],
    { language: 'python', entry: 'f' },
  )[0]!;

const outside = mkdtempSync(join(tmpdir(), 'crosscheck-guard-outside-'));
const secretFile = join(outside, 'secret.txt');
const target = join(outside, 'escaped.txt');

const taggedValue = (o: Outcome | undefined): unknown => {
  expect(o?.kind, JSON.stringify(o)).toBe('value');
  return o?.kind === 'value' ? o.tagged : undefined;
};

describe.each(MODES)("python guards under isolation '%s'", (isolation, available) => {
  beforeAll(() => {
    process.env[SECRET_NAME] = SECRET_VALUE;
    writeFileSync(secretFile, SECRET_VALUE);
  });
  afterAll(async () => {
    delete process.env[SECRET_NAME];
    await closePythonWorkers();
  });

  // Runs one attack; returns what it says got through. The escape target is checked apart,
  // after the reply, so each attack answers for itself.
  const attack = async (name: string): Promise<{ found: unknown; wrote: boolean; leaked: boolean }> => {
    rmSync(target, { force: true });
    const task = defineTask({ name: 'f', timeoutMs: 10_000 });
    const matrix = await run(task, [fixture(name)], [[process.pid, SECRET_NAME, secretFile, target]], {
      isolation,
    });
    expect(matrix.isolation).toBe(isolation);
    const found = taggedValue(matrix.outcomes[0]?.[0]);
    return {
      found,
      wrote: existsSync(target),
      leaked: JSON.stringify(matrix.outcomes).includes(SECRET_VALUE),
    };
  };

  it.skipIf(!available)(
    'should keep the audit hook on when a candidate rebinds os.path, builtins, modules and harness globals',
    async () => {
      // Act
      const got = await attack('rebind_hook');

      // Assert: nothing read, written or listed past the hook.
      expect(got).toEqual({ found: [], wrote: false, leaked: false });
    },
    60_000,
  );

  it.skipIf(!available)(
    'should keep the audit hook on when a candidate walks to its frame and changes what it holds',
    async () => {
      // Act
      const got = await attack('walk_frames');

      // Assert
      expect(got).toEqual({ found: [], wrote: false, leaked: false });
    },
    60_000,
  );

  it.skipIf(!available)(
    'should refuse ctypes and every other door to native code, raw memory or process creation',
    async () => {
      // Arrange
      const doors = [
        'ctypes',
        '_ctypes',
        'ctypes classes',
        '_ctypes renamed',
        'own extension',
        'cffi',
        '/proc/self/mem',
        'mmap /proc/<pid>/mem',
        '_posixsubprocess',
        'os.fork',
        'os.posix_spawn',
        'os.execv',
        'os.setsid',
        'code.replace',
        'FunctionType',
        '__code__',
        'subinterpreter',
      ];
      const task = defineTask({ name: 'f', timeoutMs: 10_000 });

      // Act
      const matrix = await run(
        task,
        [fixture('native_doors')],
        doors.map((d) => [d]),
        { isolation },
      );

      // Assert: each refused with a typed error in the candidate ('ctypes classes' finds none).
      const got = Object.fromEntries(doors.map((d, i) => [d, taggedValue(matrix.outcomes[0]?.[i])]));
      for (const d of doors) {
        if (d === 'ctypes classes') expect(got[d], d).toBe('refused silently');
        else expect(got[d], d).toMatch(/^(ImportError|PermissionError)$/);
      }
    },
    120_000,
  );

  it.skipIf(!available)(
    'should give a candidate no harness frame to forge its batch reply from, by any route to a frame',
    async () => {
      // Arrange: each route runs alone (a forged reply ends its batch); the saved exception and
      // the collector's garbage need an earlier call that raised out of the candidate.
      const routes: ReadonlyArray<readonly string[]> = [
        ['_getframe'],
        ['traceback'],
        ['generator'],
        ['coroutine'],
        ['signal handler'],
        ['prime saved', 'saved exception'],
        ['prime garbage', 'gc.garbage'],
        ['prime garbage frame', 'garbage frame'],
      ];
      const task = defineTask({ name: 'f', timeoutMs: 10_000 });

      // Act
      const got: Record<string, unknown> = {};
      for (const inputs of routes) {
        const matrix = await run(
          task,
          [routed('frame_forge')],
          inputs.map((r) => [r]),
          { isolation },
        );
        inputs.forEach((r, i) => {
          const o = matrix.outcomes[0]?.[i];
          got[r] = o?.kind === 'value' ? o.tagged : o?.kind === 'error' ? o.name : o?.kind;
        });
      }

      // Assert: every route ends at the candidate's own frames; its calls answer for themselves.
      expect(got).toEqual({
        _getframe: 'honest',
        traceback: 'honest',
        generator: 'honest',
        coroutine: 'honest',
        'signal handler': 'honest',
        'prime saved': 'RuntimeError',
        'saved exception': 'honest',
        'prime garbage': 'RuntimeError',
        'gc.garbage': 'honest',
        'prime garbage frame': 'Loud',
        'garbage frame': 'honest',
      });
    },
    120_000,
  );

  it.skipIf(!available)(
    'should hold the encoding to the call limit when a result reaches the harness frame to clear its mark',
    async () => {
      // Arrange: the result's __int__ clears the mark, then sleeps 3 s: within the 3.5 s a
      // sleeping call may take (5 x 500 ms + 1 s), past the 500 ms an encoding may.
      const task = defineTask({ name: 'f', timeoutMs: 500 });

      // Act
      const matrix = await run(task, [routed('frame_phase')], [['_getframe'], ['traceback'], ['plain']], {
        isolation,
      });

      // Assert
      const row = matrix.outcomes[0] ?? [];
      expect(row.slice(0, 2).map((o) => (o?.kind === 'timeout' ? o : o?.kind))).toEqual([
        { kind: 'timeout', reason: 'call', ms: 500 },
        { kind: 'timeout', reason: 'call', ms: 500 },
      ]);
      expect(taggedValue(row[2])).toBe('plain');
    },
    120_000,
  );

  it.skipIf(!available)(
    'should refuse code objects unmarshalled from anything but the installation, and keep imports and data',
    async () => {
      // Arrange
      const doors = [
        'marshal.loads + exec',
        '_compile_bytecode',
        'planted .pyc',
        'marshal data',
        'stdlib import',
      ];
      const task = defineTask({ name: 'f', timeoutMs: 10_000 });

      // Act
      const matrix = await run(
        task,
        [fixture('marshal_code')],
        doors.map((d) => [d]),
        { isolation },
      );

      // Assert: crafted code never runs; the planted module is compiled from its source.
      const got = Object.fromEntries(doors.map((d, i) => [d, taggedValue(matrix.outcomes[0]?.[i])]));
      expect(got).toEqual({
        'marshal.loads + exec': 'PermissionError',
        _compile_bytecode: 'PermissionError',
        'planted .pyc': 'from source',
        'marshal data': 'data',
        'stdlib import': 'imported',
      });
    },
    60_000,
  );

  it.skipIf(!available)(
    'should keep each new attack on the worker to the attacker’s own outcomes, and a neighbour exact',
    async () => {
      // Arrange: one attack an input, in one batch where the worker allows it; 'plain' after
      // each attack that ends its process shows the batch goes on in a fresh one. The second
      // batch writes garbage to its own reply pipe at times it chooses (a finalizer, a print),
      // which may land in any of its own later calls.
      const attacks = [
        'builtins swap',
        'json swap',
        'thread',
        'atexit',
        'register_at_fork',
        'recursive repr',
        'lying class',
        '/proc/self/fd/4',
        'own module',
        'handler frame',
        'harness killpg',
        'raise SIGTERM',
        'plain',
        'close lifeline, SIGTERM',
        'plain',
      ];
      const garbage = ['finalizer arm', 'finalizer fires', 'plain', 'stdout to reply pipe', 'plain'];
      const neighbour = candidates.fromSources(['def f(which):\n    return which\n'], {
        language: 'python',
        entry: 'f',
      })[0]!;
      const task = defineTask({ name: 'f', timeoutMs: 10_000 });
      const show = (o: Outcome | undefined) =>
        o?.kind === 'value'
          ? o.tagged
          : o?.kind === 'crash'
            ? `crash: ${o.reason}`
            : o?.kind === 'error' || o?.kind === 'invalid'
              ? `${o.kind} ${o.name}: ${o.message}`
              : o?.kind;

      // Act
      const first = await run(
        task,
        [fixture('new_attacks'), neighbour],
        attacks.map((a) => [a]),
        { isolation },
      );
      const second = await run(
        task,
        [fixture('new_attacks'), neighbour],
        garbage.map((a) => [a]),
        { isolation },
      );

      // Assert
      expect(attacks.map((a, i) => [a, show(first.outcomes[0]?.[i])])).toEqual([
        ['builtins swap', [1, 2, 3]],
        ['json swap', [1, 'x']],
        ['thread', 'PermissionError'],
        ['atexit', 'registered'],
        ['register_at_fork', 'PermissionError'],
        ['recursive repr', 'invalid ValueError: (the message could not be read)'],
        // Encoded as the int its conversion gives, as an int subclass would be.
        ['lying class', 42],
        ['/proc/self/fd/4', 'PermissionError'],
        ['own module', 'own module'],
        ['handler frame', 'handler got None'],
        ['harness killpg', 'PermissionError'],
        ['raise SIGTERM', 'crash: the worker was killed by SIGTERM'],
        ['plain', 'plain'],
        ['close lifeline, SIGTERM', 'crash: the worker was killed by SIGTERM'],
        ['plain', 'plain'],
      ]);
      const own = second.outcomes[0]?.map(show) ?? [];
      const fault = /^error ProtocolError: the candidate broke the protocol: not JSON: garbage/;
      expect(own.filter((o) => typeof o === 'string' && fault.test(o)).length).toBeGreaterThanOrEqual(1);
      garbage.forEach((a, i) => {
        const o = own[i];
        if (!(typeof o === 'string' && fault.test(o)))
          expect([a, o]).toEqual([
            a,
            {
              'finalizer arm': 'armed',
              'finalizer fires': 'fired',
              plain: 'plain',
              'stdout to reply pipe': 'printed',
            }[a],
          ]);
      });
      for (const m of [first, second]) {
        const inputs = m === first ? attacks : garbage;
        expect(m.outcomes[1]?.map((o) => (o.kind === 'value' ? o.tagged : o.kind))).toEqual(inputs);
      }
    },
    120_000,
  );

  it.skipIf(!available)(
    'should not let a candidate restart its call clock by moving the progress counter',
    async () => {
      // Arrange: 1.5 s of CPU against a 500 ms limit, the counter moved every few milliseconds.
      const task = defineTask({ name: 'f', timeoutMs: 500 });

      // Act
      const matrix = await run(task, [fixture('move_progress')], [[1]], { isolation });

      // Assert: where the counter is in reach (no frame is, now), the zygote takes the move for
      // the fault it is; where it is not, the call ends at its limit. Never a value.
      const o = matrix.outcomes[0]?.[0];
      const seen = o?.kind === 'error' ? `error ${o.name}` : o?.kind;
      expect(['timeout', 'error ProtocolError']).toContain(seen);
    },
    60_000,
  );

  it.skipIf(!available)(
    'should end at the call limit a result or exception whose dunders, metaclass or finalizer sleep',
    async () => {
      // Arrange: each sleeps 3 s, within the 3.5 s wall-time backstop a sleeping call gets
      // (5 x 500 ms + 1 s), so only a limit on the encoding itself ends it.
      const kinds = ['int', 'float', 'str', 'list', 'metaclass', 'message', 'argument', 'finalizer'];
      const task = defineTask({ name: 'f', timeoutMs: 500 });
      const inputs = [...kinds.map((k) => [k]), ['plain']];

      // Act
      const matrix = await run(task, [fixture('sleepy_results')], inputs, { isolation });

      // Assert
      const row = matrix.outcomes[0] ?? [];
      kinds.forEach((kind, i) => {
        expect({ kind, outcome: row[i] }).toEqual({
          kind,
          outcome: { kind: 'timeout', reason: 'call', ms: 500 },
        });
      });
      expect(taggedValue(row[kinds.length])).toBe('plain');
    },
    120_000,
  );
});

describe('python audit hook: what it is made of', () => {
  it('should load no global or closure name and hold no Python function that code could rebind', () => {
    // Arrange: the hook as a child builds it, inspected in a plain interpreter.
    const script = [
      'import dis, json, sys, types',
      'sys.path.insert(0, sys.argv[1])',
      'from crosscheck_worker import audit',
      'hook = audit._make_hook("/w", frozenset(), (), frozenset(), (), frozenset())',
      'names = sorted({i.opname for i in dis.get_instructions(hook)',
      '                if any(k in i.opname for k in ("GLOBAL", "DEREF", "NAME", "CLOSURE"))})',
      'python = sorted(n for n, v in zip(hook.__code__.co_varnames[2:], hook.__defaults__)',
      '                if isinstance(v, (types.FunctionType, types.MethodType, types.ModuleType)))',
      'print(json.dumps([names, python, list(hook.__code__.co_freevars)]))',
    ].join('\n');

    // Act
    const out = execFileSync(
      'python3',
      ['-B', '-c', script, join(import.meta.dirname, '..', '..', 'python')],
      {
        encoding: 'utf8',
      },
    );

    // Assert
    expect(JSON.parse(out)).toEqual([[], [], []]);
  });
});

afterAll(() => {
  expect(readdirSync(outside).sort()).toEqual(['secret.txt']);
  rmSync(outside, { recursive: true, force: true });
});
