import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBeCoherentAcross, toHaveIncoherenceBelow } from '../../matchers/index.ts';
import { coherenceProperty } from '../../src/fast-check/index.ts';
import {
  type CrosscheckError,
  candidates,
  createLlm,
  defineTask,
  gen,
  isCrosscheckError,
  measure,
  type PipelineLlm,
  run,
} from '../../src/index.ts';
import { startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { parseRecord, serializeRecord } from '../../src/report/index.ts';
import { context } from '../matchers/context.ts';
import { useScriptedModel } from './helpers.ts';

/** The model's reply to "Total of: <text>": the sum of the numbers in the text, except that
 * sample 1 drops the last number of any text holding the word "discount". */
const totalReply = (lastUser: string, sample: number | null): string => {
  const text = lastUser.replace(/^Total of: /, '');
  const numbers = (text.match(/\d+/g) ?? []).map(Number);
  const used = sample === 1 && text.includes('discount') ? numbers.slice(0, -1) : numbers;
  return `Total: ${used.reduce((a, b) => a + b, 0)}`;
};

/** The pipeline under test: prompt, call, parse. */
const extractTotal = async (text: string, llm: PipelineLlm): Promise<number> => {
  const reply = await llm.complete(`Total of: ${text}`);
  const m = /Total: (-?\d+)/.exec(reply);
  if (!m) throw new SyntaxError(`no total in ${JSON.stringify(reply)}`);
  return Number(m[1]);
};

const task = defineTask({ name: 'invoiceTotal' });
const plain = [['3 pens at 2'], ['rent 500 and 20 fees'], ['nothing']] as [string][];
const discounted = [...plain, ['2 items 10 discount 3']] as [string][];

describe('candidates.fromPipeline over a scripted loopback model', () => {
  const model = useScriptedModel(totalReply);

  it('should make n candidates, each calling the model as its own sample, and replay them exactly', async () => {
    // Arrange
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3 });
    // Act
    const m = await measure(task, samples, { inputs: discounted, shrink: false });
    // Assert: one request per (sample, input), each sample under its own index.
    expect(samples.map((c) => c.label)).toEqual(['extractTotal#0', 'extractTotal#1', 'extractTotal#2']);
    expect(samples.map((c) => c.tags)).toEqual([0, 1, 2].map((sample) => ({ model: 'm', sample })));
    expect(model.server.completions()).toHaveLength(3 * discounted.length);
    expect(new Set(model.server.completions().map((r) => r.sample))).toEqual(new Set([0, 1, 2]));
    // Sample 1 disagrees on the discounted invoice only: 2 of 3 pairs on 1 input of 4.
    expect(m.incoherence?.estimate).toBeCloseTo(2 / 3 / 4, 10);
    expect(m.witness?.outputs.map((o) => [o.labels, o.outcome])).toEqual([
      [['extractTotal#0', 'extractTotal#2'], '15'],
      [['extractTotal#1'], '12'],
    ]);
    // Replay-only with the server closed: the same outcomes, no request.
    await model.server.close();
    const replay = createLlm({
      model: 'm',
      baseURL: model.server.url,
      cache: { dir: model.cache.dir, mode: 'replay-only' },
    });
    const again = await measure(task, candidates.fromPipeline(extractTotal, { llm: replay, n: 3 }), {
      inputs: discounted,
    });
    expect(again.incoherence?.estimate).toBe(m.incoherence?.estimate);
    expect(again.classes.map((c) => c.labels)).toEqual(m.classes.map((c) => c.labels));
  });

  it('should pass toBeCoherentAcross on a coherent pipeline and write tokens per candidate', async () => {
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3, label: 'total' });
    const invoices = gen.fromArbitrary(
      fc.tuple(
        fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 4 }).map((xs) => xs.join(' pens ') || 'none'),
      ),
      { description: 'invoices without a discount' },
    );
    const result = await toBeCoherentAcross.call(context(), task, samples, {
      inputs: invoices,
      epsilon: 0.2,
    });
    expect(result.pass, result.message()).toBe(true);
    const llmRecord = result.record.llm;
    expect(llmRecord?.candidates?.map((c) => c.label)).toEqual(['total#0', 'total#1', 'total#2']);
    // Each distinct input drawn runs once per sample: every sample made the same number of calls.
    const distinct = llmRecord?.candidates?.[0]?.calls ?? 0;
    expect(distinct).toBeGreaterThan(1);
    expect(distinct).toBeLessThanOrEqual(result.record.n ?? 0);
    for (const row of llmRecord?.candidates ?? []) {
      expect(row.calls).toBe(distinct);
      expect(row.prompt).toBeGreaterThan(0);
      expect(row.completion).toBeGreaterThan(0);
    }
    expect(result.record.tokens?.prompt).toBeGreaterThan(0);
    // The saved report keeps them: a record survives the JSON round trip with its per-sample rows.
    const saved = parseRecord(JSON.parse(serializeRecord(result.record)));
    expect(saved.llm?.candidates).toEqual(llmRecord?.candidates);
  });

  it('should fail toHaveIncoherenceBelow when one sample errs on a class of inputs', async () => {
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 4 });
    const result = await toHaveIncoherenceBelow.call(context(), task, 0.01, samples, {
      inputs: discounted,
    });
    expect(result.pass).toBe(false);
    expect(result.message()).toContain('extractTotal#1');
  });

  it('should run as a fast-check property that finds and shrinks the disagreement', async () => {
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3 });
    const words = fc.constantFrom('pens', 'discount', 'fees');
    const inputs = fc.tuple(
      fc
        .array(fc.oneof(words, fc.integer({ min: 0, max: 9 }).map(String)), { maxLength: 5 })
        .map((w) => w.join(' ')),
    );
    const property = coherenceProperty(task, samples, { inputs });
    const result = await fc.check(property, { seed: 7, numRuns: 60 });
    expect(result.failed).toBe(true);
    // Shrunk to the smallest text on which sample 1's dropped number shows: the word and a digit.
    const [[text]] = result.counterexample as [[string]];
    expect(text).toMatch(/discount/);
    expect(text).toMatch(/[1-9]/);
    expect(text.split(' ').length).toBe(2);
  });

  it('should write tokens per sample into the record of a coherenceProperty run', async () => {
    // Arrange
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3, label: 'total' });
    const property = coherenceProperty(task, samples, { inputs: fc.constantFrom(...plain) });
    // Act
    await fc.assert(property, { seed: 5, numRuns: 10 });
    // Assert: one record, with a row per sample; each sample called the model once per distinct
    // input drawn, and the server reported tokens for each call.
    expect(property.records).toHaveLength(1);
    const record = property.records[0];
    if (!record) throw new Error('the run wrote no record');
    const rows = record.llm?.candidates ?? [];
    expect(rows.map((r) => r.label)).toEqual(['total#0', 'total#1', 'total#2']);
    const distinct = new Set(model.server.completions().map((r) => r.lastUser)).size;
    expect(distinct).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.calls).toBe(distinct);
      expect(row.prompt).toBeGreaterThan(0);
      expect(row.completion).toBeGreaterThan(0);
    }
    expect(record.tokens?.prompt).toBe(rows.reduce((s, r) => s + r.prompt, 0));
    expect(parseRecord(JSON.parse(serializeRecord(record))).llm?.candidates).toEqual(rows);
  });

  it('should give throws, undefined and unserialisable results their outcomes and time out a hang', async () => {
    let sawAbort = false;
    const awkward = async (text: string, model: PipelineLlm): Promise<unknown> => {
      if (text === 'throw') throw new TypeError('parse failed');
      if (text === 'undefined') return undefined;
      if (text === 'function') return () => 1;
      if (text === 'hang') {
        // Never settles; the handle's signal tells it the call was given up.
        await new Promise((resolve) => model.signal.addEventListener('abort', resolve));
        sawAbort = model.signal.aborted;
        return new Promise(() => {});
      }
      return extractTotal(text, model);
    };
    // The hang under a short limit of its own; the other calls (one makes a model call) under a
    // long one, so a stalled worker on a busy machine cannot turn them into timeouts.
    const inputs = [['throw'], ['undefined'], ['function'], ['1 and 2']];
    const patient = candidates.fromPipeline(awkward, { llm: model.llm, n: 2, timeoutMs: 60_000 });
    const hasty = candidates.fromPipeline(awkward, { llm: model.llm, n: 1, timeoutMs: 200 });
    const [matrix, hung] = await Promise.all([run(task, patient, inputs), run(task, hasty, [['hang']])]);
    const row = matrix.outcomes[0] ?? [];
    expect(row.map((o) => o.kind)).toEqual(['error', 'error', 'error', 'value']);
    expect(row[0]).toMatchObject({ name: 'TypeError', message: 'parse failed' });
    expect(row[1]).toMatchObject({ name: 'PipelineReturnedUndefined' });
    expect(row[2]).toMatchObject({ name: 'Unserializable' });
    expect(row[3]?.kind === 'value' && row[3].value).toBe(3);
    expect(hung.outcomes[0]).toEqual([{ kind: 'timeout', reason: 'call', ms: 200 }]);
    expect(hung.candidates[0]?.stats.timeouts).toBe(1);
    expect(sawAbort).toBe(true);
  });

  it('should never have more calls in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = async (text: string, model: PipelineLlm) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await extractTotal(text, model);
      } finally {
        inFlight--;
      }
    };
    const samples = candidates.fromPipeline(slow, { llm: model.llm, n: 5, concurrency: 2 });
    await run(task, samples, plain);
    expect(most).toBe(2);
  });

  it('should end the run with the replay miss, naming the key and how to record, even if the pipeline catches it', async () => {
    const ci = createLlm({
      model: 'm',
      baseURL: model.server.url,
      cache: { dir: model.cache.dir, mode: 'replay-only' },
    });
    const swallowing = async (text: string, model: PipelineLlm) => {
      try {
        return await extractTotal(text, model);
      } catch {
        return 0;
      }
    };
    const error = await measure(task, candidates.fromPipeline(swallowing, { llm: ci, n: 2 }), {
      inputs: plain,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCrosscheckError(error)).toBe(true);
    expect((error as CrosscheckError).code).toBe('LLM_REPLAY_MISS');
    expect((error as Error).message).toMatch(/[0-9a-f]{32}/);
    expect((error as Error).message).toMatch(/read-write|record/i);
    expect(model.server.completions()).toHaveLength(0);
  });

  it('should count a model call that failed as unknown, not as an answer', async () => {
    await model.server.close();
    model.server = await startScriptedLlmServer({
      rules: [{ status: 400, error: { message: 'bad prompt' } }],
    });
    const failing = createLlm({
      model: 'm',
      baseURL: model.server.url,
      cache: false,
      retry: { maxRetries: 0 },
    });
    const matrix = await run(task, candidates.fromPipeline(extractTotal, { llm: failing, n: 2 }), [['1']]);
    expect(matrix.outcomes.map((r) => r[0]?.kind)).toEqual(['crash', 'crash']);
  });

  it('should refuse bad input with typed errors that say what to fix', () => {
    const attempt = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as CrosscheckError;
      }
      throw new Error('expected a throw');
    };
    const misspelt = attempt(() =>
      candidates.fromPipeline(extractTotal, { llm: model.llm, n: 2, timeoutMS: 5 } as never),
    );
    expect(misspelt.code).toBe('INVALID_OPTION');
    expect(misspelt.message).toContain('timeoutMs');
    expect(attempt(() => candidates.fromPipeline('x' as never, { llm: model.llm, n: 2 })).code).toBe(
      'INVALID_CANDIDATES',
    );
    expect(
      attempt(() => candidates.fromPipeline(extractTotal, { llm: {} as never, n: 2 })).message,
    ).toContain('createLlm');
    expect(attempt(() => candidates.fromPipeline(extractTotal, { llm: model.llm, n: 0 })).message).toContain(
      '`n`',
    );
  });
});
