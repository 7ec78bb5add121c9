import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a worker lives on the host: a host-only (0700, owned by the host's user) folder per
 * worker, holding the files the host shares with it (the progress file) and, under `'process'`,
 * its working directory. Under `'os'` the working directory is a tmpfs inside the sandbox and
 * nothing the candidate writes reaches the host, so it cannot leave a setuid file or a trap for
 * the host behind.
 * @internal
 */
export interface Workspace {
  /** The host-only folder; removed with everything in it by {@link removeWorkspace}. */
  readonly root: string;
  /** The worker's working directory (a path inside the sandbox under `'os'`). */
  readonly workdir: string;
  /** A host folder to start the process in (`'os'`: not the working directory, which is not on the host). */
  readonly spawnCwd: string;
}

/** Creates a worker's workspace: `prefix` names it in the temp folder. @internal */
export const createWorkspace = (prefix: string, mode: 'os' | 'process'): Workspace => {
  // mkdtemp creates 0700: no other host user reaches anything below it.
  const root = mkdtempSync(join(tmpdir(), prefix));
  const workdir = join(root, 'work');
  if (mode === 'os') return { root, workdir, spawnCwd: '/' };
  try {
    mkdirSync(workdir, { mode: 0o700 });
  } catch (error) {
    removeWorkspaceNow(root);
    throw error;
  }
  return { root, workdir, spawnCwd: workdir };
};

const ignore = (): void => undefined;

// GNU rm walks a tree with descriptors (fts), so a chain of folders deeper than PATH_MAX, which
// makes Node's path-based rm fail with ENAMETOOLONG, goes too; --one-file-system keeps it off
// any mount a candidate might have made.
const RM_ARGS = ['-rf', '--one-file-system', '--'];

/**
 * Removes a workspace without blocking the event loop and without ever throwing: whatever a
 * candidate left there (a folder chain deeper than PATH_MAX, a FIFO, millions of files) costs
 * background work at most.
 * @internal
 */
export const removeWorkspace = (root: string): void => {
  rm(root, { recursive: true, force: true }).catch(() => {
    try {
      const child = spawn('rm', [...RM_ARGS, root], { stdio: 'ignore', detached: true });
      child.on('error', ignore);
      child.unref();
    } catch {
      // Nothing more the host can do; the temp folder's own cleanup remains.
    }
  });
};

/** The same, synchronously, for a process `exit` hook (which cannot wait): never throws. @internal */
export const removeWorkspaceNow = (root: string): void => {
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    try {
      spawnSync('rm', [...RM_ARGS, root], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      // As above.
    }
  }
};
