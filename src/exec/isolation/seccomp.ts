import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeWorkspaceNow } from './workspace.ts';

/**
 * The seccomp filter every sandboxed process runs under: system calls a candidate never needs
 * fail with EPERM (or ENOSYS where a fallback exists), everything else is allowed.
 *
 * The BPF program is compiled by libseccomp's own Python binding (Debian/Ubuntu
 * `python3-seccomp`, Fedora `python3-libseccomp`): libseccomp is the library bubblewrap, Flatpak
 * and container runtimes build their filters with, and it gets the details right that a
 * hand-written BPF program gets wrong (the architecture check, x32 system call numbers on
 * x86_64, the 32-bit entry points). It runs once per host process; the program is cached.
 */

// Denied with EPERM: kernel state (modules, kexec, reboot, swap, clock, quotas, accounting),
// other processes' memory (ptrace, process_vm_*, kcmp, pidfd_getfd), new namespaces and mounts,
// the kernel keyring, BPF and perf (kernel attack surface), userfaultfd (exploit timing),
// handle-based opens that step around the mount view, and a signal with a payload to another
// process (rt_sigqueueinfo, rt_tgsigqueueinfo: no runtime in a sandbox queues one; kill and
// tgkill stay, the zygote ends its children with them).
const DENIED = [
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'kcmp',
  'pidfd_getfd',
  'mount',
  'umount2',
  'pivot_root',
  'chroot',
  'open_tree',
  'move_mount',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
  'unshare',
  'setns',
  'keyctl',
  'add_key',
  'request_key',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'fanotify_init',
  'kexec_load',
  'kexec_file_load',
  'reboot',
  'init_module',
  'finit_module',
  'delete_module',
  'swapon',
  'swapoff',
  'acct',
  'quotactl',
  'quotactl_fd',
  'syslog',
  'lookup_dcookie',
  'open_by_handle_at',
  'name_to_handle_at',
  'iopl',
  'ioperm',
  'modify_ldt',
  'uselib',
  'vhangup',
  'nfsservctl',
  'settimeofday',
  'clock_settime',
  'clock_adjtime',
  'adjtimex',
  'move_pages',
  'migrate_pages',
  'rt_sigqueueinfo',
  'rt_tgsigqueueinfo',
];

// Denied with ENOSYS, which libc and libuv read as "not here" and fall back from: clone3 (its
// flags sit behind a pointer a filter cannot read; glibc then uses clone, whose flags it can),
// io_uring (its operations never pass through the filter), and process descriptors (signals
// through a pidfd: every process of a sandbox shares its uid, so a Python candidate's process
// could signal its zygote; the zygote waits for its children with waitpid and needs none).
const ABSENT = [
  'clone3',
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'pidfd_open',
  'pidfd_send_signal',
];

// ioctl requests that act on a terminal the candidate does not own: TIOCSTI pushes keystrokes
// into it, TIOCLINUX does the same on a virtual console. And those that make the kernel signal
// another process (see FCNTLS): FIOASYNC (any descriptor), FIOSETOWN and SIOCSPGRP (sockets).
const IOCTLS = [0x5412, 0x541c, 0x5452, 0x8901, 0x8902];

// fcntl commands that make the kernel signal another process: F_SETOWN and F_SETOWN_EX name the
// process that gets SIGIO or SIGURG, F_SETSIG makes it any signal (SIGSTOP, SIGKILL). Processes
// of one sandbox share its uid, so without this a Python candidate could stop or kill its zygote
// and, through it, the next candidate the worker serves (the audit hook refuses the same; this
// holds for code past it). Also F_SETFL with O_ASYNC (0o20000), the switch that arms it. The
// Python child's lifeline, which used F_SETOWN on itself, is the PID namespace's job here
// (python/crosscheck_worker/limits.py arm_lifeline).
const FCNTLS = [8, 10, 15];
const F_SETFL = 4;
const O_ASYNC = 0o20000;

// clone flags that create namespaces (NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET,
// NEWTIME): threads and plain forks pass, a new namespace does not.
const CLONE_NS = [
  0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080,
];

const PROGRAM = `
import errno, sys, seccomp
f = seccomp.SyscallFilter(seccomp.ALLOW)
def rule(action, name, *args):
    try:
        f.add_rule(action, name, *args)
    except (RuntimeError, ValueError, OSError):
        # A call this kernel's headers do not know cannot be made either.
        pass
for name in ${JSON.stringify(DENIED)}:
    rule(seccomp.ERRNO(errno.EPERM), name)
for name in ${JSON.stringify(ABSENT)}:
    rule(seccomp.ERRNO(errno.ENOSYS), name)
for request in ${JSON.stringify(IOCTLS)}:
    rule(seccomp.ERRNO(errno.EPERM), "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xffffffff, request))
# The kernel reads an fcntl command as an unsigned int: compared on the low 32 bits.
for command in ${JSON.stringify(FCNTLS)}:
    rule(seccomp.ERRNO(errno.EPERM), "fcntl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xffffffff, command))
rule(seccomp.ERRNO(errno.EPERM), "fcntl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xffffffff, ${F_SETFL}),
     seccomp.Arg(2, seccomp.MASKED_EQ, ${O_ASYNC}, ${O_ASYNC}))
for flag in ${JSON.stringify(CLONE_NS)}:
    rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
f.export_bpf(sys.stdout)
`;

