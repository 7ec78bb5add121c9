import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { dataLimit, type SandboxOwner, sandboxOwner, unprivilegedLaunch } from './sandbox-user.ts';
import { openSeccompFilter } from './seccomp.ts';

/** Environment variable naming the bubblewrap executable (tests point it at a missing one). */
export const BWRAP_ENV = 'CROSSCHECK_BWRAP';

/** The last lookup of bubblewrap, by what it was looked up with. */
let lastBubblewrap = { key: '', path: '' };

/**
 * The bubblewrap executable to use: `$CROSSCHECK_BWRAP`, else `bwrap` on the host's PATH. Every
 * run asks, and the PATH search is a few file checks: a path it found is kept while the variable,
 * PATH and (for a relative path) the working directory stay the same. A search that found
 * nothing is not kept, so bubblewrap installed later is found by the next run. @internal
 */
export const bubblewrapPath = (): string => {
  const file = process.env[BWRAP_ENV] || 'bwrap';
  const PATH = process.env.PATH ?? '/usr/bin:/bin';
  const key = `${file}\0${PATH}\0${file.includes('/') && !isAbsolute(file) ? process.cwd() : ''}`;
  if (lastBubblewrap.key === key) return lastBubblewrap.path;
  const path = resolveExecutable(file, { PATH });
  lastBubblewrap = isAbsolute(path) && isExecutable(path) ? { key, path } : { key: '', path: '' };
  return path;
};

/** What a confined process may use, besides the system and its own executable. @internal */
export interface SandboxLayout {
  /**
   * Its working directory: a fresh, size-limited, `nosuid,nodev` tmpfs at this path inside the
   * sandbox, gone with the sandbox. Nothing of it exists on the host. None: it starts in `/`.
   */
  readonly workdir?: string;
  /** Extra host paths it needs to read (the harness folder, a worker script, node_modules). */
  readonly readOnly?: readonly string[];
  /** Host files it may write in place, at the same path (the progress file the host reads). */
  readonly shared?: readonly string[];
  /**
   * `/tmp` and `/dev/shm` empty and read-only, for a process that runs candidate after candidate
   * (the Python zygote): whatever one left there would reach the next. Writable by default.
   */
  readonly readonlyTmp?: boolean;
  /** Its whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The most private writable memory its command may map (`RLIMIT_DATA`), if bounded. */
  readonly dataBytes?: number;
}

// Its in-memory folders are small: what a candidate writes there is host RAM. Files beyond this
// belong in the workdir (and the Python harness caps each file at 64 MiB there).
const TMP_BYTES = String(64 * 1024 * 1024);
const SHM_BYTES = String(16 * 1024 * 1024);
/** Size of the candidate's working directory, a tmpfs: what a candidate writes there is host RAM. */
export const WORKDIR_BYTES = 64 * 1024 * 1024;

// The sandbox's user: the conventional unprivileged `nobody`, mapped to an unprivileged uid outside.
const NOBODY = '65534';

// Top-level system folders: a symlink on merged-/usr systems (recreated as one), else a folder.
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

// Only what the dynamic linker and libc read: never /etc whole (shadow, credentials, configs).
const ETC_FILES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/nsswitch.conf',
];

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** `file` as an absolute path: looked up on the sandbox's PATH as execvp would, or as given. */
export const resolveExecutable = (file: string, env: Readonly<Record<string, string>>): string => {
  if (file.includes('/')) return resolve(file);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const path = join(dir, file);
    if (isExecutable(path)) return path;
  }
  return file;
};

/** Why `file` cannot be executed (as a spawn would report it), or null. @internal */
export const executableProblem = (file: string, env: Readonly<Record<string, string>>): string | null => {
  const path = resolveExecutable(file, env);
  if (!isAbsolute(path) || !existsSync(path)) return 'the executable was not found';
  return isExecutable(path) ? null : 'the executable is not executable';
};

const isWithin = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Folders an executable needs besides the system: the installation prefix of `.../bin/tool`
 * (a pyenv version, a virtualenv, an nvm node), for the path as given and after symlinks. A
 * prefix that would expose a home, the project or `/` shrinks to the executable alone.
 */
