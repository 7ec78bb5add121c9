import { closeSync } from 'node:fs';
import { bubblewrapCommand, bubblewrapPath } from './bubblewrap.ts';

/** A process to start confined. @public */
export interface ConfineSpec {
  /** Executable: a path, or a name looked up on `env.PATH`. */
  readonly file: string;
  readonly args: readonly string[];
  /** Its whole environment; nothing of the host's is added. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Its working directory. Under `'os'` a fresh size-limited tmpfs at this path inside the sandbox
   * (nothing of it on the host); under `'process'` a host folder the caller created.
   */
  readonly workdir: string;
  /** Host paths it must read (the harness folder, a worker script, node_modules), read-only. */
  readonly readOnly?: readonly string[];
  /** Host files it may write in place at the same path (under `'process'` it can reach them anyway). */
  readonly shared?: readonly string[];
  /**
   * Under `'os'`: `/tmp` and `/dev/shm` empty and read-only, for a process that runs one
   * candidate after another (nothing one leaves there reaches the next). Writable by default.
   */
  readonly readonlyTmp?: boolean;
  /** The first descriptor number free in the child (after the caller's own stdio); 3 by default. */
  readonly firstFd?: number;
  /**
   * Under `'os'`, the most private writable memory the process may map (`RLIMIT_DATA`: heap,
   * `ArrayBuffer` bytes, every other allocation); past it an allocation fails. None: unbounded.
   */
  readonly dataBytes?: number;
}

/**
 * What to hand to execa or `child_process.spawn` (with `env` as the whole environment and `fds`
 * appended to its stdio at `firstFd`). Close `fds` once spawned (or
 * with {@link releaseConfined} if the spawn never happened).
 * @public
 */
export interface ConfinedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** Host descriptors the command refers to by number, from `firstFd` on. */
  readonly fds: readonly number[];
}

/**
 * The command that starts `spec` under the resolved isolation. With `'os'` it is bubblewrap
 * around the process (see {@link IsolationMode}), whose command runs as an unprivileged uid of its
 * own under a task limit when the host is root; bwrap itself gets only `spec.env` too, so even
 * `/proc/1/environ` inside the sandbox holds nothing of the host. With `'process'` it is the
 * process itself, with `spec.env` only. Spawn with `cwd` a host folder that exists (under
 * `'process'`, `spec.workdir`).
 * @public
 */
export const confine = (spec: ConfineSpec, mode: 'os' | 'process'): ConfinedCommand => {
  const env = { ...spec.env };
  if (mode === 'process') return { file: spec.file, args: [...spec.args], env, fds: [] };
  const sandbox = bubblewrapCommand(
    spec.file,
    spec.args,
    {
      workdir: spec.workdir,
      readOnly: spec.readOnly,
      shared: spec.shared,
      readonlyTmp: spec.readonlyTmp,
      dataBytes: spec.dataBytes,
      env,
    },
    spec.firstFd ?? 3,
  );
  return { file: bubblewrapPath(), args: sandbox.args, env, fds: sandbox.fds };
};

/** Closes the host descriptors of a confined command (after the spawn, which duplicated them). @public */
export const releaseConfined = (command: Pick<ConfinedCommand, 'fds'>): void => {
  for (const fd of command.fds) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
};
