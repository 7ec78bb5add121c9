/** A semaphore with a cool-down gate: a 429 with a delay pauses every request of the client. */
export class Limiter {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  #pausedUntil = 0;

  constructor(slots: number) {
    this.#free = slots;
  }

  /** Pauses new attempts until `ms` from now (the longest pause wins). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
  }

  /** Runs `fn` in a slot, after any cool-down. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      for (let wait = this.#pausedUntil - Date.now(); wait > 0; wait = this.#pausedUntil - Date.now()) {
        await new Promise((r) => setTimeout(r, wait));
      }
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}
