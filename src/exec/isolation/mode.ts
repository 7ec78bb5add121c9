import { spawnSync } from 'node:child_process';
import { CrosscheckError, describeValue } from '../../errors/index.ts';
import { bubblewrapPath, probeCommand, setHardened } from './bubblewrap.ts';
import { releaseConfined } from './confine.ts';
import { launcherProblem, sandboxOwner } from './sandbox-user.ts';
import { seccompProblem } from './seccomp.ts';

/**
 * How untrusted candidates are confined.
 * - `'os'`: each worker process runs inside a bubblewrap sandbox (Linux): no network, no host
 *   environment, a read-only view of the system, a private writable temp dir, its own PID
 *   namespace, an unprivileged user, death with its parent.
 * - `'process'`: a plain child process with a scrubbed environment and a temp working directory;
 *   the in-process guards of the harnesses are then the only defence (defence in depth, not a
 *   boundary).
 * - `'auto'`: `'os'` when bubblewrap works on this machine, else `'process'`.
 * @public
 */
export type IsolationMode = 'auto' | 'os' | 'process';

/**
 * The isolation that ran, as records and reports state it: `'os'` or `'process'` for untrusted
 * candidates, `'none'` when every candidate was a trusted in-process function.
 * @public
 */
export type IsolationUsed = 'os' | 'process' | 'none';

const STRENGTH: Record<IsolationUsed, number> = { none: 0, process: 1, os: 2 };

/**
 * What two runs together ran under: the weaker isolation, where `'none'` (nothing untrusted ran)
 * adds nothing. For combining chunks of a measure, or backends of a run.
 * @public
 */
export const combineIsolation = (a: IsolationUsed, b: IsolationUsed): IsolationUsed => {
  if (a === 'none') return b;
  if (b === 'none') return a;
  return STRENGTH[a] <= STRENGTH[b] ? a : b;
};

/** Environment variable that sets the default isolation (`os`, `process` or `auto`). */
export const ISOLATION_ENV = 'CROSSCHECK_ISOLATION';

const MODES: readonly IsolationMode[] = ['auto', 'os', 'process'];

const probes = new Map<string, string | null>();

const sandboxProblem = (bwrap: string, hardened: boolean): string | null => {
  // The probe starts exactly what a candidate gets: the same uid drop, task limit and filter.
  const sandbox = probeCommand(hardened);
  let result: ReturnType<typeof spawnSync>;
  try {
    result = spawnSync(bwrap, sandbox.args, {
      env: {},
      stdio: ['ignore', 'ignore', 'pipe', ...sandbox.fds],
      timeout: 10_000,
    });
  } finally {
    releaseConfined(sandbox);
  }
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `\`${bwrap}\` was not found` : `\`${bwrap}\` did not start (${code})`;
  }
  if (result.status === 0) return null;
  const stderr = String(result.stderr ?? '')
    .trim()
    .slice(0, 200);
  return `\`${bwrap}\` could not create a sandbox${stderr ? ` (${stderr})` : ''}`;
};

/**
 * Null when bubblewrap can start a sandbox with crosscheck's flags here, else why not. Run once
 * per bwrap path: a real sandbox start, because bwrap may be installed yet blocked (no user
 * namespaces in a container, an AppArmor policy).
 */
const bubblewrapProblem = (): string | null => {
  if (process.platform !== 'linux') return `bubblewrap needs Linux (this is ${process.platform})`;
  const bwrap = bubblewrapPath();
  const known = probes.get(bwrap);
  if (known !== undefined) return known;
  const missing = seccompProblem() ?? (sandboxOwner() !== null ? launcherProblem() : null);
  if (missing !== null) {
    probes.set(bwrap, missing);
    return missing;
  }
  let problem = sandboxProblem(bwrap, true);
  if (problem !== null && sandboxProblem(bwrap, false) === null) {
    // An older bubblewrap without --disable-userns: still a boundary, one hardening less.
    setHardened(false);
    problem = null;
  }
  probes.set(bwrap, problem);
  return problem;
};

const readMode = (value: unknown, where: string): IsolationMode => {
  if (typeof value === 'string' && (MODES as readonly string[]).includes(value))
    return value as IsolationMode;
  throw new CrosscheckError(
    'INVALID_OPTION',
    `Expected ${where} to be 'auto', 'os' or 'process', got ${describeValue(value)}.`,
    { where },
  );
};

const unavailable = (problem: string, source: string): CrosscheckError =>
  new CrosscheckError(
    'ISOLATION_UNAVAILABLE',
    `Isolation 'os' was required (${source}) but bubblewrap cannot confine candidates here: ${problem}. ` +
      'Install it and the libseccomp binding that builds its system call filter (Debian/Ubuntu: ' +
      '`apt-get install bubblewrap python3-seccomp`; Fedora: `dnf install bubblewrap python3-libseccomp`) and allow user ' +
      "namespaces, or run with isolation 'process': candidates then run as plain child processes with a " +
      'scrubbed environment and in-process guards only, which is defence in depth, not an OS boundary.',
    { where: source },
  );

/**
 * The isolation a run uses. The option wins over `CROSSCHECK_ISOLATION`, except that the
 * variable set to `os` cannot be lowered: an operator who requires the boundary gets it or an
 * error. `'auto'` (the default) gives `'os'` when bubblewrap works here, else `'process'`.
 * Throws `ISOLATION_UNAVAILABLE` when `'os'` is required and bubblewrap cannot run, and
 * `INVALID_OPTION` for an unknown mode.
 * @public
 */
export const resolveIsolation = (requested?: IsolationMode): 'os' | 'process' => {
  const fromEnv = process.env[ISOLATION_ENV];
  const envMode = fromEnv === undefined || fromEnv === '' ? undefined : readMode(fromEnv, ISOLATION_ENV);
  const optionMode = requested === undefined ? undefined : readMode(requested, '`isolation`');
  const required =
    envMode === 'os' ? `${ISOLATION_ENV}=os` : optionMode === 'os' ? "the option isolation: 'os'" : null;
  if (required) {
    const problem = bubblewrapProblem();
    if (problem) throw unavailable(problem, required);
    return 'os';
  }
  const mode = optionMode ?? envMode ?? 'auto';
  if (mode === 'process') return 'process';
  return bubblewrapProblem() === null ? 'os' : 'process';
};

/** Forgets probe results (tests that point `CROSSCHECK_BWRAP` elsewhere). @internal */
export const resetIsolationProbe = (): void => probes.clear();
