import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  writeFileSync,
} from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { CrosscheckError, ioError, withIo } from '../../errors/index.ts';
import {
  type ConfinedCommand,
  confine,
  createWorkspace,
  executableProblem,
  releaseConfined,
  removeWorkspace,
  removeWorkspaceNow,
  type Workspace,
} from '../isolation/index.ts';
import { PROTOCOL_VERSION, parseWorkerMessage, WORKER_ENV, type WorkerMessage } from './protocol.ts';

/** How to start one kind of worker; workers with equal specs are interchangeable. @internal */
export interface WorkerSpec {
  /** Executable and arguments. */
  readonly command: readonly [string, ...string[]];
  /** Advertised to the worker (`CROSSCHECK_MEMORY_MB`); the Python harness turns it into `RLIMIT_AS`. */
  readonly memoryMb: number;
  /** Extra environment on top of the scrubbed base (never the host's own variables). */
  readonly env?: Readonly<Record<string, string>>;
  /** Names the worker kind in messages: `Python`, `command \`node worker.mjs\``. */
  readonly label: string;
  /** Says how to fix a worker that cannot start (names the option or variable to change). */
  readonly fix: string;
  /**
   * The worker's value texts come from crosscheck's own encoder (the Python harness), so the
   * host keeps them unparsed until read instead of validating each on arrival.
   */
  readonly trustedValues?: boolean;
  /** `'os'`: the worker runs inside bubblewrap (see `src/exec/isolation`); `'process'` by default. */
  readonly isolation?: 'os' | 'process';
  /** Host paths the worker must read under `'os'` (the harness folder, a worker script). */
  readonly readOnly?: readonly string[];
  /**
   * The worker is crosscheck's Python zygote: it runs each candidate slice in a child process
   * of its own, measures the child's CPU time and reports how it ended (`ended` messages), which
   * the host then trusts. Other workers are untrusted: the host measures and ends their calls.
   */
  readonly zygote?: boolean;
  /**
   * The candidates trust each other: a worker may serve one after another. Otherwise (and the
   * zygote aside, which forks a fresh child per candidate) a worker serves one candidate only.
   */
  readonly shareWorkers?: boolean;
}

/** What a worker sent, or why it stopped talking. @internal */
export type ExchangeEnd =
  | { kind: 'done' }
  | { kind: 'hung' }
  | { kind: 'exit'; reason: string }
  | { kind: 'fault'; reason: string }
  | { kind: 'aborted' }
  /** The host's watch ended the exchange: the candidate's CPU time for the run is spent. */
  | { kind: 'spent' };

/** Polled while an exchange is pending; returns how to end it, or null to go on. @internal */
export interface ExchangeWatch {
  readonly everyMs: number;
  readonly check: () => ExchangeEnd | null;
}

const STARTUP_MS = 20_000;
const TERM_GRACE_MS = 200;
const STDERR_TAIL = 4000;
// /proc/<pid>/stat counts CPU time in clock ticks, USER_HZ, which Linux fixes at 100 per second.
const TICK_MS = 10;
const TREE_RESCAN_MS = 1000;

/**
 * Longest reply line the host accepts for a run with output limit `maxOutputBytes` (characters
 * of the decoded line): two outputs at the limit plus room for the envelope. A worker flushes an
 * `out` line before it would pass this (docs/protocol.md "Limits on lines"). @internal
 */
export const maxLineChars = (maxOutputBytes: number): number => 2 * maxOutputBytes + 1024 * 1024;

const live = new Set<WorkerProcess>();
let exitHookInstalled = false;

// Idle workers are unref'd, so a finished program exits on its own; this hook then kills what is
// left (and any process a candidate managed to start in the group) and removes the temp dirs.
const installExitHook = (): void => {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const w of live) w.killNow();
  });
};

/** Only variables a candidate may see: no API keys, tokens or user configuration. */
const scrubbedEnv = (workdir: string, spec: WorkerSpec, progressFile: string): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  HOME: workdir,
  TMPDIR: workdir,
  TMP: workdir,
  TEMP: workdir,
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  [WORKER_ENV.protocol]: String(PROTOCOL_VERSION),
  [WORKER_ENV.memoryMb]: String(spec.memoryMb),
  [WORKER_ENV.progressFile]: progressFile,
  ...spec.env,
});

