import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SourceCandidate } from '../../candidates/index.ts';
import { CrosscheckError } from '../../errors/index.ts';
import type { CandidateRunStats, RunContext } from '../backend.ts';
import {
  type ConfinedCommand,
  confine,
  createWorkspace,
  releaseConfined,
  removeWorkspace,
  removeWorkspaceNow,
} from '../isolation/index.ts';
import { BUDGET_SPENT, type Outcome, outcomeOfText } from '../outcome.ts';
import {
  type CandidateSpec,
  type HostLine,
  INPUT_SETS,
  type JobLimits,
  OUT_OF_MEMORY_EXIT,
  parseChildLine,
  type Segment,
} from './host-protocol.ts';
import { sandboxHostDataBytes } from './pool.ts';
import { wallBackstopMs } from './slot.ts';
import { tieringFlags } from './tiering.ts';

// This module runs from src/exec/js under tsx or Vitest, and from dist/ (ESM or CJS) once built.
const moduleDir = (): string =>
  typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));

/** How to start the sandbox host, and the host paths it reads (read-only under bubblewrap). */
export interface SandboxHostCommand {
  readonly args: readonly string[];
  readonly readOnly: readonly string[];
}

const packageRoot = (from: string): string => {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
};

let located: SandboxHostCommand | undefined;

/**
 * The sandbox host's entry. From source (tsx, Vitest) it is `sandbox-host.ts` beside this module,
 * run by Node with tsx's loader given by absolute path (the child's working directory is a bare
 * temp dir, where `tsx` would not resolve). From the built package it is `sandbox-host.mjs` or
 * `.cjs` in the same folder as the bundle that holds this module.
 */
export const sandboxHostCommand = (): SandboxHostCommand => {
  if (located) return located;
  const dir = moduleDir();
  const source = join(dir, 'sandbox-host.ts');
  if (existsSync(source)) {
    const root = packageRoot(dir);
    const loader = createRequire(join(root, 'package.json')).resolve('tsx');
    located = {
      args: ['--import', pathToFileURL(loader).href, source],
      readOnly: [
        join(root, 'src'),
        join(root, 'node_modules'),
        join(root, 'package.json'),
        join(root, 'tsconfig.json'),
      ],
    };
    return located;
  }
  const built = [
    typeof __dirname === 'string' ? 'sandbox-host.cjs' : 'sandbox-host.mjs',
    'sandbox-host.mjs',
    'sandbox-host.cjs',
  ]
    .map((f) => join(dir, f))
    .find((f) => existsSync(f));
  if (built === undefined) {
    throw new CrosscheckError(
      'RUNTIME_MISSING',
      `The JavaScript sandbox host (sandbox-host.mjs) was not found beside ${dir}. Reinstall crosscheck: the package must ship it.`,
    );
  }
  located = { args: [built], readOnly: [dir] };
  return located;
};

/** Longest line accepted from the child, on top of twice the largest output a run allows. */
const LINE_SLACK = 16 * 1024 * 1024;
/** How long a busy child may stay silent, on top of three per-call limits, before it counts as hung. */
const SILENCE_MS = 30_000;
const STRING_CAP = 1024 * 1024;

/** One candidate's row within a run. */
interface RowState {
  readonly row: number;
  readonly spec: CandidateSpec;
  readonly run: RunState;
  readonly stats: CandidateRunStats;
  /** 1 where the host recorded an outcome. */
  readonly recorded: Uint8Array;
  left: number;
  /** Runs alone after it was in the child when the child died; dies with the child again → crash. */
  solo: boolean;
  /** No more outcomes are accepted for it (all recorded, or the rest filled by the host). */
  closed: boolean;
  /** Closed and no job of it left in the child: its stats are in too. */
  finished: boolean;
  jobs: number;
}

interface RunState {
  readonly ctx: RunContext;
  rowsLeft: number;
  aborted: boolean;
  readonly resolve: () => void;
}

interface Job {
  readonly id: number;
  readonly run: RunState;
  readonly rows: RowState[];
  readonly from: number;
  readonly to: number;
  readonly solo: boolean;
  /** Rows whose stats arrived (each counts once). */
  readonly statsSeen: Set<number>;
  sentAt: number;
}

