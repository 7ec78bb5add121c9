import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkers } from '../../src/exec/command/index.ts';
import type { Outcome } from '../../src/exec/outcome.ts';
import { outcomeDigest } from '../../src/exec/output-budget.ts';
import { candidates, decode, defineTask, describeOutcome, encode, measure, run } from '../../src/index.ts';
import { relateOutcomes } from '../../src/measure/index.ts';
import { comparator } from '../../src/values/index.ts';

/**
 * The host against hostile bytes from its workers and hostile state in its own process. For each
 * case: no throw out of run/measure, the culprit gets an outcome that says what happened, and
 * every other candidate's results survive.
 */
const FORGER = join(import.meta.dirname, '..', 'fixtures', 'host-bounds', 'forger.mjs');
const forged = (codes: string[]) =>
  candidates.fromCommand(['node', FORGER], codes, { entry: 'f', language: 'forgery' });
const task = defineTask({ name: 'f', timeoutMs: 2000 });

afterAll(() => closeWorkers());

describe('host bounds: what a worker sends', () => {
  it('should turn a malformed tag from a worker into an error outcome, not a throw out of measure', async () => {
    // Arrange
    const cs = forged(['malformed', 'echo', 'echo']);

    // Act
    const result = await measure(task, cs, { inputs: [[1], [2], [3], [4]], shrink: false });
    const matrix = await run(task, cs, [[1], [2]]);

    // Assert
    expect(result.disagreements).toBe(4);
    expect(matrix.outcomes[0]?.map((o) => [o.kind, o.kind === 'error' ? o.name : null])).toEqual([
      ['error', 'ProtocolError'],
      ['error', 'ProtocolError'],
    ]);
    expect(matrix.outcomes[1]?.map((o) => (o.kind === 'value' ? o.value : o.kind))).toEqual([1, 2]);
  });

  it('should treat wire outcomes of the wrong shape as a protocol fault (a ProtocolError of that candidate), not a throw', async () => {
    // Arrange
    const cs = forged(['badwire', 'echo']);

    // Act
    const matrix = await run(task, cs, [[1], [2]]);

    // Assert
    expect(matrix.outcomes[0]?.map((o) => (o.kind === 'error' ? o.name : o.kind))).toEqual([
      'ProtocolError',
      'ProtocolError',
    ]);
    expect(matrix.outcomes[1]?.map((o) => (o.kind === 'value' ? o.value : o.kind))).toEqual([1, 2]);
  });

  it('should cut an endless reply line at the line cap, kill the worker and record a ProtocolError', async () => {
    // Arrange: the line cap of a run is 2 x maxOutputBytes + 1 MiB = 3 MiB here.
    const cs = forged(['endless', 'echo']);
    const before = process.memoryUsage().rss;

    // Act
    const matrix = await run(task, cs, [[1]], { maxOutputBytes: 1024 * 1024, timeoutMs: 20_000 });

    // Assert
    const culprit = matrix.outcomes[0]?.[0];
    expect(culprit).toMatchObject({ kind: 'error', name: 'ProtocolError' });
    expect(culprit?.kind === 'error' ? culprit.message : '').toMatch(/line limit/);
    expect(matrix.outcomes[1]?.[0]).toMatchObject({ kind: 'value', value: 1 });
    // Without the cap the host buffers what the worker writes for 2 x timeoutMs (gigabytes).
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
  }, 180_000);
});

describe('host bounds: decoding and options', () => {
  it.each([
    [{ $tuple: 5 }],
    [{ $dict: [[1]] }],
    [{ $int: '12abc' }],
    [{ $bytes: 'zz' }],
    [{ $complex: [1] }],
    [{ $object: [[1, 2]] }],
    [{ $set: null }],
  ])('should reject the malformed tagged value %j with a typed error', (tagged) => {
    // Act
    const attempt = () => decode(tagged as never);

    // Assert
    expect(attempt).toThrow(expect.objectContaining({ code: 'UNSERIALIZABLE' }));
  });

  it('should not let a polluted Object.prototype lift the encoder depth limit or set run limits', async () => {
    // Arrange
    let deep: unknown = 1;
    for (let i = 0; i < 1500; i++) deep = [deep];
    const proto = Object.prototype as Record<string, unknown>;

    // Act
    proto.maxDepth = 1e9;
    proto.maxOutputBytes = 1;
    let encodeError: unknown;
    let matrix: Awaited<ReturnType<typeof run>>;
    try {
      try {
        encode(deep);
      } catch (error) {
        encodeError = error;
      }
      matrix = await run(task, candidates.fromFunctions([(x: number) => [x, x]]), [[1]]);
    } finally {
      delete proto.maxDepth;
      delete proto.maxOutputBytes;
    }

    // Assert
    expect(encodeError).toMatchObject({ code: 'UNSERIALIZABLE' });
    expect(matrix.outcomes[0]?.[0]).toMatchObject({ kind: 'value', tagged: [1, 1] });
  });
});

