/**
 * Command candidates: any executable that speaks the JSON-lines protocol of `docs/protocol.md`.
 * The Python runner is built on the same machinery.
 * @packageDocumentation
 */
export { commandBackend, showCommand } from './backend.ts';
export { closeAllPools as closeWorkers, defaultPoolSize, poolFor, WorkerPool } from './pool.ts';
export {
  encodeHostMessage,
  type HostMessage,
  isWireOutcome,
  PROTOCOL_VERSION,
  parseWorkerMessage,
  WORKER_ENV,
  type WorkerMessage,
} from './protocol.ts';
export { type PreparedRow, runPrepared } from './schedule.ts';
export { WorkerProcess, type WorkerSpec } from './worker-process.ts';