interface Child {
  readonly process: ChildProcess;
  /** Its host-only workspace folder, removed when it dies. */
  readonly root: string;
  readonly inputs: Set<string>;
  /** Pieces of a line not yet ended, kept apart so that a long line is joined once, not per chunk. */
  pending: string[];
  pendingLength: number;
  lastHeard: number;
  dead: boolean;
  /** The heap limit its memory bound was sized for: a run that allows more gets a new child. */
  readonly memoryMb: number;
}

let nextJobId = 1;

const clip = (x: unknown): string =>
  typeof x === 'string' ? x.slice(0, STRING_CAP) : String(x).slice(0, 200);

/**
 * Runs JS/TS source candidates through a pool of sandbox workers that lives in a child process
 * (the sandbox host), confined by the run's isolation. The host hands each run's jobs to the child
 * and records what comes back after checking it; when the child dies it starts a new one and
 * runs again what did not finish, each affected candidate alone, so that only a candidate that
 * kills the child while it runs alone gets `crash` outcomes.
 * @internal
 */
export class RemoteSandboxPool {
  readonly isolation: 'os' | 'process';
  readonly #command: () => SandboxHostCommand;
  #child: Child | null = null;
  readonly #inFlight = new Map<number, Job>();
  readonly #queue: Job[] = [];
  #watchdog: NodeJS.Timeout | null = null;

  constructor(isolation: 'os' | 'process', command: () => SandboxHostCommand = sandboxHostCommand) {
    this.isolation = isolation;
    this.#command = command;
  }

  /** The child's process id, or null when none runs (for tests that kill it). */
  get pid(): number | null {
    return this.#child?.process.pid ?? null;
  }

  /** At process exit: kills the child, if one runs, and removes its workspace (the exit hook cannot wait). */
  killNow(): void {
    const child = this.#child;
    if (child === null) return;
    try {
      child.process.kill('SIGKILL');
    } catch {
      // Already gone.
    }
    removeWorkspaceNow(child.root);
  }

