import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';

/**
 * Who a sandbox's command runs as on the host. When the host runs as root, a user namespace
 * would map the candidate to kernel uid 0 outside; instead the command runs as an unprivileged
 * uid of its own, with no capabilities, so host files owned by root, `/proc/sys` and every
 * root-owned process, socket or device are foreign to it. Each sandbox gets a fresh uid, so the
 * task limit below (the kernel counts it per uid) is its own, not shared with the sandboxes
 * running beside it, and no two candidates can signal or trace each other.
 */

// A range no distribution allocates to users or services (they stop far below 2^30), away from
// the 2^31 - 1 and 2^32 - 1 edges some tools treat as "no uid".
const FIRST_UID = 1_200_000_000;
const UID_SPAN = 800_000_000;

/**
 * Tasks (processes and threads: the kernel counts both) one sandbox may run at once: the worker,
 * its runtime's threads (a Node process has a dozen, one more set per worker thread), the
 * children a candidate starts. A fork bomb stops here with EAGAIN.
 */
export const SANDBOX_TASKS = 256;

/**
 * The largest file a sandbox may write: its working directory's size, which no file inside it
 * can exceed anyway. What it bounds is the one host file a sandbox writes in place, the progress
 * file its host reads, which lives on the host's disk: without it a candidate could fill that
 * disk through it.
 */
export const SANDBOX_FILE_BYTES = 64 * 1024 * 1024;

/** The unprivileged uid and gid a sandbox runs its command as. @internal */
export interface SandboxOwner {
  readonly uid: number;
  readonly gid: number;
}

/** The host uid and gid a sandbox's command runs as, or null when the host is not root. @internal */
export const sandboxOwner = (): SandboxOwner | null => {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  const id = FIRST_UID + randomInt(UID_SPAN);
  return { uid: id, gid: id };
};

// util-linux, present wherever bubblewrap is (Debian marks it essential): prlimit sets the task
// and file size limits, then setpriv becomes the sandbox's uid, drops every capability for good and sets
// no_new_privs, and executes the command.
const PRLIMIT = '/usr/bin/prlimit';
const SETPRIV = '/usr/bin/setpriv';

/** Why the tools that start a command as the sandbox's uid are missing, or null. @internal */
export const launcherProblem = (): string | null => {
  const missing = [PRLIMIT, SETPRIV].filter((p) => !existsSync(p));
  return missing.length === 0
    ? null
    : `util-linux's ${missing.map((p) => `\`${p}\``).join(' and ')} not found`;
};

/**
 * The prefix that bounds a command's private writable memory (`RLIMIT_DATA`) in a sandbox whose
 * command runs as the host's own user: lowering a limit takes no privilege. A host that is not
 * root may lack util-linux's prlimit (it is required only as root); the bound is then left out.
 * @internal
 */
export const dataLimit = (dataBytes: number | undefined): string[] =>
  dataBytes === undefined || !existsSync(PRLIMIT) ? [] : [PRLIMIT, `--data=${dataBytes}:${dataBytes}`, '--'];

/**
 * The command line, run inside the sandbox as root with only CAP_SETUID, CAP_SETGID and
 * CAP_SETPCAP, that limits the tasks and file sizes and then runs `executable args` as `owner` with no
 * capabilities at all.
 * @internal
 */
export const unprivilegedLaunch = (
  owner: SandboxOwner,
  executable: string,
  args: readonly string[],
  dataBytes?: number,
): string[] => [
  PRLIMIT,
  `--nproc=${SANDBOX_TASKS}:${SANDBOX_TASKS}`,
  `--fsize=${SANDBOX_FILE_BYTES}:${SANDBOX_FILE_BYTES}`,
  ...(dataBytes === undefined ? [] : [`--data=${dataBytes}:${dataBytes}`]),
  '--',
  SETPRIV,
  `--reuid=${owner.uid}`,
  `--regid=${owner.gid}`,
  '--clear-groups',
  '--inh-caps=-all',
  '--ambient-caps=-all',
  '--bounding-set=-all',
  '--no-new-privs',
  '--',
  executable,
  ...args,
];
