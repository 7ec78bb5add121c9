import { stripVTControlCharacters } from 'node:util';
import { processError } from '@vitest/utils/error';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { fromFunctions } from '../../src/candidates/index.ts';
import { defineTask } from '../../src/task/index.ts';

/**
 * A failing matcher hands the host `actual` and `expected`, and Vitest prints their diff. The
 * diff is what Vitest's own runner computes for a failed assertion (`processError`), without
 * colours.
 */

const diffOf = async (assertion: () => unknown): Promise<string> => {
  try {
    await assertion();
  } catch (error) {
    return stripVTControlCharacters(processError(error).diff ?? '(no diff)');
  }
  throw new Error('expected the assertion to fail');
};

describe('diffs of failing matchers', () => {
  it('should show the two rankings of a failing toRankLike, item by item', async () => {
    // Act
    const diff = await diffOf(() =>
      expect({ a: 0.9, b: 0.5, c: 0.1 }).toRankLike({ a: 0.2, b: 0.8, c: 0.1 }, { minSpearman: 0.9 }),
    );
    // Assert
    expect(diff).toMatchInlineSnapshot(`
      "- Expected
      + Received

        {
      -   "a": 2,
      -   "b": 3,
      +   "a": 3,
      +   "b": 2,
          "c": 1,
        }"
    `);
  });

  it("should show the candidate's and the reference's outputs on the witness of a failing toAgreeWithReference", async () => {
    // Arrange: sorting numbers as strings is wrong once two numbers differ in digit count.
    const task = defineTask({
      name: 'sortAsc',
      reference: (xs: number[]) => [...xs].sort((a, b) => a - b),
      inputs: [[[10, 9, 100]], [[3, 1, 2]]],
    });
    const lexical = fromFunctions({ lexical: (xs: number[]) => [...xs].sort() })[0];
    // Act
    const diff = await diffOf(() => expect(lexical).toAgreeWithReference(task, { shrink: false }));
    // Assert
    expect(diff).toMatchInlineSnapshot(`
      "- Expected
      + Received

        [
      -   9,
          10,
          100,
      +   9,
        ]"
    `);
  });

  it('should leave the diff out where it says nothing (a passing .not, a check without a witness)', async () => {
    // Arrange
    const task = defineTask({ name: 'id', reference: (x: number) => x, inputs: [[1], [2]] });
    const same = fromFunctions({ same: (x: number) => x })[0];
    // Act
    const diff = await diffOf(() => expect(same).not.toAgreeWithReference(task));
    // Assert
    expect(diff).toBe('(no diff)');
  });
});