  run(rows: ReadonlyArray<{ row: number; candidate: SourceCandidate }>, ctx: RunContext): Promise<void> {
    return new Promise<void>((resolve) => {
      const run: RunState = { ctx, rowsLeft: 0, aborted: false, resolve };
      const n = ctx.inputCount;
      const states: RowState[] = [];
      for (const { row, candidate } of rows) {
        if (candidate.problem !== null || candidate.prepared === null) {
          const problem: Outcome = {
            kind: 'error',
            name: candidate.problem?.name ?? 'CompileError',
            message: candidate.problem?.message ?? 'the candidate has no runnable code',
          };
          for (let i = 0; i < n; i++) ctx.record(row, i, problem);
          continue;
        }
        if (n === 0) continue;
        run.rowsLeft++;
        states.push({
          row,
          run,
          stats: ctx.stats(row),
          recorded: new Uint8Array(n),
          left: n,
          solo: false,
          closed: false,
          finished: false,
          jobs: 0,
          spec: {
            id: candidate.id,
            label: candidate.label,
            prepared: candidate.prepared,
            entry: candidate.entry,
            functions: [...candidate.functions],
            invalid: [...ctx.invalidNames(candidate)],
          },
        });
      }
      if (run.rowsLeft === 0) {
        resolve();
        return;
      }
      if (states.length > 0) this.#enqueue(run, states, 0, n, false);
      ctx.signal?.addEventListener('abort', () => this.#abort(run), { once: true });
      this.#pump();
    });
  }

  /** Stops the child (a new one starts on the next run). */
  async close(): Promise<void> {
    const child = this.#child;
    if (child === null) return;
    const exited = new Promise<void>((resolve) => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) resolve();
      else child.process.once('exit', () => resolve());
    });
    // Hold the event loop until it is gone: an idle child is unref'd.
    child.process.ref();
    child.process.kill('SIGKILL');
    await exited;
  }

  #enqueue(run: RunState, rows: RowState[], from: number, to: number, solo: boolean): void {
    const job: Job = { id: nextJobId++, run, rows, from, to, solo, statsSeen: new Set(), sentAt: 0 };
    for (const rs of rows) rs.jobs++;
    if (solo) this.#queue.push(job);
    else this.#queue.unshift(job);
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const job = this.#queue[0] as Job;
      if (job.run.aborted || job.rows.every((r) => r.closed)) {
        this.#queue.shift();
        this.#endJob(job);
        continue;
      }
      // A candidate on probation runs with nothing else in the child, so a death is its own.
      const soloRunning = [...this.#inFlight.values()].some((j) => j.solo);
      if (soloRunning || (job.solo && this.#inFlight.size > 0)) break;
      // A child's memory bound is sized for a heap limit: a run that allows more waits until the
      // child is idle, then gets a child sized for it.
      const child = this.#child;
      if (child !== null && child.memoryMb < job.run.ctx.limits.memoryMb) {
        if (this.#inFlight.size > 0) break;
        this.#retire(child);
      }
      this.#queue.shift();
      this.#send(job);
    }
    this.#setBusy(this.#inFlight.size > 0);
  }

  #send(job: Job): void {
    const { ctx } = job.run;
    const child = this.#child ?? this.#spawn(ctx.limits.memoryMb);
    if (!child.inputs.has(ctx.inputsKey)) {
      this.#write(child, { t: 'inputs', key: ctx.inputsKey, n: ctx.inputCount, wire: ctx.inputsWire });
      child.inputs.add(ctx.inputsKey);
      // The child keeps as many sets, dropping the oldest the same way: the two lists stay equal.
      if (child.inputs.size > INPUT_SETS) child.inputs.delete(child.inputs.values().next().value as string);
    }
    this.#inFlight.set(job.id, job);
    job.sentAt = performance.now();
    child.lastHeard = performance.now();
    const l = ctx.limits;
    const limits: JobLimits = {
      timeoutMs: l.timeoutMs,
      budgetMs: l.budgetMs,
      candidateTimeMs: Number.isFinite(l.candidateTimeMs) ? l.candidateTimeMs : -1,
      maxOutputBytes: l.maxOutputBytes,
      memoryMb: l.memoryMb,
    };
    const rows = job.rows.filter((r) => !r.closed);
    for (const rs of job.rows) if (rs.closed) this.#release(rs);
    this.#write(child, {
      t: 'run',
      j: job.id,
      key: ctx.inputsKey,
      from: job.from,
      to: job.to,
      limits,
      rows: rows.map((r) => r.spec),
    });
    // The child numbers rows by their place in the message.
    (job as { rows: RowState[] }).rows = rows;
  }

  #write(child: Child, line: HostLine): void {
    if (!child.dead) child.process.stdin?.write(`${JSON.stringify(line)}\n`);
  }

  /** Stops an idle child for good; the next job starts another. */
  #retire(child: Child): void {
    child.dead = true;
    if (this.#child === child) this.#child = null;
    child.process.stdout?.removeAllListeners('data');
    child.process.once('exit', () => removeWorkspace(child.root));
    child.process.kill('SIGKILL');
  }

  #spawn(memoryMb: number): Child {
    const command = this.#command();
    // The worker threads' heap limits leave ArrayBuffer bytes out: the process as a whole is
    // bounded too, and an allocation past it ends the child (see sandbox-host.ts).
    const dataBytes = sandboxHostDataBytes(memoryMb);
    const workspace = createWorkspace('crosscheck-jshost-', this.isolation);
    const workdir = workspace.workdir;
    // Only what Node needs: no API keys, tokens, NODE_OPTIONS or user configuration.
    const env: Record<string, string> = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: workdir,
      TMPDIR: workdir,
      LANG: 'C.UTF-8',
    };
    let confined: ConfinedCommand;
    try {
      confined = confine(
        {
          file: process.execPath,
          // V8 flags are per process: no eval or new Function in the child or any of its workers,
          // so code that leaves a context finds no way to compile a string into a function.
          args: ['--disallow-code-generation-from-strings', ...tieringFlags(), ...command.args],
          env,
          workdir,
          readOnly: command.readOnly,
          dataBytes,
        },
        this.isolation,
      );
    } catch (error) {
      removeWorkspaceNow(workspace.root);
      throw error;
    }
    let proc: ChildProcess;
    try {
      proc = spawn(confined.file, [...confined.args], {
        cwd: workspace.spawnCwd,
        env: confined.env,
        stdio: ['pipe', 'pipe', 'pipe', ...confined.fds],
      });
    } finally {
      releaseConfined(confined);
    }
    const child: Child = {
      process: proc,
      root: workspace.root,
      inputs: new Set(),
      pending: [],
      pendingLength: 0,
      lastHeard: 0,
      dead: false,
      memoryMb,
    };
    this.#child = child;
    proc.stdin?.on('error', () => undefined);
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (chunk: string) => this.#onData(child, chunk));
    proc.stdout?.on('error', () => undefined);
    // Its stderr says nothing the host may trust; read and drop it so the child never blocks on it.
    proc.stderr?.resume();
    proc.on('error', () => this.#died(child, 'the sandbox host did not start'));
    proc.on('exit', (code, signal) =>
      this.#died(
        child,
        signal
          ? `the sandbox host was killed by ${signal}`
          : code === OUT_OF_MEMORY_EXIT
            ? `the sandbox host's memory bound (${Math.round(dataBytes / 2 ** 20)} MiB for heap limit ${memoryMb} MiB) refused an ArrayBuffer`
            : `the sandbox host exited with code ${code}`,
      ),
    );
    installExitHook(this);
    return child;
  }

  #onData(child: Child, chunk: string): void {
    if (child.dead) return;
    child.lastHeard = performance.now();
    // Only the new chunk is searched, from where the last line ended: a child that floods one
    // endless line costs the host linear work up to the cap, not quadratic.
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl !== -1 && !child.dead) {
      let line = chunk.slice(start, nl);
      if (child.pending.length > 0) {
        child.pending.push(line);
        line = child.pending.join('');
        child.pending = [];
        child.pendingLength = 0;
      }
      this.#onLine(child, line);
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (child.dead || start === chunk.length) return;
    child.pending.push(start === 0 ? chunk : chunk.slice(start));
    child.pendingLength += chunk.length - start;
    if (child.pendingLength > this.#lineCap()) this.#misbehaved(child, 'a line longer than the host accepts');
  }

  #lineCap(): number {
    let max = 0;
    for (const job of this.#inFlight.values()) max = Math.max(max, job.run.ctx.limits.maxOutputBytes);
    return 2 * max + LINE_SLACK;
  }

  #onLine(child: Child, line: string): void {
    if (line.length > this.#lineCap()) {
      this.#misbehaved(child, 'a line longer than the host accepts');
      return;
    }
    const m = parseChildLine(line);
    if (typeof m === 'string') {
      this.#misbehaved(child, m);
      return;
    }
    const job = this.#inFlight.get(m.j);
    if (job === undefined) {
      this.#misbehaved(child, `a line for job ${m.j}, which it does not hold`);
      return;
    }
    if (m.t === 'o') this.#onOutcomes(job, m.s);
    else if (m.t === 's') this.#onStats(job, m.r, m.st);
    else {
      this.#inFlight.delete(job.id);
      // Whatever the child left out of a job it called done is its fault, not the candidate's.
      if (!job.run.aborted) {
        for (const rs of job.rows) {
          if (rs.closed) continue;
          for (let i = job.from; i < job.to; i++) {
            if (rs.recorded[i] === 0) {
              this.#reject(rs, 'the sandbox host ended a job without an outcome for every input');
              break;
            }
          }
        }
      }
      this.#endJob(job);
      this.#pump();
    }
  }

  #onOutcomes(job: Job, segments: Segment[]): void {
    const { ctx } = job.run;
    for (const [r, start, v, e] of segments) {
      const rs = job.rows[r];
      if (rs === undefined) {
        this.#rejectJob(job, `outcomes for row ${r} of a job of ${job.rows.length}`);
        return;
      }
      if (rs.closed) continue;
      if (start < job.from || start + v.length > job.to) {
        this.#reject(
          rs,
          `outcomes for inputs ${start}…${start + v.length - 1} of a job over ${job.from}…${job.to - 1}`,
        );
        continue;
      }
      let next = 0;
      for (let k = 0; k < v.length; k++) {
        const i = start + k;
        if (rs.recorded[i] === 1) {
          this.#reject(rs, `a second outcome for input ${i}`);
          break;
        }
        const other = e[next];
        let outcome: Outcome;
        if (other !== undefined && other[0] === k) {
          next++;
          outcome = this.#otherOutcome(ctx, other);
        } else {
          outcome = this.#valueAt(ctx, v[k]);
        }
        this.#record(rs, i, outcome);
      }
    }
  }

  /** A value's outcome from its place in a segment: JSON text, or a number or boolean as itself. */
  #valueAt(ctx: RunContext, x: Segment[2][number] | undefined): Outcome {
    if (typeof x === 'string') return outcomeOfText(ctx, x);
    if (typeof x === 'number' || typeof x === 'boolean') return ctx.valueOutcome(x);
    // Null where no other outcome is named is neither: the child broke the protocol.
    return {
      kind: 'error',
      name: 'ProtocolError',
      message: 'the sandbox host sent no value and no other outcome for this input',
    };
  }

  /** Builds a non-value outcome from its code; the host sets every field it can itself. */
  #otherOutcome(ctx: RunContext, [, code, a, b]: [number, number, unknown, unknown?]): Outcome {
    switch (code) {
      case 1:
      case 2:
        if (typeof a === 'string' && typeof b === 'string') {
          return { kind: code === 1 ? 'invalid' : 'error', name: clip(a), message: clip(b) };
        }
        break;
      case 3:
        if (a === 'call') return { kind: 'timeout', reason: 'call', ms: ctx.limits.timeoutMs };
        if (a === 'budget') return BUDGET_SPENT;
        if (a === 'unsettled') return { kind: 'timeout', reason: 'unsettled', ms: 0 };
        // The pool's wall-time backstop (a starved call): a timeout, not a fault of the child.
        if (a === 'wall')
          return { kind: 'timeout', reason: 'wall', ms: wallBackstopMs(ctx.limits.timeoutMs) };
        break;
      case 4:
        if (typeof a === 'string') return { kind: 'crash', reason: clip(a).slice(0, 300) };
        break;
    }
    return {
      kind: 'error',
      name: 'ProtocolError',
      message: `the sandbox host sent an outcome the host does not accept (code ${clip(code).slice(0, 20)})`,
    };
  }

  #onStats(job: Job, r: number, st: [number, number, number, number, number]): void {
    const rs = job.rows[r];
    if (rs === undefined || job.statsSeen.has(r)) {
      this.#rejectJob(job, `stats for row ${r}`);
      return;
    }
    job.statsSeen.add(r);
    const n = job.to - job.from;
    const [durationMs, timeouts, crashes, budgetSpent, restarts] = st;
    // The child cannot have spent more than the job's wall time on it.
    rs.stats.durationMs += Math.min(durationMs, performance.now() - job.sentAt);
    rs.stats.timeouts += Math.min(Math.floor(timeouts), n);
    rs.stats.crashes += Math.min(Math.floor(crashes), n);
    rs.stats.budgetSpent ||= budgetSpent === 1;
    rs.stats.restarts += Math.min(Math.floor(restarts), n);
  }

  #record(rs: RowState, i: number, outcome: Outcome): void {
    rs.recorded[i] = 1;
    rs.run.ctx.record(rs.row, i, outcome);
    if (--rs.left === 0) this.#closeRow(rs);
  }

  #closeRow(rs: RowState): void {
    rs.closed = true;
    this.#settle(rs);
  }

  /** A job of the row ended (or was never sent). */
  #release(rs: RowState): void {
    rs.jobs--;
    this.#settle(rs);
  }

  #settle(rs: RowState): void {
    if (rs.finished || rs.jobs > 0 || !(rs.closed || rs.run.aborted)) return;
    rs.finished = true;
    if (--rs.run.rowsLeft === 0) rs.run.resolve();
  }

  /** Fills what is left of a row with `outcome` and closes it. */
  #fill(rs: RowState, outcome: Outcome): void {
    if (rs.closed) return;
    for (let i = 0; i < rs.recorded.length && !rs.closed; i++)
      if (rs.recorded[i] === 0) this.#record(rs, i, outcome);
  }

  /** The child broke the protocol for one row: its remaining outcomes are typed errors. */
  #reject(rs: RowState, what: string): void {
    this.#fill(rs, {
      kind: 'error',
      name: 'ProtocolError',
      message: `the sandbox host sent ${what}; the candidate's remaining outcomes are not trusted`,
    });
  }

  #rejectJob(job: Job, what: string): void {
    for (const rs of job.rows) this.#reject(rs, what);
  }

  #endJob(job: Job): void {
    // An aborted run resolves once nothing of it runs; its missing cells say it was aborted.
    for (const rs of job.rows) this.#release(rs);
  }

  /** A line the host cannot attribute to a row: the child is not to be believed any more. */
  #misbehaved(child: Child, what: string): void {
    this.#died(child, `the sandbox host sent ${what}`);
    child.process.kill('SIGKILL');
  }

  /**
   * The child is gone (or cut off). Every row it was running loses only its unfinished inputs:
   * they run again in a new child, each row alone; a row that was already alone caused it.
   */
  #died(child: Child, reason: string): void {
    if (child.dead) return;
    child.dead = true;
    if (this.#child === child) this.#child = null;
    child.process.stdout?.removeAllListeners('data');
    removeWorkspace(child.root);
    const jobs = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const job of jobs) {
      for (const rs of job.rows) {
        if (rs.closed || job.run.aborted) continue;
        rs.stats.restarts++;
        if (job.solo) {
          rs.stats.crashes++;
          this.#fill(rs, { kind: 'crash', reason: `${reason} while running this candidate alone` });
          continue;
        }
        rs.solo = true;
        let i = job.from;
        while (i < job.to) {
          while (i < job.to && rs.recorded[i] === 1) i++;
          const start = i;
          while (i < job.to && rs.recorded[i] === 0) i++;
          if (i > start) this.#enqueue(job.run, [rs], start, i, true);
        }
      }
      this.#endJob(job);
    }
    this.#pump();
  }

  #abort(run: RunState): void {
    run.aborted = true;
    const child = this.#child;
    for (const job of this.#inFlight.values()) {
      if (job.run === run && child) this.#write(child, { t: 'abort', j: job.id });
    }
    this.#pump();
  }

  /** Keeps the user's process alive while jobs run, and lets it exit while the child idles. */
  #setBusy(busy: boolean): void {
    const child = this.#child;
    if (child !== null) {
      const p = child.process;
      const handles = [p, p.stdin, p.stdout, p.stderr] as unknown as Array<{
        ref?: () => void;
        unref?: () => void;
      }>;
      for (const h of handles) (busy ? h?.ref : h?.unref)?.call(h);
    }
    if (busy && this.#watchdog === null) {
      this.#watchdog = setInterval(() => this.#check(), 1000);
      this.#watchdog.unref();
    } else if (!busy && this.#watchdog !== null) {
      clearInterval(this.#watchdog);
      this.#watchdog = null;
    }
  }

  /** A child whose main thread stopped answering: the pool inside it no longer watches its workers. */
  #check(): void {
    const child = this.#child;
    if (child === null || this.#inFlight.size === 0) return;
    let limit = 0;
    for (const job of this.#inFlight.values()) limit = Math.max(limit, 3 * job.run.ctx.limits.timeoutMs);
    if (performance.now() - child.lastHeard > limit + SILENCE_MS)
      this.#misbehaved(child, 'nothing for too long');
  }
}

const live = new Set<RemoteSandboxPool>();
let hooked = false;
// The child also exits when its stdin closes; this is for a host that exits with it still busy.
const installExitHook = (pool: RemoteSandboxPool): void => {
  live.add(pool);
  if (hooked) return;
  hooked = true;
  // A program that ends without closeSandboxPools() leaves no sandbox host and no workspace.
  process.once('exit', () => {
    for (const p of live) p.killNow();
  });
};
