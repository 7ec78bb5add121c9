import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toHaveIncoherenceBelow } from '../../matchers/index.ts';
import { candidates, createLlm, defineTask, type PipelineLlm } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { context } from '../matchers/context.ts';

/**
 * The cost of each pipeline sample in a record, from a price given to `createLlm`: the scripted
 * server reports 100 prompt and 10 completion tokens for every call, so each call costs
 * (100 × $2 + 10 × $8) per million tokens = $0.00028, and a sample's row is that times its calls.
 */

const PROMPT = 100;
const COMPLETION = 10;
const PRICE = { input: 2, output: 8 };
const PER_CALL = (PROMPT * PRICE.input + COMPLETION * PRICE.output) / 1e6;

const extractTotal = async (text: string, llm: PipelineLlm): Promise<number> =>
  Number(/Total: (\d+)/.exec(await llm.complete(`Total of: ${text}`))?.[1]);

const task = defineTask({ name: 'invoiceTotal' });
const inputs: [string][] = [['3 pens at 2'], ['rent 500 and 20 fees'], ['nothing']];

describe('cost per pipeline sample', () => {
  let server: ScriptedLlmServer;
  beforeEach(async () => {
    server = await startScriptedLlmServer({
      rules: [{ reply: 'Total: 6' }],
      usage: () => ({
        prompt_tokens: PROMPT,
        completion_tokens: COMPLETION,
        total_tokens: PROMPT + COMPLETION,
      }),
    });
  });
  afterEach(async () => {
    await server.close();
  });

  it("should give each sample's row its cost at the model's price", async () => {
    // Arrange
    const llm = createLlm({
      model: 'priced-model',
      baseURL: server.url,
      cache: false,
      prices: { 'priced-model': PRICE },
    });
    const samples = candidates.fromPipeline(extractTotal, { llm, n: 3 });
    // Act
    const result = await toHaveIncoherenceBelow.call(context(), task, 0.99, samples, { inputs });
    // Assert: one call per input per sample, each priced.
    const rows = result.record.llm?.candidates ?? [];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ calls: 3, prompt: 3 * PROMPT, completion: 3 * COMPLETION });
      expect(row.costUsd).not.toBeNull();
      expect(row.costUsd).toBeCloseTo(3 * PER_CALL, 12);
    }
    expect(result.record.tokens?.costUsd).toBeCloseTo(9 * PER_CALL, 12);
  });

  it('should leave the cost null, not 0, for a model without a price', async () => {
    // Arrange
    const llm = createLlm({ model: 'unpriced-model', baseURL: server.url, cache: false });
    const samples = candidates.fromPipeline(extractTotal, { llm, n: 2 });
    // Act
    const result = await toHaveIncoherenceBelow.call(context(), task, 0.99, samples, { inputs });
    // Assert
    const rows = result.record.llm?.candidates ?? [];
    expect(rows.map((r) => [r.calls, r.costUsd])).toEqual([
      [3, null],
      [3, null],
    ]);
    expect(result.record.llm?.unpriced).toEqual(['unpriced-model']);
  });
});
