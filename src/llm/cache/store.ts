import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CrosscheckError } from '../../errors/index.ts';
import { canonicalJson } from '../request.ts';
import type { CacheMode } from '../types.ts';
import { type CacheEntry, entryProblem } from './entry.ts';
import { CACHE_GITIGNORE, CACHE_README, entryName, requestDir } from './layout.ts';
import { prepareCacheDir, publish, tryLock } from './publish.ts';

const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EIO', 'EAGAIN', 'EBUSY']);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** True for an error worth retrying after a pause (EMFILE, EIO): never taken for corruption. */
export const isTransient = (error: unknown): boolean =>
  TRANSIENT.has((error as NodeJS.ErrnoException)?.code ?? '');

/** An options object, not `'utf8'`: Node 20 turns a string into one on every call (4 µs of 14). */
const UTF8 = { encoding: 'utf8' } as const;

/**
 * Reads a file; null when absent. Synchronous: entries are a few KB, and a blocking read costs
 * less than the thread-pool round trips of `fs.promises.readFile` (a warm cache reads thousands
 * per second). Unless `listed` says whether the file was in its directory's listing, an
 * `existsSync` probe first: a miss (every sample of a recording run, twice) costs 2 µs instead
 * of the ~16–45 µs of a thrown ENOENT, a hit 2 µs more. Transient errors (EMFILE, EIO) are
 * thrown for {@link withRetries}.
 */
