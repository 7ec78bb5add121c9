/**
 * `npm run bench:llm`: samples per second through the whole LLM stack on loopback.
 * - live: createLlm → limiter → openai SDK → real HTTP → a scripted server in its own process,
 *   every reply published to a fresh cache (entry lock = link of the process's owner file; tmp
 *   file, link; no fsync, see cache/publish.ts);
 * - cached: a second process-level client in replay-only over the warm cache (read, verify the
 *   request, parse), through `draw` and through `fromModel` (candidates built).
 * Ends with one JSON line {"liveRequestsPerSec", "cachedSamplesPerSec"}.
 *
 * Recording is bound by creating one file (inode) per sample. On ext4 without a journal (this
 * machine's /), the kernel skips every inode freed in the last 1-6 minutes of the block group
 * (`recently_deleted` in `find_inode_bit`), one page-cache lookup each: a creation costs ~50 µs
 * of CPU on a quiet file system and up to ~1 ms after thousands of deletions nearby, such as
 * the previous run's clean-up, once the group's never-used free inodes are taken. The "file
 * creation" line probes it before and after the live run, so the live figure can be read
 * against the state of the file system it met.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createLlm, defineTask, fromModel } from '../src/index.ts';

const PROMPTS = Number(process.env.BENCH_LLM_PROMPTS ?? 300);
const SAMPLES = 10;
const CONCURRENCY = Number(process.env.BENCH_LLM_CONCURRENCY ?? 64);

const server = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'llm-server.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve) => {
  createInterface({ input: server.stdout as NodeJS.ReadableStream }).once('line', resolve);
});
// BENCH_LLM_DIR puts the caches elsewhere (e.g. /dev/shm, to see what the file system costs).
const base = process.env.BENCH_LLM_DIR ?? tmpdir();
const loadAtStart = loadavg()[0] as number;
const dir = mkdtempSync(join(base, 'crosscheck-bench-llm-'));
const request = (i: number) => ({
  messages: [
    { role: 'system' as const, content: 'You are an expert Python programmer.' },
    { role: 'user' as const, content: `Write f for task ${i}: return x plus a constant.` },
  ],
  purpose: 'codegen' as const,
});

try {
  // Warm the SDK import and the connection pool (not counted).
  const warm = createLlm({ model: 'bench', baseURL: url, cache: false, maxConcurrency: CONCURRENCY });
  await warm.draw(request(-1), { samples: 20 });

  const live = createLlm({
    model: 'bench',
    baseURL: url,
    cache: { dir, mode: 'read-write' },
    maxConcurrency: CONCURRENCY,
  });
  // CPU time of this (client) process beside wall time: on a shared machine the wall figure
  // measures the load as much as the code.
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  // What creating a file costs on this file system now (removed with the cache at the end).
  const PROBE = 200;
  const probeDir = join(dir, '.probe');
  mkdirSync(probeDir);
  let probed = 0;
  const probe = (): number => {
    const p0 = cpu();
    for (let i = 0; i < PROBE; i++) writeFileSync(join(probeDir, String(probed++)), '{}', { flag: 'wx' });
    return ((cpu() - p0) * 1000) / PROBE;
  };
  const createUs = [probe()];
  const cpuMs: number[] = [];
  let c0 = cpu();
  let t = performance.now();
  await Promise.all(Array.from({ length: PROMPTS }, (_, i) => live.draw(request(i), { samples: SAMPLES })));
  const liveMs = performance.now() - t;
  cpuMs.push(cpu() - c0);
  const liveRequests = live.stats.requests;
  createUs.push(probe());
  const liveRequestsPerSec = (liveRequests / liveMs) * 1000;

  const offMs = await (async () => {
    const off = createLlm({ model: 'bench', baseURL: url, cache: false, maxConcurrency: CONCURRENCY });
    const s = performance.now();
    const c = cpu();
    await Promise.all(Array.from({ length: PROMPTS }, (_, i) => off.draw(request(i), { samples: SAMPLES })));
    cpuMs.push(cpu() - c);
    return performance.now() - s;
  })();

  // Cached: the same samples from the warm cache, replay-only (a miss would throw).
  const replay = createLlm({ model: 'bench', baseURL: url, cache: { dir, mode: 'replay-only' } });
  c0 = cpu();
  t = performance.now();
  const got = await Promise.all(
    Array.from({ length: PROMPTS }, (_, i) => replay.draw(request(i), { samples: SAMPLES })),
  );
  const cachedMs = performance.now() - t;
  cpuMs.push(cpu() - c0);
  const cachedSamples = got.flat().length;
  if (!got.flat().every((c) => c.cached)) throw new Error('bench:llm: a replayed sample was not cached');
  // Again with the request files verified (a long-running worker's steady state).
  c0 = cpu();
  t = performance.now();
  await Promise.all(Array.from({ length: PROMPTS }, (_, i) => replay.draw(request(i), { samples: SAMPLES })));
  const cachedWarmMs = performance.now() - t;
  cpuMs.push(cpu() - c0);

  // Through fromModel: candidates built from the cached replies (Python: no parse on the host).
  const cdir = mkdtempSync(join(base, 'crosscheck-bench-llm-c-'));
  const rec = createLlm({
    model: 'bench',
    baseURL: url,
    cache: { dir: cdir, mode: 'read-write' },
    maxConcurrency: CONCURRENCY,
  });
  const tasks = Array.from({ length: PROMPTS }, (_, i) =>
    defineTask({ name: `f${i}`, entry: 'f', description: `Task ${i}.` }),
  );
  await Promise.all(tasks.map((task) => fromModel(task, { llm: rec, n: SAMPLES, language: 'python' })));
  const rep = createLlm({ model: 'bench', baseURL: url, cache: { dir: cdir, mode: 'replay-only' } });
  c0 = cpu();
  t = performance.now();
  const cands = await Promise.all(
    tasks.map((task) => fromModel(task, { llm: rep, n: SAMPLES, language: 'python' })),
  );
  const fromModelMs = performance.now() - t;
  cpuMs.push(cpu() - c0);
  rmSync(cdir, { recursive: true, force: true });

  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
  const rows = [
    ['live, cache read-write (publish per sample)', liveRequests, liveMs, rate(liveRequests, liveMs)],
    ['live, cache off', PROMPTS * SAMPLES, offMs, rate(PROMPTS * SAMPLES, offMs)],
    ['cached, replay-only, first read', cachedSamples, cachedMs, rate(cachedSamples, cachedMs)],
    [
      'cached, replay-only, requests verified',
      cachedSamples,
      cachedWarmMs,
      rate(cachedSamples, cachedWarmMs),
    ],
    [
      'cached, fromModel (Python candidates)',
      cands.flat().length,
      fromModelMs,
      rate(cands.flat().length, fromModelMs),
    ],
  ] as const;
  console.error(
    `bench:llm: ${PROMPTS} prompts × ${SAMPLES} samples, maxConcurrency ${CONCURRENCY}, server in its own process; cache in ${base}; load average ${loadAtStart.toFixed(1)} → ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
  );
  console.error(
    `  file creation in the cache's file system: ${createUs.map((u) => u.toFixed(0)).join(' µs before the live run, ')} µs after (CPU each, ${PROBE} files)`,
  );
  console.error(
    `  ${''.padEnd(46)} ${'n'.padStart(6)}    ${'wall'.padStart(6)}     ${'per s'.padStart(7)}   client CPU   per CPU-s  CPU µs/sample`,
  );
  for (const [i, [what, n, ms, r]] of rows.entries()) {
    const c = cpuMs[i] as number;
    console.error(
      `  ${what.padEnd(46)} ${String(n).padStart(6)} in ${ms.toFixed(0).padStart(6)} ms  ${String(r).padStart(7)} /s  ${c.toFixed(0).padStart(6)} ms  ${String(rate(n, c)).padStart(7)} /s  ${((c * 1000) / n).toFixed(0).padStart(8)}`,
    );
  }
  console.log(
    JSON.stringify({
      liveRequestsPerSec: Math.round(liveRequestsPerSec),
      cachedSamplesPerSec: rate(cachedSamples, cachedMs),
    }),
  );
} finally {
  server.stdin?.end();
  rmSync(dir, { recursive: true, force: true });
}
