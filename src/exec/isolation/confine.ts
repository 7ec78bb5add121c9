import { bubblewrapArgs, bubblewrapPath } from './bubblewrap.ts';

/** A process to start confined. @public */
export interface ConfineSpec {
  /** Executable: a path, or a name looked up on `env.PATH`. */
  readonly file: string;
  readonly args: readonly string[];
  /** Its whole environment; nothing of the host's is added. */
  readonly env: Readonly<Record<string, string>>;
  /** Its private writable temp dir and working directory (created by the caller). */
  readonly workdir: string;
  /** Host paths it must read (the harness folder, a worker script, node_modules), read-only. */
  readonly readOnly?: readonly string[];
}

/** What to hand to execa or `child_process.spawn` (with `env` as the whole environment). @public */
export interface ConfinedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
}

/**
 * The command that starts `spec` under the resolved isolation. With `'os'` it is bubblewrap
 * around the process (see {@link IsolationMode}); bwrap itself gets only `spec.env` too, so
 * even `/proc/1/environ` inside the sandbox holds nothing of the host. With `'process'` it is
 * the process itself, with `spec.env` only. Spawn with `cwd: spec.workdir`.
 * @public
 */
export const confine = (spec: ConfineSpec, mode: 'os' | 'process'): ConfinedCommand => {
  const env = { ...spec.env };
  if (mode === 'process') return { file: spec.file, args: [...spec.args], env };
  return {
    file: bubblewrapPath(),
    args: bubblewrapArgs(spec.file, spec.args, { workdir: spec.workdir, readOnly: spec.readOnly, env }),
    env,
  };
};
