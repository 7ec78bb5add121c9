import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toHaveIncoherenceBelow } from '../../matchers/index.ts';
import {
  type CrosscheckError,
  candidates,
  createLlm,
  defineTask,
  judgedEquivalence,
  type Llm,
  measure,
  type PipelineLlm,
} from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { context } from '../matchers/context.ts';
import { tempCache } from './helpers.ts';

/** The vendor as each sample spells it: samples 0 and 1 name ACME two ways, sample 2 is wrong. */
const SPELLINGS = ['ACME Corporation', 'Acme Corp.', 'Globex'];

const vendorOf = async (invoice: string, llm: PipelineLlm): Promise<string> =>
  (await llm.complete(`Vendor of: ${invoice}`)).trim();

const outputsOf = (prompt: string): string[] =>
  [...prompt.matchAll(/<<<OUTPUT [AB]\n([\s\S]*?)\nOUTPUT [AB]>>>/g)].map((m) => m[1] as string);

const task = defineTask({ name: 'vendor' });
const inputs: [string][] = [['invoice 1'], ['invoice 2']];

describe('judgedEquivalence: a model decides which outputs are the same answer', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  let llm: Llm;
  const start = async (judgeReply: (outputs: string[]) => string) => {
    server = await startScriptedLlmServer({
      rules: [
        { match: { purpose: 'judge' }, reply: (req) => judgeReply(outputsOf(req.lastUser)) },
        { reply: (req) => SPELLINGS[req.sample ?? 0] as string },
      ],
    });
    llm = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'read-write' } });
  };
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });

  it('should count spellings the judge calls equivalent as agreement, say so in the record, and replay', async () => {
    await start((outs) =>
      outs.every((o) => /acme/i.test(o)) ? 'Both name ACME.\nVERDICT: EQUIVALENT' : 'VERDICT: DIFFERENT',
    );
    const strict = await measure(task, candidates.fromPipeline(vendorOf, { llm, n: 3 }), { inputs });
    expect(strict.incoherence?.estimate).toBe(1);
    const equivalence = judgedEquivalence({
      llm,
      specification: 'the vendor named on the invoice',
      check: [
        { input: 'x', a: 'ACME Corporation', b: 'acme corp', equivalent: true },
        { input: 'x', a: 'ACME', b: 'Globex', equivalent: false },
      ],
    });
    const samples = candidates.fromPipeline(vendorOf, { llm, n: 3, equivalence });
    const result = await toHaveIncoherenceBelow.call(context(), task, 0.9, samples, {
      inputs,
      shrink: false,
    });
    // Only Globex disagrees now: 2 of 3 pairs on every input.
    expect((result.record.data as { incoherence: { estimate: number } }).incoherence.estimate).toBeCloseTo(
      2 / 3,
      10,
    );
    // Per input: sample 1 joins sample 0's cluster, Globex is told apart from it. The summary
    // counts every pair judged since the judge was made, over every run of the check.
    const summary = result.record.llm?.equivalence;
    expect(summary).toMatchObject({
      judge: 'm',
      garbage: 0,
      failed: 0,
      undecided: 0,
      agreement: 1,
      checked: 2,
    });
    expect(summary?.equivalent).toBeGreaterThanOrEqual(inputs.length);
    expect(summary?.different).toBe(summary?.equivalent);
    expect(summary?.pairs).toBe((summary?.equivalent ?? 0) * 2);
    expect(result.record.llm?.calls.some((c) => c.purpose === 'judge')).toBe(true);
    // Cached like every other call: replay-only with the server closed gives the same figures.
    const asked = server.completions().length;
    const replay = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'replay-only' },
    });
    const again = await measure(
      task,
      candidates.fromPipeline(vendorOf, {
        llm: replay,
        n: 3,
        equivalence: judgedEquivalence({ llm: replay, specification: 'the vendor named on the invoice' }),
      }),
      { inputs, shrink: false },
    );
    expect(again.incoherence?.estimate).toBeCloseTo(2 / 3, 10);
    expect(server.completions().length).toBe(asked);
  });

  it('should never read a garbage verdict as equal: the outputs it cannot place are unknown and counted', async () => {
    await start(() => 'They look similar, I think.');
    const equivalence = judgedEquivalence({ llm, specification: 'the vendor named on the invoice' });
    const samples = candidates.fromPipeline(vendorOf, { llm, n: 3, equivalence });
    const m = await measure(task, samples, { inputs, shrink: false });
    // The first output of each input starts a cluster; the two the judge could not place are unknown.
    expect(m.unknown.cells).toBe(4);
    expect(m.incoherence?.estimate).toBe(1);
    // The summary counts every pair judged since the judge was made (here: over the runs of measure).
    const summary = samples[0]?.pipeline?.group?.summary();
    expect(summary).toMatchObject({ equivalent: 0, different: 0, agreement: null });
    expect(summary?.garbage).toBeGreaterThanOrEqual(4);
    expect(summary?.undecided).toBe(summary?.garbage);
    const result = await toHaveIncoherenceBelow.call(context(), task, 0.5, samples, {
      inputs,
      shrink: false,
    });
    expect(result.pass).toBe(false);
    expect(result.record.llm?.equivalence?.equivalent).toBe(0);
    expect(result.record.llm?.equivalence?.garbage).toBeGreaterThan(summary?.garbage ?? 0);
  });

  it('should refuse a judge without a specification, unknown keys and a foreign equivalence', () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as CrosscheckError;
      }
      throw new Error('expected a throw');
    };
    const fake = { chat: () => null, model: 'x', sampling: {} } as unknown as Llm;
    expect(thrown(() => judgedEquivalence({ llm: fake } as never)).message).toContain(
      '`specification` is required',
    );
    expect(
      thrown(() => judgedEquivalence({ llm: fake, specification: 's', chek: [] } as never)).message,
    ).toContain('check');
    expect(
      thrown(() => candidates.fromPipeline(vendorOf, { llm: fake, n: 2, equivalence: (() => true) as never }))
        .message,
    ).toContain('judgedEquivalence');
  });
});
