/**
 * `npm run bench:exec`: sandboxed vs direct calls for m = 10 candidates × n = 10,000 inputs.
 * (a) a trivial candidate (sum of a 10-element array), (b) a moderate one (sort 100 numbers).
 * Prints a table and, last, one JSON line with the figures.
 */
import { candidates, closeSandboxPools, defineTask, run } from '../src/index.ts';
import { cpuSince, cpuSnapshot, hostCpu, loadText } from './cpu-tree.ts';

const M = 10;
const N = 10_000;
const ROUNDS = 5;

// A small deterministic generator (mulberry32) so every run measures the same inputs.
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const random = rng(42);
const arrays = (len: number) =>
  Array.from({ length: N }, () => [Array.from({ length: len }, () => Math.floor(random() * 1000))]);

const TRIVIAL = 'function sum(xs) { let s = 0; for (let i = 0; i < xs.length; i++) s += xs[i]; return s; }';
const MODERATE = 'function sortAsc(xs) { return [...xs].sort((a, b) => a - b); }';

/** Wall and CPU milliseconds of one measured round (CPU: this process and every process below it). */
interface Timing {
  readonly ms: number;
  readonly cpuMs: number;
}

const direct = (source: string, entry: string, inputs: unknown[][]): Timing => {
  const fn = new Function(`${source}; return ${entry};`)() as (...a: unknown[]) => unknown;
  const cpu0 = hostCpu();
  const started = performance.now();
  let sink = 0;
  for (let c = 0; c < M; c++) {
    for (const args of inputs) {
      const r = fn(...(args as unknown[]));
      sink += Array.isArray(r) ? r.length : (r as number);
    }
  }
  const ms = performance.now() - started;
  const cpuMs = (hostCpu() - cpu0) * 1000;
  if (sink === -1) console.log(sink);
  return { ms, cpuMs };
};

const sandboxed = async (source: string, entry: string, inputs: unknown[][]): Promise<Timing> => {
  // Ten distinct programs (a comment makes each its own candidate, compiled on its own).
  const sources = Array.from({ length: M }, (_, i) => `${source}\n// sample ${i}`);
  const task = defineTask({ name: entry });
  const cs = candidates.fromSources(sources, { language: 'javascript', entry });
  const cpu0 = cpuSnapshot();
  const started = performance.now();
  const matrix = await run(task, cs, inputs);
  const ms = performance.now() - started;
  const cpu = cpuSince(cpu0);
  const bad = matrix.outcomes.flat().filter((o) => o.kind !== 'value').length;
  if (bad > 0) {
    const first = matrix.outcomes.flat().find((o) => o.kind !== 'value');
    throw new Error(`${bad} calls did not return a value; first: ${JSON.stringify(first)}`);
  }
  return { ms, cpuMs: (cpu.host + cpu.workers) * 1000 };
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const measure = async (name: string, source: string, entry: string, inputs: unknown[][]) => {
  await sandboxed(source, entry, inputs.slice(0, 100)); // start the workers once
  const s: Timing[] = [];
  const d: Timing[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    s.push(await sandboxed(`${source}\n// round ${r}`, entry, inputs));
    d.push(direct(source, entry, inputs));
    process.stderr.write(`  ${name}: round ${r + 1}/${ROUNDS}\r`);
  }
  const calls = M * N;
  return {
    name,
    calls,
    sandboxedMs: median(s.map((t) => t.ms)),
    directMs: median(d.map((t) => t.ms)),
    sandboxedCpuMs: median(s.map((t) => t.cpuMs)),
    directCpuMs: median(d.map((t) => t.cpuMs)),
  };
};

const load0 = loadText();
const trivial = await measure('trivial (sum of 10)', TRIVIAL, 'sum', arrays(10));
const moderate = await measure('moderate (sort 100)', MODERATE, 'sortAsc', arrays(100));
await closeSandboxPools();

process.stderr.write('\n');
const perSec = (calls: number, ms: number): string => Math.round((calls / ms) * 1000).toLocaleString('en-US');
console.log(`load average ${load0} before, ${loadText()} after (wall figures measure the machine too)`);
for (const r of [trivial, moderate]) {
  console.log(
    `${r.name.padEnd(22)} ${r.calls} calls  sandboxed ${r.sandboxedMs.toFixed(1)} ms (${Math.round((r.calls / r.sandboxedMs) * 1000).toLocaleString('en-US')} calls/s)  direct ${r.directMs.toFixed(1)} ms (${Math.round((r.calls / r.directMs) * 1000).toLocaleString('en-US')} calls/s)  ratio ${(r.sandboxedMs / r.directMs).toFixed(2)}×`,
  );
  console.log(
    `${''.padEnd(22)} CPU: sandboxed ${r.sandboxedCpuMs.toFixed(1)} ms (${perSec(r.calls, r.sandboxedCpuMs)} calls per CPU second, host and sandbox)  direct ${r.directCpuMs.toFixed(1)} ms (${perSec(r.calls, r.directCpuMs)})  ratio ${(r.sandboxedCpuMs / r.directCpuMs).toFixed(2)}×`,
  );
}
console.log(
  JSON.stringify({
    trivialSandboxedCallsPerCpuSec: Math.round((trivial.calls / trivial.sandboxedCpuMs) * 1000),
    moderateSandboxedOverDirectCpu: Number((moderate.sandboxedCpuMs / moderate.directCpuMs).toFixed(3)),
    loadAverage: loadText(),
    trivialSandboxedCallsPerSec: Math.round((trivial.calls / trivial.sandboxedMs) * 1000),
    trivialDirectCallsPerSec: Math.round((trivial.calls / trivial.directMs) * 1000),
    moderateSandboxedOverDirect: Number((moderate.sandboxedMs / moderate.directMs).toFixed(3)),
  }),
);
