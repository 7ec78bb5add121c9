/**
 * CPU time of this process and of every process below it, for the benchmarks: on a machine
 * shared with other work, wall time measures the machine, CPU time measures the run.
 *
 * Linux only (`/proc`); elsewhere the workers' share reads as zero and only the host's counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Fields of /proc/<pid>/stat past the command name: f[0] is field 3 (state) of proc(5). */
const statFields = (pid: number | 'self'): string[] | null => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};

/** user + system time of a process and of its reaped children, in seconds (/proc/<pid>/stat). */
export const procCpu = (pid: number | 'self'): { ppid: number; own: number; children: number } | null => {
  const f = statFields(pid);
  if (f === null) return null;
  // utime, stime, cutime, cstime are in clock ticks (USER_HZ, 100 on Linux).
  const n = (i: number): number => (Number(f[i]) || 0) / 100;
  return { ppid: Number(f[1]), own: n(11) + n(12), children: n(13) + n(14) };
};

/** Minor page faults of a process and of its reaped children (/proc/<pid>/stat minflt, cminflt). */
const procFaults = (pid: number | 'self'): { ppid: number; own: number; children: number } | null => {
  const f = statFields(pid);
  if (f === null) return null;
  return { ppid: Number(f[1]), own: Number(f[7]) || 0, children: Number(f[8]) || 0 };
};

/** CPU seconds of every live process below this one (the workers, their children, bubblewrap). */
export const liveTreeCpu = (): number => liveTreeSum(procCpu);

/** Sum of `read` (own + reaped children) over every live process below this one. */
const liveTreeSum = (
  read: (pid: number) => { ppid: number; own: number; children: number } | null,
): number => {
  const kids = new Map<number, number[]>();
  const amount = new Map<number, number>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const s = read(pid);
    if (s === null) continue;
    amount.set(pid, s.own + s.children);
    kids.set(s.ppid, [...(kids.get(s.ppid) ?? []), pid]);
  }
  let sum = 0;
  const queue = [...(kids.get(process.pid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    sum += amount.get(pid) ?? 0;
    queue.push(...(kids.get(pid) ?? []));
  }
  return sum;
};

/** This process's own CPU seconds (user + system, all threads). */
export const hostCpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** A point to measure CPU from: this process, and every process below it, live or reaped. */
export interface CpuSnapshot {
  readonly host: number;
  readonly workers: number;
}

/**
 * Host CPU and CPU of every process below it (live ones, and reaped ones through /proc/self).
 * Take it before the workers stop: a stopped worker's own children are reaped by no one here.
 */
export const cpuSnapshot = (): CpuSnapshot => ({
  host: hostCpu(),
  workers: liveTreeCpu() + (procCpu('self')?.children ?? 0),
});

/**
 * Minor page faults of the host and of every process below it, live or reaped (as
 * {@link cpuSnapshot}). What a fault costs moves with the VM's hour far more than a
 * system call does, so a run's fault count says how much a slow hour can slow it.
 */
export const faultSnapshot = (): CpuSnapshot => {
  const self = procFaults('self');
  return { host: self?.own ?? 0, workers: liveTreeSum(procFaults) + (self?.children ?? 0) };
};

/** Page faults since `a`, by the host and by the processes below it. */
export const faultsSince = (a: CpuSnapshot): CpuSnapshot => {
  const b = faultSnapshot();
  return { host: b.host - a.host, workers: b.workers - a.workers };
};

/** CPU seconds spent since `a`, by the host and by the processes below it. */
export const cpuSince = (a: CpuSnapshot): CpuSnapshot => {
  const b = cpuSnapshot();
  return { host: b.host - a.host, workers: b.workers - a.workers };
};

/** The 1, 5 and 15 minute load averages, as printed beside every figure. */
export const loadText = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