// fds 3 and 4 are the protocol's; the sandbox's own descriptors (mounts, filter) follow.
const FIRST_FREE_FD = 5;

const spawnWorker = (confined: ConfinedCommand, cwd: string) =>
  execa(confined.file, confined.args, {
    cwd,
    env: confined.env,
    extendEnv: false,
    // stdout goes nowhere: a candidate printing 100 MB costs nothing and blocks nothing.
    // Host descriptors pass through as they are (execa hands a plain number to spawn); its
    // types only list the numbers 3 to 9.
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe', ...(confined.fds as unknown as 3[])],
    buffer: false,
    reject: false,
    // Its own process group, so a kill reaches anything it managed to start.
    detached: true,
    cleanup: false,
  });

// Crash reasons name only the exit: what a candidate printed to stderr would make outcomes
// depend on earlier calls of the same worker.
// Under bubblewrap the worker's own death by a signal reaches us as bwrap's exit code 128 + n.
const describeExit = (code: number | null, signal: NodeJS.Signals | null, confined: boolean): string => {
  const bySignal = confined && code !== null && code > 128 && code < 160 ? signalName(code - 128) : null;
  if (signal ?? bySignal) return `the worker was killed by ${signal ?? bySignal}`;
  return `the worker exited with code ${code}`;
};

const signalName = (n: number): string | null =>
  (Object.entries(osConstants.signals).find(([, v]) => v === n)?.[0] as string | undefined) ?? null;

const lastLines = (text: string): string => text.trim().split('\n').slice(-3).join(' | ').slice(0, 300);

interface ProcStat {
  readonly ppid: number;
  readonly cpuTicks: number;
}

/** utime + stime + cutime + cstime and the parent of one process, from /proc/<pid>/stat. */
const readStat = (pid: number): ProcStat | null => {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number): number => Number(fields[i]) || 0;
  return { ppid: n(1), cpuTicks: n(11) + n(12) + n(13) + n(14) };
};

/** Plain wall time of silence that ends an exchange whatever the run delay says: a defence only. */
const hardSilenceMs = (silenceMs: number): number => Math.max(60_000, 10 * silenceMs);

/**
 * Every process below `root`: through each thread's `children` file where the kernel keeps one
 * (a few small reads per process), else through the parent links of every process in /proc.
 * @internal
 */
export const descendants = (root: number): number[] => descendantsByChildren(root) ?? descendantsByScan(root);

/** The children of one process (of all its threads); null where the kernel keeps no `children` files. */
const childrenOf = (pid: number): number[] | null => {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone meanwhile
  }
  const out: number[] = [];
  for (const tid of tids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
    } catch (error) {
      // A thread that ended meanwhile is skipped; a thread without the file means no such files.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`/proc/${pid}/task/${tid}`))
        return null;
      continue;
    }
    for (const field of text.split(' ')) {
      const child = Number(field);
      if (field !== '' && Number.isInteger(child) && child > 0) out.push(child);
    }
  }
  return out;
};

/** @internal */
export const descendantsByChildren = (root: number): number[] | null => {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const children = childrenOf(queue.pop() as number);
    if (children === null) return null;
    out.push(...children);
    queue.push(...children);
  }
  return out;
};

