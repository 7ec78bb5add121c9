/**
 * The sandbox host: the child process in which the pool of sandbox worker threads runs, so that
 * a candidate that escapes its `vm` context lands here (confined, with no secrets) rather than
 * in the user's process. It speaks the lines of `host-protocol.ts`: jobs on stdin, outcomes on
 * stdout. It exits when stdin closes, that is, when the host is gone.
 */
import type { SourceCandidate } from '../../candidates/index.ts';
import type { CandidateRunStats, RunContext } from '../backend.ts';
import { type Outcome, pendingText } from '../outcome.ts';
import {
  type CandidateSpec,
  type ChildLine,
  type HostLine,
  INPUT_SETS,
  OUT_OF_MEMORY,
  OUT_OF_MEMORY_EXIT,
  type Segment,
} from './host-protocol.ts';
import { JsSandboxPool } from './pool.ts';

const pools = new Map<number, JsSandboxPool>();
const poolFor = (memoryMb: number): JsSandboxPool => {
  let pool = pools.get(memoryMb);
  if (pool === undefined) {
    pool = new JsSandboxPool({ memoryMb });
    pools.set(memoryMb, pool);
  }
  return pool;
};

/** Input sets by key: the host's wire text, and its items parsed only if a job needs a slice. */
const inputSets = new Map<string, { wire: string; n: number; items: unknown[] | null }>();
const aborts = new Map<number, AbortController>();

// Lines past this size are split: the host refuses longer ones.
const LINE_SPLIT = 8 * 1024 * 1024;

const write = (line: ChildLine): void => {
  const text = JSON.stringify(line);
  if (text.length > LINE_SPLIT && line.t === 'o' && (line.s.length > 1 || (line.s[0]?.[2].length ?? 0) > 1)) {
    // Halve the segments (or the one segment) until each line fits.
    const segs = line.s.length > 1 ? line.s : splitSegment(line.s[0] as Segment);
    const half = segs.length >> 1;
    write({ t: 'o', j: line.j, s: segs.slice(0, half) });
    write({ t: 'o', j: line.j, s: segs.slice(half) });
    return;
  }
  process.stdout.write(`${text}\n`);
};

const splitSegment = ([r, start, v, e]: Segment): Segment[] => {
  const half = v.length >> 1;
  return [
    [r, start, v.slice(0, half), e.filter((x) => x[0] < half)],
    [
      r,
      start + half,
      v.slice(half),
      e.filter((x) => x[0] >= half).map(([k, ...rest]) => [k - half, ...rest] as Segment[3][number]),
    ],
  ];
};

const sliceOf = (key: string, from: number, to: number): string => {
  const set = inputSets.get(key);
  if (set === undefined) throw new Error(`unknown input set ${key}`);
  set.items ??= JSON.parse(set.wire) as unknown[];
  return JSON.stringify(set.items.slice(from, to));
};

/**
 * Ends this process when a candidate met its memory bound. The bound is the process's, not one
 * candidate's: what an earlier candidate still holds (in a context a worker keeps) can make an
 * honest candidate's allocation fail. So no such outcome is reported: the process ends, and the
 * host runs each candidate it was running again, alone, in a new process; one that meets the
 * bound alone is blamed there (a crash).
 */
const endOnOutOfMemory = (name: unknown): void => {
  if (name === OUT_OF_MEMORY) process.exit(OUT_OF_MEMORY_EXIT);
};

/** One outcome's place in the segment: its value (a text, number or boolean), or null and an entry of `e`. */
const place = (seg: Segment, k: number, o: Outcome): void => {
  // A value's text goes on as the worker sent it, before anything reads the outcome's kind
  // (which would parse it): nothing here builds the value.
  const text = pendingText(o);
  if (text !== null) {
    seg[2].push(text);
    return;
  }
  switch (o.kind) {
    case 'value':
      seg[2].push(
        typeof o.tagged === 'number' || typeof o.tagged === 'boolean' ? o.tagged : JSON.stringify(o.tagged),
      );
      return;
    case 'invalid':
      seg[3].push([k, 1, o.name, o.message]);
      break;
    case 'error':
      endOnOutOfMemory(o.name);
      seg[3].push([k, 2, o.name, o.message]);
      break;
    case 'timeout':
      seg[3].push([k, 3, o.reason, o.ms]);
      break;
    case 'crash':
      seg[3].push([k, 4, o.reason]);
      break;
  }
  seg[2].push(null);
};

