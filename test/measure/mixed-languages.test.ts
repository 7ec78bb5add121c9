import { afterAll, describe, expect, it } from 'vitest';
import { candidates, closePythonWorkers, defineTask, measure } from '../../src/index.ts';

afterAll(() => closePythonWorkers());

const inputs = Array.from({ length: 20 }, (_, i) => [i] as [number]);

describe('measure: the default equality of a pool of several languages', () => {
  it('should find a JS number and a Python float of the same value in agreement', async () => {
    // Arrange: x / 2 is a JS number (0, 1, …) and a Python float (0.0, 1.0, …) on even x.
    const task = defineTask({ name: 'half', inputs });
    const pool = [
      ...candidates.fromFunctions({ js: (x: number) => x / 2 }),
      ...candidates.fromSources(['def half(x):\n    return x / 2\n'], { language: 'python', entry: 'half' }),
    ];

    // Act
    const m = await measure(task, pool);

    // Assert
    expect(m.equality).toBe('mixed');
    expect(m.incoherence?.estimate).toBe(0);
    expect(m.errorLowerBound).toBe(0);
  });

  it('should count a Python reference among the languages', async () => {
    // Arrange
    const reference = candidates.fromSources(['def half(x):\n    return x / 2\n'], {
      language: 'python',
      entry: 'half',
    })[0];
    const task = defineTask({ name: 'half', inputs, reference });
    const pool = candidates.fromFunctions({ a: (x: number) => x / 2, b: (x: number) => x * 0.5 });

    // Act
    const m = await measure(task, pool);

    // Assert
    expect(m.equality).toBe('mixed');
    expect(m.error?.estimate).toBe(0);
  });

  it('should still tell a boolean from a number, as strict does', async () => {
    // Arrange: Python's == would call True and 1 equal; the mixed default does not.
    const task = defineTask({ name: 'positive', inputs });
    const pool = [
      ...candidates.fromFunctions({ js: (x: number) => x > 0 }),
      ...candidates.fromSources(['def positive(x):\n    return int(x > 0)\n'], {
        language: 'python',
        entry: 'positive',
      }),
    ];

    // Act
    const m = await measure(task, pool);

    // Assert
    expect(m.equality).toBe('mixed');
    expect(m.incoherence?.estimate).toBe(1);
  });
});
