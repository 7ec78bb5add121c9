/**
 * The OS boundary around untrusted candidates: which isolation a run uses, and how a worker
 * process is started inside it (bubblewrap on Linux).
 * @packageDocumentation
 */
export { BWRAP_ENV, executableProblem } from './bubblewrap.ts';
export { type ConfinedCommand, type ConfineSpec, confine, releaseConfined } from './confine.ts';
export {
  combineIsolation,
  ISOLATION_ENV,
  type IsolationMode,
  type IsolationUsed,
  resetIsolationProbe,
  resolveIsolation,
} from './mode.ts';
export { SANDBOX_TASKS } from './sandbox-user.ts';
export { SECCOMP_PYTHON_ENV } from './seccomp.ts';
export { createWorkspace, removeWorkspace, removeWorkspaceNow, type Workspace } from './workspace.ts';
