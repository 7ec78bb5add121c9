/**
 * Time to triangulate: `npm run bench:triangulate`.
 *
 * 30 forward × 30 inverse programs (sandboxed sources, a third of the forward and a quarter of
 * the inverse programs wrong) on 100 inputs under FWD-INV with derived right inputs, artifact
 * semantics, once in JavaScript and once in Python. Each figure is the best of a few repetitions
 * after a warm-up (a shared machine inflates single runs). Besides wall time it prints CPU time:
 * the host's, and (on Linux) that of the sandbox and worker processes below it, since on a loaded
 * machine wall time mostly measures the other processes. Ends with one JSON line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { closePythonWorkers } from '../src/exec/python/index.ts';
import { candidates, closeSandboxPools, defineTask } from '../src/index.ts';
import { triangulate } from '../src/triangulate/index.ts';

const M = 30;
const INPUTS = 100;
const REPEATS = 3;

// A small LCG: the inputs are the same on every run.
let state = 12345;
const next = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % 101;
};
const inputs = Array.from({ length: INPUTS }, () => [next() - 50, next() - 50]);

const python = {
  fwd: (j: number) =>
    j % 3 === 0
      ? `def plus(a, b):\n    # sample ${j}\n    return a + b + (1 if a == ${(j % 40) - 20} else 0)\n`
      : `def plus(a, b):\n    # sample ${j}\n    return a + b\n`,
  inv: (j: number) =>
    j % 4 === 0
      ? `def plus_inv_a(s, b):\n    # sample ${j}\n    return s - b - (1 if b == ${(j % 30) - 15} else 0)\n`
      : `def plus_inv_a(s, b):\n    # sample ${j}\n    return s - b\n`,
};
const javascript = {
  fwd: (j: number) =>
    j % 3 === 0
      ? `function plus(a, b) { /* sample ${j} */ return a + b + (a === ${(j % 40) - 20} ? 1 : 0); }`
      : `function plus(a, b) { /* sample ${j} */ return a + b; }`,
  inv: (j: number) =>
    j % 4 === 0
      ? `function plus_inv_a(s, b) { /* sample ${j} */ return s - b - (b === ${(j % 30) - 15} ? 1 : 0); }`
      : `function plus_inv_a(s, b) { /* sample ${j} */ return s - b; }`,
};

/**
 * CPU seconds of every live process below this one, with what their reaped children used
 * (utime + stime + cutime + cstime from /proc); 0 where /proc is missing.
 */
const descendantCpu = (): number => {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of pids) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
    } catch {
      // The process ended while we read.
    }
  }
  let total = 0;
  for (const [pid, t] of ticks) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        total += t;
        break;
      }
    }
  }
  return total / 100; // USER_HZ
};

const once = async (language: 'python' | 'javascript') => {
  const src = language === 'python' ? python : javascript;
  const task = defineTask({ name: 'plus', signature: '(a: int, b: int) -> int' });
  const forward = candidates.fromSources(
    Array.from({ length: M }, (_, j) => src.fwd(j)),
    { language, entry: 'plus', label: 'fwd' },
  );
  const witnesses = candidates.fromSources(
    Array.from({ length: M }, (_, j) => src.inv(j)),
    { language, entry: 'plus_inv_a', label: 'inv' },
  );
  const started = performance.now();
  const cpu = process.cpuUsage();
  const below = descendantCpu();
  const r = await triangulate(task, forward, { transformation: 'fwd-inv', witnesses, inputs });
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - started) / 1000,
    hostCpu: (used.user + used.system) / 1e6,
    childCpu: descendantCpu() - below,
    r,
  };
};

const measure = async (language: 'python' | 'javascript') => {
  await once(language); // warm-up: workers, zygote, sandbox pool
  let best = Number.POSITIVE_INFINITY;
  let hostCpu = Number.POSITIVE_INFINITY;
  let childCpu = Number.POSITIVE_INFINITY;
  let last: Awaited<ReturnType<typeof once>>['r'] | null = null;
  for (let i = 0; i < REPEATS; i++) {
    const x = await once(language);
    best = Math.min(best, x.seconds);
    hostCpu = Math.min(hostCpu, x.hostCpu);
    childCpu = Math.min(childCpu, x.childCpu);
    last = x.r;
  }
  const r = last as NonNullable<typeof last>;
  const holds =
    r.stages[0]?.pairs.flat().filter((v) => v.kind === 'holds' || v.kind === 'inherited').length ?? 0;
  process.stderr.write(
    `${language.padEnd(10)} ${best.toFixed(3)} s wall, ${hostCpu.toFixed(3)} s host CPU, ${childCpu.toFixed(2)} s CPU in sandboxes and workers (load average ${os.loadavg()[0]?.toFixed(1)}; ${M} × ${M} pairs on ${INPUTS} inputs, ${r.inputs.transformed} derived right inputs; ` +
      `${r.calls.executed} calls executed of ${r.calls.requested} requested; ${holds} pairs hold; selected ${r.selected?.label ?? 'none'} with support ${r.selected?.support ?? 0})\n`,
  );
  return best;
};

const secondsJs = await measure('javascript');
const secondsPython = await measure('python');
await closePythonWorkers();
await closeSandboxPools();
process.stderr.write('target: ≤ 2 s each on 2 cores\n');
process.stdout.write(
  `${JSON.stringify({ secondsJs: Number(secondsJs.toFixed(3)), secondsPython: Number(secondsPython.toFixed(3)) })}\n`,
);
