/**
 * Messages between the host and a sandbox worker. Every `run` carries a `jobId`; replies for a
 * job the host no longer waits on (its worker was replaced) are dropped.
 */

/** What the worker needs to build a candidate's context. */
export interface CandidatePayload {
  /** Cache key: the candidate id plus the limits that shape its harness. */
  key: string;
  label: string;
  wrapper: string;
  entry: string;
  entryNotFound: string;
  invalid: string[];
  maxOutputBytes: number;
}

export interface InputsMessage {
  type: 'inputs';
  key: string;
  wire: string;
}

export interface RunMessage {
  type: 'run';
  jobId: number;
  /** The run the job belongs to; the host asks a run to stop by writing this id to shared memory. */
  runId: number;
  /** CPU time of the worker thread the job may take before it stops at the next chunk (-1: no limit). */
  timeLimitMs: number;
  candidate: CandidatePayload;
  inputsKey: string;
  from: number;
  to: number;
  /** One input per evaluation, so a hang in the microtask drain is pinned to one call. */
  isolated: boolean;
}

/**
 * `forget` drops the sandboxes with these keys (all of them without keys); `forget-inputs` drops
 * a cached input set (only the host evicts, so it always knows which sets a worker holds).
 */
export type HostMessage =
  | InputsMessage
  | RunMessage
  | { type: 'forget'; keys?: string[] }
  | { type: 'forget-inputs'; key: string };

/**
 * `text` is `{"n": next, "p": 0|1, "r": [wire outcomes from `from`]}`: `n` is where the chunk
 * stopped, `p` marks that its last call returned a promise, settled or not, in `pending`.
 */
export interface ChunkMessage {
  type: 'chunk';
  jobId: number;
  from: number;
  text: string;
  pending: string | null;
}

/**
 * `ready` gives the worker thread's Linux thread id (-1 where unknown), so the host can read its
 * CPU time, and whether code generation from strings works in the worker's own realm. `done`
 * gives the CPU time the job took (wall time where the platform does not say). `fatal` is the
 * worker's last word before it exits after an exception nothing else caught.
 */
export type WorkerMessage =
  | { type: 'ready'; tid: number; codeGeneration: boolean }
  | ChunkMessage
  | { type: 'done'; jobId: number; cpuMs: number }
  | { type: 'fatal'; reason: string };
