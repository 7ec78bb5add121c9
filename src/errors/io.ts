import { CrosscheckError } from './error.ts';

/** What to do about each common I/O failure, by errno code. */
const FIXES: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full: free some space, or write somewhere else',
  EDQUOT: 'the disk quota is exhausted: free some space, or write somewhere else',
  EFBIG:
    'the file would exceed the file-size limit of this process (ulimit -f): raise the limit, or write somewhere else',
  EROFS: 'the file system is read-only: write somewhere else',
  EACCES: 'permission denied: check the permissions, or write somewhere else',
  EPERM: 'operation not permitted: check the permissions, or write somewhere else',
  ENOENT: 'no such file or directory: check the path',
  ENOTDIR: 'a part of the path is not a directory: check the path',
  EISDIR: 'the path is a directory: name a file',
  EMFILE: 'too many open files: raise the limit (ulimit -n) or run fewer things at once',
  ENFILE: 'too many open files in the system: run fewer things at once',
  EIO: 'an input/output error from the device: check the disk',
};

/**
 * A typed `IO_ERROR` for a failed file operation: the code, the path, and what to do, on one
 * line, so the CLI prints it without a stack trace. Errors that are already typed pass through.
 * @internal
 */
export const ioError = (
  error: unknown,
  action: string,
  path: string,
  who = 'crosscheck',
): CrosscheckError => {
  if (error instanceof CrosscheckError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
  const fix = FIXES[code] ?? (error as Error | undefined)?.message ?? 'unknown error';
  return new CrosscheckError('IO_ERROR', `${who}: cannot ${action} ${path}: ${code}, ${fix}.`, {
    where: path,
    cause: error,
  });
};

/** Runs a file operation, turning any failure into an {@link ioError}. @internal */
export const withIo = <T>(action: string, path: string, operation: () => T): T => {
  try {
    return operation();
  } catch (error) {
    throw ioError(error, action, path);
  }
};