const runJob = async (m: Extract<HostLine, { t: 'run' }>): Promise<void> => {
  const set = inputSets.get(m.key);
  if (set === undefined) throw new Error(`unknown input set ${m.key}`);
  const wire = m.from === 0 && m.to === set.n ? set.wire : sliceOf(m.key, m.from, m.to);
  const controller = new AbortController();
  aborts.set(m.j, controller);
  const stats: CandidateRunStats[] = m.rows.map(() => ({
    durationMs: 0,
    timeouts: 0,
    crashes: 0,
    budgetSpent: false,
    restarts: 0,
  }));
  let segs: Segment[] = [];
  let last: Segment | null = null;
  let cells = 0;
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (segs.length === 0) return;
    const s = segs;
    segs = [];
    last = null;
    cells = 0;
    write({ t: 'o', j: m.j, s });
  };
  /** The segment that input `local` of `row` extends, started anew unless it follows the last one. */
  const segmentAt = (row: number, local: number): Segment => {
    const input = local + m.from;
    if (last === null || last[0] !== row || last[1] + last[2].length !== input) {
      last = [row, input, [], []];
      segs.push(last);
    }
    return last;
  };
  const added = (n: number): void => {
    cells += n;
    if (cells >= 16384) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const record = (row: number, local: number, o: Outcome): void => {
    const seg = segmentAt(row, local);
    place(seg, seg[2].length, o);
    added(1);
  };
  // A worker's report is nearly a segment: values as the host reads them, other outcomes apart.
  // Only null differs: in a report it is also the value null, which a segment gives as text.
  const recordReport: NonNullable<RunContext['recordReport']> = (row, local, v, e) => {
    const seg = segmentAt(row, local);
    const base = seg[2].length;
    let next = 0;
    for (let k = 0; k < v.length; k++) {
      const x = v[k] as Segment[2][number];
      const other = x === null ? e[next] : undefined;
      if (other !== undefined && other[0] === k) {
        endOnOutOfMemory(other[2]);
        next++;
        seg[3].push([base + k, other[1], other[2], other[3]]);
        seg[2].push(null);
      } else seg[2].push(x === null ? 'null' : x);
    }
    added(v.length);
  };
  const limits = {
    timeoutMs: m.limits.timeoutMs,
    budgetMs: m.limits.budgetMs,
    candidateTimeMs: m.limits.candidateTimeMs < 0 ? Number.POSITIVE_INFINITY : m.limits.candidateTimeMs,
    maxOutputBytes: m.limits.maxOutputBytes,
    memoryMb: m.limits.memoryMb,
  };
  const ctx: RunContext = {
    // The pool reads none of the task.
    task: undefined as never,
    inputCount: m.to - m.from,
    get inputs(): never {
      throw new Error('the sandbox host has no decoded inputs');
    },
    inputsWire: wire,
    inputsWireOf: (from, to) =>
      from === 0 && to === m.to - m.from
        ? wire
        : JSON.stringify((JSON.parse(wire) as unknown[]).slice(from, to)),
    inputsKey: wire === set.wire ? m.key : `${m.key}:${m.from}-${m.to}`,
    limits,
    isolation: 'process',
    invalidNames: (c) => (c as unknown as CandidateSpec).invalid,
    signal: controller.signal,
    valueOutcome: (tagged) => ({ kind: 'value', tagged, value: undefined }),
    record,
    recordReport,
    stats: (row) => stats[row] as CandidateRunStats,
  };
  const rows = m.rows.map((c, row) => ({
    row,
    candidate: { ...c, kind: 'source', language: 'javascript', problem: null } as unknown as SourceCandidate,
  }));
  try {
    await poolFor(limits.memoryMb).run(rows, ctx);
  } finally {
    aborts.delete(m.j);
    flush();
    stats.forEach((st, r) => {
      write({
        t: 's',
        j: m.j,
        r,
        st: [st.durationMs, st.timeouts, st.crashes, st.budgetSpent ? 1 : 0, st.restarts],
      });
    });
    write({ t: 'e', j: m.j });
  }
};

const onLine = (line: string): void => {
  const m = JSON.parse(line) as HostLine;
  if (m.t === 'inputs') {
    inputSets.set(m.key, { wire: m.wire, n: m.n, items: null });
    if (inputSets.size > INPUT_SETS) inputSets.delete(inputSets.keys().next().value as string);
  } else if (m.t === 'run') {
    void runJob(m);
  } else if (m.t === 'abort') {
    aborts.get(m.j)?.abort();
  }
};

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  let text = pending + chunk;
  let nl = text.indexOf('\n');
  while (nl !== -1) {
    onLine(text.slice(0, nl));
    text = text.slice(nl + 1);
    nl = text.indexOf('\n');
  }
  pending = text;
});
// The host is gone (it exited, or closed us): nothing left to do for anyone.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
