import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { parseReport } from '../../src/report/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(import.meta.dirname, 'fixtures', 'run-bench.ts');
const MODELS = ['gpt_4o', 'ministral_8b'];
const TASKS = 8;
// Inputs per pair: enough for the wrong candidates to disagree; the checkpoint and resume
// mechanisms under test do not depend on it, and each pair's cost grows with it.
const N = 100;
const BROKEN = 'Broken/no-reference';

const jsonl = (path: string): Record<string, unknown>[] =>
  gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

/** A small dataset in the shared format: the first tasks of HumanEval, two models, and a task without a reference. */
const buildDataset = (dir: string): void => {
  const tasks = jsonl(join(humanevalDir(), 'tasks.jsonl.gz')).slice(0, TASKS);
  // No reference in any form: neither ground_truth_code nor HumanEval's prompt + canonical_solution.
  const broken = {
    ...tasks[0],
    task_id: BROKEN,
    ground_truth_code: undefined,
    canonical_solution: undefined,
  };
  writeFileSync(join(dir, 'tasks.jsonl'), [...tasks, broken].map((t) => JSON.stringify(t)).join('\n'));
  const ids = new Set([...tasks.map((t) => t.task_id), BROKEN]);
  mkdirSync(join(dir, 'candidates'));
  mkdirSync(join(dir, 'paper_logs'));
  for (const model of MODELS) {
    const rows = jsonl(join(humanevalDir(), 'candidates', `${model}.jsonl.gz`)).filter((r) =>
      ids.has(r.task_id),
    );
    writeFileSync(join(dir, 'candidates', `${model}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n'));
    copyFileSync(
      join(humanevalDir(), 'paper_logs', `${model}.json`),
      join(dir, 'paper_logs', `${model}.json`),
    );
  }
};

const args = (data: string, out: string): string[] => [
  '--data',
  data,
  '--models',
  MODELS.join(','),
  '--m',
  '4',
  '--n',
  String(N),
  '--seed',
  '7',
  '--jobs',
  '1',
  '--out',
  out,
];

const pairLines = (out: string): Array<{ model: string; task: string }> =>
  existsSync(`${out}.checkpoint`)
    ? readFileSync(`${out}.checkpoint`, 'utf8')
        .split('\n')
        .flatMap((l) => {
          try {
            const e = JSON.parse(l);
            return e.kind === 'pair' ? [e.pair] : [];
          } catch {
            return [];
          }
        })
    : [];

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns the CLI; `stopWhen` is polled and, once true, `kill` is sent. */
const runCli = (argv: string[], stop?: { when: () => boolean; kill: NodeJS.Signals }): Promise<Exit> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CLI, ...argv], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const timer = stop
      ? setInterval(() => {
          if (stop.when()) {
            clearInterval(timer);
            child.kill(stop.kill);
          }
        }, 10)
      : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });

/** The JSON line without the timing fields, which differ from run to run. */
const figures = (stdout: string): unknown => {
  const last = stdout.trim().split('\n').at(-1) as string;
  const { wallSeconds: _w, callsPerSec: _c, ...rest } = JSON.parse(last);
  return rest;
};

describe.skipIf(!requireData())(
  'crosscheck bench end to end (8 HumanEval tasks + a broken one, two models)',
  () => {
    let dir: string;
    let data: string;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'crosscheck-bench-'));
      data = join(dir, 'data');
      mkdirSync(data);
      buildDataset(data);
    });
    afterAll(async () => {
      await closePythonWorkers();
      rmSync(dir, { recursive: true, force: true });
    });

    it('should measure every pair, record the broken task with its reason, and write a report the reporters read', async () => {
      // Arrange
      const out = join(dir, 'inproc.json');
      // Act
      const result = await runBench({ data, models: MODELS, m: 4, n: N, seed: 7, jobs: 2, out });
      // Assert
      expect(result.complete).toBe(true);
      expect(result.pairs).toHaveLength(MODELS.length * (TASKS + 1));
      const broken = result.pairs.filter((p) => p.task === BROKEN);
      expect(broken.map((p) => [p.status, p.reason])).toEqual(
        MODELS.map(() => ['failed', 'no ground_truth_code (the reference)']),
      );
      for (const m of result.models) {
        expect(m).toMatchObject({ tasks: TASKS, failedTasks: 1, falsePositives: 0 });
        expect(m.meanError).toBeGreaterThanOrEqual(0);
      }
      // Theorem 4.1 on every measured pair: I ≤ 2E on the same inputs.
      for (const p of result.pairs.filter((x) => x.status === 'ok')) {
        expect(p.incoherence as number).toBeLessThanOrEqual(2 * (p.error as number) + 1e-12);
        expect([p.m, p.n]).toEqual([4, N]);
      }
      expect(result.paper?.models.map((m) => m.model)).toEqual(MODELS);
      const report = parseReport(JSON.stringify(result.report));
      expect(report.summary.points).toHaveLength(MODELS.length * TASKS);
      expect(report.summary.suite.references?.falsePositives).toBe(0);
    }, 120_000);

    it('should measure again a checkpointed pair whose candidates changed, and every pair with fresh', async () => {
      // Arrange: a finished run on a dataset of its own, then one candidate of one pair made wrong.
      const changed = join(dir, 'data-changed');
      mkdirSync(changed);
      buildDataset(changed);
      const out = join(dir, 'changed.json');
      const options = { data: changed, models: MODELS, m: 4, n: N, seed: 7, jobs: 2, out };
      const before = await runBench(options);
      const file = join(changed, 'candidates', 'gpt_4o.jsonl');
      const rows = readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => JSON.parse(l));
      const target = rows.find((r) => r.task_id === 'HumanEval/2');
      const entry = readFileSync(join(changed, 'tasks.jsonl'), 'utf8')
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((t) => t.task_id === 'HumanEval/2').entry_point as string;
      target.codes = [`def ${entry}(*args):\n    return None\n`, ...target.codes.slice(1)];
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
      const logged: string[] = [];

      // Act
      const after = await runBench(options, { log: (line) => logged.push(line) });
      const fresh = await runBench({ ...options, fresh: true });

      // Assert: only the changed pair ran again, and its figure is the new data's.
      const pairOf = (r: typeof before, model: string, task: string) =>
        r.pairs.find((p) => p.model === model && p.task === task);
      expect(logged.join('\n')).toMatch(
        /^1 pairs of .*changed\.json\.checkpoint were measured on other data/,
      );
      expect(after.pairsResumed).toBe(MODELS.length * (TASKS + 1) - 1);
      expect(pairOf(after, 'gpt_4o', 'HumanEval/2')?.error).toBeGreaterThan(
        pairOf(before, 'gpt_4o', 'HumanEval/2')?.error as number,
      );
      expect(pairOf(after, 'ministral_8b', 'HumanEval/2')).toEqual(
        pairOf(before, 'ministral_8b', 'HumanEval/2'),
      );
      expect(fresh.pairsResumed).toBe(0);
      expect(fresh.calls).toBeGreaterThan(after.calls);
      expect(fresh.models).toEqual(after.models);
      expect(pairLines(out)).toHaveLength(MODELS.length * (TASKS + 1));
    }, 300_000);

    it('should refuse a checkpoint another crosscheck version wrote, saying how to start over', () => {
      // Arrange: a checkpoint header as a version without the `crosscheck` field wrote it.
      const out = join(dir, 'old.json');
      writeFileSync(`${out}.checkpoint`, `${JSON.stringify({ kind: 'header', fingerprint: { m: 4 } })}\n`);
      // Act / Assert
      return expect(runBench({ data, models: MODELS, m: 4, n: N, seed: 7, out })).rejects.toThrow(
        /belongs to a run with other options \(crosscheck: undefined there, "\d+\.\d+\.\d+" now.*start over with the option fresh/,
      );
    });

    it('should resume after Ctrl-C and after a kill without recomputing finished pairs, ending with the figures of an uninterrupted run', async () => {
      // Arrange: the uninterrupted run.
      const full = await runCli(args(data, join(dir, 'full.json')));
      expect(full.code, full.stderr).toBe(0);
      const out = join(dir, 'resumed.json');

      // Act: Ctrl-C once one task is done, a hard kill a few pairs later, then a rerun to the end.
      const interrupted = await runCli(args(data, out), {
        when: () => pairLines(out).length >= 2,
        kill: 'SIGINT',
      });
      const afterInterrupt = pairLines(out).length;
      const killed = await runCli(args(data, out), {
        when: () => pairLines(out).length >= afterInterrupt + 4,
        kill: 'SIGKILL',
      });
      const afterKill = pairLines(out).length;
      const resumed = await runCli(args(data, out));

      // Assert
      expect(interrupted.code, interrupted.stderr).toBe(130);
      expect(interrupted.stderr).toMatch(/interrupted; saving what finished/);
      expect(figures(interrupted.stdout), 'an interrupted run still ends with its JSON line').toBeDefined();
      expect(afterInterrupt).toBeLessThan(MODELS.length * (TASKS + 1));
      expect(killed.signal).toBe('SIGKILL');
      expect(afterKill).toBeLessThan(MODELS.length * (TASKS + 1));
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(new RegExp(`\\(${afterKill} resumed\\)`));
      const keys = pairLines(out).map((p) => `${p.model} ${p.task}`);
      expect(new Set(keys).size, 'every pair was computed exactly once').toBe(keys.length);
      expect(keys).toHaveLength(MODELS.length * (TASKS + 1));
      expect(figures(resumed.stdout)).toEqual(figures(full.stdout));
      const report = parseReport(readFileSync(out, 'utf8'));
      expect(report.records).toHaveLength(MODELS.length * TASKS);
    }, 300_000);
  },
);
