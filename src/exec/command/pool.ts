import { availableParallelism } from 'node:os';
import { WorkerProcess, type WorkerSpec } from './worker-process.ts';

/** Default pool size: one worker per core. @internal */
export const defaultPoolSize = (): number => Math.max(1, availableParallelism());

/**
 * A few long-lived workers of one spec, shared by every `run`. Workers start lazily, idle ones
 * do not keep the host alive, and a worker that misbehaved is discarded rather than returned.
 * @internal
 */
export class WorkerPool {
  readonly spec: WorkerSpec;
  readonly size: number;
  #idle: WorkerProcess[] = [];
  #count = 0;
  #waiters: Array<{ resolve: (w: WorkerProcess) => void; reject: (e: unknown) => void }> = [];
  #closed = false;

  constructor(spec: WorkerSpec, size: number) {
    this.spec = spec;
    this.size = size;
  }

  /** An idle worker, a new one while below `size`, or the next one released. */
  async acquire(): Promise<WorkerProcess> {
    while (this.#idle.length > 0) {
      const w = this.#idle.pop() as WorkerProcess;
      if (w.alive) {
        w.setBusy(true);
        return w;
      }
      this.#count--;
    }
    if (this.#count < this.size) return this.#startOne();
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  async #startOne(): Promise<WorkerProcess> {
    this.#count++;
    try {
      const w = await WorkerProcess.start(this.spec);
      w.setBusy(true);
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
    if (waiter) {
      waiter.resolve(w);
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
    if (waiter) this.#startOne().then(waiter.resolve, waiter.reject);
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
  JSON.stringify([spec.command, spec.memoryMb, spec.env ?? {}, size, spec.isolation, spec.readOnly]);

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
