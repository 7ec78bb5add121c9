import { afterAll, describe, expect, it } from 'vitest';
import { sharedSandboxPool } from '../../src/exec/js/index.ts';
import {
  CrosscheckError,
  candidates,
  closeSandboxPools,
  defineTask,
  type Outcome,
  RunAbortedError,
  run,
} from '../../src/index.ts';

const js = (sources: string[], entry = 'f') =>
  candidates.fromSources(sources, { language: 'javascript', entry });
const range = (n: number) => Array.from({ length: n }, (_, i) => [i]);
const kinds = (row: readonly Outcome[]) => row.map((o) => (o.kind === 'value' ? o.value : o.kind));

afterAll(async () => {
  await closeSandboxPools();
});

describe('run with sandboxed JavaScript', () => {
  it('should resume a batch after the one call that hangs, and keep every other outcome', async () => {
    // Arrange: two candidates so both workers are busy while one of them is replaced.
    const task = defineTask({ name: 'f', timeoutMs: 300 });
    const cs = js([
      'function f(x) { if (x === 3) for (;;) {} return x * 2 }',
      'function f(x) { return x * 2 }',
    ]);
    // Act
    const m = await run(task, cs, range(10));
    // Assert
    expect(kinds(m.outcomes[0]!)).toEqual([0, 2, 4, 'timeout', 8, 10, 12, 14, 16, 18]);
    expect(kinds(m.outcomes[1]!)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(m.candidates[0]!.stats).toMatchObject({ timeouts: 1, restarts: 1, budgetSpent: false });
  });

  it('should stop running a candidate that hangs on every input once its budget is spent', async () => {
    const task = defineTask({ name: 'f', timeoutMs: 100 });
    const [hang] = js(['function f(x) { for (;;) {} }']);
    const m = await run(task, [hang!], range(1000), { budgetMs: 500 });
    const row = m.outcomes[0]!;
    const called = row.filter((o) => o.kind === 'timeout' && o.reason === 'call').length;
    const skipped = row.filter((o) => o.kind === 'timeout' && o.reason === 'budget').length;
    expect(called).toBeGreaterThanOrEqual(5);
    // Jobs already running on other workers may each lose one more call.
    expect(called).toBeLessThanOrEqual(5 + 4);
    expect(called + skipped).toBe(1000);
    expect(m.candidates[0]!.stats.budgetSpent).toBe(true);
  });

  it('should run async candidates and report rejections as errors', async () => {
    const task = defineTask({ name: 'f' });
    const cs = js([
      'async function f(x) { await null; return x + 1 }',
      'async function f(x) { await null; if (x % 2) throw new TypeError("odd"); return x }',
    ]);
    const m = await run(task, cs, range(4));
    expect(kinds(m.outcomes[0]!)).toEqual([1, 2, 3, 4]);
    expect(m.outcomes[1]).toEqual([
      expect.objectContaining({ kind: 'value' }),
      { kind: 'error', name: 'TypeError', message: 'odd' },
      expect.objectContaining({ kind: 'value' }),
      { kind: 'error', name: 'TypeError', message: 'odd' },
    ]);
  });

  it('should report every kind of result the same way whether a chunk starts, ends or is in the middle of it', async () => {
    // Arrange: each input picks what the call returns or throws, many times over, so finite numbers
    // (reported as themselves) sit beside values that need a tag, strings, objects, throws and
    // thenables, in every position of the chunks.
    const cases = [
      'return 7',
      'return -0',
      'return NaN',
      'return Infinity',
      'return -Infinity',
      'return true',
      'return null',
      'return "s"',
      'return [1, 2]',
      'throw new TypeError("no")',
      'return { then(ok) { ok(5) } }',
      'return { get then() { throw new SyntaxError("getter") } }',
      'return { then() { throw new EvalError("then") } }',
      'return 2.5',
    ];
    const source = `function f(i) { switch (i % ${cases.length}) { ${cases.map((c, k) => `case ${k}: ${c};`).join(' ')} } }`;
    const inputs = range(cases.length * 40);

    // Act
    const m = await run(defineTask({ name: 'f' }), js([source]), inputs);

    // Assert
    const expected: unknown[] = [
      { kind: 'value', value: 7 },
      { kind: 'value', value: -0 },
      { kind: 'value', value: Number.NaN },
      { kind: 'value', value: Number.POSITIVE_INFINITY },
      { kind: 'value', value: Number.NEGATIVE_INFINITY },
      { kind: 'value', value: true },
      { kind: 'value', value: null },
      { kind: 'value', value: 's' },
      { kind: 'value', value: [1, 2] },
      { kind: 'error', name: 'TypeError', message: 'no' },
      { kind: 'value', value: 5 },
      { kind: 'error', name: 'SyntaxError', message: 'getter' },
      { kind: 'error', name: 'EvalError', message: 'then' },
      { kind: 'value', value: 2.5 },
    ];
    const seen = m.outcomes[0]!.map((o) => (o.kind === 'value' ? { kind: 'value', value: o.value } : o));
    expect(seen).toEqual(inputs.map((_, i) => expected[i % cases.length]));
    expect(Object.is((seen[1] as { value: unknown }).value, -0)).toBe(true);
  });

  it('should report an array of numbers as the codec would, whatever is odd about it', async () => {
    // Arrange: arrays of plain numbers are the most common result after a number; each odd array
    // below (a tagged number, a hole, a getter, a proxy, a subclass, a non-number) must come out
    // as the codec makes it, in the same run as plain ones.
    const cases: Array<[string, unknown]> = [
      ['[1, 2.5, -3, 1e21, 5e-7, 0]', [1, 2.5, -3, 1e21, 5e-7, 0]],
      ['[1, -0]', [1, -0]],
      ['[NaN, 1]', [Number.NaN, 1]],
      ['[1, Infinity]', [1, Number.POSITIVE_INFINITY]],
      ['[1, , 3]', [1, undefined, 3]],
      ["[1, '2']", [1, '2']],
      ['[[1], 2]', [[1], 2]],
      ['Object.assign([4, 5], { extra: 1 })', [4, 5]],
      ['Object.defineProperty([1, 2], 0, { get() { return 9 } })', [9, 2]],
      ['new Proxy([1, 2], { get: (t, k) => (k === "1" ? 7 : t[k]) })', [1, 7]],
      ['(class L extends Array {}).from([3, 4])', [3, 4]],
      ['[]', []],
    ];
    const source = `function f(i) { switch (i % ${cases.length}) { ${cases.map(([c], k) => `case ${k}: return ${c};`).join(' ')} } }`;
    const inputs = range(cases.length * 30);

    // Act
    const m = await run(defineTask({ name: 'f' }), js([source]), inputs);

    // Assert
    const seen = m.outcomes[0]!.map((o) => (o.kind === 'value' ? o.value : o));
    expect(seen).toEqual(inputs.map((_, i) => cases[i % cases.length]![1]));
    expect(Object.is((seen[1] as number[])[1], -0)).toBe(true);
  });

  it('should refuse an array of numbers where the codec refuses it: past 5 bytes an item and 4 of the output limit', async () => {
    // The codec charges an array of n plain numbers 5n + 4 bytes before writing it: it refuses at
    // that n, not at the length of the text it would write (21 characters here).
    const cs = js(['function f(n) { return Array.from({ length: n }, (_, i) => i % 10); }']);
    const m = await run(defineTask({ name: 'f' }), cs, [[10], [11], [10]], { maxOutputBytes: 54 });
    expect(m.outcomes[0]![0]).toMatchObject({ kind: 'value', value: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(m.outcomes[0]![1]).toMatchObject({ kind: 'error', name: 'OutputTooLarge' });
    expect(m.outcomes[0]![2]).toMatchObject({ kind: 'value' });
  });

  it('should report what a getter of a returned array throws, as the codec would', async () => {
    const cs = js([
      'function f(i) { const a = [1, 2, 3]; Object.defineProperty(a, i, { get() { throw new URIError("at " + i) } }); return a; }',
    ]);
    // Index 5 makes the array longer (a hole at 3 and 4); -1 is no index, so it is never read.
    const m = await run(defineTask({ name: 'f' }), cs, [[0], [2], [5], [-1]]);
    expect(m.outcomes[0]).toEqual([
      { kind: 'error', name: 'URIError', message: 'at 0' },
      { kind: 'error', name: 'URIError', message: 'at 2' },
      { kind: 'error', name: 'URIError', message: 'at 5' },
      expect.objectContaining({ kind: 'value', value: [1, 2, 3] }),
    ]);
  });

  it('should read a returned array once, in order, so a getter that counts its reads is seen once', async () => {
    // A report that read the value twice (a quick pass, then the codec's) would report 2 here,
    // and what the candidate's own state holds afterwards would change with how it was reported.
    const cs = js([
      `let reads = 0;
      function f(k) {
        const a = [0, k === 0 ? 'x' : -0];
        Object.defineProperty(a, 0, { get() { reads++; return reads; } });
        return k === 2 ? reads : a;
      }`,
    ]);
    const m = await run(defineTask({ name: 'f' }), cs, [[0], [1], [2]]);
    expect(m.outcomes[0]!.map((o) => (o.kind === 'value' ? o.value : o))).toEqual([[1, 'x'], [2, -0], 2]);
  });

  it('should classify RangeError as invalid by default, and configured classes too', async () => {
    const cs = js([
      'function f(x) { if (x < 0) throw new RangeError("negative"); if (x > 9) throw new TypeError("big"); return x }',
    ]);
    const byDefault = await run(defineTask({ name: 'f' }), cs, [[-1], [10]]);
    expect(byDefault.outcomes[0]).toEqual([
      { kind: 'invalid', name: 'RangeError', message: 'negative' },
      { kind: 'error', name: 'TypeError', message: 'big' },
    ]);
    const configured = await run(defineTask({ name: 'f', invalidInput: ['TypeError'] }), cs, [[-1], [10]]);
    expect(configured.outcomes[0]!.map((o) => o.kind)).toEqual(['error', 'invalid']);
  });

  it('should give every call its own copy of the input', async () => {
    const cs = js(['function f(xs) { xs.push(1); return xs.length }']);
    const inputs = [[[1, 2]]];
    const m = await run(
      defineTask({ name: 'f' }),
      [...cs, ...js(['function f(xs) { return xs.length }'])],
      inputs,
    );
    expect(kinds(m.outcomes[0]!)).toEqual([3]);
    expect(kinds(m.outcomes[1]!)).toEqual([2]);
    expect(inputs).toEqual([[[1, 2]]]);
  });

  it('should give a fresh copy to each call even when inputs share arrays', async () => {
    // Arrange: one array object behind many inputs; the candidate mutates what it gets.
    const shared = [1, 2];
    const inputs = Array.from({ length: 300 }, () => [shared]);
    const cs = js(['function f(xs) { xs.push(0); return xs.length }']);
    // Act
    const m = await run(defineTask({ name: 'f' }), cs, inputs);
    // Assert
    expect(new Set(kinds(m.outcomes[0]!))).toEqual(new Set([3]));
    expect(shared).toEqual([1, 2]);
  });

  it('should carry a mix of plain and tagged inputs, and report them in their tagged form', async () => {
    // Arrange: runs of plain arrays broken by values that need tags (-0, NaN, a tuple, a big int).
    const { tuple, encode } = await import('../../src/index.ts');
    const special = [-0, Number.NaN, tuple<unknown>(1, 2), 2n ** 70n, { a: [1] }];
    const inputs = Array.from({ length: 400 }, (_, i) =>
      i % 37 === 5 ? [special[i % special.length]] : [[i, `s${i}`, i % 2 === 0, null]],
    );
    const cs = js([
      'function f(x) { return typeof x === "bigint" ? String(x) : Object.is(x, -0) ? "-0" : x }',
    ]);
    // Act
    const m = await run(defineTask({ name: 'f' }), cs, inputs);
    // Assert: every value made the trip, and the matrix holds each input's tagged form.
    const expected = inputs.map(([x]) => (typeof x === 'bigint' ? String(x) : Object.is(x, -0) ? '-0' : x));
    const got = m.outcomes[0]!.map((o) => (o.kind === 'value' ? o.value : o.kind));
    expect(got).toEqual(expected);
    expect(m.encodedInputs).toEqual(inputs.map((args) => encode(args)));
  });

  it('should keep every job queued behind a hanging one exact', async () => {
    // Arrange: more candidates than workers, so jobs wait in each worker's queue when one hangs.
    const task = defineTask({ name: 'f', timeoutMs: 300 });
    const sources = Array.from({ length: 9 }, (_, k) =>
      k === 4
        ? 'function f(x) { if (x === 1500) for (;;) {} return x * 4 }'
        : `function f(x) { return x * ${k} }`,
    );
    // Act
    const m = await run(task, js(sources), range(3000));
    // Assert
    m.outcomes.forEach((row, k) => {
      const want = range(3000).map(([x]) => (k === 4 && x === 1500 ? 'timeout' : (x as number) * k));
      expect(kinds(row)).toEqual(want);
    });
  });

  it('should keep results exact while workers are retired and replaced between runs', async () => {
    // Arrange: enough runs that every worker is retired at least once (after 64 jobs).
    const STATE = 'let n = 0;\nfunction f(x) { n += 1; return x * 1000 + n }';
    const task = defineTask({ name: 'f' });
    for (let r = 0; r < 4; r++) {
      // Act
      const m = await run(
        task,
        js(Array.from({ length: 40 }, (_, k) => `${STATE}\n// ${r}.${k}`)),
        range(50),
      );
      // Assert: fresh state in every row of every run.
      for (const row of m.outcomes)
        expect(kinds(row)).toEqual(range(50).map(([x], i) => (x as number) * 1000 + i + 1));
    }
  });

  it('should carry Python-typed values in and out unchanged', async () => {
    const cs = js(['function f(x) { return x }']);
    const { tuple, PyFloat, PyDict } = await import('../../src/index.ts');
    const value = [
      tuple<unknown>(1, 'a'),
      new PyFloat(4),
      new PyDict([[1, 'one']]),
      new Set([1]),
      2n ** 70n,
      -0,
      Number.NaN,
    ];
    const m = await run(defineTask({ name: 'f' }), cs, [[value]]);
    const out = m.outcomes[0]![0]!;
    expect(out.kind).toBe('value');
    expect(JSON.stringify((out as { tagged: unknown }).tagged)).toBe(
      '[{"$tuple":[1,"a"]},{"$float":4},{"$dict":[[1,"one"]]},{"$set":[1]},{"$int":"1180591620717411303424"},{"$float":"-0"},{"$float":"nan"}]',
    );
  });

  it('should serve two runs at once from the shared pool', async () => {
    const task = defineTask({ name: 'f' });
    const [a, b] = await Promise.all([
      run(task, js(['function f(x) { return x + 1 }']), range(500)),
      run(task, js(['function f(x) { return x - 1 }']), range(500)),
    ]);
    expect(kinds(a.outcomes[0]!)).toEqual(range(500).map(([x]) => (x as number) + 1));
    expect(kinds(b.outcomes[0]!)).toEqual(range(500).map(([x]) => (x as number) - 1));
  });

  it('should reject with the partial matrix when aborted', async () => {
    // Arrange: every call takes about 10 ms, and the abort comes once some calls have finished
    // (not after a fixed wall time, which a busy machine could spend starting the sandbox).
    const task = defineTask({ name: 'f', timeoutMs: 5000 });
    const controller = new AbortController();
    const cs = js(['function f(x) { const end = Date.now() + 10; while (Date.now() < end) {} return x }']);
    const onProgress = (done: number): void => {
      if (done >= 10) controller.abort(new Error('stop'));
    };
    // Act
    const error = await run(task, cs, range(400), { signal: controller.signal, onProgress }).catch(
      (e: unknown) => e,
    );
    // Assert: rejected as aborted, with every finished call kept.
    expect(error).toBeInstanceOf(CrosscheckError);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect((error as RunAbortedError).code).toBe('ABORTED');
    const partial = (error as RunAbortedError).partial;
    expect(Object.keys(error as object)).not.toContain('partial');
    const finished = partial.outcomes[0]!.filter((o) => o !== undefined);
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(400);
    expect(finished.every((o) => o.kind === 'value')).toBe(true);
  });

  it('should reject misuse with typed errors that say what to fix', async () => {
    const task = defineTask({ name: 'f' });
    await expect(run(task, js(['function f() {}']), [1, 2] as never)).rejects.toThrow(
      'run: expected `inputs` to be an array of argument tuples, got an array of length 2. Wrap single arguments: [[1], [2]].',
    );
    await expect(run({ name: 'f' } as never, [], [])).rejects.toThrow(
      'run: expected a task from defineTask(), got an object with keys [name].',
    );
    await expect(run(task, [() => 1] as never, [])).rejects.toThrow(
      'run: expected an array of candidates (from candidates.fromFunctions or fromSources), got an array of length 1.',
    );
    await expect(run(task, [], [[() => 1]])).rejects.toThrow(
      'run: input 0 cannot be sent to a candidate: Cannot encode value: the value contains a function, which has no data form.',
    );
    await expect(run(task, [], [], { timeoutMs: -1 })).rejects.toThrow(
      'run(task, candidates, inputs, options): `timeoutMs` must be a positive number, got -1 (number).',
    );
  });
});

describe('the shared sandbox pool', () => {
  it('should have at least two workers, so pool faults are exercised across workers', () => {
    expect(sharedSandboxPool(64).size).toBeGreaterThanOrEqual(2);
  });

  it('should replace a crashed worker while the other worker keeps its job', async () => {
    // Arrange: one candidate exhausts its heap on one input while the other runs beside it.
    const task = defineTask({ name: 'f', timeoutMs: 5000 });
    const cs = js([
      'function f(x) { if (x === 2) { const a = []; for (;;) a.push(new Array(1e6).fill(x)); } return x }',
      'function f(x) { return -x }',
    ]);
    // Act
    const m = await run(task, cs, range(6), { memoryMb: 64 });
    // Assert
    expect(kinds(m.outcomes[0]!)).toEqual([0, 1, 'crash', 3, 4, 5]);
    expect(kinds(m.outcomes[1]!)).toEqual([-0, -1, -2, -3, -4, -5]);
    expect((m.outcomes[0]![2] as { reason: string }).reason).toBe(
      'out of memory: the call exceeded the 64 MB heap limit',
    );
  });
});

describe('state of sandboxed candidates', () => {
  const STATEFUL = 'let calls = 0;\nfunction f(x) { calls += 1; return calls }';

  it('should give identical samples separate state', async () => {
    // Arrange: the same stateful program twice, as two samples of one model often are.
    const cs = js([STATEFUL, STATEFUL]);
    // Act
    const m = await run(defineTask({ name: 'f' }), cs, range(3));
    // Assert: each counts its own calls.
    expect(kinds(m.outcomes[0]!)).toEqual([1, 2, 3]);
    expect(kinds(m.outcomes[1]!)).toEqual([1, 2, 3]);
  });

  it('should give the same outcomes when the same run is repeated', async () => {
    const cs = js([STATEFUL]);
    const first = await run(defineTask({ name: 'f' }), cs, range(3));
    const second = await run(defineTask({ name: 'f' }), cs, range(3));
    expect(kinds(second.outcomes[0]!)).toEqual(kinds(first.outcomes[0]!));
  });
});
