import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { CrosscheckError, withIo } from '../errors/index.ts';

/**
 * One writer per benchmark output. Two runs with the same `--out` would both measure every pair
 * and append each to the same checkpoint (twice the work, every line twice), then race to write
 * the report. The first run holds `<out>.lock`, a small JSON file naming its process; a second
 * run stops at once with a typed error that names the holder. A lock left by a process that died
 * (on this host) is taken over. A process may take the lock it holds again (the CLI holds it
 * across the run and the report's write; `runBench` takes it too, for API users).
 */

/** What the lock file holds. */
interface LockInfo {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: number;
}

const HOST = hostname();

/**
 * A lock file that cannot be read as {@link LockInfo} is being written by its creator (between
 * its create and its write) or was cut short by a crash: this long after its last change, the
 * second.
 */
const UNREADABLE_STALE_MS = 10_000;

/** Locks this process holds, by lock path: how many times taken. */
const held = new Map<string, number>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const readInfo = (path: string): LockInfo | null => {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (typeof info.pid !== 'number' || typeof info.host !== 'string') return null;
    return { pid: info.pid, host: info.host, startedAt: Number(info.startedAt) };
  } catch {
    return null;
  }
};

/** Takes the lock file if no file is there; false when one is. */
const create = (path: string): boolean => {
  try {
    const info: LockInfo = { pid: process.pid, host: HOST, startedAt: Date.now() };
    writeFileSync(path, `${JSON.stringify(info)}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
};

/**
 * Removes a stale lock, unless it changed under us: it is renamed aside first (atomic), and if
 * what was renamed is not the file judged stale (another run took the lock in between), that is
 * put back.
 */
const breakStale = (path: string, staleIno: number): void => {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // Gone already: another run broke it.
  }
  try {
    if (statSync(aside).ino !== staleIno) {
      // Another run's fresh lock: give it back (a link never replaces a newer one).
      try {
        linkSync(aside, path);
      } catch {
        // Nothing more to do: the next look decides.
      }
    }
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // Put back or removed.
    }
  }
};

const lockedError = (out: string, path: string, info: LockInfo | null): CrosscheckError => {
  const who =
    info === null
      ? 'another run is starting'
      : `process ${info.pid}${info.host === HOST ? '' : ` on ${info.host}`}${Number.isFinite(info.startedAt) ? `, since ${new Date(info.startedAt).toISOString()}` : ''}`;
  return new CrosscheckError(
    'IO_ERROR',
    `crosscheck bench: ${out} is being written by another run (${who}; lock ${path}). Wait for it to finish, write elsewhere (--out), or, if no run is writing it (a run on another machine that died), delete ${path}.`,
    { where: 'crosscheck bench --out' },
  );
};

/**
 * Takes the lock of the benchmark output `out` (the file `<out>.lock`) for this process and
 * returns its release. Throws a `CrosscheckError` when another live run holds it.
 * @internal
 */
export const lockBenchOut = (out: string): (() => void) => {
  const path = `${resolve(out)}.lock`;
  const release = (): void => {
    const n = (held.get(path) ?? 1) - 1;
    if (n > 0) {
      held.set(path, n);
      return;
    }
    held.delete(path);
    // Only our own lock goes: a run that broke it as stale (it cannot, while we live) keeps its.
    if (readInfo(path)?.pid === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
  };
  const mine = held.get(path);
  if (mine !== undefined) {
    held.set(path, mine + 1);
    return release;
  }
  withIo('create the directory', dirname(path), () => mkdirSync(dirname(path), { recursive: true }));
  for (let attempt = 0; attempt < 3; attempt++) {
    if (withIo('create the lock', path, () => create(path))) {
      held.set(path, 1);
      return release;
    }
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      continue; // Released in between: try again.
    }
    const info = readInfo(path);
    const stale =
      info === null
        ? Date.now() - st.mtimeMs > UNREADABLE_STALE_MS
        : info.host === HOST && info.pid !== process.pid && !alive(info.pid);
    if (!stale) throw lockedError(out, path, info);
    breakStale(path, st.ino);
  }
  throw lockedError(out, path, readInfo(path));
};
