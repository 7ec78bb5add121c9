/**
 * JavaScript and TypeScript candidates: a pool of worker threads, each candidate in its own `vm`
 * context, inside a sandbox host process that the OS boundary confines. A watchdog finds the call
 * that hangs, marks it `timeout`, replaces the worker and resumes.
 * @packageDocumentation
 */
import type { SourceCandidate } from '../../candidates/index.ts';
import type { Backend } from '../backend.ts';
import { JsSandboxPool } from './pool.ts';
import { RemoteSandboxPool } from './remote-pool.ts';

export { JsSandboxPool } from './pool.ts';
export { RemoteSandboxPool } from './remote-pool.ts';

const pools = new Map<number, JsSandboxPool>();

/**
 * An in-process pool of sandbox workers (the sandbox host runs these). Its idle workers do not
 * keep the process alive; {@link closeSandboxPools} frees them early.
 */
export const sharedSandboxPool = (memoryMb: number): JsSandboxPool => {
  let pool = pools.get(memoryMb);
  if (pool === undefined) {
    pool = new JsSandboxPool({ memoryMb });
    pools.set(memoryMb, pool);
  }
  return pool;
};

const hosts = new Map<'os' | 'process', RemoteSandboxPool>();

/** The sandbox host (child process) that runs JS/TS sources under `isolation`. @internal */
export const sandboxHost = (isolation: 'os' | 'process'): RemoteSandboxPool => {
  let host = hosts.get(isolation);
  if (host === undefined) {
    host = new RemoteSandboxPool(isolation);
    hosts.set(isolation, host);
  }
  return host;
};

/** Puts `host` (a test's stand-in) in place of the sandbox host for `isolation`; undefined restores the default. @internal */
export const replaceSandboxHost = (
  isolation: 'os' | 'process',
  host: RemoteSandboxPool | undefined,
): void => {
  if (host === undefined) hosts.delete(isolation);
  else hosts.set(isolation, host);
};

/** Stops the sandbox host processes and any in-process sandbox workers (they restart on the next run). @public */
export const closeSandboxPools = async (): Promise<void> => {
  await Promise.all([...pools.values()].map((p) => p.close()));
  await Promise.all([...hosts.values()].map((h) => h.close()));
  pools.clear();
};

/**
 * JavaScript and TypeScript sources, run in `vm` contexts inside a pool of worker threads that
 * lives in a child process confined by the run's isolation (see `remote-pool.ts`).
 */
export const jsSandboxBackend: Backend = {
  isolation: (mode) => mode,
  run(rows, ctx) {
    return sandboxHost(ctx.isolation).run(
      rows.map(({ row, candidate }) => ({ row, candidate: candidate as SourceCandidate })),
      ctx,
    );
  },
};
