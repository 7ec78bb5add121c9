import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../src/candidates/index.ts';
import { compareComplexity, complexity, gen, shrinkWitness } from '../../src/inputs/index.ts';
import { measure } from '../../src/measure/index.ts';
import { defineTask } from '../../src/task/index.ts';

/** Issue 14, defect 7: a shrunk witness must be a value the Gen can produce. */
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
// Disagrees with `sum` on lists holding an element above 100, and on the empty list.
const odd = (xs: number[]) => (xs.length === 0 ? 1 : sum(xs) + (xs.some((x) => x > 100) ? 1 : 0));

describe('witnesses stay in the Gen', () => {
  it('shrinks a mapped arbitrary with its own shrinker, never below minLength', async () => {
    const inputs = gen.fromArbitrary(
      fc.tuple(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 6 }).map((xs) => [...xs]),
      ),
    );
    const m = await measure(defineTask({ name: 'sum', inputs }), fromFunctions({ sum, odd }), {
      n: 200,
      seed: 1,
    });
    const w = m.witness!;
    expect(w.shrink?.via).toBe('arbitrary');
    expect((w.args[0] as number[]).length).toBeGreaterThanOrEqual(1);
    expect(w.args).toEqual([[101]]);
  });

  it('keeps fc.stringMatching witnesses matching', async () => {
    const pattern = /^[a-c]{2,6}$/;
    const inputs = gen.fromArbitrary(fc.tuple(fc.stringMatching(pattern)));
    const count = (s: string) => s.length;
    // Differs where the string holds a 'c', and on strings shorter than the pattern allows.
    const skipsC = (s: string) => (s.length < 2 ? -1 : s.replaceAll('c', '').length);
    const m = await measure(defineTask({ name: 'len', inputs }), fromFunctions({ count, skipsC }), {
      n: 200,
      seed: 2,
    });
    const w = m.witness!;
    expect(w.args[0]).toMatch(pattern);
    expect(w.shrink?.via).not.toBe('structural');
  });

  it('keeps a filtered string non-empty', async () => {
    const inputs = gen.fromArbitrary(
      fc.tuple(fc.string({ unit: 'grapheme-ascii' }).filter((s) => s.trim() !== '')),
    );
    const first = (s: string) => s.trim()[0] ?? '';
    const last = (s: string) => (s.trim() === '' ? 'empty' : (s.trim().at(-1) ?? ''));
    const m = await measure(defineTask({ name: 'first', inputs }), fromFunctions({ first, last }), {
      n: 100,
      seed: 3,
    });
    const w = m.witness!;
    expect((w.args[0] as string).trim()).not.toBe('');
  });

  it('shrinks objects from fc.record', async () => {
    const inputs = gen.fromArbitrary(
      fc.tuple(
        fc.record({ price: fc.integer({ min: 0, max: 100_000 }), label: fc.string({ minLength: 1 }) }),
      ),
    );
    const price = (o: { price: number }) => o.price;
    const capped = (o: { price: number }) => Math.min(o.price, 500);
    const m = await measure(defineTask({ name: 'price', inputs }), fromFunctions({ price, capped }), {
      n: 100,
      seed: 4,
    });
    const w = m.witness!;
    expect(w.shrink?.improvements).toBeGreaterThan(0);
    expect(compareComplexity(complexity(w.args), complexity(w.original.args))).toBeLessThan(0);
    const o = w.args[0] as { price: number; label: string };
    expect(o.price).toBe(501);
    expect(o.label.length).toBeGreaterThanOrEqual(1);
  });
});

describe('witnesses stay valid for the reference', () => {
  it('never shrinks to an input the reference rejects', async () => {
    // Fixed inputs: no Gen, so shrinking is structural; the reference rejects lists under 2.
    const reference = (xs: number[]) => {
      if (xs.length < 2) throw new RangeError('needs two');
      return sum(xs);
    };
    const task = defineTask({ name: 'sum', inputs: [[[3, 250, 7]], [[1, 2]]], reference });
    const m = await measure(task, fromFunctions({ sum, odd }), { seed: 1 });
    const w = m.witness!;
    expect(w.shrink?.via).toBe('structural');
    expect((w.args[0] as number[]).length).toBeGreaterThanOrEqual(2);
    expect(w.reference).not.toMatch(/RangeError/);
  });

  it('leaves a witness unshrunk when neither the arbitrary nor structure can keep it in the Gen', async () => {
    const inputs = gen.fromArbitrary(
      fc.tuple(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1 }).map((xs) => [...xs])),
    );
    // A tuple built by hand (not drawn): the mapped arbitrary cannot shrink it without context.
    const result = await shrinkWitness(inputs, [[150, 3]], () => true);
    expect(result.via).toBe('none');
    expect(result.args).toEqual([[150, 3]]);
  });
});
