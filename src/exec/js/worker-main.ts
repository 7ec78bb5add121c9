/**
 * The body of a sandbox worker thread.
 *
 * The worker is started with `eval: true` from source text built out of this function, the
 * codec and the harness, so it needs no file on disk: it runs the same under tsx, Vitest, and
 * the ESM and CJS builds. It must therefore be self-contained, and it runs in strict mode so
 * that its frames expose neither their functions nor their receivers to call-site inspection.
 *
 * Messages (typed in `protocol.ts`): `inputs` caches an input set (until `forget-inputs`); `run`
 * runs one candidate on a range of inputs and answers with `chunk` messages and a final `done`.
 * Each candidate gets its own context (so one that patches built-ins affects nobody else),
 * compiled once per worker and reused across runs.
 *
 * Nothing a candidate throws or returns is ever handled here: the harness hands over strings
 * only, and every call into a context is wrapped so that even a value that got through is
 * dropped unseen. A last-resort handler turns any uncaught exception into a fixed-text report,
 * because Node would otherwise format the value with `util.inspect`, which calls a custom
 * inspect function of the value with the worker's own `inspect`: a way to this realm's
 * `Function` and `process`.
 */

import type { HarnessApi } from './harness.ts';
import type { RunMessage, WorkerMessage } from './protocol.ts';

type Require = (id: string) => unknown;

