/**
 * A task without a reference: integers to Roman numerals. No oracle is needed to see that model-b's
 * samples cannot all be right: one of them never writes the subtractive forms (IV, IX, XL, ...).
 */
import 'crosscheck/vitest';
import { candidates, defineTask, gen } from 'crosscheck';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const toRoman = defineTask({
  name: 'toRoman',
  description: 'The Roman numeral of an integer from 1 to 3999, in standard subtractive notation.',
  inputs: gen.fromArbitrary(fc.tuple(fc.integer({ min: 1, max: 3999 }))),
});

const modelA = candidates.fromSources(
  [
    '```js\nfunction toRoman(n) {\n  const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"],\n    [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];\n  let out = "";\n  for (const [value, numeral] of table) {\n    while (n >= value) { out += numeral; n -= value; }\n  }\n  return out;\n}\n```',
    'function toRoman(num) {\n  const ones = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"];\n  const tens = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"];\n  const hundreds = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"];\n  return "M".repeat(Math.floor(num / 1000)) + hundreds[Math.floor(num / 100) % 10] + tens[Math.floor(num / 10) % 10] + ones[num % 10];\n}',
    'const toRoman = (n) => {\n  const digit = (d, one, five, ten) =>\n    d === 9 ? one + ten : d >= 5 ? five + one.repeat(d - 5) : d === 4 ? one + five : one.repeat(d);\n  return "M".repeat(Math.floor(n / 1000)) + digit(Math.floor(n / 100) % 10, "C", "D", "M") +\n    digit(Math.floor(n / 10) % 10, "X", "L", "C") + digit(n % 10, "I", "V", "X");\n};',
  ],
  { language: 'javascript', entry: 'toRoman', tags: { model: 'model-a' } },
);
const modelB = candidates.fromSources(
  [
    'function toRoman(n) {\n  const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"],\n    [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];\n  return table.reduce((out, [v, s]) => { while (n >= v) { out += s; n -= v; } return out; }, "");\n}',
    // Additive notation only: 4 is IIII, 9 is VIIII.
    'function toRoman(n) {\n  const table = [[1000, "M"], [500, "D"], [100, "C"], [50, "L"], [10, "X"], [5, "V"], [1, "I"]];\n  let out = "";\n  for (const [value, numeral] of table) {\n    out += numeral.repeat(Math.floor(n / value));\n    n %= value;\n  }\n  return out;\n}',
    'function toRoman(n) {\n  const values = [1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1];\n  const numerals = ["M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"];\n  let out = "";\n  values.forEach((v, i) => { while (n >= v) { out += numerals[i]; n -= v; } });\n  return out;\n}',
  ],
  { language: 'javascript', entry: 'toRoman', tags: { model: 'model-b' } },
);

describe('toRoman', () => {
  it('model-a: the samples agree (PAC: incoherence ≤ 5% with 95% confidence)', async () => {
    await expect(toRoman).toBeCoherentAcross(modelA, { epsilon: 0.05, delta: 0.05 });
  });

  it('model-b: the samples disagree, so at least one of them is wrong', async () => {
    await expect(toRoman).not.toBeCoherentAcross(modelB, { epsilon: 0.05, delta: 0.05 });
  });

  it('model-b: incoherence is at least 10%, so the error is at least 5%', async () => {
    // I ≤ 2E: measured incoherence bounds the error from below, with no reference.
    await expect(toRoman).not.toHaveIncoherenceBelow(0.1, modelB, { n: 300 });
  });
});
