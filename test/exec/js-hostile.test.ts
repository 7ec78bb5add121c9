import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Candidate,
  candidates,
  closeSandboxPools,
  defineTask,
  type Outcome,
  type OutcomeMatrix,
  run,
} from '../../src/index.ts';

/**
 * The hostile corpus: tiny real programs, one behaviour each, run in one batch beside two
 * well-behaved candidates. For each: the host survives, the outcome kind is right, the
 * well-behaved candidates get exactly the outcomes they get alone, nothing reaches the disk,
 * and no host secret is readable.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'js-hostile');
const PWNED = '/tmp/crosscheck-hostile-js-pwned';
const SECRET = `s3cret-${process.pid}-${Date.now()}`;

const load = (file: string): Candidate => {
  const language = file.endsWith('.ts') ? 'typescript' : 'javascript';
  const [candidate] = candidates.fromSources(
    [{ source: readFileSync(join(FIXTURES, file), 'utf8'), label: file }],
    {
      language,
      entry: 'total',
    },
  );
  return candidate as Candidate;
};

/** What each hostile program must produce on every input: kind, and the name for errors. */
const EXPECTED: Record<string, { kind: Outcome['kind']; name?: string; reason?: string }> = {
  'sync-loop.js': { kind: 'timeout', reason: 'call' },
  'microtask-loop.js': { kind: 'timeout', reason: 'call' },
  'never-resolves.js': { kind: 'timeout', reason: 'unsettled' },
  'deep-recursion.js': { kind: 'error', name: 'StackOverflow' },
  'heap-bomb.js': { kind: 'crash' },
  'process-exit.js': { kind: 'error', name: 'ReferenceError' },
  'require-fs.js': { kind: 'error', name: 'ReferenceError' },
  'import-fs.js': { kind: 'error', name: 'CompileError' },
  'eval-import.js': { kind: 'error', name: 'EvalError' },
  'await-regex-import.js': { kind: 'error', name: 'CompileError' },
  'read-env.js': { kind: 'error', name: 'ReferenceError' },
  'constructor-escape.js': { kind: 'error', name: 'EvalError' },
  'input-constructor-escape.js': { kind: 'error', name: 'EvalError' },
  'stack-trace-escape.js': { kind: 'value' },
  'patch-prototypes.js': { kind: 'value' },
  'to-json-hijack.js': { kind: 'value' },
  'mutates-input.js': { kind: 'value' },
  'throws-string.js': { kind: 'error', name: 'thrown string' },
  'returns-function.js': { kind: 'error', name: 'Unserializable' },
  'returns-symbol.js': { kind: 'error', name: 'Unserializable' },
  'returns-cycle.js': { kind: 'error', name: 'Unserializable' },
  'huge-string.js': { kind: 'error', name: 'OutputTooLarge' },
  'atomics-wait.js': { kind: 'timeout', reason: 'call' },
  'top-level-loop.js': { kind: 'timeout', reason: 'call' },
  'syntax-error.js': { kind: 'error', name: 'CompileError' },
  'no-entry.js': { kind: 'error', name: 'EntryNotFound' },
  // Reaching past the harness: none may run code in the worker's realm or forge a report.
  'proxy-throw-escape.js': { kind: 'error', name: 'Unknown' },
  'forge-outcomes.js': { kind: 'error', name: 'TypeError' },
  'batch-loop.js': { kind: 'timeout', reason: 'call' },
  'caller-escape.js': { kind: 'value' },
  'proxy-args-realm.js': { kind: 'value' },
  'unhandled-rejection-escape.js': { kind: 'value' },
};

const GOOD = ['good-sum.js', 'good-map.ts'];
// Checked apart: its outcome differs per input.
const HOSTILE = [...Object.keys(EXPECTED), 'array-setter-escape.js'];
const INPUTS = [[[1, 2, 3]], [[4, 5]], [[]], [[10]]];
const task = defineTask({ name: 'total', description: 'Sum of a list of numbers.' });
// Generous enough that a heap bomb reaches its 64 MB limit (a crash) before the call limit,
// even on a busy machine.
const OPTIONS = { timeoutMs: 1000, memoryMb: 64, budgetMs: 60_000 };

