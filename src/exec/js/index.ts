import type { SourceCandidate } from '../../candidates/types.ts';
import type { Backend } from '../backend.ts';
import { JsSandboxPool } from './pool.ts';

export { JsSandboxPool } from './pool.ts';

const pools = new Map<number, JsSandboxPool>();

/**
 * The pool shared by every run with the same heap limit. Its idle workers do not keep the
 * process alive, so nothing needs closing; {@link closeSandboxPools} frees them early.
 */
export const sharedSandboxPool = (memoryMb: number): JsSandboxPool => {
  let pool = pools.get(memoryMb);
  if (pool === undefined) {
    pool = new JsSandboxPool({ memoryMb });
    pools.set(memoryMb, pool);
  }
  return pool;
};

/** Terminates the shared sandbox workers (they restart on the next run). @public */
export const closeSandboxPools = async (): Promise<void> => {
  await Promise.all([...pools.values()].map((p) => p.close()));
  pools.clear();
};

/** JavaScript and TypeScript sources, run in `vm` contexts inside a pool of worker threads. */
export const jsSandboxBackend: Backend = {
  run(rows, ctx) {
    const pool = sharedSandboxPool(ctx.limits.memoryMb);
    return pool.run(
      rows.map(({ row, candidate }) => ({ row, candidate: candidate as SourceCandidate })),
      ctx,
    );
  },
};
