import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Environment variable naming the bubblewrap executable (tests point it at a missing one). */
export const BWRAP_ENV = 'CROSSCHECK_BWRAP';

/** The bubblewrap executable to use: `$CROSSCHECK_BWRAP`, else `bwrap` on the host's PATH. @internal */
export const bubblewrapPath = (): string =>
  resolveExecutable(process.env[BWRAP_ENV] || 'bwrap', { PATH: process.env.PATH ?? '/usr/bin:/bin' });

/** What a confined process may use, besides the system and its own executable. @internal */
export interface SandboxLayout {
  /** Its private writable directory (also its working directory), or none. */
  readonly workdir?: string;
  /** Extra host paths it needs to read (the harness folder, a worker script, node_modules). */
  readonly readOnly?: readonly string[];
  /** Its whole environment. */
  readonly env: Readonly<Record<string, string>>;
}

// Its in-memory folders are small: what a candidate writes there is host RAM. Files beyond this
// belong in the workdir (and the Python harness caps each file at 64 MiB there).
const TMP_BYTES = String(64 * 1024 * 1024);
const SHM_BYTES = String(16 * 1024 * 1024);

// The sandbox's user: the conventional unprivileged `nobody`, mapped to the caller outside.
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
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  return args;
};

/** bwrap flags that create the namespaces and drop privileges; `hardened` adds `--disable-userns`. */
const namespaceArgs = (hardened: boolean): string[] => [
  '--unshare-all',
  '--unshare-user',
  ...(hardened ? ['--disable-userns'] : []),
  '--uid',
  NOBODY,
  '--gid',
  NOBODY,
  '--cap-drop',
  'ALL',
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
 * The bwrap arguments that run `file args` confined: its own user, PID, network (loopback only),
 * IPC, UTS and cgroup namespaces; a read-only system; `/proc` of its own PID namespace; a fresh
 * `/dev` and `/tmp`; the read-only paths it needs; its workdir as the one writable host folder;
 * exactly `env` as its environment; death when the host dies.
 * @internal
 */
export const bubblewrapArgs = (
  file: string,
  args: readonly string[],
  layout: SandboxLayout,
  hardened = hardenedWorks,
): string[] => {
  const executable = resolveExecutable(file, layout.env);
  const out = [
    ...namespaceArgs(hardened),
    ...systemArgs(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    SHM_BYTES,
    '--tmpfs',
    '/dev/shm',
    '--size',
    TMP_BYTES,
    '--tmpfs',
    '/tmp',
  ];
  const readOnly = [...executableMounts(executable), ...(layout.readOnly ?? [])];
  for (const path of new Set(readOnly)) {
    if (!existsSync(path)) continue;
    out.push('--ro-bind', realpathSync(path), resolve(path));
  }
  if (layout.workdir) out.push('--bind', layout.workdir, layout.workdir);
  // bwrap's own root and /dev are unbounded tmpfs: read-only once every mount point exists.
  out.push('--remount-ro', '/dev', '--remount-ro', '/', '--chdir', layout.workdir ?? '/');
  out.push('--clearenv');
  for (const [name, value] of Object.entries(layout.env)) out.push('--setenv', name, value);
  out.push('--', executable, ...args);
  return out;
};

/** Arguments of the probe: a real sandbox with the flags used for candidates, running `true`. */
export const probeArgs = (hardened = hardenedWorks): string[] =>
  bubblewrapArgs('true', [], { env: { PATH: '/usr/bin:/bin' } }, hardened);
