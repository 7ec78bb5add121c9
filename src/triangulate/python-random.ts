/**
 * CPython's Mersenne Twister (`random.seed(int)`, `getrandbits`) and `random.sample`, so that
 * `domainSampler: 'python'` keeps exactly the elements the authors' checker keeps after
 * `random.seed(42); random.sample(domain, k)`.
 */
export class PythonRandom {
  readonly #mt = new Uint32Array(624);
  #index = 625;

  constructor(seed: number) {
    this.seed(seed);
  }

  /** `random.seed(n)` for a non-negative integer n: init_by_array over n's 32-bit words. */
  seed(n: number): void {
    let x = BigInt(Math.abs(Math.trunc(n)));
    const key: number[] = [];
    do {
      key.push(Number(x & 0xffffffffn));
      x >>= 32n;
    } while (x > 0n);
    this.#initGenrand(19650218);
    const mt = this.#mt;
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = ((mt[i] as number) ^ Math.imul(prev, 1664525)) + (key[j] as number) + j;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = ((mt[i] as number) ^ Math.imul(prev, 1566083941)) - i;
      i++;
      if (i >= 624) {
        mt[0] = mt[623] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.#index = 624;
  }

  #initGenrand(s: number): void {
    const mt = this.#mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = Math.imul(prev, 1812433253) + i;
    }
  }

  #next(): number {
    const mt = this.#mt;
    if (this.#index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = ((mt[k] as number) & 0x80000000) | ((mt[(k + 1) % 624] as number) & 0x7fffffff);
        mt[k] = (mt[(k + 397) % 624] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.#index = 0;
    }
    let y = mt[this.#index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `getrandbits(k)` for 1 ≤ k ≤ 32. */
  #bits(k: number): number {
    return this.#next() >>> (32 - k);
  }

  /** `_randbelow(n)` for 0 < n < 2³². */
  randbelow(n: number): number {
    const k = n.toString(2).length;
    let r = this.#bits(k);
    while (r >= n) r = this.#bits(k);
    return r;
  }

  /** `random.sample(population, k)`. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    const result = new Array<T>(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = [...population];
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j] as T;
        pool[j] = pool[n - i - 1] as T;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j] as T;
      }
    }
    return result;
  }
}
