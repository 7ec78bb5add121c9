import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCandidates, runBench, summaryLine } from '../../src/bench/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { startDatasetReplayServer } from '../../src/llm/testing/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';
import { tempCache } from './helpers.ts';

/**
 * End to end, real HTTP and the real `openai` SDK: `crosscheck sample` draws 10 samples of the
 * incoherence paper's prompt for 2 models × 150 tasks from the dataset-replay server, and gets
 * back every recorded program byte for byte; `crosscheck bench` then gives the same figures on
 * the sampled directory as on the original. Replayed with the server closed, and again through
 * injected faults, the output is the same bytes.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const MODELS = ['gpt_4o', 'llama_3_1_8b_instruct'];
const N = 10;
// Tasks whose candidates run far from any time limit (timing is the only nondeterminism of bench).
const BENCH_TASKS = Array.from({ length: 20 }, (_, i) => `HumanEval/${i}`);

const sample = async (args: string[], env: Record<string, string> = {}) => {
  const r = await execa(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'sample', ...args],
    {
      cwd: ROOT,
      reject: false,
      env: { CI: '', NO_COLOR: '1', ...env },
    },
  );
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  return { code: r.exitCode, stderr: r.stderr, json: r.exitCode === 0 ? JSON.parse(last) : null };
};

const bytes = (dir: string, model: string) => readFileSync(join(dir, 'candidates', `${model}.jsonl.gz`));

const benchFigures = async (data: string, out: string) => {
  const result = await runBench({
    data,
    models: MODELS,
    tasks: BENCH_TASKS,
    m: N,
    n: 200,
    seed: 11,
    jobs: 2,
    out,
  });
  const { wallSeconds: _w, callsPerSec: _c, ...figures } = JSON.parse(summaryLine(result));
  return figures;
};

describe.runIf(requireData())('crosscheck sample over the HumanEval dataset-replay server', () => {
  const data = humanevalDir();
  const work = tempCache();
  afterAll(async () => {
    await closePythonWorkers();
    work.cleanup();
  });
  const out = (name: string) => join(work.dir, name);
  const common = (url: string, cacheDir: string) => [
    '--data',
    data,
    '--models',
    MODELS.join(','),
    '--n',
    String(N),
    '--prompt',
    'difftrust',
    '--base-url',
    url,
    '--cache-dir',
    cacheDir,
    '--concurrency',
    '8',
  ];

  it('should draw every recorded program byte for byte, bench the same, replay with no server and survive faults', async () => {
    // Arrange
    const server = await startDatasetReplayServer({ data });
    const cache = out('cache');
    // Act: live, through the SDK, into a read-write cache.
    const live = await sample([...common(server.url, cache), '--out', out('live'), '--cache', 'read-write']);
    await server.close();
    // Assert
    expect(live.stderr).toContain('ETA');
    // One abort signal serves every concurrent request: no listener-leak warning for it.
    expect(live.stderr).not.toContain('MaxListenersExceededWarning');
    expect(live.code, live.stderr).toBe(0);
    expect(server.requests()).toBe(MODELS.length * 150 * N);
    expect(live.json).toMatchObject({ tasks: 150, samples: 3000, requests: 3000, retries: 0 });
    expect(live.json.live.calls).toBe(3000);
    expect(live.json.unpriced).toEqual(MODELS.slice().sort());
    for (const model of MODELS) {
      const original = loadCandidates(data, model);
      const drawn = loadCandidates(out('live'), model);
      expect(drawn.size).toBe(150);
      for (const [id, c] of drawn)
        expect(c.codes, `${model} ${id}`).toEqual(original.get(id)?.codes.slice(0, N));
    }
    expect(gunzipSync(readFileSync(join(out('live'), 'tasks.jsonl.gz')))).toEqual(
      gunzipSync(readFileSync(join(data, 'tasks.jsonl.gz'))),
    );

    // Bench: identical figures on the sampled directory and on the original.
    const original = await benchFigures(data, out('bench-original.json'));
    expect(original.models.map((m: { model: string; tasks: number }) => [m.model, m.tasks])).toEqual(
      MODELS.map((m) => [m, BENCH_TASKS.length]),
    );
    expect(await benchFigures(out('live'), out('bench-live.json'))).toEqual(original);

    // Replay-only with the server closed: the same bytes and not one request (any would be refused).
    const replay = await sample([
      ...common(server.url, cache),
      '--out',
      out('replay'),
      '--cache',
      'replay-only',
    ]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.json).toMatchObject({ requests: 0, retries: 0 });
    expect(replay.json.replayed.calls).toBe(3000);
    expect(replay.json.live.calls).toBe(0);
    for (const model of MODELS)
      expect(bytes(out('replay'), model).equals(bytes(out('live'), model))).toBe(true);

    // Faults (5 % 429 with retry-after-ms 1, 2 % 500, 1 % resets) into a fresh cache: same bytes, retries counted.
    const faulty = await startDatasetReplayServer({
      data,
      faults: { rate429: 0.05, rate500: 0.02, resetRate: 0.01, seed: 5, retryAfterMs: 1 },
    });
    const faulted = await sample([
      ...common(faulty.url, out('cache-faults')),
      '--out',
      out('faults'),
      '--cache',
      'read-write',
      '--max-retries',
      '6',
    ]);
    await faulty.close();
    expect(faulted.code, faulted.stderr).toBe(0);
    const f = faulty.faults();
    expect(f['429']).toBeGreaterThan(100);
    expect(f['500']).toBeGreaterThan(30);
    expect(f.reset).toBeGreaterThan(10);
    expect(faulted.json.retriesByReason).toEqual({ '429': f['429'], '500': f['500'], connection: f.reset });
    expect(faulted.json.requests).toBe(3000 + f['429'] + f['500'] + f.reset);
    expect(faulty.requests()).toBe(faulted.json.requests);
    for (const model of MODELS)
      expect(bytes(out('faults'), model).equals(bytes(out('live'), model))).toBe(true);
  }, 900_000);
});
