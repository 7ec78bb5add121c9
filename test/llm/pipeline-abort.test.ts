import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CrosscheckError,
  candidates,
  createLlm,
  defineTask,
  isCrosscheckError,
  judgedEquivalence,
  type PipelineLlm,
  RunAbortedError,
  run,
} from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache } from './helpers.ts';

/**
 * Ending a run of pipeline samples early: the caller's signal, or one sample's replay miss,
 * aborts every pipeline call still in flight, and the run ends then, not when each call's own
 * timeout would have fired. The timeouts here are set far past any test's time, so a run that
 * waited for them would make the test time out instead of passing.
 */

const task = defineTask({ name: 'invoiceTotal' });
const NEVER_MS = 3_600_000;

/** Resolves once `count` calls of `arrive` have happened. */
const arrivals = (count: number) => {
  let seen = 0;
  let done = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  return {
    all,
    arrive: () => {
      seen++;
      if (seen === count) done();
    },
  };
};

const errorOf = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('aborting a run of pipeline samples', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });

  it("should abort the samples' model calls in flight when the run's signal is aborted", async () => {
    // Arrange: the model takes every request and never answers; the signal is aborted once all
    // three samples' requests have reached it.
    const inFlight = arrivals(3);
    server = await startScriptedLlmServer({
      rules: [
        {
          match: () => {
            inFlight.arrive();
            return true;
          },
          fault: 'hang',
        },
      ],
    });
    const llm = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: false,
      timeoutMs: NEVER_MS,
      maxConcurrency: 3,
    });
    const seen: { sample: number; aborted: boolean; code: string | null }[] = [];
    const caught = arrivals(3);
    const extractTotal = async (text: string, model: PipelineLlm): Promise<string> => {
      try {
        return await model.complete(`Total of: ${text}`);
      } catch (error) {
        seen.push({
          sample: model.sample,
          aborted: model.signal.aborted,
          code: isCrosscheckError(error) ? error.code : null,
        });
        caught.arrive();
        throw error;
      }
    };
    const samples = candidates.fromPipeline(extractTotal, { llm, n: 3, timeoutMs: NEVER_MS });
    const controller = new AbortController();
    const reason = new Error('the user pressed Ctrl-C');
    void inFlight.all.then(() => controller.abort(reason));
    // Act
    const error = await errorOf(run(task, samples, [['3 pens at 2']], { signal: controller.signal }));
    // Assert: the run's typed abort error, and each sample's model call ended by that abort.
    expect(error).toBeInstanceOf(RunAbortedError);
    expect((error as RunAbortedError).code).toBe('ABORTED');
    expect((error as RunAbortedError).cause).toBe(reason);
    // The run gives the calls up at once; their rejections may land just after it.
    await caught.all;
    expect(seen.sort((a, b) => a.sample - b.sample)).toEqual(
      [0, 1, 2].map((sample) => ({ sample, aborted: true, code: 'ABORTED' })),
    );
    expect(server.completions()).toHaveLength(3);
  });

  it('should end the run when the signal is aborted even if a pipeline ignores its signal', async () => {
    // Arrange: a pipeline that waits on something of its own and never looks at its signal.
    server = await startScriptedLlmServer();
    const llm = createLlm({ model: 'm', baseURL: server.url, cache: false });
    const started = arrivals(2);
    const stubborn = async (_text: string, _model: PipelineLlm): Promise<number> => {
      started.arrive();
      return new Promise<number>(() => {});
    };
    const samples = candidates.fromPipeline(stubborn, { llm, n: 2, timeoutMs: NEVER_MS });
    const controller = new AbortController();
    void started.all.then(() => controller.abort());
    // Act
    const error = await errorOf(run(task, samples, [['1']], { signal: controller.signal }));
    // Assert
    expect(error).toBeInstanceOf(RunAbortedError);
  });

  it('should not start a queued pipeline call once the run is aborted, and end the run', async () => {
    // Arrange: one call at a time, so samples 1 and 2 wait in the queue behind sample 0, which
    // ignores its signal; the signal is aborted once sample 0 runs.
    server = await startScriptedLlmServer();
    const llm = createLlm({ model: 'm', baseURL: server.url, cache: false });
    const started: number[] = [];
    const first = arrivals(1);
    const stubborn = async (_text: string, model: PipelineLlm): Promise<number> => {
      started.push(model.sample);
      first.arrive();
      return new Promise<number>(() => {});
    };
    const samples = candidates.fromPipeline(stubborn, { llm, n: 3, timeoutMs: NEVER_MS, concurrency: 1 });
    const controller = new AbortController();
    void first.all.then(() => controller.abort());
    // Act
    const error = await errorOf(run(task, samples, [['1']], { signal: controller.signal }));
    // Assert: the run ended, and the calls still queued at the abort never ran. The queue moves
    // on when sample 0's call is given up; a few turns of the event loop let it.
    expect(error).toBeInstanceOf(RunAbortedError);
    for (let k = 0; k < 5; k++) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0]);
  });

  it("should let more than ten calls in flight listen to the run's signal without a leak warning", async () => {
    // Arrange: twelve samples at once, each call listening to the run's signal.
    server = await startScriptedLlmServer({ rules: [{ reply: 'Total: 6' }] });
    const llm = createLlm({ model: 'm', baseURL: server.url, cache: false });
    const extractTotal = async (text: string, model: PipelineLlm) => model.complete(`Total of: ${text}`);
    const samples = candidates.fromPipeline(extractTotal, { llm, n: 12, concurrency: 12 });
    const warned: string[] = [];
    const onWarning = (w: Error) => warned.push(w.name);
    process.on('warning', onWarning);
    try {
      // Act
      await run(task, samples, [['3 pens at 2']], { signal: new AbortController().signal });
      // Node emits warnings on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    // Assert
    expect(warned).not.toContain('MaxListenersExceededWarning');
  });

  it("should abort the other samples' calls in flight when one sample's model call misses the replay cache", async () => {
    // Arrange: every sample looks the invoice up on a loopback service that never answers,
    // passing its signal on as the handle asks. Samples 1 and 2 start with the lookup; sample 0
    // first calls the model (replay-only, nothing recorded) once the other two are waiting, and
    // falls back to the lookup when that call fails. The samples share an equivalence judge,
    // so the runner takes their answers on an input together.
    const lookups = arrivals(2);
    const service: Server = createServer(() => lookups.arrive());
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const lookupUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/invoice`;
    server = await startScriptedLlmServer({ rules: [{ reply: 'Total: 6' }] });
    const ci = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'replay-only' } });
    const lookupErrors = new Map<number, unknown>();
    const lookupsEnded = arrivals(3);
    const lookUp = async (model: PipelineLlm): Promise<string> => {
      try {
        await fetch(lookupUrl, { signal: model.signal });
      } catch (error) {
        lookupErrors.set(model.sample, error);
      }
      lookupsEnded.arrive();
      return 'looked up';
    };
    const extractTotal = async (text: string, model: PipelineLlm): Promise<string> => {
      if (model.sample !== 0) return lookUp(model);
      await lookups.all;
      try {
        return await model.complete(`Total of: ${text}`);
      } catch {
        return lookUp(model);
      }
    };
    const equivalence = judgedEquivalence({ llm: ci, specification: 'the total of the invoice' });
    const samples = candidates.fromPipeline(extractTotal, {
      llm: ci,
      n: 3,
      timeoutMs: NEVER_MS,
      equivalence,
    });
    try {
      // Act
      const error = await errorOf(run(task, samples, [['3 pens at 2']]));
      // Assert: the run ends with the miss; the other samples' lookups were aborted with it as
      // the reason, and sample 0's own fallback was aborted when its call was given up.
      expect(isCrosscheckError(error)).toBe(true);
      expect((error as CrosscheckError).code).toBe('LLM_REPLAY_MISS');
      await lookupsEnded.all;
      expect(lookupErrors.get(1)).toBe(error);
      expect(lookupErrors.get(2)).toBe(error);
      expect(lookupErrors.get(0)).toMatchObject({ name: 'AbortError' });
      expect(server.completions()).toHaveLength(0);
    } finally {
      service.closeAllConnections();
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
