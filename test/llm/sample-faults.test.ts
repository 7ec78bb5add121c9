import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { type DatasetReplayServer, startDatasetReplayServer } from '../../src/llm/testing/index.ts';
import { tempCache } from './helpers.ts';

/**
 * `crosscheck sample`, run as a real process against the dataset-replay loopback server, over
 * an MBPP-shaped dataset (numeric task ids, a complex-valued seed) in which one recorded reply is
 * 9 MB, over the client's 8 MiB limit: every other sample is drawn, the poisoned one is a named
 * failure, and a replay miss says what to run and what is recorded.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const N = 4;
const POISON = { model: 'alpha', task: 12, sample: 2 };

const TASKS = [
  {
    task_id: 11,
    entry_point: 'double_complex',
    signature: '(z: complex) -> complex',
    description: 'Return z times two.',
    ground_truth_code: 'def double_complex(z):\n    return z * 2\n',
    // Every Python float tagged, the parts of a complex too: the form a dataset converter writes.
    seed_inputs_tagged: [
      { $tuple: [{ $complex: [{ $float: 1.0 }, { $float: 2.0 }] }] },
      { $tuple: [{ $complex: [{ $float: -0.5 }, { $float: 3.25 }] }] },
    ],
  },
  {
    task_id: 12,
    entry_point: 'square',
    signature: '(x: int) -> int',
    description: 'Return x squared.',
    ground_truth_code: 'def square(x):\n    return x * x\n',
    seed_inputs_tagged: [{ $tuple: [3] }, { $tuple: [-4] }],
  },
  {
    task_id: 13,
    entry_point: 'negate',
    signature: '(x: int) -> int',
    description: 'Return minus x.',
    ground_truth_code: 'def negate(x):\n    return -x\n',
    seed_inputs_tagged: [{ $tuple: [5] }],
  },
];

const codesFor = (model: string, t: (typeof TASKS)[number]): string[] =>
  Array.from({ length: N }, (_, i) => {
    if (model === POISON.model && t.task_id === POISON.task && i === POISON.sample)
      return `def square(x):\n    return x * x\n# ${'x'.repeat(9_000_000)}\n`;
    return `${t.ground_truth_code}# ${model} sample ${i}\n`;
  });

const writeDataset = (dir: string): void => {
  mkdirSync(join(dir, 'candidates'), { recursive: true });
  writeFileSync(join(dir, 'tasks.jsonl'), `${TASKS.map((t) => JSON.stringify(t)).join('\n')}\n`);
  for (const model of ['alpha', 'beta']) {
    const lines = TASKS.map((t) => JSON.stringify({ task_id: t.task_id, codes: codesFor(model, t) }));
    writeFileSync(join(dir, 'candidates', `${model}.jsonl`), `${lines.join('\n')}\n`);
  }
};

const sample = async (args: string[]) => {
  const r = await execa(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'sample', ...args],
    { cwd: ROOT, reject: false, env: { CI: '', NO_COLOR: '1', CROSSCHECK_LLM_CACHE: '' } },
  );
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  return { code: r.exitCode, stderr: r.stderr, json: last.startsWith('{') ? JSON.parse(last) : null };
};

const readLines = (path: string): Record<string, unknown>[] =>
  gunzipSync(readFileSync(path))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('crosscheck sample with a poisoned reply, replay misses and a complex-valued task', () => {
  const work = tempCache();
  const data = join(work.dir, 'data');
  const cache = join(work.dir, 'cache');
  let server: DatasetReplayServer;
  const common = () => [
    '--data',
    data,
    '--models',
    'alpha,beta',
    '--n',
    String(N),
    '--prompt',
    'difftrust',
    '--base-url',
    server.url,
    '--max-retries',
    '1',
  ];
  beforeAll(async () => {
    writeDataset(data);
    server = await startDatasetReplayServer({ data });
  });
  afterAll(async () => {
    await server.close();
    await closePythonWorkers();
    work.cleanup();
  });

  it('should draw every other sample, name the poisoned one and keep numeric task ids', async () => {
    // Act
    const run = await sample([
      ...common(),
      '--cache-dir',
      cache,
      '--cache',
      'read-write',
      '--out',
      join(work.dir, 'out'),
    ]);
    // Assert: the run completed; the one failure is named by model, task and sample.
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.failures).toEqual([
      {
        model: 'alpha',
        taskId: 12,
        sample: 2,
        reason: 'bad-reply',
        message: expect.stringMatching(/sample 2 of task square \(python\): .*more than maxReplyBytes/),
      },
    ]);
    expect(run.stderr).toMatch(/alpha task 12 sample 2: /);
    // 2 models × 3 tasks × 4 samples, less the poisoned one; its two attempts are requests too.
    expect(run.json.live.calls).toBe(23);
    expect(run.json.failed.calls).toBe(1);
    expect(run.json.requests).toBe(23 + 2);
    expect(server.requests()).toBe(25);
    for (const model of ['alpha', 'beta']) {
      const lines = readLines(join(work.dir, 'out', 'candidates', `${model}.jsonl.gz`));
      expect(lines.map((l) => l.task_id)).toEqual([11, 12, 13]);
      for (const [i, line] of lines.entries()) {
        const t = TASKS[i] as (typeof TASKS)[number];
        const expected = codesFor(model, t).filter(
          (_, s) => !(model === POISON.model && t.task_id === POISON.task && s === POISON.sample),
        );
        expect(line.codes, `${model} ${t.task_id}`).toEqual(expected);
      }
      const poisoned = lines[1] as Record<string, unknown>;
      if (model === 'alpha')
        expect(poisoned.failed).toEqual([{ sample: 2, reason: 'bad-reply', message: expect.any(String) }]);
      else expect(poisoned.failed).toBeUndefined();
    }
  }, 120_000);

  it('should exit 1 at the end under --fail-on-failure, after drawing the rest', async () => {
    // Act: the good samples replay from the cache; the poisoned one is requested again and fails again.
    const run = await sample([
      ...common(),
      '--cache-dir',
      cache,
      '--cache',
      'read-write',
      '--out',
      join(work.dir, 'out-strict'),
      '--fail-on-failure',
    ]);
    // Assert
    expect(run.code, run.stderr).toBe(1);
    expect(run.json.replayed.calls).toBe(23);
    expect(run.json.live.calls).toBe(0);
    expect(run.json.failures).toHaveLength(1);
    expect(readdirSync(join(work.dir, 'out-strict', 'candidates')).sort()).toEqual([
      'alpha.jsonl.gz',
      'beta.jsonl.gz',
    ]);
  }, 120_000);

  it('should list the recorded models on a replay miss for a misspelt model, and name the command to record it', async () => {
    // Act
    const run = await sample([
      ...common().map((a) => (a === 'alpha,beta' ? 'alhpa' : a)),
      '--cache-dir',
      cache,
      '--cache',
      'replay-only',
      '--out',
      join(work.dir, 'out-miss'),
    ]);
    // Assert
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no recorded reply');
    expect(run.stderr).toContain('recorded models by provider: localhost/v1: alpha, beta.');
    expect(run.stderr).not.toContain('npx vitest');
    expect(run.stderr).toMatch(
      /CROSSCHECK_LLM_CACHE=read-write crosscheck sample --data \S+ --models alhpa /,
    );
    expect(run.stderr).not.toMatch(/crosscheck sample .*--cache replay-only/);
  }, 120_000);

  it("should show the same task's recorded request as the nearest when the prompt drifted", async () => {
    // Act: recorded with the difftrust prompt, replayed with the crosscheck one.
    const run = await sample([
      ...common().map((a) => (a === 'difftrust' ? 'crosscheck' : a)),
      '--tasks',
      '13',
      '--cache-dir',
      cache,
      '--cache',
      'replay-only',
      '--out',
      join(work.dir, 'out-drift'),
    ]);
    // Assert: the nearest is a request of task 13 (`negate`), never of another task.
    expect(run.code).toBe(2);
    const key = /nearest: {3}([0-9a-f]{32}) \(also for `negate`\)/.exec(run.stderr)?.[1];
    expect(key, run.stderr).toBeDefined();
    const model = /model: {5}(\w+) at/.exec(run.stderr)?.[1] as string;
    const request = readFileSync(
      join(cache, 'v1', 'localhost__v1', model, (key as string).slice(0, 2), key as string, 'request.json'),
      'utf8',
    );
    expect(request).toContain('negate');
  }, 120_000);

  it('should carry --limit into the bench command it suggests, and say when a task was never recorded', async () => {
    // Arrange: only the first task recorded, in a cache of its own.
    const limited = join(work.dir, 'cache-limited');
    const first = await sample([
      ...common(),
      '--limit',
      '1',
      '--cache-dir',
      limited,
      '--cache',
      'read-write',
      '--out',
      join(work.dir, 'out-limited'),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/next: crosscheck bench --data \S+out-limited --limit 1$/m);
    // Act: all tasks, replay-only.
    const run = await sample([
      ...common(),
      '--cache-dir',
      limited,
      '--cache',
      'replay-only',
      '--out',
      join(work.dir, 'out-all'),
    ]);
    // Assert
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /nearest: {3}no recorded request of \w+ at localhost\/v1 names `(square|negate)`/,
    );
  }, 120_000);

  it('should measure the task whose seeds are complex numbers with tagged float parts', async () => {
    // Act
    const result = await runBench({
      data,
      tasks: ['11'],
      m: 3,
      n: 20,
      seed: 1,
      jobs: 1,
      out: join(work.dir, 'bench.json'),
    });
    // Assert: input generation decoded the tagged complex seeds; every candidate is right.
    expect(result.pairs.map((p) => [p.model, p.status, p.reason])).toEqual([
      ['alpha', 'ok', null],
      ['beta', 'ok', null],
    ]);
    expect(result.pairs.every((p) => p.error === 0 && p.incoherence === 0)).toBe(true);
  }, 180_000);
});
