/**
 * Per-file CPU meter for measuring the suites: with `CROSSCHECK_CPU_LOG=<file>` set, each test
 * file appends one JSON line `{ file, pid, cpuMs, processCpuMs, wallMs }` to that file when it
 * ends. The CPU is the worker's own time plus that of the child processes it has waited for
 * (`/proc/self/stat` utime, stime, cutime, cstime), so sandboxes and Python workers count too;
 * wall time alone says little on a shared, loaded machine. `cpuMs` counts from the moment this
 * setup file loads (the test file's imports and tests), `processCpuMs` from the worker's start
 * (Vitest's own start-up too: each test file runs in a fresh worker). Without the variable this
 * file does nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

const log = process.env.CROSSCHECK_CPU_LOG;

/** The process's CPU time and its reaped children's, in milliseconds (clock ticks are 1/100 s). */
const cpuMs = (): number => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime are fields 14–17 of the whole line, 12–15 after the name.
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
};

if (log !== undefined && log !== '') {
  // Taken as the setup file loads, before the test file's own imports.
  const startCpu = cpuMs();
  const startWall = Date.now();
  afterAll(() => {
    const path = expect.getState().testPath ?? 'unknown';
    const line = {
      file: relative(process.cwd(), path),
      pid: process.pid,
      cpuMs: cpuMs() - startCpu,
      processCpuMs: cpuMs(),
      wallMs: Date.now() - startWall,
    };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
