import { randomBytes } from 'node:crypto';
import {
  existsSync,
  promises as fs,
  linkSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Creates `dir/.tmp` and the README/.gitignore of a fresh cache, once per directory and process. */
const prepared = new Map<string, Promise<void>>();

const TMP_MAX_AGE_MS = 60 * 60 * 1000;

export const prepareCacheDir = (root: string, readme: string, gitignore: string): Promise<void> => {
  let p = prepared.get(root);
  if (!p) {
    p = (async () => {
      await fs.mkdir(join(root, '.tmp'), { recursive: true });
      await fs.mkdir(join(root, '.locks'), { recursive: true });
      for (const [name, text] of [
        ['README.md', readme],
        ['.gitignore', gitignore],
      ] as const) {
        await fs.writeFile(join(root, name), text, { flag: 'wx' }).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        });
      }
      // Recovery: a killed writer leaves at worst a tmp file (never a partial entry); old ones go.
      const now = Date.now();
      for (const name of await fs.readdir(join(root, '.tmp')).catch(() => [] as string[])) {
        const path = join(root, '.tmp', name);
        const st = await fs.stat(path).catch(() => null);
        if (st && now - st.mtimeMs > TMP_MAX_AGE_MS) await fs.unlink(path).catch(() => undefined);
      }
    })();
    prepared.set(root, p);
    p.catch(() => prepared.delete(root));
  }
  return p;
};

/**
 * Publishes `text` at `path` atomically: write a tmp file, then `link(2)` it into place. `link`
 * never replaces, so readers see no file or a complete one and the first writer wins (`false`
 * when another writer was first). `replace` (mode refresh) or a file system without hard links
 * uses `rename`: atomic too, last writer wins.
 *
 * No fsync: atomicity against a killed process comes from tmp + link, since the bytes are in the
 * page cache before the name appears. fsync would only guard against power loss (3.5 ms per
 * entry here, capping recording near 150 samples/s), and a file truncated by one is caught on
 * read as corrupt (quarantined and redrawn in read-write, named in replay-only). The entries are
 * committed to git, which is where their durability lives. Synchronous: a few small writes cost
 * less than thread-pool round trips.
 */
export const publish = (root: string, path: string, text: string, replace = false): boolean => {
  const tmp = join(root, '.tmp', `${process.pid}-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(tmp, text, { flag: 'wx' });
  try {
    if (replace) {
      renameSync(tmp, path);
      return true;
    }
    try {
      linkSync(tmp, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
        // No hard links here: rename, after checking no writer was first (a narrow race remains).
        if (existsSync(path)) return false;
        renameSync(tmp, path);
        return true;
      }
      throw error;
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Renamed away (refresh, no hard links): nothing left behind.
    }
  }
};

/** What a lock file holds. */
interface LockInfo {
  pid: number;
  host: string;
  startedAt: number;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the cross-process lock of one entry with `O_CREAT|O_EXCL`. Returns a release function, or
 * null when another live process holds it. A lock is stale when its process is dead on this host
 * or it is older than `staleMs`; a stale lock is removed and the race re-run.
 */
export const tryLock = (lockPath: string, staleMs: number): (() => Promise<void>) | null => {
  for (let round = 0; round < 3; round++) {
    try {
      const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: Date.now() };
      writeFileSync(lockPath, JSON.stringify(info), { flag: 'wx' });
      return async () => {
        try {
          unlinkSync(lockPath);
        } catch {
          // Already gone (broken as stale by another process): nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: LockInfo | null = null;
    let mtime = Date.now();
    try {
      mtime = statSync(lockPath).mtimeMs;
      holder = JSON.parse(readFileSync(lockPath, 'utf8')) as LockInfo;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile: race again
      holder = null; // a lock being written, or garbage: judge by age
    }
    const stale =
      (holder !== null &&
        holder.host === hostname() &&
        typeof holder.pid === 'number' &&
        !alive(holder.pid)) ||
      Date.now() - (holder?.startedAt ?? mtime) > staleMs;
    if (!stale) return null;
    rmSync(lockPath, { force: true });
  }
  return null;
};
