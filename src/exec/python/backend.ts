import { dirname } from 'node:path';
import type { SourceCandidate } from '../../candidates/index.ts';
import type { Backend, RowJob } from '../backend.ts';
import { requirePosix } from '../command/platform.ts';
import { closeAllPools, defaultPoolSize, poolFor } from '../command/pool.ts';
import { type PreparedRow, runPrepared } from '../command/schedule.ts';
import { resolvePythonOptions } from './config.ts';
import { harnessPath } from './harness-path.ts';
import { checkPython } from './interpreter.ts';

const PYTHON_LABEL = 'Python';

const PYTHON_ENV = {
  // Reproducible set and dict-of-str orders across runs and workers.
  PYTHONHASHSEED: '0',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONIOENCODING: 'utf-8',
  // Numeric libraries start thread pools on import; the worker allows no threads.
  OPENBLAS_NUM_THREADS: '1',
  OMP_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
};

// RLIMIT_AS bounds address space, not heap: the interpreter and its shared libraries take a few
// hundred MiB of it before any candidate allocates, so small heap limits are raised to a floor.
const addressSpaceMb = (memoryMb: number): number => Math.max(memoryMb, 512) + 256;

/**
 * Runs Python source candidates in a pool of long-lived `python3` workers
 * (the `python/crosscheck_worker` package) over the protocol of `docs/protocol.md`.
 * @internal
 */
export const pythonBackend: Backend = {
  isolation: (mode) => mode,
  async run(rows: readonly RowJob[], ctx) {
    requirePosix('Python candidates');
    const options = resolvePythonOptions();
    const runtime = await checkPython(options.python, options.source);
    const pool = poolFor(
      {
        // -S: no `site` at start-up; the harness adds site-packages itself without running the
        // `import` lines of .pth files, whose imports would enlarge every fork (see _add_site_packages).
        command: [runtime.executable, '-S', '-s', '-B', harnessPath()],
        memoryMb: addressSpaceMb(ctx.limits.memoryMb),
        env: PYTHON_ENV,
        trustedValues: true,
        isolation: ctx.isolation,
        readOnly: [dirname(harnessPath())],
        zygote: true,
        label: PYTHON_LABEL,
        fix: `Check that \`${runtime.executable}\` (Python ${runtime.version}) can run ${harnessPath()}; set CROSSCHECK_PYTHON or configurePython({ python }) to use another interpreter.`,
      },
      options.workers ?? defaultPoolSize(),
    );
    const prepared: PreparedRow[] = rows.map(({ row, candidate }) => {
      const c = candidate as SourceCandidate;
      if (c.problem)
        return { row, problem: { kind: 'error', name: c.problem.name, message: c.problem.message } };
      return {
        row,
        pool,
        load: { key: c.id, code: c.prepared ?? c.code, entry: c.entry },
        invalid: ctx.invalidNames(c),
      };
    });
    await runPrepared(prepared, ctx);
  },
};

/** Stops idle Python workers now instead of at process exit. @public */
export const closePythonWorkers = (): Promise<void> => closeAllPools((spec) => spec.label === PYTHON_LABEL);
