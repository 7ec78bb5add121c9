import { describe, expect, it } from 'vitest';
import { CrosscheckError, candidates, defineTask, detect, gen } from '../../src/index.ts';

describe('detect with an epsilon too small to draw for', () => {
  it('should refuse with a typed error naming epsilon, before drawing anything', async () => {
    // Arrange: N = ⌈ln 0.05 / ln(1 − 1e-12)⌉ ≈ 3·10¹² draws.
    const task = defineTask({ name: 'id', inputs: gen.fromSignature('(x: number) => number') });
    const pool = candidates.fromFunctions({ a: (x: number) => x, b: (x: number) => x });
    // Act
    const run = detect(task, pool, { epsilon: 1e-12 });
    // Assert
    await expect(run).rejects.toBeInstanceOf(CrosscheckError);
    await expect(run).rejects.toThrow(
      /`epsilon` with delta 0\.05 needs N = \d+ inputs, above the 1000000 detect draws.*Pass a larger epsilon/,
    );
  });
});
