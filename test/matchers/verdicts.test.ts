import { afterAll, describe, expect, it } from 'vitest';
import {
  toAgreeWithReference,
  toBeCoherentAcross,
  toHaveIncoherenceBelow,
  toRankLike,
} from '../../matchers/index.ts';
import { fromFunctions, fromSources } from '../../src/candidates/index.ts';
import { GEN_BRAND, type Gen } from '../../src/contract/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { coherenceProperty } from '../../src/fast-check/index.ts';
import { detect, measure } from '../../src/measure/index.ts';
import { summarize } from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { context } from './context.ts';

afterAll(() => closePythonWorkers());

/** Issue 14: no verdict stronger than its evidence. */

const ints = Array.from({ length: 100 }, (_, i) => [i] as [number]);
const double = (x: number) => 2 * x;

describe('a pool whose candidates do not load (issue 14, defect 1)', () => {
  // The intended functions compute 2x and 3x; each pool fails to load the same way.
  const pools = {
    'a wrong entry': fromSources(
      ['function twice(x) { return 2 * x; }', 'function thrice(x) { return 3 * x; }'],
      { language: 'javascript', entry: 'f' },
    ),
    "TypeScript marked 'javascript'": fromSources(
      ['function f(x: number): number { return 2 * x; }', 'function f(x: number): number { return 3 * x; }'],
      { language: 'javascript', entry: 'f' },
    ),
    "JavaScript marked 'python'": fromSources(
      ['function f(x) { return 2 * x; }', 'function f(x) { return 3 * x; }'],
      { language: 'python', entry: 'f' },
    ),
  };
  const task = defineTask({ name: 'scale', inputs: ints, reference: double });

  for (const [how, pool] of Object.entries(pools)) {
    it(`should be inconclusive both ways, naming each load problem: ${how}`, async () => {
      const coherent = await toBeCoherentAcross.call(context(), task, pool);
      const notCoherent = await toBeCoherentAcross.call(context(true), task, pool);
      const below = await toHaveIncoherenceBelow.call(context(), task, 0.5, pool);
      const notBelow = await toHaveIncoherenceBelow.call(context(true), task, 0.5, pool);
      // `pass` is what the host inverts under .not: true there means the .not assertion fails.
      expect([coherent.pass, notCoherent.pass, below.pass, notBelow.pass]).toEqual([
        false,
        true,
        false,
        true,
      ]);
      for (const result of [coherent, below]) {
        const message = result.message();
        expect(message).toContain('inconclusive: only 0 of 2 candidates returned a value');
        for (const c of pool)
          expect(message).toMatch(new RegExp(`${c.label} \\((CompileError|EntryNotFound): `));
        expect(message).not.toContain('certifies incoherence ≤ 0.05 with confidence 0.95)\nReceived: no');
      }
      expect(coherent.record.inconclusive).toMatch(/only 0 of 2/);
      const m = await measure(task, pool);
      expect(m.inconclusive).toMatch(/^only 0 of 2 candidates returned a value/);
      expect(m.ran.map((r) => r.loadProblem?.split(':')[0])).toEqual([
        expect.stringMatching(/CompileError|EntryNotFound/),
        expect.stringMatching(/CompileError|EntryNotFound/),
      ]);
      // A candidate that did not load is wrong on every input where the reference returns.
      expect(m.candidateErrors.map((c) => c.error)).toEqual([1, 1]);
      const d = await detect(task, pool);
      expect(d.verdict).toBe('inconclusive');
      expect(d.certificate).toBeNull();
    });
  }

  it('should count a load failure as wrong against the reference, never as agreement', async () => {
    const [broken] = pools['a wrong entry'];
    const result = await toAgreeWithReference.call(context(), broken!, task);
    expect(result.pass).toBe(false);
    expect(result.record).toMatchObject({ data: { error: { estimate: 1, n: 100 } } });
    // One loaded candidate beside one that did not: still fewer than two returned values.
    const mixed = [...fromFunctions({ double }), broken!];
    const d = await detect(task, mixed);
    expect(d.verdict).toBe('inconclusive');
    expect(d.reason).toMatch(
      /^only 1 of 2 candidates returned a value, so agreement says nothing: f#0 \(EntryNotFound: /,
    );
  });
});

