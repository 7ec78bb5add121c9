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

/**
 * A name unique in this process and, with the pid before it, on this host: a random prefix drawn
 * once (a reused pid of an earlier process gets another) and a counter. `randomBytes` per file
 * cost ~35 µs each on the recording path.
 */
const TMP_PREFIX = randomBytes(6).toString('hex');
let tmpCounter = 0;
const tmpName = (): string => `${TMP_PREFIX}${(tmpCounter++).toString(16)}`;

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
        // An owner file of a killed process (locks linked to it keep their content).
        if (deadOwner(name)) {
          await fs.unlink(path).catch(() => undefined);
          continue;
        }
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
  const tmp = join(root, '.tmp', `${process.pid}-${tmpName()}.json`);
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

const HOST = hostname();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * How long one owner file serves new locks. A lock's `startedAt` is its owner file's, so it is at
 * most this much earlier than the moment the lock was taken; staleness allows for it.
 */
const OWNER_ROTATE_MS = 10_000;

/**
 * The owner file of this process for one cache directory: `.tmp/<pid>-<random>.owner` holding
 * {@link LockInfo}, hard-linked to each lock it takes. Creating a file (a new inode) is the dear
 * part of a lock (0.4 ms of CPU on a busy ext4 here, against 25 µs for a link), so locks are
 * links to one file, created once per busy period: it is unlinked when the last lock of the
 * process is released, and replaced after {@link OWNER_ROTATE_MS} so `startedAt` stays close.
 */
interface Owner {
  path: string;
  createdAt: number;
  held: number;
}
const owners = new Map<string, Owner>();
/** False once hard links failed here: locks are then written files (O_EXCL), as before. */
const linkLocks = new Map<string, boolean>();

const newOwner = (tmpDir: string): Owner => {
  const createdAt = Date.now();
  const path = join(tmpDir, `${process.pid}-${tmpName()}.owner`);
  const info: LockInfo = { pid: process.pid, host: HOST, startedAt: createdAt };
  writeFileSync(path, JSON.stringify(info), { flag: 'wx' });
  return { path, createdAt, held: 0 };
};

const dropOwner = (tmpDir: string, o: Owner): void => {
  if (owners.get(tmpDir) === o) owners.delete(tmpDir);
  try {
    unlinkSync(o.path);
  } catch {
    // Removed by another process's recovery: the locks linked to it keep its content.
  }
};

/** Takes the lock with one `link(2)` of the owner file; false when it exists already. */
const linkLock = (tmpDir: string, lockPath: string): (() => Promise<void>) | false | null => {
  for (let round = 0; round < 2; round++) {
    let o = owners.get(tmpDir);
    if (o && Date.now() - o.createdAt > OWNER_ROTATE_MS) {
      // Locks taken from it are links: they keep its content when its name goes.
      dropOwner(tmpDir, o);
      o = undefined;
    }
    if (!o) {
      o = newOwner(tmpDir);
      owners.set(tmpDir, o);
    }
    try {
      linkSync(o.path, lockPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (o.held === 0) dropOwner(tmpDir, o);
        return false;
      }
      if (code === 'ENOENT') {
        // The owner file went (recovery of another process): make a new one and try again.
        dropOwner(tmpDir, o);
        continue;
      }
      if (code === 'EMLINK') {
        // As many locks as the file system allows links to one inode (65,000 on ext4): a new
        // owner for the next ones; this one goes when its last lock is released.
        if (o.held === 0) dropOwner(tmpDir, o);
        else owners.delete(tmpDir);
        continue;
      }
      if (o.held === 0) dropOwner(tmpDir, o);
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') return null;
      throw error;
    }
    o.held++;
    const held = o;
    return async () => {
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone (broken as stale by another process): nothing to release.
      }
      if (--held.held === 0) dropOwner(tmpDir, held);
    };
  }
  return null;
};

/** The lock as a written file (O_CREAT|O_EXCL), where hard links are not available. */
const fileLock = (lockPath: string): (() => Promise<void>) | false => {
  try {
    const info: LockInfo = { pid: process.pid, host: HOST, startedAt: Date.now() };
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
    return false;
  }
};

/**
 * Takes the cross-process lock of one entry: an exclusive `link(2)` of this process's owner file
 * (or, without hard links, an `O_CREAT|O_EXCL` file). Returns a release function, or null when
 * another live process holds it. A lock is stale when its process is dead on this host or it is
 * older than `staleMs` (plus the owner rotation, so it is never broken early); a stale lock is
 * removed and the race re-run.
 */
export const tryLock = (tmpDir: string, lockPath: string, staleMs: number): (() => Promise<void>) | null => {
  for (let round = 0; round < 3; round++) {
    let got: (() => Promise<void>) | false | null = null;
    if (linkLocks.get(tmpDir) !== false) {
      got = linkLock(tmpDir, lockPath);
      if (got === null) linkLocks.set(tmpDir, false);
    }
    if (got === null) got = fileLock(lockPath);
    if (got) return got;
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
      (holder !== null && holder.host === HOST && typeof holder.pid === 'number' && !alive(holder.pid)) ||
      Date.now() - (holder?.startedAt ?? mtime) > staleMs + OWNER_ROTATE_MS;
    if (!stale) return null;
    rmSync(lockPath, { force: true });
  }
  return null;
};

/** True for an owner file (`<pid>-<random>.owner`) of a process that is gone from this host. */
export const deadOwner = (name: string): boolean => {
  const m = /^(\d+)-[0-9a-f]+\.owner$/.exec(name);
  return m !== null && !alive(Number(m[1]));
};
