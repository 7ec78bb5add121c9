import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { CrosscheckError } from '../../errors/index.ts';

/** Oldest Python the harness supports. */
export const MIN_PYTHON: readonly [number, number] = [3, 9];

/** A checked interpreter: the executable workers start, and its version. @internal */
export interface PythonRuntime {
  readonly executable: string;
  readonly version: string;
}

const FIX =
  'Install Python 3.9 or newer, or point crosscheck at one: set CROSSCHECK_PYTHON, or call ' +
  "configurePython({ python: '/path/to/python3' }) (a virtualenv directory works too).";

const checks = new Map<string, Promise<PythonRuntime>>();

/** A virtualenv directory stands for its interpreter. */
const executableOf = (python: string): string => {
  if (existsSync(python) && statSync(python).isDirectory()) {
    return process.platform === 'win32'
      ? join(python, 'Scripts', 'python.exe')
      : join(python, 'bin', 'python');
  }
  return python;
};

// Only a guard against an interpreter that never answers, not a speed limit: the probe uses
// well under a second of CPU, but a pyenv shim (a chain of shell scripts) on a busy machine took
// over 30 s of wall time (2 cores, load 40), and the demo failed on it.
const PROBE_HANG_MS = 300_000;

const PROBE = 'import sys, json; print(json.dumps([list(sys.version_info[:3]), sys.executable]))';

const probe = async (python: string, source: string): Promise<PythonRuntime> => {
  const file = executableOf(python);
  // The probe runs with the host environment so launchers such as pyenv shims resolve; workers
  // then start the real executable it reports, with a scrubbed environment.
  const result = await execa(file, ['-c', PROBE], { reject: false, timeout: PROBE_HANG_MS });
  const missing = (reason: string): CrosscheckError =>
    new CrosscheckError(
      'RUNTIME_MISSING',
      `Python interpreter \`${python}\` (from ${source}) ${reason}. ${FIX}`,
      {
        where: 'configurePython({ python }) or CROSSCHECK_PYTHON',
      },
    );
  if (result.failed) {
    const code = (result.cause as { code?: string } | undefined)?.code;
    if (code === 'ENOENT') throw missing('was not found');
    if (code === 'EACCES') throw missing('is not executable');
    throw missing(`did not run: ${(result.shortMessage ?? '').slice(0, 300)}`);
  }
  let parsed: [number[], string];
  try {
    parsed = JSON.parse(String(result.stdout).trim().split('\n').pop() ?? '') as [number[], string];
  } catch {
    throw missing(`printed ${JSON.stringify(String(result.stdout).slice(0, 100))} instead of its version`);
  }
  const [[major = 0, minor = 0, patch = 0], executable] = parsed;
  const version = `${major}.${minor}.${patch}`;
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw missing(`is Python ${version}; crosscheck needs ${MIN_PYTHON.join('.')} or newer`);
  }
  return { executable: executable || file, version };
};

/** Checks an interpreter once per process (Python ≥ 3.9); throws `RUNTIME_MISSING` with the fix. @internal */
export const checkPython = (python: string, source: string): Promise<PythonRuntime> => {
  let check = checks.get(python);
  if (!check) {
    check = probe(python, source);
    // A failed check is retried next time: the user may have fixed the environment meanwhile.
    check.catch(() => checks.delete(python));
    checks.set(python, check);
  }
  return check;
};