describe('a candidate that hangs on 31 % of inputs beside two correct ones (issue 14, defect 2)', () => {
  const hangs = async (x: number) => {
    if (x % 100 < 31) await new Promise((r) => setTimeout(r, 2000));
    return 2 * x;
  };
  const task = defineTask({ name: 'scale', inputs: ints, reference: double, timeoutMs: 40 });
  const pool = fromFunctions({ double, same: (x: number) => x + x, hangs });

  it('should not certify, pass the bound or agree with the reference by default', async () => {
    const coherent = await toBeCoherentAcross.call(context(), task, pool, { shrink: false });
    const below = await toHaveIncoherenceBelow.call(context(), task, 0.2, pool, { shrink: false });
    const agrees = await toAgreeWithReference.call(context(), pool[2]!, task, { shrink: false });
    expect([coherent.pass, below.pass, agrees.pass]).toEqual([false, false, false]);
    expect(agrees.message()).toContain('differs on 31 of 100 inputs');
    expect(below.message()).toMatch(
      /Unknown: +31 timeouts or crashes \(hangs 31\), counted as disagreement, and as wrong where the reference returns/,
    );
    // Every record says how many cells were unknown, and whose.
    for (const r of [coherent.record, below.record, agrees.record]) {
      expect(r.unknown).toMatchObject({ policy: 'disagree', perCandidate: [{ label: 'hangs' }] });
      expect(r.unknown!.cells).toBeGreaterThan(0);
    }
    expect(below.record.unknown).toMatchObject({ cells: 31, perCandidate: [{ label: 'hangs', cells: 31 }] });
    const summary = summarize([coherent.record, below.record, agrees.record]);
    expect(summary.suite).toMatchObject({ unknownCells: expect.any(Number), checksWithUnknown: 3 });
    expect(summary.rows.map((r) => r.unknownByCandidate)).toEqual([
      [{ label: 'hangs', cells: expect.any(Number) }],
      [{ label: 'hangs', cells: 31 }],
      [{ label: 'hangs', cells: 31 }],
    ]);
  });

  it('should show a witness with a timeout as found, without shrinking through the hang', async () => {
    const coherent = await toBeCoherentAcross.call(context(), task, pool);
    expect(coherent.record.witness).toMatchObject({ shrinkSteps: null });
    expect(coherent.record.witness!.outputs.map((o) => o.kind)).toEqual(['value', 'timeout']);
  });

  it("should exclude unknown cells only when asked (unknown: 'exclude'), and say so", async () => {
    const below = await toHaveIncoherenceBelow.call(context(), task, 0.2, pool, { unknown: 'exclude' });
    expect(below.pass).toBe(true);
    expect(below.message()).toContain("31 timeouts or crashes (hangs 31), excluded (unknown: 'exclude')");
  });

  it("should be inconclusive both ways under unknown: 'inconclusive'", async () => {
    const options = { unknown: 'inconclusive', shrink: false } as const;
    const below = await toHaveIncoherenceBelow.call(context(), task, 0.2, pool, options);
    const notBelow = await toHaveIncoherenceBelow.call(context(true), task, 0.2, pool, options);
    const coherent = await toBeCoherentAcross.call(context(), task, pool, options);
    const notCoherent = await toBeCoherentAcross.call(context(true), task, pool, options);
    expect([below.pass, notBelow.pass, coherent.pass, notCoherent.pass]).toEqual([false, true, false, true]);
    expect(below.message()).toContain(
      "inconclusive: 31 candidate cells timed out or crashed (unknown: 'inconclusive')",
    );
    expect(coherent.record.data).toMatchObject({ verdict: 'inconclusive' });
  });
});

describe('the error lower bound and the error interval (issue 14, defect 2)', () => {
  it('should come from the same cells: the bound never exceeds the upper end of the interval', async () => {
    // The reference hangs exactly where the candidates disagree, on half the inputs.
    const reference = async (x: number) => {
      if (x % 2 === 0) await new Promise((r) => setTimeout(r, 2000));
      return x;
    };
    const task = defineTask({
      name: 'id',
      inputs: Array.from({ length: 120 }, (_, i) => [i] as [number]),
      reference,
      timeoutMs: 40,
    });
    const pool = fromFunctions({ a: (x: number) => x, b: (x: number) => (x % 2 === 0 ? -x : x) });
    const m = await measure(task, pool, { shrink: false });
    expect(m.unknown.referenceCells).toBe(60);
    expect(m.errorLowerBound).toBeGreaterThan(0.15);
    expect(m.error!.upper).toBeGreaterThanOrEqual(m.errorLowerBound!);
    // Where the reference did not return, the error of those inputs is anywhere in [0, 1].
    expect(m.error).toMatchObject({ estimate: 0, n: 120 });
    expect(m.error!.upper).toBeCloseTo(0.5 + m.error!.epsilon, 10);
  });
});

describe('equivalence classes with unknown outcomes (issue 14, defect 4)', () => {
  const never = async () => {
    await new Promise((r) => setTimeout(r, 2000));
    return 0;
  };
  const task = defineTask({ name: 'k', inputs: [[1], [2], [3]], timeoutMs: 40 });

  it('should never put a candidate that does not return into a class, in any order', async () => {
    const one = () => 1;
    const two = () => 2;
    const forward = await measure(task, fromFunctions({ one, two, never }), { shrink: false });
    const backward = await measure(task, fromFunctions({ two, one, never }), { shrink: false });
    for (const m of [forward, backward]) {
      expect(m.majority).toBeNull();
      expect(m.classes.map((c) => [c.labels, c.unknown])).toContainEqual([['never'], true]);
      expect(m.classes.every((c) => c.members.length === 1)).toBe(true);
    }
    const excluded = await measure(task, fromFunctions({ one, two, never }), {
      shrink: false,
      unknown: 'exclude',
    });
    expect(excluded.majority).toBeNull();
  });
});

