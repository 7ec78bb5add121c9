import { readFileSync } from 'node:fs';
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
 * Code a candidate leaves behind to run later, outside its own calls: a finalizer, a late
 * settle, a stack-formatting hook, a promise job queued by its top-level code. None may run on
 * another candidate's time, and none may cost another candidate a call.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'js-deferred-hostile');
const source = (file: string): string => readFileSync(join(FIXTURES, file), 'utf8');
const load = (file: string, label = file): Candidate =>
  candidates.fromSources([{ source: source(file), label }], {
    language: 'javascript',
    entry: 'total',
  })[0] as Candidate;

const task = defineTask({ name: 'total', description: 'The length of a list.' });
const INPUTS = Array.from({ length: 120 }, (_, i) => [[i, 1, 2].slice(0, i % 4)]);
const INNOCENTS = 4;

const kinds = (row: readonly Outcome[]): string[] => [
  ...new Set(row.map((o) => (o.kind === 'value' ? 'value' : `${o.kind}:${JSON.stringify(o)}`))),
];

describe('deferred code in the JS sandbox', () => {
  let matrix: OutcomeMatrix;
  const files = [
    'finalization-throws.js',
    'scheduling-probe.js',
    'stack-hook.js',
    'top-level-microtask-hang.js',
    'getter-spins-on-encode.js',
    'late-thenable.js',
  ];

  beforeAll(async () => {
    const innocents = Array.from({ length: INNOCENTS }, (_, i) => load('good.js', `good-${i}`));
    // The attackers first, then the innocents: the innocents' jobs follow theirs on the same workers.
    matrix = await run(task, [...files.map((f) => load(f)), ...innocents], INPUTS, {
      timeoutMs: 1000,
      memoryMb: 256,
    });
  }, 300_000);

  afterAll(async () => {
    await closeSandboxPools();
  });

  const rowOf = (file: string): Outcome[] => matrix.outcomes[files.indexOf(file)] as Outcome[];

  it('should leave a candidate no way to schedule work the engine runs after its call', () => {
    const row = rowOf('scheduling-probe.js');
    for (const o of row) expect(o).toMatchObject({ kind: 'value', value: [] });
  });

  it('should refuse a finalization registry at load, so its callback can never run', () => {
    for (const o of rowOf('finalization-throws.js')) {
      expect(o).toMatchObject({ kind: 'error', name: 'ReferenceError' });
      expect((o as { message: string }).message).toContain('FinalizationRegistry');
    }
  });

  it('should keep the stack-formatting hook out of a candidate’s reach', () => {
    for (const o of rowOf('stack-hook.js')) expect(o).toMatchObject({ kind: 'value', value: 'pinned' });
  });

  it('should charge a promise job queued at top level that never ends to that candidate’s loading', () => {
    for (const o of rowOf('top-level-microtask-hang.js')) expect(o).toMatchObject({ kind: 'timeout' });
  });

  it('should charge a getter the harness runs while encoding a result to that call', () => {
    const row = rowOf('getter-spins-on-encode.js');
    for (const o of row) expect(o.kind).toBe('timeout');
    // The calls that ran timed out on their own limit; the rest were never run (budget spent).
    expect((row[0] as { reason: string }).reason).toBe('call');
  });

  it('should ignore a settle that arrives in a later call', () => {
    const row = rowOf('late-thenable.js');
    row.forEach((o, i) => {
      const length = (INPUTS[i] as [number[]])[0].length;
      if (length % 2 === 0) expect(o).toMatchObject({ kind: 'timeout', reason: 'unsettled' });
      else expect(o).toMatchObject({ kind: 'value', value: length });
    });
  });

  it('should give every innocent candidate a value on every input', () => {
    for (let r = files.length; r < files.length + INNOCENTS; r++) {
      const row = matrix.outcomes[r] as Outcome[];
      expect(kinds(row), matrix.candidates[r]?.label).toEqual(['value']);
      expect(row.map((o) => (o as { value?: unknown }).value)).toEqual(
        INPUTS.map((args) => (args[0] as number[]).length),
      );
      expect(matrix.candidates[r]?.stats).toMatchObject({ timeouts: 0, crashes: 0, restarts: 0 });
    }
  });
});
