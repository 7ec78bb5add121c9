import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadTasks, runBench } from '../../src/bench/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';

/**
 * Datasets as a benchmark author has them on disk, in their public formats (small fixtures
 * written after MBPP's mbpp.jsonl, EvalPlus' HumanEvalPlus/MbppPlus and LiveCodeBench's
 * code_generation_lite): each loads, or says precisely why a task cannot run; every line
 * conforms to docs/dataset.schema.json.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const FORMATS = join(import.meta.dirname, 'fixtures', 'formats');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-datasets-'));
afterAll(async () => {
  await closePythonWorkers();
  rmSync(work, { recursive: true, force: true });
});

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(join(FORMATS, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

/** A dataset directory whose tasks.jsonl is the fixture. */
const datasetOf = (file: string, name = file.replace('.jsonl', '')): string => {
  const dir = join(work, name);
  mkdirSync(join(dir, 'candidates'), { recursive: true });
  copyFileSync(join(FORMATS, file), join(dir, 'tasks.jsonl'));
  return dir;
};

const errorOf = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
};

describe('docs/dataset.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'dataset.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);

  it.each(['mbpp.jsonl', 'humaneval-plus.jsonl', 'mbpp-plus.jsonl', 'livecodebench.jsonl'])(
    'should accept every line of %s',
    (file) => {
      for (const line of lines(file)) expect(validate(line), ajv.errorsText(validate.errors)).toBe(true);
    },
  );

  it('should reject a line without an id and a fractional id', () => {
    expect(validate({ name: 'f' })).toBe(false);
    expect(validate({ task_id: 2.5, name: 'f' })).toBe(false);
  });
});