describe('pool identity in the summary (issue 14, defect 9)', () => {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const capped = (xs: number[]) => xs.reduce((a, b) => a + Math.min(b, 100), 0);
  const task = defineTask({
    name: 'sum',
    inputs: Array.from({ length: 60 }, (_, i) => [[i * 7, 150 - i]] as [number[]]),
    reference: sum,
  });
  const pool = fromFunctions({
    sum,
    capped,
    reversed: (xs: number[]) => sum([...xs].reverse()),
    plus: (xs: number[]) => xs.reduce((a, b) => b + a, 0),
  });

  it('should not count a false positive from a check of one candidate of a flagged pool', async () => {
    const flagged = await toBeCoherentAcross.call(context(), task, pool, { shrink: false });
    const first = await toAgreeWithReference.call(context(), pool[0]!, task);
    expect([flagged.pass, first.pass]).toEqual([false, true]);
    expect(flagged.record.pool).not.toBe(first.record.pool);
    const summary = summarize([flagged.record, first.record]);
    // No pool has both an error and a disagreement signal: nothing to compare.
    expect(summary.suite.references).toBeNull();
  });

  it('should compare error and disagreement of the same pool', async () => {
    const measured = await toHaveIncoherenceBelow.call(context(), task, 0.5, pool, { shrink: false });
    const flagged = await toBeCoherentAcross.call(context(), task, pool, { shrink: false });
    const first = await toAgreeWithReference.call(context(), pool[0]!, task);
    expect(measured.record.pool).toBe(flagged.record.pool);
    const summary = summarize([measured.record, flagged.record, first.record]);
    expect(summary.suite.references).toMatchObject({ tasks: 1, falsePositives: 0, detectionRate: 1 });
  });
});

describe('no pass without evidence (issue 14, defect 10)', () => {
  it('should fail .not.toRankLike when ρ is undefined', () => {
    const result = toRankLike.call(context(true), [1, 1, 1], [1, 2, 3], { minSpearman: 0.5 });
    // `pass` true under .not means the assertion fails.
    expect(result.pass).toBe(true);
    expect(result.message()).toContain('inconclusive: ρ is undefined');
    expect(toRankLike.call(context(), [1, 1, 1], [1, 2, 3], { minSpearman: 0.5 }).pass).toBe(false);
  });

  // A Gen that yields fewer inputs than asked: a small domain, or filters that reject most draws.
  const short: Gen<[number]> = {
    [GEN_BRAND]: true,
    description: '37 values',
    async generate(n) {
      return Array.from({ length: Math.min(n, 37) }, (_, i) => [i] as [number]);
    },
  };
  const task = defineTask({ name: 'scale', inputs: short });
  const pool = fromFunctions({ double, same: (x: number) => x + x });

  it('should say measure is inconclusive when the Gen runs short, and fail the matchers both ways', async () => {
    const m = await measure(task, pool, { n: 200 });
    expect(m.n).toBe(37);
    expect(m.inconclusive).toContain('the inputs (37 values) gave only 37 of the 200 asked');
    const below = await toHaveIncoherenceBelow.call(context(), task, 0.5, pool, { n: 200 });
    const notBelow = await toHaveIncoherenceBelow.call(context(true), task, 0.5, pool, { n: 200 });
    expect([below.pass, notBelow.pass]).toEqual([false, true]);
    expect(below.message()).toContain(
      'Received: inconclusive: the inputs (37 values) gave only 37 of the 200 asked',
    );
    const d = await detect(task, pool);
    expect(d.verdict).toBe('inconclusive');
  });

  it('should accept fewer inputs when the user says how many suffice (minInputs)', async () => {
    const m = await measure(task, pool, { n: 200, minInputs: 30 });
    expect(m.inconclusive).toBeNull();
    const below = await toHaveIncoherenceBelow.call(context(), task, 0.5, pool, { n: 200, minInputs: 30 });
    expect(below.pass).toBe(true);
  });
});

describe('the fast-check bridge with candidates that do not return (issue 14, defects 1 and 2)', () => {
  const task = defineTask({ name: 'scale', inputs: ints, reference: double, timeoutMs: 40 });

  it('should find a disagreement where a candidate hangs or did not load, never agreement', async () => {
    const hangs = async (x: number) => {
      if (x === 7) await new Promise((r) => setTimeout(r, 2000));
      return 2 * x;
    };
    const hanging = await coherenceProperty(task, fromFunctions({ double, hangs })).findDisagreement([7]);
    expect(hanging?.classes.map((c) => c.outcome)).toEqual(['14', expect.stringMatching(/^timeout/)]);
    const unloaded = fromSources(['function g(x) { return 2 * x; }', 'function h(x) { return 3 * x; }'], {
      language: 'javascript',
      entry: 'f',
    });
    const broken = await coherenceProperty(task, unloaded).findDisagreement([1]);
    expect(broken?.classes.map((c) => c.outcome)).toEqual([
      expect.stringMatching(/^EntryNotFound/),
      expect.stringMatching(/^EntryNotFound/),
    ]);
  });
});
