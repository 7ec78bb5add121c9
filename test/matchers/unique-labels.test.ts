/**
 * Two pools of one model (say its TypeScript and its Python samples) both label their
 * candidates `model#0, model#1`. Combined, every place that names a candidate must name each
 * once: the witness of a failure message, the record, the unknown counts.
 */
import { describe, expect, it } from 'vitest';
import { toBeCoherentAcross } from '../../matchers/index.ts';
import { fromFunctions } from '../../src/candidates/index.ts';
import { detect, measure } from '../../src/measure/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { context } from './context.ts';

const task = defineTask({ name: 'double', inputs: [[1], [2], [3]], reference: (x: number) => 2 * x });
const first = fromFunctions([(x: number) => 2 * x, (x: number) => x + x], { label: 'model' });
const second = fromFunctions([(x: number) => 2 * x, (x: number) => x * x], { label: 'model' });
const combined = [...first, ...second];

const repeats = (labels: readonly string[]): string[] => labels.filter((l, i) => labels.indexOf(l) !== i);

describe('labels of combined pools', () => {
  it('should name each candidate once in the witness of toBeCoherentAcross', async () => {
    // Arrange
    expect(combined.map((c) => c.label)).toEqual(['model#0', 'model#1', 'model#0', 'model#1']);
    // Act
    const result = await toBeCoherentAcross.call(context(), task, combined, { shrink: false });
    // Assert
    expect(result.pass).toBe(false);
    const witness = (result.record as unknown as { witness: { outputs: { labels: string[] }[] } }).witness;
    const named = witness.outputs.flatMap((o) => o.labels);
    expect(named).toHaveLength(4);
    expect(repeats(named)).toEqual([]);
    expect(named).toContain('model#1~2');
    expect(result.message()).toContain('model#1~2 → ');
  });

  it('should give detect and measure the same names for the same pool', async () => {
    // Act
    const d = await detect(task, combined, { shrink: false });
    const m = await measure(task, combined);
    // Assert
    expect(d.verdict).toBe('incoherent');
    const inWitness =
      d.verdict === 'incoherent' ? d.witness.outputs.flatMap((o) => [...o.labels]).sort() : [];
    expect(inWitness).toEqual(m.candidates.map((c) => c.label).sort());
  });
});