describe('loadTasks on public formats', () => {
  it('should load MBPP with numeric ids, its code as reference and test_list literals as seeds', () => {
    // Act
    const tasks = loadTasks(datasetOf('mbpp.jsonl'));
    // Assert
    expect(tasks.map((t) => [t.taskId, t.entryPoint, t.problem])).toEqual([
      ['2', 'similar_elements', undefined],
      ['3', 'is_not_prime', undefined],
      ['4', 'heap_queue_largest', undefined],
    ]);
    expect(tasks[0]!.groundTruthCode).toContain('def similar_elements(test_tup1, test_tup2)');
    expect(tasks[0]!.seedInputs[0]).toEqual([{ $tuple: [3, 4, 5, 6] }, { $tuple: [5, 7, 4, 10] }]);
    expect(tasks[2]!.seedInputs).toHaveLength(3);
    expect(tasks[2]!.seedInputs[1]).toEqual([[25, 35, 22, 85, 14, 65, 75, 22, 58], 2]);
  });

  it('should load HumanEval+ with prompt + canonical_solution as reference and base_input/plus_input as seeds', () => {
    const tasks = loadTasks(datasetOf('humaneval-plus.jsonl'));
    expect(tasks.map((t) => [t.taskId, t.entryPoint, t.problem])).toEqual([
      ['HumanEval/0', 'has_close_elements', undefined],
      ['HumanEval/2', 'truncate_number', undefined],
    ]);
    expect(tasks[1]!.groundTruthCode).toMatch(
      /def truncate_number\(number: float\) -> float:[\s\S]*return number - int\(number\)/,
    );
    expect(tasks[0]!.seedInputs).toHaveLength(4);
    expect(tasks[1]!.seedInputs[0]).toEqual([3.5]);
  });

  it('should load MBPP+ with its code and base_input', () => {
    const tasks = loadTasks(datasetOf('mbpp-plus.jsonl'));
    expect(tasks.map((t) => [t.taskId, t.entryPoint, t.seedInputs.length])).toEqual([
      ['Mbpp/2', 'similar_elements', 3],
      ['Mbpp/3', 'is_not_prime', 5],
    ]);
    expect(tasks[1]!.groundTruthCode).toContain('def is_not_prime(n)');
  });

  it('should load LiveCodeBench tasks with a problem that says why they cannot run', () => {
    const tasks = loadTasks(datasetOf('livecodebench.jsonl'));
    expect(tasks.map((t) => t.taskId)).toEqual(['abc301_a', '2777']);
    expect(tasks[0]!.problem).toMatch(/stdin\/stdout program; crosscheck bench calls a plain function/);
    expect(tasks[1]!.problem).toMatch(/method of class Solution/);
  });

  it.each([
    [
      { name: 'f', code: 'def f(): pass' },
      'line 1: no task_id; every task needs a task_id that is a non-empty string or an integer',
    ],
    [{ task_id: 2.5, name: 'f' }, 'line 1: task_id 2.5; every task needs a task_id'],
    [{ task_id: '' }, 'line 1: task_id ""'],
  ])('should say what is wrong with %j', (task, message) => {
    // Arrange
    const dir = join(work, `bad-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'tasks.jsonl'), `${JSON.stringify(task)}\n`);
    // Act
    const error = errorOf(() => loadTasks(dir));
    // Assert
    expect(isCrosscheckError(error)).toBe(true);
    expect(error.message).toContain(message);
  });

  it('should give a task without an entry point a problem naming the fields to add', () => {
    const dir = join(work, 'no-entry');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'tasks.jsonl'),
      `${JSON.stringify({ task_id: 7, ground_truth_code: 'x = 1' })}\n`,
    );
    expect(loadTasks(dir)[0]!.problem).toBe(
      'no entry point: give entry_point (or name), or MBPP-style code with a def that test_list calls',
    );
  });
});

describe('crosscheck bench on an MBPP-format directory with numeric ids', () => {
  it('should measure every task and report the LiveCodeBench one as unsupported', async () => {
    // Arrange: MBPP as it comes, plus one LiveCodeBench line; candidates keyed by the numeric ids.
    const dir = datasetOf('mbpp.jsonl', 'mbpp-bench');
    const lcb = readFileSync(join(FORMATS, 'livecodebench.jsonl'), 'utf8').split('\n')[0];
    writeFileSync(join(dir, 'tasks.jsonl'), `${readFileSync(join(dir, 'tasks.jsonl'), 'utf8')}${lcb}\n`);
    const codes = {
      2: [
        'def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n',
        'def similar_elements(a, b):\n    return tuple(x for x in a if x in b)\n',
      ],
      3: [
        'def is_not_prime(n):\n    return any(n % i == 0 for i in range(2, n))\n',
        'def is_not_prime(n):\n    return n % 2 == 0\n',
      ],
      4: [
        'import heapq\ndef heap_queue_largest(nums, n):\n    return heapq.nlargest(n, nums)\n',
        'def heap_queue_largest(nums, n):\n    return sorted(nums, reverse=True)[:n]\n',
      ],
    };
    writeFileSync(
      join(dir, 'candidates', 'model-a.jsonl'),
      Object.entries(codes)
        .map(([id, c]) => JSON.stringify({ task_id: Number(id), codes: c }))
        .join('\n'),
    );
    // Act
    expect([...loadCandidates(dir, 'model-a').keys()]).toEqual(['2', '3', '4']);
    const result = await runBench({
      data: dir,
      m: 2,
      n: 40,
      seed: 3,
      jobs: 1,
      out: join(dir, 'report.json'),
    });
    // Assert
    const pairs = Object.fromEntries(result.pairs.map((p) => [p.task, p]));
    expect(result.pairs.map((p) => [p.task, p.status])).toEqual([
      ['2', 'ok'],
      ['3', 'ok'],
      ['4', 'ok'],
      ['abc301_a', 'failed'],
    ]);
    expect(pairs.abc301_a!.reason).toMatch(/stdin\/stdout program/);
    // is_not_prime: `n % 2 == 0` disagrees with the other candidate (9 is not prime, and odd).
    expect(pairs['3']!.incoherence).toBeGreaterThan(0);
    for (const id of ['2', '4']) expect(pairs[id]!.incoherence).toEqual(expect.any(Number));
  }, 120_000);
});
