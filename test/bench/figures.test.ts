import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkpoint, modelFigures, rankingAgreement, resolveBenchOptions } from '../../src/bench/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';

const points = [
  { task: 'a', incoherence: 0, error: 0 },
  { task: 'b', incoherence: 0.2, error: 0.5 },
  { task: 'c', incoherence: 0, error: 0.3 },
  { task: 'd', incoherence: 0.1, error: 0.1 },
];

describe('modelFigures', () => {
  it('should compute the table 4 columns as the paper defines them', () => {
    // Act
    const f = modelFigures('x', points, 1);
    // Assert
    expect(f).toMatchObject({ model: 'x', tasks: 4, failedTasks: 1, falsePositives: 0 });
    expect(f.meanError).toBeCloseTo(0.9 / 4, 12);
    expect(f.meanIncoherence).toBeCloseTo(0.3 / 4, 12);
    expect(f.detectionRate, '#(E>0 ∧ I>0) / #(E>0) = 2/3').toBeCloseTo(2 / 3, 12);
    expect(f.undetectedMeanError, 'mean E over a, c').toBeCloseTo(0.15, 12);
    // Ranks: E (1, 4, 3, 2), I (1.5, 4, 1.5, 3): ρ = Pearson of the ranks = 3 / √(5 · 4.5).
    expect(f.spearman).toBeCloseTo(3 / Math.sqrt(5 * 4.5), 12);
    expect([f.correctShare, f.coherentShare]).toEqual([0.25, 0.5]);
  });

  it('should count a task flagged without error as a false positive and give null where nothing applies', () => {
    // Act
    const f = modelFigures('y', [{ task: 'a', incoherence: 0.1, error: 0 }], 0);
    const empty = modelFigures('z', [], 3);
    // Assert
    expect(f.falsePositives).toBe(1);
    expect([f.detectionRate, f.undetectedMeanError, f.spearman]).toEqual([null, null, null]);
    expect(empty).toMatchObject({ tasks: 0, failedTasks: 3, meanError: null, meanIncoherence: null });
  });

  it('should rank models by the share of tasks with error 0 against the share with incoherence 0', () => {
    // Arrange
    const model = (name: string, correct: number, coherent: number) => ({
      ...modelFigures(name, [], 0),
      correctShare: correct,
      coherentShare: coherent,
    });
    // Act
    const same = rankingAgreement([model('a', 0.1, 0.2), model('b', 0.5, 0.6), model('c', 0.9, 0.7)]);
    const reversed = rankingAgreement([model('a', 0.1, 0.7), model('b', 0.5, 0.6), model('c', 0.9, 0.2)]);
    // Assert
    expect([same, reversed]).toEqual([1, -1]);
    expect(rankingAgreement([model('a', 0.1, 0.2)])).toBeNull();
  });
});

describe('bench options and checkpoint', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('should name the option, the rule and the fix for bad numbers and a bad --data', () => {
    // Arrange
    dir = mkdtempSync(join(tmpdir(), 'bench-opts-'));
    writeFileSync(join(dir, 'tasks.jsonl'), '');
    const messageOf = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        expect(isCrosscheckError(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error('expected a CrosscheckError');
    };
    // Act
    const badM = messageOf(() => resolveBenchOptions({ data: dir as string, m: 0 }));
    const badData = messageOf(() => resolveBenchOptions({ data: join(dir as string, 'nope') }));
    const badEquality = messageOf(() =>
      resolveBenchOptions({ data: dir as string, equality: 'fuzzy' as never }),
    );
    // Assert
    // The engine names options as the API spells them; only the CLI speaks in --flags.
    expect(badM).toBe(
      'runBench(options): `m` must be a positive integer, got 0 (number). Pass e.g. { m: 10 }.',
    );
    expect(badData).toMatch(/^runBench\(options\): `data` must be a directory holding tasks\.jsonl\.gz/);
    expect(badEquality).toMatch(/`equality` must be one of "python", "difftrust", "strict", got "fuzzy"/);
    for (const message of [badM, badData, badEquality]) expect(message).not.toContain('--');
  });

  it('should keep finished pairs across opens, drop a line cut short, and refuse other options', () => {
    // Arrange
    dir = mkdtempSync(join(tmpdir(), 'bench-ckpt-'));
    const path = join(dir, 'run.json.checkpoint');
    const pair = {
      model: 'a',
      task: 't1',
      status: 'ok' as const,
      reason: null,
      m: 2,
      n: 3,
      incoherence: 0,
      error: 0,
      calls: 6,
      durationMs: 1,
      record: null,
    };
    const first = Checkpoint.open(path, { m: 2 });
    first.add(pair);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"pair","pair":{"model":"a","ta`);
    // Act
    const again = Checkpoint.open(path, { m: 2 });
    again.add({ ...pair, task: 't2' });
    const reopened = Checkpoint.open(path, { m: 2 });
    // Assert
    expect([reopened.has('a', 't1'), reopened.has('a', 't2'), reopened.size]).toEqual([true, true, 2]);
    expect(() => Checkpoint.open(path, { m: 3 })).toThrow(
      /m: 2 there, 3 now.*start over with the option fresh/,
    );
  });
});
