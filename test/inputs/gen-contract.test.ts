import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsKey } from '../../src/inputs/canonical-key.ts';
import {
  type CrosscheckGen,
  compareComplexity,
  complexity,
  gen,
  isGen,
  shrinkWitness,
} from '../../src/inputs/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { pyFloat, toWire, tuple } from '../../src/values/index.ts';

/** Every Gen source, as users would build it. The contract below must hold for each. */
const sources: Array<[string, () => CrosscheckGen]> = [
  ['fromArbitrary', () => gen.fromArbitrary(fc.tuple(fc.array(fc.integer()), fc.nat(20)))],
  ['fromSignature (TypeScript)', () => gen.fromSignature('(xs: number[], k: number) => number')],
  [
    'fromSignature (Python)',
    () => gen.fromSignature('(xs: List[float], pair: Tuple[int, str], d: Dict[str, int]) -> int'),
  ],
  [
    'fromJsonSchema',
    () =>
      gen.fromJsonSchema({
        type: 'array',
        prefixItems: [
          { type: 'array', items: { type: 'integer', minimum: -50, maximum: 50 } },
          { type: 'string', maxLength: 8 },
        ],
      }),
  ],
  [
    'fromExamples',
    () =>
      gen.fromExamples([
        [[1, 2, 3], 'abc'],
        [[4], 'hello world'],
      ]),
  ],
  [
    'fromSeeds (typed)',
    () =>
      gen.fromSeeds([
        [[1, 2, 3], pyFloat(2)],
        [[10, -4], 0.5],
        [[], 3.25],
      ]),
  ],
  ['fromSeeds (difftrust)', () => gen.fromSeeds([[[1, 2, 3], 'abc', tuple(1, 2)]], { profile: 'difftrust' })],
];

const wire = (inputs: readonly (readonly unknown[])[]): string[] => inputs.map((a) => toWire(a));

describe.each(sources)('Gen contract: %s', (_name, make) => {
  it('should be a Gen that defineTask accepts as inputs', () => {
    const g = make();
    expect(isGen(g)).toBe(true);
    expect(g.description.length).toBeGreaterThan(0);
    expect(defineTask({ name: 'f', inputs: g }).inputs).toBe(g);
  });

  it('should give the same values for the same seed', async () => {
    const a = await make().generate(200, { seed: 42 });
    const b = await make().generate(200, { seed: 42 });
    expect(wire(a)).toEqual(wire(b));
  });

  it('should give other values for another seed', async () => {
    const a = await make().generate(50, { seed: 1 });
    const b = await make().generate(50, { seed: 2 });
    expect(wire(a)).not.toEqual(wire(b));
  });

  it('should give n draws of the source arity, and report each distinct one with its count', async () => {
    const inputs = await make().generate(300, { seed: 7 });
    expect(inputs.length).toBe(300);
    const report = await make().generateWithReport(300, { seed: 7 });
    expect(new Set(report.inputs.map(argsKey)).size).toBe(report.inputs.length);
    expect(report.counts.reduce((a, b) => a + b, 0)).toBe(300);
    expect(report.draws.map((k) => argsKey(report.inputs[k] as unknown[]))).toEqual(inputs.map(argsKey));
    const arity = inputs[0]?.length;
    for (const args of inputs) expect(args.length).toBe(arity);
  });

  it('should shrink to values that are never larger and differ from the original', async () => {
    const g = make();
    const inputs = await g.generate(40, { seed: 3 });
    let checked = 0;
    for (const args of inputs) {
      if (!g.arbitrary.canShrinkWithoutContext(args)) continue;
      let count = 0;
      for (const smaller of g.arbitrary.shrink(args, undefined)) {
        if (count++ >= 20) break;
        checked++;
        expect(toWire(smaller.value)).not.toBe(toWire(args));
        expect(smaller.value.length).toBe(args.length);
        expect(compareComplexity(complexity(smaller.value), complexity(args))).toBeLessThanOrEqual(0);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('should shrink a witness to something strictly smaller when every input fails', async () => {
    const g = make();
    const [args] = await g.generate(1, { seed: 11 });
    const start = complexity(args);
    const shrunk = await shrinkWitness(g, args as unknown[], () => true, { maxSteps: 200 });
    expect(compareComplexity(complexity(shrunk.args), start)).toBeLessThanOrEqual(0);
    if (shrunk.improvements > 0) expect(compareComplexity(complexity(shrunk.args), start)).toBeLessThan(0);
  });

  it('should keep only inputs the filter accepts', async () => {
    const g = make().filter((...args) => toWire(args).length % 2 === 0);
    const inputs = await g.generate(50, { seed: 5 });
    expect(inputs.length).toBe(50);
    for (const args of inputs) expect(toWire(args).length % 2).toBe(0);
  });
});