/** @internal */
export const descendantsByScan = (root: number): number[] => {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readStat(pid);
    if (stat === null) continue;
    const list = children.get(stat.ppid);
    if (list) list.push(pid);
    else children.set(stat.ppid, [pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop() as number) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
};

/**
 * One worker process speaking the protocol of `docs/protocol.md` on fd 3 (requests) and fd 4
 * (replies), in a fresh temporary working directory that is removed when it exits.
 * @internal
 */
export class WorkerProcess {
  readonly workdir: string;
  readonly pid: number;
  readonly spec: WorkerSpec;
  /** The candidate (its load key) this worker has served, if any: it serves no other unless shared. */
  servedFor: string | null = null;
  /** The input set the worker holds (`RunContext.inputsKey`). */
  inputsKey: string | null = null;
  /** What the worker said in its `hello`. */
  language = '';
  runtime = '';
  #sub: ReturnType<typeof spawnWorker>;
  #requests: Writable;
  #replies: Readable;
  #stderr: Readable;
  #stderrTail = '';
  #pending = '';
  /**
   * Longest reply line accepted (see {@link maxLineChars}); a longer one, or an endless line with
   * no newline, is a protocol fault: the host stops reading, reports it and kills the worker,
   * rather than buffer whatever the candidate writes.
   */
  lineLimit = maxLineChars(16 * 1024 * 1024);
  #overflowed = false;
  #listener: ((m: WorkerMessage | { fault: string }) => void) | null = null;
  #exitListener: ((reason: string) => void) | null = null;
  #exitReason: string | null = null;
  #progressFile: string;
  #progressFd = -1;
  #workspace: Workspace;
  #finalProgress: number | null = null;
  #exited: Promise<void>;

  private constructor(spec: WorkerSpec) {
    installExitHook();
    this.spec = spec;
    const mode = spec.isolation ?? 'process';
    this.#workspace = withIo('create a worker directory in', tmpdir(), () =>
      createWorkspace('crosscheck-worker-', mode),
    );
    this.workdir = this.#workspace.workdir;
    // Beside the working directory, in the host-only folder: under 'os' it is bound into the
    // sandbox as a single file the candidate can write but not replace (not by a FIFO, not by a
    // link), and the host reads it through the descriptor it opened here, never by path again.
    this.#progressFile = join(this.#workspace.root, 'progress');
    let confined: ConfinedCommand;
    try {
      try {
        writeFileSync(this.#progressFile, Buffer.alloc(8));
        // Writable by the sandbox's own uid (the umask would leave it to root alone); its folder
        // keeps every other host user out.
        chmodSync(this.#progressFile, 0o666);
        this.#progressFd = openSync(this.#progressFile, 'r');
      } catch (error) {
        throw ioError(error, 'write', this.#progressFile);
      }
      const [file, ...args] = spec.command;
      const env = scrubbedEnv(this.workdir, spec, this.#progressFile);
      confined = confine(
        {
          file,
          args,
          env,
          workdir: this.workdir,
          readOnly: spec.readOnly,
          shared: [this.#progressFile],
          // The zygote serves candidate after candidate in this one sandbox.
          readonlyTmp: spec.zygote === true,
          firstFd: FIRST_FREE_FD,
        },
        mode,
      );
    } catch (error) {
      this.#closeProgress();
      removeWorkspaceNow(this.#workspace.root);
      throw error;
    }
    try {
      this.#sub = spawnWorker(confined, this.#workspace.spawnCwd);
    } finally {
      releaseConfined(confined);
    }
    this.#sub.catch(() => undefined);
    this.pid = this.#sub.pid ?? -1;
    const stdio = this.#sub.stdio as unknown as Array<Readable | Writable>;
    this.#requests = stdio[3] as Writable;
    this.#replies = stdio[4] as Readable;
    this.#stderr = stdio[2] as Readable;
    this.#requests.on('error', () => undefined);
    this.#replies.setEncoding('utf8');
    this.#replies.on('data', (chunk: string) => this.#onData(chunk));
    this.#replies.on('error', () => undefined);
    this.#stderr.setEncoding('utf8');
    this.#stderr.on('data', (chunk: string) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-STDERR_TAIL);
    });
    this.#stderr.on('error', () => undefined);
    this.#exited = new Promise((resolve) => {
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        // Let the last bytes of stderr arrive so the reason can quote them.
        setImmediate(() => {
          this.#exitReason = describeExit(code, signal, spec.isolation === 'os');
          this.#finalProgress = this.#readProgressFile();
          this.#closeProgress();
          live.delete(this);
          removeWorkspace(this.#workspace.root);
          this.#exitListener?.(this.#exitReason);
          resolve();
        });
      };
      this.#sub.once('exit', onExit);
      this.#sub.once('error', () => {
        if (this.#sub.pid === undefined) onExit(null, null);
      });
    });
    live.add(this);
  }

  /** Starts a worker and waits for its `hello`. Throws `RUNTIME_MISSING` when it cannot start. */
  static async start(spec: WorkerSpec): Promise<WorkerProcess> {
    // bubblewrap would start and then fail to exec it: say so as plainly as a direct spawn does.
    const missing =
      spec.isolation === 'os'
        ? executableProblem(spec.command[0], { PATH: process.env.PATH ?? '', ...spec.env })
        : null;
    if (missing) {
      throw new CrosscheckError(
        'RUNTIME_MISSING',
        `The ${spec.label} worker \`${spec.command.join(' ')}\` did not start: ${missing}. ${spec.fix}`,
      );
    }
    const w = new WorkerProcess(spec);
    const hello = await new Promise<WorkerMessage | { fault: string }>((resolve) => {
      // Like the silence of a call, the wait for `hello` is counted in the worker's own time:
      // on a loaded machine a sandbox and an interpreter may wait seconds for a CPU, and that
      // wait must not turn into "did not start" (plain wall time only far past the limit).
      // Its processes are new: their run delay starts at 0.
      const startedAt = performance.now();
      let timer: NodeJS.Timeout;
      const check = (): void => {
        const left = w.#ownTimeLeft(startedAt, 0, STARTUP_MS);
        if (left > 0) timer = setTimeout(check, left);
        else resolve({ fault: `no hello within ${Math.round(performance.now() - startedAt)} ms` });
      };
      timer = setTimeout(check, STARTUP_MS);
      w.#listener = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
      w.#exitListener = (reason) => {
        clearTimeout(timer);
        resolve({ fault: reason });
      };
    });
    w.#listener = null;
    w.#exitListener = null;
    if ('fault' in hello || hello.t !== 'hello' || hello.protocol !== PROTOCOL_VERSION) {
      const got =
        'fault' in hello
          ? hello.fault
          : hello.t === 'hello'
            ? `protocol ${hello.protocol}, expected ${PROTOCOL_VERSION}`
            : `a "${hello.t}" message before "hello"`;
      await w.kill();
      const stderr = lastLines(w.#stderrTail);
      const spawnError = await w.#spawnError();
      throw new CrosscheckError(
        'RUNTIME_MISSING',
        `The ${spec.label} worker \`${spec.command.join(' ')}\` did not start: ${spawnError ?? got}${stderr ? ` (stderr: ${stderr})` : ''}. ${spec.fix}`,
      );
    }
    w.language = hello.language;
    w.runtime = hello.runtime ?? '';
    return w;
  }

  async #spawnError(): Promise<string | null> {
    const result = await this.#sub;
    const code = (result as { code?: string }).code;
    const cause = (result as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === 'ENOENT') return 'the executable was not found';
    if (cause?.code === 'EACCES') return 'the executable is not executable';
    return code && result.failed && this.pid === -1 ? (cause?.message ?? code) : null;
  }

  get alive(): boolean {
    return this.#exitReason === null;
  }

  #onData(chunk: string): void {
    if (this.#overflowed) return;
    // Only the new chunk is searched for line ends: re-scanning the pending part would make a
    // long line quadratic.
    let nl = chunk.indexOf('\n');
    let rest = chunk;
    while (nl !== -1) {
      const line = this.#pending + rest.slice(0, nl);
      this.#pending = '';
      rest = rest.slice(nl + 1);
      if (line.length > this.lineLimit) {
        this.#overflow(line.length);
        return;
      }
      if (line.trim() !== '') this.#listener?.(parseWorkerMessage(line));
      if (this.#overflowed) return;
      nl = rest.indexOf('\n');
    }
    if (this.#pending.length + rest.length > this.lineLimit) {
      this.#overflow(this.#pending.length + rest.length);
      return;
    }
    this.#pending += rest;
  }

  #overflow(length: number): void {
    this.#overflowed = true;
    this.#pending = '';
    this.#replies.pause();
    this.#listener?.({
      fault: `the worker sent a reply line of more than ${length} characters without ending it, past the ${this.lineLimit}-character line limit (an output far past maxOutputBytes, or a candidate writing to the reply pipe)`,
    });
    void this.kill();
  }

  /** Writes one request line. */
  send(line: string): void {
    if (this.alive) this.#requests.write(`${line}\n`);
  }

  /**
   * Writes request lines already encoded as UTF-8, ending with a newline: an input set sent to
   * several workers is encoded once.
   */
  sendBytes(lines: Uint8Array): void {
    if (this.alive) this.#requests.write(lines);
  }

  /**
   * Sends a request and feeds replies to `onMessage` until it returns true, the worker exits,
   * sends garbage, stays silent for `silenceMs`, or the signal aborts.
   */
  exchange(
    line: string,
    onMessage: (m: WorkerMessage) => boolean | string,
    silenceMs: number,
    signal?: AbortSignal,
    watch?: ExchangeWatch,
  ): Promise<ExchangeEnd> {
    return new Promise<ExchangeEnd>((resolve) => {
      if (!this.alive) {
        resolve({ kind: 'exit', reason: this.#exitReason ?? 'the worker exited' });
        return;
      }
      // An abort that came while the worker was being acquired has no event left to fire.
      if (signal?.aborted) {
        resolve({ kind: 'aborted' });
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      let poll: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (end: ExchangeEnd): void => {
        // A deadline's deferred check may come after the exchange ended and another began.
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(poll);
        this.#listener = null;
        this.#exitListener = null;
        signal?.removeEventListener('abort', onAbort);
        resolve(end);
      };
      // Bumped by every message: a silence deadline that fires after a message came is stale.
      let heard = 0;
      const arm = (): void => {
        clearTimeout(timer);
        const at = ++heard;
        const armedAt = performance.now();
        const delayAtArm = this.#recentRunDelayMs();
        const check = (): void => {
          // Node runs due timers before it reads pipes: after a long block of the host's event
          // loop, a reply already waiting in the pipe would lose to this deadline. It is read
          // first (setImmediate runs after the poll phase), and only silence counts.
          setImmediate(() => {
            if (at !== heard || settled) return;
            const left = this.#ownTimeLeft(armedAt, delayAtArm, silenceMs);
            if (left > 0) timer = setTimeout(check, left);
            else finish({ kind: 'hung' });
          });
        };
        timer = setTimeout(check, silenceMs);
      };
      const onAbort = (): void => finish({ kind: 'aborted' });
      this.#listener = (m) => {
        if ('fault' in m) return finish({ kind: 'fault', reason: m.fault });
        if (m.t === 'fatal') return finish({ kind: 'fault', reason: `the worker reported: ${m.message}` });
        const result = onMessage(m);
        if (typeof result === 'string') return finish({ kind: 'fault', reason: result });
        if (result) return finish({ kind: 'done' });
        arm();
      };
      this.#exitListener = (reason) => finish({ kind: 'exit', reason });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (watch) {
        poll = setInterval(() => {
          const end = watch.check();
          if (end !== null) finish(end);
        }, watch.everyMs);
      }
      arm();
      this.send(line);
    });
  }

  /**
   * What is left (ms, at least 1) of a deadline of `limitMs` of the worker's own time, armed at
   * `armedAt` when its run delay was `delayAtArm`; 0 once it has passed. Own time is the wall
   * time less the time its processes waited for a CPU (that time is the machine's, not the
   * worker's); plain wall time ends it only far past the limit (`hardSilenceMs`).
   */
  #ownTimeLeft(armedAt: number, delayAtArm: number | null, limitMs: number): number {
    const waited = performance.now() - armedAt;
    const delay = this.runDelayMs();
    const own = delay === null || delayAtArm === null ? waited : waited - (delay - delayAtArm);
    return own < limitMs && waited < hardSilenceMs(limitMs) ? Math.max(1, limitMs - own) : 0;
  }

  #tree: number[] = [];
  #treeScannedAt = Number.NEGATIVE_INFINITY;

  /** The worker and the processes below it, looked up again at most once per TREE_RESCAN_MS. */
  #freshTree(): number[] {
    const now = performance.now();
    if (now - this.#treeScannedAt > TREE_RESCAN_MS) {
      this.#treeScannedAt = now;
      this.#tree = [this.pid, ...descendants(this.pid)];
    }
    return this.#tree;
  }

  /**
   * CPU time (user + system, in ms) used so far by the worker and every process below it (a
   * wrapper such as bubblewrap may stand between the host and the worker), or null where /proc
   * is not available. Processes that exited and were reaped count through their parent.
   */
  cpuMs(): number | null {
    if (process.platform !== 'linux' || this.pid <= 0) return null;
    let ticks = 0;
    let seen = false;
    for (const pid of this.#freshTree()) {
      const stat = readStat(pid);
      if (stat === null) continue;
      seen = true;
      ticks += stat.cpuTicks;
    }
    return seen ? ticks * TICK_MS : null;
  }

  /**
   * Time (ms) the worker and every process below it have waited on a run queue for a CPU (the
   * run delay of /proc/<pid>/schedstat, summed), or null where the kernel does not keep it.
   */
  runDelayMs(): number | null {
    if (process.platform !== 'linux' || this.pid <= 0) return null;
    let ns = 0;
    let seen = false;
    for (const pid of this.#freshTree()) {
      try {
        const delay = Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[1]);
        if (Number.isFinite(delay)) {
          ns += delay;
          seen = true;
        }
      } catch {
        // Gone, or no schedstat.
      }
    }
    this.#delaySample = { at: performance.now(), ms: seen ? ns / 1e6 : null };
    return this.#delaySample.ms;
  }

  #delaySample: { at: number; ms: number | null } = { at: Number.NEGATIVE_INFINITY, ms: null };

  /** The run delay read at most 100 ms ago: arming a deadline per message must stay cheap. */
  #recentRunDelayMs(): number | null {
    return performance.now() - this.#delaySample.at < 100 ? this.#delaySample.ms : this.runDelayMs();
  }

  /** Index of the call the worker was running, from the shared progress file, or null. */
  readProgress(): number | null {
    return this.alive ? this.#readProgressFile() : this.#finalProgress;
  }

  #readProgressFile(): number | null {
    if (this.#progressFd < 0) return null;
    try {
      const bytes = Buffer.alloc(8);
      if (readSync(this.#progressFd, bytes, 0, 8, 0) !== 8) return null;
      const value = Number(bytes.readBigInt64LE(0));
      return Number.isSafeInteger(value) ? value : null;
    } catch {
      return null;
    }
  }

  #closeProgress(): void {
    if (this.#progressFd < 0) return;
    try {
      closeSync(this.#progressFd);
    } catch {
      // Already closed.
    }
    this.#progressFd = -1;
  }

  /** Keeps the host's event loop alive while the worker has work (and lets it exit while idle). */
  setBusy(busy: boolean): void {
    const handles = [this.#sub, this.#requests, this.#replies, this.#stderr] as unknown as Array<{
      ref?: () => void;
      unref?: () => void;
    }>;
    for (const h of handles) (busy ? h.ref : h.unref)?.call(h);
  }

  #signalGroup(signal: NodeJS.Signals): void {
    if (this.pid <= 0) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      try {
        process.kill(this.pid, signal);
      } catch {
        // Already gone.
      }
    }
  }

  /** SIGTERM to the whole group, SIGKILL if it is still there shortly after; resolves once it exited. */
  async kill(): Promise<void> {
    if (this.alive) {
      this.#signalGroup('SIGTERM');
      const force = setTimeout(() => this.#signalGroup('SIGKILL'), TERM_GRACE_MS);
      await this.#exited;
      clearTimeout(force);
      // Stragglers a candidate started in the group die with it.
      this.#signalGroup('SIGKILL');
    }
    await this.#exited;
  }

  /** Synchronous last resort for the process exit hook. */
  killNow(): void {
    this.#signalGroup('SIGKILL');
    removeWorkspaceNow(this.#workspace.root);
  }
}