describe('host bounds: output memory budget', () => {
  const long = (fill: string) => (x: number) => `${x}`.padEnd(10_000, fill);

  it('should keep outputs past the row budget as digests that still compare exactly', async () => {
    // Arrange: 10,000-character outputs, 25,000 characters kept per row.
    const cs = candidates.fromFunctions([long('a'), long('a'), long('b')]);
    const inputs = [[1], [2], [3], [4], [5]];

    // Act
    const matrix = await run(task, cs, inputs, { maxRowOutputBytes: 25_000 });
    const result = await measure(task, cs, { inputs, shrink: false, run: { maxRowOutputBytes: 25_000 } });

    // Assert
    const digests = matrix.outcomes.map((row) => row.map((o) => outcomeDigest(o) !== null));
    expect(digests[0]).toEqual([false, false, true, true, true]);
    expect(describeOutcome(matrix.outcomes[0]?.[4] as never)).toMatch(/kept only as its digest sha256:/);
    expect(result.disagreements).toBe(5);
    expect(result.classes.map((c) => c.members)).toEqual([[0, 1], [2]]);
    expect(result.unknown.inputs).toBe(0);
  });

  it('should charge the run budget across rows', async () => {
    // Arrange
    const cs = candidates.fromFunctions([long('a'), long('a')]);

    // Act
    const matrix = await run(task, cs, [[1], [2], [3]], { maxRunOutputBytes: 35_000 });

    // Assert
    const kept = matrix.outcomes.flat().filter((o) => outcomeDigest(o) === null).length;
    expect(kept).toBe(3);
  });

  it('should leave a pair undecided, not disagreeing, when digests differ under a float tolerance', async () => {
    // Arrange: 0.30000000000000004 and 0.3 agree within strict's relative 1e-9, but not by key.
    const cs = candidates.fromFunctions([
      (x: number) => Array(2000).fill(x * 0.1),
      (x: number) => Array(2000).fill(x / 10),
    ]);
    const options = { inputs: [[3]], shrink: false } as const;

    // Act
    const whole = await measure(task, cs, options);
    const digested = await measure(task, cs, { ...options, run: { maxRowOutputBytes: 0 } });
    const custom = await measure(task, cs, {
      ...options,
      equality: () => true,
      run: { maxRowOutputBytes: 0 },
    });

    // Assert
    expect(whole).toMatchObject({ disagreements: 0, unknown: { inputs: 0 } });
    expect(digested).toMatchObject({ disagreements: 0, unknown: { inputs: 1 } });
    expect(custom).toMatchObject({ disagreements: 0, unknown: { inputs: 1 } });
  });

  it('should survive outputs that exceed its heap and keep every result', async () => {
    // Arrange: 2 candidates x 150 inputs x 1 MB (300 MB) in a host with a 128 MB old space (a
    // heap limit of about 180 MB, a run budget of a quarter of it). Without the budget the host
    // dies of heap exhaustion and every result is lost.
    const script = join(import.meta.dirname, '..', 'fixtures', 'host-bounds', 'big-outputs.ts');
    const n = 150;

    // Act
    const result = await execa(
      process.execPath,
      ['--max-old-space-size=128', '--import', 'tsx', script, String(n)],
      {
        reject: false,
        timeout: 300_000,
      },
    );

    // Assert
    expect(result.exitCode, result.stderr.slice(-2000)).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      heapLimit: number;
      rows: Array<{ kinds: string[]; digests: number; lastDigest: string }>;
    };
    expect(summary.rows.map((r) => r.kinds)).toEqual([['value'], ['value']]);
    // At most about 46 outputs (the run budget) are kept whole in all; the rest are digests.
    expect(summary.heapLimit).toBeLessThan(2 * n * 1_000_000);
    expect(summary.rows[0]?.digests).toBeGreaterThan(n - 50);
    expect(summary.rows[0]?.lastDigest).not.toBe(summary.rows[1]?.lastDigest);
  }, 320_000);
});

describe('host bounds: digests in the fast-check bridge', () => {
  it('should not call a pair of digests a disagreement when only a tolerance could decide it', async () => {
    // Arrange
    const cs = candidates.fromFunctions([
      (x: number) => Array(2000).fill(x * 0.1),
      (x: number) => Array(2000).fill(x / 10),
      (x: number) => `${x}`.padEnd(10_000, 'a'),
      (x: number) => `${x}`.padEnd(10_000, 'b'),
    ]);
    const matrix = await run(task, cs, [[3]], { maxRowOutputBytes: 0 });
    const [floatA, floatB, textA, textB] = matrix.outcomes.map((row) => row[0] as Outcome);
    const rules = { compare: comparator('strict'), compareErrorMessages: false };

    // Act: null is undecided (no disagreement for the bridge), false a proven disagreement.
    const floats = relateOutcomes(floatA as Outcome, floatB as Outcome, rules);
    const texts = relateOutcomes(textA as Outcome, textB as Outcome, rules);

    // Assert
    expect(matrix.outcomes.every((row) => outcomeDigest(row[0] as Outcome) !== null)).toBe(true);
    expect([floats, texts]).toEqual([null, false]);
  });
});
