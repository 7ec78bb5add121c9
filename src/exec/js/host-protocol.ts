/**
 * Lines between the host (the user's process) and the sandbox host, the child process that runs
 * the pool of sandbox workers. One JSON object per line, host → child on stdin, child → host on
 * stdout. The child runs untrusted code: the host validates every line it reads with
 * {@link parseChildLine} and builds every outcome object itself.
 */

/** What the child needs of a candidate (a `SourceCandidate` without its problem, which the host handles). */
export interface CandidateSpec {
  id: string;
  label: string;
  prepared: string;
  entry: string;
  functions: string[];
  invalid: string[];
}

/** The limits a job runs under (the run's, with what the row has left of its budgets). */
export interface JobLimits {
  timeoutMs: number;
  budgetMs: number;
  /** -1: no limit (JSON has no Infinity). */
  candidateTimeMs: number;
  maxOutputBytes: number;
  memoryMb: number;
}

export type HostLine =
  | { t: 'inputs'; key: string; n: number; wire: string }
  /** Runs each row's candidate on inputs `from` … `to - 1` of the input set `key`. */
  | {
      t: 'run';
      j: number;
      key: string;
      from: number;
      to: number;
      limits: JobLimits;
      rows: CandidateSpec[];
    }
  | { t: 'abort'; j: number };

/**
 * A stretch of outcomes of row `r` (an index into the job's rows) from input `start` on. `v[k]`
 * is input `start + k`'s value: a number or boolean as itself, any other tagged value as its JSON
 * text. Where `e` holds an entry `[k, code, a, b]` (codes of `WireOutcome`: 1 invalid, 2 error,
 * 3 timeout, 4 crash), `v[k]` is null. Text rather than the value: the host keeps one outcome per
 * distinct text and parses it only when read, so candidates that agree cost it one string, and it
 * builds no objects nobody reads.
 */
export type Segment = [
  r: number,
  start: number,
  v: Array<string | number | boolean | null>,
  e: Array<[number, number, unknown, unknown?]>,
];

/** Per-row figures at the end of a job: durationMs, timeouts, crashes, budgetSpent (0|1), restarts. */
export type StatsTuple = [number, number, number, number, number];

export type ChildLine =
  | { t: 'o'; j: number; s: Segment[] }
  | { t: 's'; j: number; r: number; st: StatsTuple }
  | { t: 'e'; j: number };

/** Input sets the child keeps; host and child drop the oldest alike, so both know which it holds. */
export const INPUT_SETS = 8;

/**
 * The error the harness names an ArrayBuffer the child's memory bound refused (harness.ts writes
 * the same literal). The child ends on it: see `sandbox-host.ts`.
 */
export const OUT_OF_MEMORY = 'OutOfMemory';

/** The child's exit code when it ends on {@link OUT_OF_MEMORY}. */
export const OUT_OF_MEMORY_EXIT = 75;

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

/**
 * The shape of a child line, checked without trusting anything in it: integers where indexes go,
 * arrays where lists go. Ranges (rows, inputs) are checked by the host against the job; the
 * content of values is the codec's business. Returns a reason string for a malformed line.
 */
export const parseChildLine = (line: string): ChildLine | string => {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return 'a line that is not JSON';
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return 'a line that is not an object';
  const o = m as Record<string, unknown>;
  if (!isInt(o.j)) return 'a line without a job id';
  switch (o.t) {
    case 'e':
      return { t: 'e', j: o.j };
    case 's': {
      const st = o.st;
      if (!isInt(o.r) || !Array.isArray(st) || st.length !== 5) return 'malformed stats';
      for (const x of st) if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) return 'malformed stats';
      return { t: 's', j: o.j, r: o.r, st: st as StatsTuple };
    }
    case 'o': {
      if (!Array.isArray(o.s)) return 'malformed outcomes';
      for (const seg of o.s as unknown[]) {
        if (!Array.isArray(seg) || seg.length !== 4) return 'a malformed segment';
        const [r, start, v, e] = seg as unknown[];
        if (!isInt(r) || !isInt(start) || !Array.isArray(v) || !Array.isArray(e))
          return 'a malformed segment';
        for (const x of v as unknown[]) {
          const t = typeof x;
          if (x !== null && t !== 'string' && t !== 'number' && t !== 'boolean') return 'a malformed value';
        }
        let last = -1;
        for (const x of e as unknown[]) {
          if (!Array.isArray(x) || x.length < 3 || x.length > 4) return 'a malformed outcome';
          const k = x[0];
          if (!isInt(k) || k <= last || k >= v.length) return 'an outcome index out of order or range';
          last = k;
        }
      }
      return { t: 'o', j: o.j, s: o.s as Segment[] };
    }
    default:
      return 'a line of unknown type';
  }
};