export function workerMain(require: Require, codecSource: string, harnessSource: string): void {
  const vm = require('node:vm') as typeof import('node:vm');
  const fs = require('node:fs') as typeof import('node:fs');
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const port = parentPort as import('node:worker_threads').MessagePort;
  const post = (message: WorkerMessage): void => port.postMessage(message);
  // Installed first: the value is never read, so no getter, trap or custom inspect of it runs.
  process.on('uncaughtException', () => {
    try {
      post({ type: 'fatal', reason: 'the sandbox harness failed on a value the candidate made' });
    } finally {
      process.exit(70);
    }
  });
  // A candidate's own unhandled rejection is its business; Node must not format or rethrow it.
  process.on('unhandledRejection', () => {});
  const sab = (workerData as { sab: SharedArrayBuffer }).sab;
  const progress = new Int32Array(sab);
  const codecScript = new vm.Script(codecSource, { filename: 'crosscheck-codec.js' });
  const harnessScript = new vm.Script(harnessSource, { filename: 'crosscheck-harness.js' });
  // Evaluating any script in a context drains its microtask queue afterwards (microtaskMode
  // 'afterEvaluate'): this is how the promises of a chunk settle, without a global to call.
  const drainScript = new vm.Script('void 0', { filename: 'crosscheck-drain.js' });
  /**
   * This thread's CPU time, so the candidate time limit counts the candidate's work rather than
   * the machine's load; wall time where the platform does not say (not Linux, no /proc).
   */
  let statPath: string | null = '/proc/thread-self/stat';
  let tid = -1;
  try {
    tid = Number(/task\/(\d+)/.exec(fs.readlinkSync('/proc/thread-self'))?.[1] ?? -1);
  } catch {
    statPath = null;
  }
  const cpuNow = (): number => {
    if (statPath !== null) {
      try {
        const stat = fs.readFileSync(statPath, 'latin1');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
      } catch {
        statPath = null;
      }
    }
    return performance.now();
  };
  let codeGeneration = true;
  try {
    Function('return 0')();
  } catch {
    codeGeneration = false;
  }
  // Parsed once per worker and shared by every context: only harness code reads these tagged
  // trees, and every call decodes a fresh copy in the candidate's own realm.
  interface InputSet {
    /** The tagged value of each input with tags (null for a plain one, read from `json`). */
    tagged: unknown[];
    /** JSON text of each plain input (null for one with tags). */
    json: (string | null)[];
    /** `taggedBefore[i]`: how many of the inputs before i hold tags. */
    taggedBefore: Int32Array;
    /** The set's JSON array text, and where input i starts in it (`at[n]` is one past the last comma). */
    wire: string;
    at: Int32Array;
  }
  const inputSets = new Map<string, InputSet>();
  // True when a parsed tagged value is plain JSON data: no tag objects anywhere.
  const isPlainJson = (x: unknown): boolean => {
    if (x === null || typeof x !== 'object') return true;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) if (!isPlainJson(x[i])) return false;
      return true;
    }
    const keys = Object.keys(x);
    if (keys.length === 1 && (keys[0] as string).charCodeAt(0) === 36) return false;
    for (let i = 0; i < keys.length; i++)
      if (!isPlainJson((x as Record<string, unknown>)[keys[i] as string])) return false;
    return true;
  };
  const MAX_CONTEXTS = 32;
  const MAX_CHUNK = 8192;
  // Inputs parsed at once: past a few thousand, a collection during the chunk copies them all.
  const PARSE_RUN = 1024;

  interface Sandbox {
    ctx: import('node:vm').Context;
    api: HarnessApi;
    inputsKey: string;
    inputs: InputSet | null;
    problem: unknown[] | null;
    chunk: number;
  }
  const sandboxes = new Map<string, Sandbox>();

  /** Runs the harness's entry point `f`, then the context's microtask queue; never throws. */
  const enter = (ctx: import('node:vm').Context, f: () => string): string => {
    let text = '';
    try {
      text = f();
    } catch {
      text = '';
    }
    try {
      drainScript.runInContext(ctx);
    } catch {
      // Nothing to report from here: a call that failed reports itself through the harness.
    }
    return typeof text === 'string' ? text : '';
  };

  /** A context with the codec and the harness installed, and no candidate code in it yet. */
  interface Blank {
    ctx: import('node:vm').Context;
    api: HarnessApi;
    ContextTypeError: TypeErrorConstructor;
  }
  const blank = (): Blank => {
    const ctx = vm.createContext(Object.create(null), {
      name: 'crosscheck:candidate',
      // No eval or new Function: an import() built at run time would reject with an error of
      // the worker's realm, whose constructor chain leads to `process`.
      codeGeneration: { strings: false, wasm: false },
      microtaskMode: 'afterEvaluate',
    });
    const createCodec = codecScript.runInContext(ctx);
    const install = harnessScript.runInContext(ctx);
    // Captured before candidate code runs, so errors we raise for it belong to its own realm.
    const ContextTypeError = vm.runInContext('TypeError', ctx) as TypeErrorConstructor;
    return { ctx, api: install(createCodec, sab) as HarnessApi, ContextTypeError };
  };
  /**
   * Blank contexts made while the worker is idle, so a new candidate finds most of its set-up
   * (about 2 ms of CPU) already done. One per event-loop turn, so a job that arrives meanwhile
   * waits for one at most. A context serves one candidate only: a spare is taken, never shared.
   */
  const SPARES = 4;
  const spares: Blank[] = [];
  let spareQueued = false;
  const makeSpare = (): void => {
    spareQueued = false;
    if (spares.length >= SPARES) return;
    spares.push(blank());
    queueSpare();
  };
  const queueSpare = (): void => {
    if (spares.length >= SPARES || spareQueued) return;
    spareQueued = true;
    setImmediate(makeSpare);
  };

  const create = (m: RunMessage): Sandbox => {
    const { ctx, api, ContextTypeError } = spares.pop() ?? blank();
    const c = m.candidate;
    api.setCandidate(c.invalid.join(','), c.maxOutputBytes, c.entry, c.entryNotFound);
    const box: Sandbox = { ctx, api, inputsKey: '', inputs: null, problem: null, chunk: 16 };
    let wrapper: unknown;
    try {
      wrapper = new vm.Script(c.wrapper, {
        filename: `${c.label}.js`,
        // Without this hook, import() rejects with an error object of the worker's realm.
        importModuleDynamically: (() => {
          throw new ContextTypeError(
            'import() is not available in the sandbox; candidates must be self-contained',
          );
        }) as never,
      }).runInContext(ctx);
    } catch (error) {
      box.problem = [2, 'CompileError', String((error as Error)?.message ?? error)];
      return box;
    }
    api.setWrapper(wrapper);
    progress[2] = 3;
    enter(ctx, api.load);
    progress[2] = 0;
    return box;
  };

  const sandboxFor = (m: RunMessage): Sandbox => {
    let box = sandboxes.get(m.candidate.key);
    if (box === undefined) {
      if (sandboxes.size >= MAX_CONTEXTS) sandboxes.delete(sandboxes.keys().next().value as string);
      box = create(m);
      sandboxes.set(m.candidate.key, box);
    }
    if (box.inputsKey !== m.inputsKey && box.problem === null) {
      const set = inputSets.get(m.inputsKey);
      if (set === undefined) {
        // The host sends an input set before the first run that needs it and drops it only by
        // `forget-inputs`, so this is a bug of ours: say so for these calls, without crashing.
        box.problem = [2, 'HarnessError', `the sandbox worker lost the input set ${m.inputsKey}`];
        return box;
      }
      box.api.setInputs(set.tagged, set.json);
      box.inputsKey = m.inputsKey;
      box.inputs = set;
    }
    return box;
  };

  const runJob = (m: RunMessage): void => {
    progress[6] = m.jobId;
    const box = sandboxFor(m);
    // Setting up a context is progress too: the host's watchdog times calls, not set-up.
    progress[0] = ((progress[0] as number) + 1) | 0;
    if (box.problem !== null) {
      const v: unknown[] = [];
      const e: unknown[] = [];
      for (let k = 0; k < m.to - m.from; k++) {
        v.push(null);
        e.push([k, ...box.problem]);
      }
      post({
        type: 'chunk',
        jobId: m.jobId,
        from: m.from,
        text: JSON.stringify({ n: m.to, p: 0, v, e }),
        pending: null,
      });
      post({ type: 'done', jobId: m.jobId, cpuMs: 0 });
      return;
    }
    let i = m.from;
    const cpuStart = cpuNow();
    const stopAt = m.timeLimitMs >= 0 ? cpuStart + m.timeLimitMs : Number.POSITIVE_INFINITY;
    while (i < m.to) {
      // The candidate's time limit: the host skips the rest of the job.
      if (stopAt !== Number.POSITIVE_INFINITY && cpuNow() > stopAt) break;
      // The host asks a run's jobs to end early (it was aborted) by writing the run's id here.
      if (Atomics.load(progress, 5) === m.runId) break;
      const size = m.isolated ? 1 : box.chunk;
      const end = Math.min(m.to, i + size);
      progress[3] = i;
      progress[4] = end;
      const set = box.inputs as InputSet;
      if (end - i > 1 && set.taggedBefore[end] === set.taggedBefore[i]) {
        // Plain inputs are slices of the wire text, no copy until the parse, in runs short
        // enough that the parsed inputs of one stay young and few.
        const texts: string[] = [];
        for (let a = i; a < end; a += PARSE_RUN) {
          const z = Math.min(end, a + PARSE_RUN);
          texts.push(`[${set.wire.slice(set.at[a], (set.at[z] as number) - 1)}]`);
        }
        box.api.setBatch(i, texts);
      }
      const started = performance.now();
      const text = enter(box.ctx, box.api.run);
      const elapsed = performance.now() - started;
      progress[2] = 0;
      const head = /^\{"n":(\d+),"p":([01]),/.exec(text);
      const pending = head !== null && head[2] === '1' ? box.api.pending() : null;
      post({
        type: 'chunk',
        jobId: m.jobId,
        from: i,
        text,
        pending: typeof pending === 'string' ? pending : null,
      });
      // A report without its head is malformed: the host rejects it, and the job ends here.
      if (head === null) break;
      const next = Number(head[1]);
      // Aim for chunks of a few milliseconds: long enough to amortize the context switch,
      // short enough that little work is redone when a call hangs.
      if (elapsed < 2 && box.chunk < MAX_CHUNK) box.chunk *= 2;
      else if (elapsed > 20 && box.chunk > 1) box.chunk = Math.max(1, box.chunk >> 1);
      if (!(next > i && next <= end)) break;
      i = next;
    }
    post({ type: 'done', jobId: m.jobId, cpuMs: cpuNow() - cpuStart });
    queueSpare();
  };

  port.on('message', (message: { type: string } & Record<string, unknown>) => {
    if (message.type === 'inputs') {
      const wire = message.wire as string;
      const tagged = JSON.parse(wire) as unknown[];
      const n = tagged.length;
      const json: (string | null)[] = new Array(n);
      const taggedBefore = new Int32Array(n + 1);
      const at = new Int32Array(n + 1);
      at[0] = 1;
      for (let i = 0; i < n; i++) {
        const text = JSON.stringify(tagged[i]);
        const plain = isPlainJson(tagged[i]);
        json[i] = plain ? text : null;
        // A plain input is read from its text only: its parsed tree would only take memory, as
        // long as the set is kept (9 MB for 10,000 lists of 100 numbers).
        if (plain) tagged[i] = null;
        taggedBefore[i + 1] = (taggedBefore[i] as number) + (plain ? 0 : 1);
        at[i + 1] = (at[i] as number) + text.length + 1;
      }
      // The host's text is canonical JSON, so its items have exactly these lengths; if it ever
      // were not, every input would take the per-call path instead.
      if (at[n] !== wire.length && n > 0) for (let i = 0; i <= n; i++) taggedBefore[i] = i;
      inputSets.set(message.key as string, { tagged, json, taggedBefore, wire, at });
    } else if (message.type === 'forget-inputs') {
      // Only the host evicts: it then knows to send the set again before a run that needs it.
      inputSets.delete(message.key as string);
    } else if (message.type === 'run') {
      runJob(message as unknown as RunMessage);
    } else if (message.type === 'forget') {
      const keys = message.keys as string[] | undefined;
      if (keys === undefined) sandboxes.clear();
      else for (const key of keys) sandboxes.delete(key);
    }
  });
  post({ type: 'ready', tid, codeGeneration });
}
