import { describe, expect, it } from 'vitest';
import {
  Complex,
  checkTagged,
  comparator,
  decode,
  encode,
  formatTagged,
  type Tagged,
} from '../../src/values/index.ts';

/**
 * A dataset that tags every Python float tags the parts of a complex too
 * (`{"$complex":[{"$float":1.0},{"$float":2.0}]}`); that is the same number as the bare form every
 * encoder writes, for the checker, the decoder, the equality modes and the formatter alike.
 */
describe('$complex with tagged float parts', () => {
  const tagged = { $complex: [{ $float: 1.5 }, { $float: 'nan' }] } as unknown as Tagged;
  const bare = { $complex: [1.5, 'nan'] } as unknown as Tagged;

  it('should check, decode and re-encode to the bare form', () => {
    expect(checkTagged(tagged)).toBeNull();
    const value = decode(tagged) as Complex;
    expect(value).toBeInstanceOf(Complex);
    expect(value.re).toBe(1.5);
    expect(Number.isNaN(value.im)).toBe(true);
    expect(encode(value)).toEqual(bare);
  });

  it('should compare and format like the bare form in every equality mode', () => {
    for (const mode of ['strict', 'python', 'mixed', 'difftrust'] as const) {
      expect(comparator(mode).equalTagged(tagged, bare), mode).toBe(true);
    }
    expect(formatTagged(tagged)).toBe(formatTagged(bare));
  });

  it('should still refuse parts that are no float', () => {
    for (const bad of [
      { $complex: ['1+2j'] },
      { $complex: [{ $float: {} }, 1] },
      { $complex: [{ $float: 1, extra: 1 }, 1] },
      { $complex: [{ $int: '1' }, 1] },
    ]) {
      expect(checkTagged(bad), JSON.stringify(bad)).toMatch(/a \$complex that is not a pair of floats/);
    }
  });
});