const executableMounts = (path: string): string[] => {
  if (!isAbsolute(path) || !existsSync(path)) return [];
  const out: string[] = [];
  for (const p of new Set([path, realpathSync(path)])) {
    if (isWithin(p, '/usr')) continue;
    const bin = dirname(p);
    const prefix = bin.endsWith(`${sep}bin`) ? dirname(bin) : bin;
    const exposes = (guarded: string): boolean => isWithin(guarded, prefix);
    out.push(prefix === '/' || exposes(homedir()) || exposes(process.cwd()) ? p : prefix);
  }
  return out;
};

const systemArgs = (): string[] => {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of SYSTEM_DIRS) {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  // Made here with its usual mode: bwrap running as root would make it 0700 for its first file,
  // closing it to a sandbox uid that is not root.
  args.push('--perms', '0755', '--dir', '/etc');
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  return args;
};

/**
 * bwrap flags that create the namespaces and drop privileges.
 *
 * A host user that is not root: a user namespace of its own maps the sandbox's `nobody` to that
 * user outside (`hardened` adds `--disable-userns`). The host as root: such a mapping would make
 * the candidate kernel uid 0 (it could write `/proc/sys`, own root's files); so there is no user
 * namespace at all, bwrap sets up the sandbox with root's privileges and the command is started
 * through `setpriv` as an unprivileged uid of its own (see `sandbox-user.ts`); the seccomp filter
 * refuses new user namespaces in its place.
 */
const namespaceArgs = (hardened: boolean, owner: SandboxOwner | null): string[] => [
  ...(owner === null
    ? [
        '--unshare-all',
        '--unshare-user',
        ...(hardened ? ['--disable-userns'] : []),
        '--uid',
        NOBODY,
        '--gid',
        NOBODY,
      ]
    : ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try']),
  '--cap-drop',
  'ALL',
  // Only for setpriv to switch to the sandbox's uid, which clears them all.
  ...(owner === null
    ? []
    : ['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP']),
  '--hostname',
  'crosscheck',
  '--die-with-parent',
  '--new-session',
];

// bubblewrap before 0.8 has no --disable-userns; the probe finds out which flag set runs here.
let hardenedWorks = true;

/** @internal */
export const setHardened = (works: boolean): void => {
  hardenedWorks = works;
};

/**
 * Where bwrap reads what it mounts from the host: each path as a descriptor the host opened
 * (`--ro-bind-fd`), because bwrap itself runs as an unprivileged uid when the host is root and
 * may not be allowed to walk to a project under `/root` or into the host-only folder of the
 * progress file. Descriptors are numbered from `firstFd` in the child.
 */
class Descriptors {
  readonly fds: number[] = [];
  constructor(readonly firstFd: number) {}
  /** Opens `path` (following links, as a bind mount would) and returns its number in the child. */
  open(path: string, flags: 'r' | 'r+'): string {
    this.fds.push(openSync(path, flags));
    return String(this.firstFd + this.fds.length - 1);
  }
  /** Takes an already open descriptor. */
  take(fd: number): string {
    this.fds.push(fd);
    return String(this.firstFd + this.fds.length - 1);
  }
  closeAll(): void {
    for (const fd of this.fds.splice(0)) closeQuietly(fd);
  }
}

const closeQuietly = (fd: number): void => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
};

// Mount points bwrap makes before these folders exist (their own modes are set where they are made).
const PREMOUNTED = new Set(['/', '/usr', '/proc', '/dev', '/dev/shm', '/tmp', '/etc', ...SYSTEM_DIRS]);

/**
 * `--dir` with mode 0755 for each folder above the mount points: bwrap as root would otherwise
 * copy a host folder's 0700 (a project under `/root`), and the candidate's uid could not reach
 * its own working directory or the harness.
 */