/** Environment variable naming the Python that compiles the filter (default: the system's). */
export const SECCOMP_PYTHON_ENV = 'CROSSCHECK_SECCOMP_PYTHON';

// The binding is a distribution package, so it belongs to the distribution's Python, not to
// whatever python3 (pyenv, a virtualenv) comes first on PATH.
const pythons = (): string[] => {
  const chosen = process.env[SECCOMP_PYTHON_ENV];
  if (chosen) return [chosen];
  return ['/usr/bin/python3', 'python3'].filter((p) => !p.startsWith('/') || existsSync(p));
};

type Held = { fd: number; dev: number; ino: number };
type Compiled = Held | { file: string } | { problem: string };
let compiled: Compiled | null = null;

/**
 * A fresh descriptor of the held program. Should the held number have been closed and reused for
 * another file, the identity check refuses it rather than hand bubblewrap that file as a filter.
 */
const reopen = (held: Held): number => {
  const fd = openSync(`/proc/self/fd/${held.fd}`, 'r');
  const st = fstatSync(fd);
  if (st.dev === held.dev && st.ino === held.ino) return fd;
  closeSync(fd);
  throw new Error('the held seccomp program is gone');
};

/**
 * Keeps the compiled program without leaving a file behind: written to a host-only (0700)
 * folder, held open, and the folder removed at once. Each sandbox start then opens
 * /proc/self/fd/<held> afresh (a descriptor of its own, read from the start), so even a host
 * killed with SIGKILL leaves nothing in the temp folder. Where /proc cannot reopen it, the file
 * stays until the process exits.
 */
const keep = (bpf: Buffer): Held | { file: string } => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-seccomp-'));
  const file = join(dir, 'filter.bpf');
  writeFileSync(file, bpf, { mode: 0o400 });
  let held = -1;
  try {
    held = openSync(file, 'r');
    const { dev, ino } = fstatSync(held);
    const kept = { fd: held, dev, ino };
    closeSync(reopen(kept));
    removeWorkspaceNow(dir);
    return kept;
  } catch {
    if (held >= 0) closeSync(held);
    process.once('exit', () => removeWorkspaceNow(dir));
    return { file };
  }
};

const compile = (): Compiled => {
  let last = 'no python3 was found';
  for (const python of pythons()) {
    // -I: no user site-packages and no PYTHON* variables steer what gets imported.
    const result = spawnSync(python, ['-I', '-c', PROGRAM], {
      env: { PATH: '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
      maxBuffer: 1024 * 1024,
    });
    const bpf = result.stdout;
    // A seccomp program is whole 8-byte instructions; an empty or torn one is no filter.
    if (result.status === 0 && bpf && bpf.length >= 8 && bpf.length % 8 === 0) return keep(bpf);
    const stderr = String(result.stderr ?? '').trim();
    last = result.error
      ? `\`${python}\` did not start (${(result.error as NodeJS.ErrnoException).code})`
      : /No module named .?seccomp/.test(stderr)
        ? `\`${python}\` has no libseccomp binding`
        : `\`${python}\` could not compile it (${stderr.split('\n').pop()?.slice(0, 160) ?? `exit ${result.status}`})`;
  }
  return { problem: `the seccomp filter could not be built: ${last}` };
};

/**
 * Null when the filter is available, else why not (the isolation probe refuses `'os'` with it).
 * @internal
 */
export const seccompProblem = (): string | null => {
  compiled ??= compile();
  return 'problem' in compiled ? compiled.problem : null;
};

const openCompiled = (c: Compiled): number => {
  if ('problem' in c) throw new Error(c.problem);
  return 'file' in c ? openSync(c.file, 'r') : reopen(c);
};

/** A fresh descriptor of the compiled filter, for bubblewrap's `--seccomp`. @internal */
export const openSeccompFilter = (): number => {
  compiled ??= compile();
  try {
    return openCompiled(compiled);
  } catch (error) {
    if (!('fd' in compiled)) throw error;
    // The held descriptor was closed under us (code that closes every descriptor): build it again.
    compiled = compile();
    return openCompiled(compiled);
  }
};
