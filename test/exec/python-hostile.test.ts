import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, defineTask, type Outcome, run } from '../../src/index.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'python-hostile');
const SECRET_NAME = 'OPENAI_API_KEY';
const SECRET_VALUE = 'sk-test-secret';
const TIMEOUT_MS = 400;

// The reference and a neighbour that touch what a hostile candidate could leave behind in a
// shared process: the JSON encoder, math constants, big-int text, signal handlers and timers.
const SENSITIVE = [
  'import math, json',
  'def f(*args):',
  '    busy = sum(range(200000))',
  '    return [repr(args), json.dumps(["x", args]), math.inf, math.pi, 10**1000 % 97, len(str(10**700)), busy]',
  '',
].join('\n');
const reference = candidates.fromSources([SENSITIVE], {
  language: 'python',
  entry: 'f',
  label: 'reference',
})[0]!;
const task = defineTask({ name: 'f', timeoutMs: TIMEOUT_MS, reference });
const hostile = (name: string) =>
  candidates.fromSources([{ source: readFileSync(join(FIXTURES, `${name}.py`), 'utf8'), label: name }], {
    language: 'python',
    entry: 'f',
  })[0]!;
// Well-behaved, and sensitive to its input: it must see exactly what it would see alone.
const good = candidates.fromSources(['def f(*args):\n    return [repr(args), len(args)]\n'], {
  language: 'python',
  entry: 'f',
  label: 'good',
})[0]!;
const sensitive = candidates.fromSources([`${SENSITIVE}# neighbour\n`], {
  language: 'python',
  entry: 'f',
  label: 'sensitive',
})[0]!;

const outside = mkdtempSync(join(tmpdir(), 'crosscheck-hostile-outside-'));
const target = join(outside, 'escaped.txt');

const timedOut = { kind: 'timeout', reason: 'call', ms: TIMEOUT_MS };
const error = (name: string, message: string | RegExp) => ({ kind: 'error', name, message });

interface Case {
  readonly name: string;
  readonly inputs: unknown[][];
  /** Expected outcome per input: an outcome shape, or `{ value }` for the tagged value. */
  readonly expected: ReadonlyArray<Record<string, unknown>>;
  readonly maxOutputBytes?: number;
  /** Outcomes depend on the batch layout, so it stays out of the all-at-once run. */
  readonly batchDependent?: boolean;
}

