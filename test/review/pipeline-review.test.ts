import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toPassGroundedReview } from '../../matchers/index.ts';
import { candidates, defineTask, type PipelineLlm, review } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { context } from '../matchers/context.ts';
import { block, CORRECT, client, generatorRules, INCORRECT, tempCache } from './helpers.ts';

/**
 * Grounded review of a pipeline's outputs: the judge sees the specification, the input and the
 * output, never code. The pipeline's model (sample 1 forgets discounts) and the review's
 * generator and judge are one scripted loopback server, told apart by purpose.
 */
const task = defineTask({
  name: 'invoiceTotal',
  entry: 'invoiceTotal',
  signature: '(invoice: string) => number',
  description:
    'Return the amount due of an invoice written as "item: amount, ..." optionally followed by "discount d": the sum of the amounts minus the discount.',
});

const due = (invoice: string): number => {
  const [items = '', discount] = invoice.split(' discount ');
  const sum = (items.match(/\d+/g) ?? []).map(Number).reduce((a, b) => a + b, 0);
  return discount === undefined ? sum : sum - Number(discount);
};

const pipeline = async (invoice: string, llm: PipelineLlm): Promise<number> => {
  const reply = await llm.complete(`Amount due of: ${invoice}`);
  return Number(/Total: (-?\d+)/.exec(reply)?.[1]);
};

const modelRule = {
  match: { purpose: 'other' },
  reply: (req: { lastUser: string; sample: number | null }) => {
    const invoice = req.lastUser.replace('Amount due of: ', '');
    return `Total: ${req.sample === 1 ? due(invoice.split(' discount ')[0] as string) : due(invoice)}`;
  },
};

const judge = (input: string, output: string): string => {
  const [invoice] = JSON.parse(input) as [string];
  return output === `returned: ${due(invoice)}` ? CORRECT() : INCORRECT(`The amount due is ${due(invoice)}.`);
};

describe('grounded review of a pipeline', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(async () => {
    cache = tempCache();
    server = await startScriptedLlmServer({
      rules: [
        modelRule,
        ...generatorRules(
          ['no discount', 'with a discount'],
          {
            S1: { inputs: block(['["pens: 3, ink: 4"]', '["rent: 500"]']) },
            S2: { inputs: block(['["pens: 3, ink: 4 discount 2"]', '["rent: 500 discount 50"]']) },
          },
          judge,
        ),
      ],
    });
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });

  it('should accept the right sample and reject the one that forgets discounts, the judge seeing no code', async () => {
    const llm = client(server.url, cache.dir);
    const [right, forgetful] = candidates.fromPipeline(pipeline, { llm, n: 2 });
    const accepted = await review(task, right!, { llm });
    expect(accepted.verdict).toBe('accept');
    const rejected = await toPassGroundedReview.call(context(), forgetful!, task, { llm });
    expect(rejected.pass).toBe(false);
    expect(rejected.message()).toContain('discount');
    const judged = server.completions().filter((r) => r.purpose === 'judge');
    expect(judged.length).toBeGreaterThan(0);
    for (const r of judged) {
      const prompt = r.messages.map((m) => m.content).join('\n');
      expect(prompt).toContain('the sum of the amounts minus the discount');
      expect(prompt).not.toContain('llm.complete');
      expect(prompt).not.toContain('Amount due of');
    }
  });
});
