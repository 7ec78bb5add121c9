import { CrosscheckError } from '../../errors/index.ts';

/**
 * Workers rely on POSIX: extra pipes on fd 3 and 4, process groups, signals and rlimits.
 * @internal
 */
export const requirePosix = (what: string): void => {
  if (process.platform === 'win32') {
    throw new CrosscheckError(
      'RUNTIME_MISSING',
      `${what} need a POSIX system (Linux or macOS): their workers use extra pipes, process groups and signals. On Windows, run the tests under WSL.`,
    );
  }
};