const CASES: readonly Case[] = [
  { name: 'while_true', inputs: [[1], [2]], expected: [timedOut, timedOut] },
  {
    name: 'recursion_bomb',
    inputs: [[1]],
    expected: [error('RecursionError', /^maximum recursion depth exceeded/)],
  },
  { name: 'memory_bomb', inputs: [[1]], expected: [error('MemoryError', '')] },
  {
    name: 'os_exit',
    inputs: [[1], [2]],
    expected: Array(2).fill({ kind: 'crash', reason: 'the worker exited with code 7' }),
  },
  { name: 'sys_exit', inputs: [[1]], expected: [error('SystemExit', '3')] },
  {
    name: 'fork_loop',
    inputs: [[1]],
    expected: [error('PermissionError', 'crosscheck: creating processes is not allowed for a candidate')],
  },
  { name: 'ignore_alarm', inputs: [[1]], expected: [timedOut] },
  { name: 'swallow_timeout', inputs: [[1]], expected: [timedOut] },
  { name: 'write_outside', inputs: [[target]], expected: [{ value: [true, true, true, true, true] }] },
  { name: 'read_secrets', inputs: [[SECRET_NAME]], expected: [{ value: [] }] },
  { name: 'print_flood', inputs: [['still here']], expected: [{ value: 'still here' }] },
  {
    name: 'unserializable',
    inputs: [[1]],
    expected: [
      error(
        'Unserializable',
        'the value contains an instance of function, which has no data form; return plain data (numbers, strings, lists, tuples, dicts, sets)',
      ),
    ],
  },
  { name: 'mutate_input', inputs: [[[1, 2, 3]], [[1, 2, 3]]], expected: [{ value: 4 }, { value: 4 }] },
  {
    name: 'kill_host',
    inputs: [[1]],
    expected: [error('PermissionError', 'crosscheck: sending signals is not allowed for a candidate')],
  },
  {
    name: 'segfault',
    inputs: [[1]],
    expected: [{ kind: 'crash', reason: 'the worker was killed by SIGSEGV' }],
  },
  { name: 'top_level_loop', inputs: [[1], [2]], expected: [timedOut, timedOut] },
  { name: 'keyboard_interrupt', inputs: [[1]], expected: [error('KeyboardInterrupt', 'stop')] },
  {
    name: 'protocol_garbage',
    inputs: [[1]],
    expected: [
      error('ProtocolError', 'the candidate broke the protocol: not JSON: garbage that is not the protocol'),
    ],
  },
  {
    name: 'close_protocol',
    inputs: [[1]],
    expected: [{ kind: 'crash', reason: 'the worker exited with code 70' }],
  },
  { name: 'patch_encoder', inputs: [[1]], expected: [{ value: 'patched' }] },
  { name: 'leave_timers', inputs: [[1]], expected: [{ value: 'armed' }] },
  {
    name: 'reimport_thread',
    inputs: [[1]],
    expected: [
      error('PermissionError', 'crosscheck: loading the module _thread again is not allowed for a candidate'),
    ],
  },
  { name: 'dir_fd_escape', inputs: [[SECRET_NAME]], expected: [{ value: [] }] },
  { name: 'raw_fork', inputs: [[1]], expected: [{ value: [true, true] }] },
  {
    name: 'forge_kinds',
    inputs: [[1]],
    batchDependent: true,
    // No frame gives the run id away now: the forged line carries a guess, refused as malformed.
    expected: [error('ProtocolError', /^the candidate broke the protocol: a malformed (outcome|reply)/)],
  },
  {
    name: 'forge_at_load',
    inputs: [[1], [2]],
    batchDependent: true,
    // With the load's id out of reach (no frames), its forged "loaded" line is refused first.
    expected: [
      error(
        'ProtocolError',
        /(^the candidate broke the protocol: a malformed outcome|it broke the protocol: expected the load reply)/,
      ),
      error(
        'ProtocolError',
        /(^the candidate broke the protocol: a malformed outcome|it broke the protocol: expected the load reply)/,
      ),
    ],
  },
  {
    name: 'thread_bomb',
    inputs: [[1]],
    expected: [error('PermissionError', 'crosscheck: starting threads is not allowed for a candidate')],
  },
  { name: 'patch_builtins', inputs: [[1]], expected: [{ value: 'patched' }] },
  {
    name: 'cyclic_result',
    inputs: [[1]],
    expected: [error('Unserializable', 'the value contains a cycle (an object that contains itself)')],
  },
  {
    name: 'deep_result',
    inputs: [[1]],
    expected: [error('Unserializable', 'the value is nested too deeply to send')],
  },
  {
    name: 'forge_reply',
    inputs: [[1]],
    batchDependent: true,
    // The run id is a guess now (no frames): the zygote refuses the line before the host sees it.
    expected: [
      error(
        'ProtocolError',
        /^(the worker sent a result that is not JSON \(not json\); something wrote to its reply pipe|the candidate broke the protocol: a malformed reply)/,
      ),
    ],
  },
  {
    name: 'huge_output_parts',
    inputs: [[1]],
    maxOutputBytes: 1_000_000,
    expected: [
      error(
        'OutputTooLarge',
        'the value is larger than the 1000000-byte output limit (raise maxOutputBytes to allow it)',
      ),
    ],
  },
  {
    name: 'huge_output',
    inputs: [[1]],
    maxOutputBytes: 1_000_000,
    expected: [
      error(
        'OutputTooLarge',
        'the value is larger than the 1000000-byte output limit (raise maxOutputBytes to allow it)',
      ),
    ],
  },
];