describe('the JS sandbox on hostile programs', () => {
  let alone: OutcomeMatrix;
  let together: OutcomeMatrix;

  beforeAll(async () => {
    rmSync(PWNED, { force: true });
    process.env.CROSSCHECK_TEST_SECRET = SECRET;
    alone = await run(task, GOOD.map(load), INPUTS, OPTIONS);
    together = await run(task, [...GOOD, ...HOSTILE].map(load), INPUTS, OPTIONS);
  }, 120_000);

  afterAll(async () => {
    delete process.env.CROSSCHECK_TEST_SECRET;
    await closeSandboxPools();
  });

  it('should give the well-behaved candidates exactly the outcomes they get alone', () => {
    // Arrange
    const expected = [
      [6, 9, 0, 10],
      [6, 9, 0, 10],
    ];
    // Act
    const aloneValues = alone.outcomes.map((row) => row.map((o) => (o.kind === 'value' ? o.value : o)));
    const togetherValues = together.outcomes
      .slice(0, 2)
      .map((row) => row.map((o) => (o.kind === 'value' ? o.value : o)));
    // Assert
    expect(aloneValues).toEqual(expected);
    expect(togetherValues).toEqual(expected);
  });

  it.each(Object.keys(EXPECTED))('should give %s the right outcome on every input', (file) => {
    const row = together.outcomes[GOOD.length + HOSTILE.indexOf(file)] as Outcome[];
    const want = EXPECTED[file]!;
    for (const outcome of row) {
      expect(outcome.kind, `${file}: ${JSON.stringify(outcome)}`).toBe(want.kind);
      if (want.name !== undefined) expect((outcome as { name: string }).name).toBe(want.name);
      if (want.reason !== undefined) expect((outcome as { reason: string }).reason).toBe(want.reason);
    }
  });

  it('should report the results of programs that patch built-ins or mutate their input correctly', () => {
    const at = (file: string) =>
      (together.outcomes[GOOD.length + HOSTILE.indexOf(file)] as Outcome[]).map((o) =>
        o.kind === 'value' ? o.value : o.kind,
      );
    expect(at('patch-prototypes.js')).toEqual([6, 9, 0, 10]);
    expect(at('to-json-hijack.js')).toEqual([
      [3, { n: 3 }],
      [2, { n: 2 }],
      [0, { n: 0 }],
      [1, { n: 1 }],
    ]);
    // Each call got its own copy: the mutation of one call never reaches the next.
    expect(at('mutates-input.js')).toEqual([3, 2, 0, 1]);
    expect(at('stack-trace-escape.js')).toEqual([-1, -1, -1, -1]);
    // The harness's functions are strict: `fn.caller` stops at them.
    expect(at('caller-escape.js')).toEqual([-1, -1, -1, -1]);
    expect(at('unhandled-rejection-escape.js')).toEqual([3, 2, 0, 1]);
    // A Proxy entry's apply trap gets an argument list of its own realm.
    expect(at('proxy-args-realm.js')).toEqual([3, 2, 0, 1]);
    // A throwing setter on Array.prototype[0] changes nothing of the harness's report.
    const setter = together.outcomes[GOOD.length + HOSTILE.indexOf('array-setter-escape.js')] as Outcome[];
    expect(
      setter.map((o) => (o.kind === 'value' ? o.value : `${o.kind}:${(o as { name?: string }).name}`)),
    ).toEqual(['error:TypeError', [9], [0], [10]]);
  });

  it('should leave the inputs of the run untouched', () => {
    expect(together.inputs).toEqual(INPUTS);
  });

  it('should let no program write to the disk', () => {
    expect(existsSync(PWNED)).toBe(false);
  });

  it('should let no program read a host secret', () => {
    const everything = JSON.stringify(
      together.outcomes.map((row) => row.map((o) => (o.kind === 'value' ? o.tagged : o))),
    );
    expect(everything).not.toContain(SECRET);
  });

  it('should count the hangs and crashes it recovered from', () => {
    const stats = (file: string) => together.candidates[GOOD.length + HOSTILE.indexOf(file)]!.stats;
    expect(stats('sync-loop.js')).toMatchObject({ timeouts: 4, crashes: 0, restarts: 4 });
    expect(stats('heap-bomb.js')).toMatchObject({ crashes: 4, restarts: 4 });
    expect(stats('good-sum.js')).toMatchObject({ timeouts: 0, crashes: 0, restarts: 0 });
  });

  it('should explain a missing entry with the functions the program defines', () => {
    const outcome = together.outcomes[GOOD.length + HOSTILE.indexOf('no-entry.js')]![0];
    expect(outcome).toEqual({
      kind: 'error',
      name: 'EntryNotFound',
      message:
        'no function named "total" in the candidate (it defines sum); name the function "total", export it, or pass the right `entry`',
    });
  });
});