const readTextSync = (path: string, listed?: boolean): string | null => {
  if (listed === false || (listed === undefined && !existsSync(path))) return null;
  try {
    return readFileSync(path, UTF8);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Gone between the probe and the read (quarantined by another process): a miss.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
};

/** Runs `f`, retrying transient file errors with a pause (10 ms doubling, 5 times). */
const withRetries = async <T>(f: () => T): Promise<T> => {
  for (let attempt = 0; ; attempt++) {
    try {
      return f();
    } catch (error) {
      if (!isTransient(error) || attempt >= 5) throw error;
      await sleep(10 * 2 ** attempt);
    }
  }
};

/** Where one entry lives. */
export interface EntryAddress {
  readonly provider: string;
  readonly model: string;
  readonly key: string;
  readonly sample: number;
  /** Canonical key object text, compared with the stored `request.json` on every read. */
  readonly canonical: string;
  /** The key object, for `request.json`. */
  readonly keyObject: object;
  /** The request directory, when the caller computed it once for all samples of a request. */
  readonly dir?: string;
  /** `request.json` as this process writes it, when the caller computed it once per request. */
  readonly requestText?: string;
}

/** `request.json` as this process writes it: sorted keys (the key object is sorted), pretty-printed. */
export const requestFileText = (keyObject: object): string => `${JSON.stringify(keyObject, null, 2)}\n`;

/** An entry's `request.json` text: the one its caller computed, else {@link requestFileText}. */
const requestText = (a: EntryAddress): string => a.requestText ?? requestFileText(a.keyObject);

/** One cache directory with one mode; shared by every client of a process for the same directory. */
export class CacheStore {
  readonly root: string;
  readonly mode: CacheMode;
  readonly #warn: (m: string) => void;
  /** Request directories whose `request.json` matched this process's canonical request. */
  readonly #verified = new Set<string>();
  /** Request directories this process created or saw. */
  readonly #made = new Set<string>();

  constructor(root: string, mode: CacheMode, warn: (m: string) => void) {
    this.root = root;
    this.mode = mode;
    this.#warn = warn;
  }

  path(a: EntryAddress): string {
    // The directory is already normalized by `join`: a plain concatenation is enough.
    return `${this.dir(a)}${sep}${entryName(a.sample)}`;
  }

  dir(a: EntryAddress): string {
    return a.dir ?? requestDir(this.root, a.provider, a.model, a.key);
  }

  #corrupt(path: string, why: string): CrosscheckError {
    return new CrosscheckError(
      'LLM_CACHE_CORRUPT',
      `${path}: not a valid cache entry (${why}). In replay-only the file is kept for you to inspect: ` +
        'restore it from git (`git checkout -- <file>`), or delete it and record it again with CROSSCHECK_LLM_CACHE=read-write.',
      { where: 'llm cache' },
    );
  }

  /** Moves a bad file aside (read-write) or throws (replay-only). */
  #quarantine(path: string, why: string): void {
    if (this.mode === 'replay-only') throw this.#corrupt(path, why);
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    try {
      renameSync(path, aside);
    } catch {
      // Moved aside by another process meanwhile.
    }
    this.#warn(
      `crosscheck: ${path} was not a valid cache entry (${why}); moved to ${aside} and drawn again.`,
    );
  }

  /**
   * Checks `request.json` against the current request once per directory and process.
   * Synchronous, so the samples of one request, read together, check it once, not once each.
   */
  #verifyRequest(a: EntryAddress, listing?: ReadonlySet<string>): boolean {
    const dir = this.dir(a);
    if (this.#verified.has(dir)) return true;
    const path = join(dir, 'request.json');
    const text = readTextSync(path, listing?.has('request.json'));
    if (text === null) return false;
    // As this process writes it (sorted keys, pretty-printed): equal text is a match, with no
    // parse; anything else (reformatted by hand, another writer's layout) is compared canonically.
    if (text === requestText(a)) {
      this.#verified.add(dir);
      return true;
    }
    let stored: string;
    try {
      stored = canonicalJson(JSON.parse(text));
    } catch (error) {
      this.#quarantine(path, `not JSON: ${(error as Error).message}`);
      return false;
    }
    if (stored !== a.canonical) {
      // A hash collision or a hand edit: never a hit.
      this.#quarantine(path, 'it does not match the request whose key names its directory');
      return false;
    }
    this.#verified.add(dir);
    return true;
  }

  /**
   * The names in an entry's request directory (empty when there is none yet): one `readdir` for
   * all samples of a draw instead of a probe per sample. A hint only: a name missing from it is
   * looked for again on the single-flight path before anything is drawn or reported missing.
   */
  listing(a: EntryAddress): ReadonlySet<string> {
    if (this.mode === 'off' || this.mode === 'refresh') return new Set();
    const dir = this.dir(a);
    // A request not recorded yet (every draw of a recording run): a probe, not a thrown ENOENT.
    if (!existsSync(dir)) return new Set();
    try {
      return new Set(readdirSync(dir));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return new Set();
      throw error;
    }
  }

  /**
   * The recorded entry, or null on a miss; synchronous, for the hit path of a draw. `listing`
   * (from {@link CacheStore.listing}) spares the probe of each file. Throws a transient file error
   * (EMFILE, EIO: see {@link isTransient}) for the caller to retry, and in replay-only a typed
   * error for a corrupt entry or a missing `request.json`.
   */
  readSync(a: EntryAddress, listing?: ReadonlySet<string>): CacheEntry | null {
    if (this.mode === 'off' || this.mode === 'refresh') return null;
    const path = this.path(a);
    const text = readTextSync(path, listing?.has(entryName(a.sample)));
    if (text === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      const why = /^(<<<<<<<|=======|>>>>>>>)/m.test(text)
        ? 'it holds merge-conflict markers'
        : `not JSON: ${(error as Error).message}`;
      this.#quarantine(path, why);
      return null;
    }
    const problem = entryProblem(parsed, a.key, a.sample);
    if (problem !== null) {
      this.#quarantine(path, problem);
      return null;
    }
    if (!this.#verifyRequest(a, listing)) {
      if (this.mode === 'replay-only')
        throw this.#corrupt(join(this.dir(a), 'request.json'), 'it is missing');
      return null;
    }
    return parsed as CacheEntry;
  }

  /** The recorded entry, or null on a miss; transient file errors are retried. */
  read(a: EntryAddress): Promise<CacheEntry | null> {
    return withRetries(() => this.readSync(a));
  }

  /** Publishes an entry (and its request, the first time). False when another writer was first. */
  async write(a: EntryAddress, entryText: string): Promise<boolean> {
    if (this.mode === 'off' || this.mode === 'replay-only') return false;
    await prepareCacheDir(this.root, CACHE_README, CACHE_GITIGNORE);
    const dir = this.dir(a);
    if (!this.#made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.#made.add(dir);
    }
    // Once per request directory and process: the samples of one request, drawn together,
    // would otherwise each write and link a request.json only the first can place.
    if (!this.#verified.has(dir)) {
      this.#verified.add(dir);
      try {
        publish(this.root, join(dir, 'request.json'), requestText(a), this.mode === 'refresh');
      } catch (error) {
        this.#verified.delete(dir);
        throw error;
      }
    }
    return publish(this.root, this.path(a), entryText, this.mode === 'refresh');
  }

  /** The lock file of an entry. */
  lockPath(a: EntryAddress): string {
    return join(this.root, '.locks', `${a.key}-${a.sample}.lock`);
  }

  /**
   * Cross-process single flight: the lock, or null after another process published the entry
   * meanwhile (then read it). Polls 50 ms → 1 s while another live process holds the lock.
   */
  async acquire(
    a: EntryAddress,
    staleMs: number,
    signal?: AbortSignal,
  ): Promise<{ release: () => Promise<void> } | { entry: CacheEntry }> {
    if (this.mode === 'off') return { release: async () => undefined };
    await prepareCacheDir(this.root, CACHE_README, CACHE_GITIGNORE);
    let wait = 50;
    for (;;) {
      const release = tryLock(join(this.root, '.tmp'), this.lockPath(a), staleMs);
      if (release) {
        // The winner may have published between our read and our lock.
        const entry = this.mode === 'refresh' ? null : await this.read(a);
        if (entry) {
          await release();
          return { entry };
        }
        return { release };
      }
      if (signal?.aborted) throw signal.reason;
      await sleep(wait);
      wait = Math.min(1000, wait * 2);
      if (this.mode !== 'refresh') {
        const entry = await this.read(a);
        if (entry) return { entry };
      }
    }
  }
}

const stores = new Map<string, CacheStore>();

/** One store per (directory, mode) and process, so the `verified` memo is shared. */
export const storeFor = (root: string, mode: CacheMode, warn: (m: string) => void): CacheStore => {
  const id = `${mode}\0${root}`;
  let s = stores.get(id);
  if (!s) {
    s = new CacheStore(root, mode, warn);
    stores.set(id, s);
  }
  return s;
};
