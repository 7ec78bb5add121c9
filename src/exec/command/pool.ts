import { availableParallelism } from 'node:os';
import { WorkerProcess, type WorkerSpec } from './worker-process.ts';

/** Default pool size: one worker per core. @internal */
export const defaultPoolSize = (): number => Math.max(1, availableParallelism());

/**
 * A few long-lived workers of one spec, shared by every `run`. Workers start lazily, idle ones
 * do not keep the host alive, and a worker that misbehaved is discarded rather than returned.
 * A worker serves one candidate only (a candidate that hooked it would otherwise answer for the
 * next one), unless the spec says the candidates trust each other or the worker is the Python
 * zygote, which runs each candidate in a fresh child of its own.
 * @internal
 */
export class WorkerPool {
  readonly spec: WorkerSpec;
  readonly size: number;
  #idle: WorkerProcess[] = [];
  #count = 0;
  #waiters: Array<{ owner: string; resolve: (w: WorkerProcess) => void; reject: (e: unknown) => void }> = [];
  #closed = false;

  constructor(spec: WorkerSpec, size: number) {
    this.spec = spec;
    this.size = size;
  }

  /** May `w` serve candidate `owner`? */
  #serves(w: WorkerProcess, owner: string): boolean {
    return this.spec.shareWorkers === true || this.spec.zygote === true || w.servedFor === owner;
  }

  /**
   * A worker for candidate `owner` (its load key): an idle one that may serve it, a new one while
   * below `size` (in place of an idle one that served another candidate), or the next one
   * released.
   */
  async acquire(owner: string): Promise<WorkerProcess> {
    for (;;) {
      const at = this.#idle.findLastIndex((w) => this.#serves(w, owner) || !w.alive);
      if (at < 0) break;
      const [w] = this.#idle.splice(at, 1) as [WorkerProcess];
      if (w.alive) {
        w.setBusy(true);
        w.servedFor = owner;
        return w;
      }
      this.#count--;
    }
    if (this.#count < this.size) return this.#startOne(owner);
    const other = this.#idle.shift();
    if (other) {
      this.#count--;
      void other.kill();
      return this.#startOne(owner);
    }
    return new Promise((resolve, reject) => this.#waiters.push({ owner, resolve, reject }));
  }

  async #startOne(owner: string): Promise<WorkerProcess> {
    this.#count++;
    try {
      const w = await WorkerProcess.start(this.spec);
      w.setBusy(true);
      w.servedFor = owner;
      return w;
    } catch (error) {
      this.#count--;
      throw error;
    }
  }

  /** Returns a healthy worker for reuse. */
  release(w: WorkerProcess): void {
    if (!w.alive) {
      this.#replaceDead();
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter && this.#serves(w, waiter.owner)) {
      w.servedFor = waiter.owner;
      waiter.resolve(w);
      return;
    }
    if (waiter) {
      // It served another candidate: a fresh worker takes its place.
      this.#count--;
      void w.kill();
      this.#count++;
      WorkerProcess.start(this.spec).then(
        (fresh) => {
          fresh.setBusy(true);
          fresh.servedFor = waiter.owner;
          waiter.resolve(fresh);
        },
        (error) => {
          this.#count--;
          waiter.reject(error);
        },
      );
      return;
    }
    // Jobs that were running when the pool closed finish; their workers then stop.
    if (this.#closed) {
      this.#count--;
      void w.kill();
      return;
    }
    w.setBusy(false);
    this.#idle.push(w);
  }

  /** Kills a worker that hung, crashed or broke the protocol; a waiting job gets a fresh one. */
  async discard(w: WorkerProcess): Promise<void> {
    await w.kill();
    this.#replaceDead();
  }

  #replaceDead(): void {
    this.#count--;
    const waiter = this.#waiters.shift();
    if (waiter) this.#startOne(waiter.owner).then(waiter.resolve, waiter.reject);
  }

  /** Stops every idle worker now; busy ones stop when their job releases them. */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle;
    this.#idle = [];
    this.#count -= idle.length;
    await Promise.all(idle.map((w) => w.kill()));
  }
}

const pools = new Map<string, WorkerPool>();

const specKey = (spec: WorkerSpec, size: number): string =>
  JSON.stringify([
    spec.command,
    spec.memoryMb,
    spec.env ?? {},
    size,
    spec.isolation,
    spec.readOnly,
    spec.shareWorkers === true,
  ]);

/** The shared pool for a spec. @internal */
export const poolFor = (spec: WorkerSpec, size: number = defaultPoolSize()): WorkerPool => {
  const key = specKey(spec, size);
  let pool = pools.get(key);
  if (!pool) {
    pool = new WorkerPool(spec, size);
    pools.set(key, pool);
  }
  return pool;
};

/** Stops the idle workers of every pool (for tests and for hosts that want a clean exit now). @internal */
export const closeAllPools = async (filter: (spec: WorkerSpec) => boolean = () => true): Promise<void> => {
  const chosen = [...pools].filter(([, pool]) => filter(pool.spec));
  for (const [key] of chosen) pools.delete(key);
  await Promise.all(chosen.map(([, pool]) => pool.close()));
};
