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
  /** Wall time the job may take before it stops at the next chunk (-1: no limit). */
  timeLimitMs: number;
  candidate: CandidatePayload;
  inputsKey: string;
  from: number;
  to: number;
  /** One input per evaluation, so a hang in the microtask drain is pinned to one call. */
  isolated: boolean;
}

/** `forget` drops the sandboxes with these keys (all of them without keys). */
export type HostMessage = InputsMessage | RunMessage | { type: 'forget'; keys?: string[] };

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

export type WorkerMessage = { type: 'ready' } | ChunkMessage | { type: 'done'; jobId: number };