const check = (outcome: Outcome | undefined, expected: Record<string, unknown>): void => {
  if ('value' in expected) {
    expect(outcome?.kind).toBe('value');
    expect(outcome?.kind === 'value' ? outcome.tagged : undefined).toEqual(expected.value);
    return;
  }
  const { message, ...rest } = expected;
  expect(outcome).toMatchObject(rest);
  if (message instanceof RegExp) expect((outcome as { message: string }).message).toMatch(message);
  else if (message !== undefined) expect((outcome as { message: string }).message).toBe(message);
};

describe('python hostile corpus', () => {
  beforeAll(() => {
    process.env[SECRET_NAME] = SECRET_VALUE;
  });
  afterAll(async () => {
    delete process.env[SECRET_NAME];
    rmSync(outside, { recursive: true, force: true });
    await closePythonWorkers();
  });

  it('should hold at least ten real fixture files', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(10);
    for (const c of CASES) expect(existsSync(join(FIXTURES, `${c.name}.py`))).toBe(true);
  });

  it.each(CASES)('should contain $name and leave a well-behaved neighbour untouched', async (c) => {
    // Arrange
    const options = { maxOutputBytes: c.maxOutputBytes ?? 16 * 1024 * 1024 };
    const alone = await run(task, [good, sensitive], c.inputs, options);

    // Act: the hostile candidate first, and again after its neighbours, so that whatever it
    // leaves behind in a worker would meet them and the next run's reference.
    const matrix = await run(task, [hostile(c.name), good, sensitive, hostile(c.name)], c.inputs, options);
    const after = await run(task, [good, sensitive], c.inputs, options);

    // Assert
    c.expected.forEach((expected, j) => {
      check(matrix.outcomes[0]?.[j], expected);
    });
    const tagged = (row: readonly Outcome[] | undefined) => row?.map((o) => JSON.stringify(o));
    expect(tagged(matrix.outcomes[1])).toEqual(tagged(alone.outcomes[0]));
    expect(tagged(matrix.outcomes[2])).toEqual(tagged(alone.outcomes[1]));
    expect(tagged(matrix.reference?.outcomes)).toEqual(tagged(alone.reference?.outcomes));
    expect(tagged(after.outcomes[0])).toEqual(tagged(alone.outcomes[0]));
    expect(tagged(after.outcomes[1])).toEqual(tagged(alone.outcomes[1]));
    expect(tagged(after.reference?.outcomes)).toEqual(tagged(alone.reference?.outcomes));
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(tmpdir(), 'escaped.txt'))).toBe(false);
    expect(JSON.stringify(matrix.outcomes)).not.toContain(SECRET_VALUE);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('should keep every outcome when the whole corpus runs at once beside a good candidate', async () => {
    // Arrange: one input set every fixture accepts.
    const names = CASES.filter((c) => c.inputs[0]?.[0] === 1 && !c.batchDependent).map((c) => c.name);
    const inputs = [[1], [2], [3]];
    const alone = await run(task, [good, sensitive], inputs);

    // Act
    const matrix = await run(task, [...names.map(hostile), good, sensitive], inputs, {
      maxOutputBytes: 1_000_000,
    });

    // Assert
    names.forEach((name, i) => {
      const expected = CASES.find((c) => c.name === name)?.expected[0] as Record<string, unknown>;
      for (let j = 0; j < inputs.length; j++) check(matrix.outcomes[i]?.[j], expected);
    });
    const tagged = (row: readonly Outcome[] | undefined) => row?.map((o) => JSON.stringify(o));
    expect(tagged(matrix.outcomes[names.length])).toEqual(tagged(alone.outcomes[0]));
    expect(tagged(matrix.outcomes[names.length + 1])).toEqual(tagged(alone.outcomes[1]));
    expect(tagged(matrix.reference?.outcomes)).toEqual(tagged(alone.reference?.outcomes));
    expect(JSON.stringify(matrix.outcomes)).not.toContain(SECRET_VALUE);
  });
});
