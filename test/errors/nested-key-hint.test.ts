import { describe, expect, it } from 'vitest';
import { candidates, createLlm, defineTask, isCrosscheckError, measure } from '../../src/index.ts';

/**
 * An option given one level too high (`createLlm({ temperature })` for
 * `createLlm({ sampling: { temperature } })`) is refused like any unknown key, and the message
 * names where it belongs, since no key of its own level is near it.
 */

/** The message of the CrosscheckError `call` throws (fails the test if it throws anything else). */
const messageOf = async (call: () => unknown): Promise<string> => {
  try {
    await call();
  } catch (error) {
    expect(isCrosscheckError(error), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a CrosscheckError, nothing was thrown');
};

describe('a key one level too high', () => {
  it('createLlm({ temperature }) points to sampling.temperature', async () => {
    const message = await messageOf(() => createLlm({ model: 'm', temperature: 0.2 } as never));
    expect(message).toContain('unknown option `temperature`; did you mean `sampling.temperature`?');
  });

  it('createLlm({ maxRetries }) points to retry.maxRetries, and a near key of its own level wins', async () => {
    expect(await messageOf(() => createLlm({ model: 'm', maxRetries: 2 } as never))).toContain(
      'did you mean `retry.maxRetries`?',
    );
    expect(await messageOf(() => createLlm({ model: 'm', timeoutMS: 5 } as never))).toContain(
      'did you mean `timeoutMs`?',
    );
  });

  it('measure(…, { timeoutMs }) points to run.timeoutMs', async () => {
    const task = defineTask({ name: 'inc', inputs: [[1], [2]], reference: (x: number) => x + 1 });
    const pool = candidates.fromFunctions([(x: number) => x + 1, (x: number) => 1 + x]);
    const message = await messageOf(() => measure(task, pool, { timeoutMs: 5 } as never));
    expect(message).toContain('did you mean `run.timeoutMs`?');
  });

  it('suggests nothing for a key that is near nothing', async () => {
    const message = await messageOf(() => createLlm({ model: 'm', flavour: 'x' } as never));
    expect(message).toContain('unknown option `flavour`.');
    expect(message).not.toContain('did you mean');
  });
});