const openAncestors = (destinations: readonly string[]): string[] => {
  const ancestors = new Set<string>();
  for (const dest of destinations) {
    for (let dir = dirname(dest); !PREMOUNTED.has(dir); dir = dirname(dir)) ancestors.add(dir);
  }
  // Parents before children.
  return [...ancestors]
    .sort((a, b) => a.length - b.length)
    .flatMap((dir) => ['--perms', '0755', '--dir', dir]);
};

/** A bwrap command line and the host descriptors it refers to (to pass at `firstFd`, then close). @internal */
export interface BubblewrapCommand {
  readonly args: string[];
  readonly fds: number[];
}

/**
 * The bwrap arguments that run `file args` confined: its own user, PID, network (loopback only),
 * IPC, UTS and cgroup namespaces; a read-only system; a read-only `/proc` of its own PID
 * namespace; a fresh `/dev` and `/tmp`; the read-only paths it needs; a size-limited tmpfs as its
 * working directory; the shared files writable in place; exactly `env` as its environment; the
 * seccomp filter; death when the host dies.
 * @internal
 */
export const bubblewrapCommand = (
  file: string,
  args: readonly string[],
  layout: SandboxLayout,
  firstFd: number,
  hardened = hardenedWorks,
  owner: SandboxOwner | null = sandboxOwner(),
): BubblewrapCommand => {
  const executable = resolveExecutable(file, layout.env);
  const fds = new Descriptors(firstFd);
  // Under root the mounts bwrap makes are root's: the candidate's own folders are open to all,
  // which inside the sandbox means to the candidate alone.
  const perms = (mode: string): string[] => (owner === null ? [] : ['--perms', mode]);
  try {
    const out = [
      ...namespaceArgs(hardened, owner),
      ...systemArgs(),
      '--proc',
      '/proc',
      // All of /proc read-only: sysctls, sysrq-trigger, and /proc/self/mem, which would let a
      // candidate patch the harness that watches it.
      '--remount-ro',
      '/proc',
      '--dev',
      '/dev',
      ...perms('1777'),
      '--size',
      SHM_BYTES,
      '--tmpfs',
      '/dev/shm',
      ...perms('1777'),
      '--size',
      TMP_BYTES,
      '--tmpfs',
      '/tmp',
    ];
    const readOnly = [...new Set([...executableMounts(executable), ...(layout.readOnly ?? [])])].filter((p) =>
      existsSync(p),
    );
    const destinations = [
      ...readOnly.map((p) => resolve(p)),
      ...(layout.shared ?? []),
      layout.workdir ?? '/',
    ];
    if (owner !== null) out.push(...openAncestors(destinations));
    for (const path of readOnly) out.push('--ro-bind-fd', fds.open(path, 'r'), resolve(path));
    if (layout.workdir)
      out.push(...perms('0777'), '--size', String(WORKDIR_BYTES), '--tmpfs', layout.workdir);
    for (const path of layout.shared ?? []) out.push('--bind-fd', fds.open(path, 'r+'), path);
    // bwrap's own root and /dev are unbounded tmpfs: read-only once every mount point exists.
    // (A remount is of that mount alone: the working directory's tmpfs below /tmp stays writable.)
    out.push('--remount-ro', '/dev', '--remount-ro', '/');
    if (layout.readonlyTmp) out.push('--remount-ro', '/tmp', '--remount-ro', '/dev/shm');
    out.push('--chdir', layout.workdir ?? '/');
    out.push('--seccomp', fds.take(openSeccompFilter()));
    out.push('--clearenv');
    for (const [name, value] of Object.entries(layout.env)) out.push('--setenv', name, value);
    out.push(
      '--',
      ...(owner === null
        ? [...dataLimit(layout.dataBytes), executable, ...args]
        : unprivilegedLaunch(owner, executable, args, layout.dataBytes)),
    );
    return { args: out, fds: fds.fds };
  } catch (error) {
    fds.closeAll();
    throw error;
  }
};

/** Arguments of the probe: a real sandbox with the flags used for candidates, running `true`. */
export const probeCommand = (hardened = hardenedWorks): BubblewrapCommand =>
  bubblewrapCommand('true', [], { env: { PATH: '/usr/bin:/bin' }, workdir: '/work' }, 3, hardened);
