import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlm, isCrosscheckError, type LlmOptions } from '../../src/index.ts';
import {
  type ScriptedLlmServer,
  type ScriptedRule,
  startScriptedLlmServer,
} from '../../src/llm/testing/index.ts';
import { tempCache, warnings } from './helpers.ts';

const ask = { messages: [{ role: 'user' as const, content: 'Retry me.' }] };

const entriesIn = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/\d{4}\.json$/.test(e.name)) out.push(e.name);
    }
  };
  walk(join(dir, 'v1'));
  return out;
};

describe('retries, limits and hostile servers', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });
  const client = (extra: Partial<LlmOptions> = {}) =>
    createLlm({
      model: 'gpt-4o-mini',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      ...extra,
    });
  const script = async (rules: ScriptedRule[]) => {
    server = await startScriptedLlmServer({ rules: [...rules, { reply: 'ok' }] });
  };

  it('should retry a 429 after its retry-after-ms and count the retry', async () => {
    await script([{ status: 429, headers: { 'retry-after-ms': '5' }, times: 1 }]);
    const llm = client();
    const c = await llm.chat(ask);
    expect([c.text, c.retries]).toEqual(['ok', 1]);
    expect(server.completions()).toHaveLength(2);
    expect(llm.stats).toEqual({ requests: 2, retries: 1, retriesByReason: { '429': 1 } });
    expect(llm.ledger.totals().live.retries).toBe(1);
  });

  it('should retry 5xx, 408, 409 and resets, up to maxRetries', async () => {
    await script([
      { status: 500, times: 1 },
      { status: 408, times: 1 },
      { status: 409, times: 1 },
      { fault: 'reset', times: 1 },
      { status: 503, times: 1 },
    ]);
    const llm = client({ retry: { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 2 } });
    const c = await llm.chat(ask);
    expect([c.text, c.retries]).toEqual(['ok', 5]);
    expect(llm.stats.retriesByReason).toEqual({ '500': 1, '408': 1, '409': 1, connection: 1, '503': 1 });
  });

  it('should stop after maxRetries with LLM_REQUEST_FAILED naming status, attempts and request id, caching nothing', async () => {
    await script([{ status: 502, headers: { 'x-request-id': 'req_42' } }]);
    const llm = client({ retry: { maxRetries: 2, baseDelayMs: 1 } });
    const err = await llm.chat(ask).catch((e) => e);
    expect(isCrosscheckError(err) && err.code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/status 502.*request id req_42; 3 attempts\. Nothing was cached\./);
    expect(server.completions()).toHaveLength(3);
    expect(entriesIn(cache.dir)).toEqual([]);
  });

  it('should not retry when the server says x-should-retry: false, nor a 400', async () => {
    await script([
      { status: 500, headers: { 'x-should-retry': 'false' }, times: 1 },
      { status: 400, times: 1 },
    ]);
    const llm = client();
    expect((await llm.chat(ask).catch((e) => e)).code).toBe('LLM_REQUEST_FAILED');
    expect((await llm.chat(ask).catch((e) => e)).code).toBe('LLM_REQUEST_FAILED');
    expect(server.completions()).toHaveLength(2);
  });

  it('should fail at once on insufficient_quota (retrying cannot help)', async () => {
    await script([
      {
        status: 429,
        error: { code: 'insufficient_quota', type: 'insufficient_quota' },
        headers: { 'retry-after-ms': '1' },
      },
    ]);
    const err = await client()
      .chat(ask)
      .catch((e) => e);
    expect(err.code).toBe('LLM_QUOTA');
    expect(err.message).toMatch(/quota is exhausted \(429 insufficient_quota\); retrying cannot help/);
    expect(server.completions()).toHaveLength(1);
  });

  it('should end a connection that never answers with the per-attempt timeout, then retry', async () => {
    await script([{ fault: 'hang', times: 1 }]);
    const llm = client({ timeoutMs: 1500 });
    const c = await llm.chat(ask);
    expect([c.text, c.retries]).toEqual(['ok', 1]);
    expect(llm.stats.retriesByReason).toEqual({ timeout: 1 });
  });

  it.each([
    ['malformed JSON', 'malformed-json' as const],
    ['an empty choices array', 'empty-choices' as const],
    ['a 10 MB reply', 'huge' as const],
    ['a wrong content type', 'wrong-content-type' as const],
  ])('should retry %s once and record only the good reply', async (_name, fault) => {
    await script([{ fault, times: 1 }]);
    const llm = client({ maxReplyBytes: 1024 * 1024 });
    const c = await llm.chat(ask);
    expect([c.text, c.retries, c.cached]).toEqual(['ok', 1, false]);
    expect(llm.stats.retriesByReason).toEqual({ 'bad-reply': 1 });
    expect(entriesIn(cache.dir)).toEqual(['0000.json']);
  });

  it.each([
    ['malformed JSON', 'malformed-json' as const, /not valid JSON/],
    ['an empty choices array', 'empty-choices' as const, /no `choices`/],
    ['a 10 MB reply', 'huge' as const, /larger than maxReplyBytes \(1048576 bytes\)|declares \d+ bytes/],
    ['a wrong content type', 'wrong-content-type' as const, /non-JSON body/],
    ['a connection that never answers', 'hang' as const, /timed out/],
  ])('should give a typed error for %s that persists, caching nothing', async (_name, fault, message) => {
    server = await startScriptedLlmServer({ rules: [{ fault }] });
    const llm = client({
      maxReplyBytes: 1024 * 1024,
      // Short only for the hang: under load, 10 MB take longer than that to refuse.
      timeoutMs: fault === 'hang' ? 1500 : 30_000,
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const err = await llm.chat(ask).catch((e) => e);
    expect(isCrosscheckError(err)).toBe(true);
    expect(err.code).toBe(fault === 'hang' ? 'LLM_REQUEST_FAILED' : 'LLM_BAD_REPLY');
    expect(err.message).toMatch(message);
    expect(err.message).toContain('2 attempts');
    expect(server.completions()).toHaveLength(2);
    expect(entriesIn(cache.dir)).toEqual([]);
  });

  it('should keep at most maxConcurrency requests in flight', async () => {
    server = await startScriptedLlmServer({ rules: [{ delayMs: 30, reply: 'ok' }] });
    const llm = client({ maxConcurrency: 3 });
    await llm.draw(ask, { samples: 12 });
    expect(server.completions()).toHaveLength(12);
    expect(server.peakInFlight()).toBe(3);
  });

  it('should abort with ABORTED and release the entry for the next caller', async () => {
    server = await startScriptedLlmServer({ rules: [{ fault: 'hang', times: 1 }, { reply: 'ok' }] });
    const llm = client();
    const controller = new AbortController();
    const pending = llm.chat(ask, { signal: controller.signal });
    while (server.completions().length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect((await pending.catch((e) => e)).code).toBe('ABORTED');
    expect((await llm.chat(ask)).text).toBe('ok');
  });

  it('should let many concurrent draws share one caller signal without a listener-leak warning', async () => {
    server = await startScriptedLlmServer({ rules: [{ delayMs: 20 }], unmatched: 'counter' });
    const hung = await startScriptedLlmServer({ rules: [{ fault: 'hang' }] });
    const controller = new AbortController();
    const seen: string[] = [];
    const onWarning = (w: Error) => seen.push(w.name);
    process.on('warning', onWarning);
    try {
      const llm = client({ maxConcurrency: 24 });
      const drawn = await Promise.all([
        llm.draw(ask, { samples: 24, signal: controller.signal }),
        ...Array.from({ length: 12 }, (_, i) =>
          llm.chat(ask, { sample: 100 + i, signal: controller.signal }),
        ),
      ]);
      expect(drawn[0]).toHaveLength(24);
      // The same signal still ends draws in flight: 24 requests hang until it aborts.
      const stuck = createLlm({
        model: 'gpt-4o-mini',
        baseURL: hung.url,
        cache: { dir: cache.dir, mode: 'read-write' },
        maxConcurrency: 24,
      });
      const pending = stuck.draw(ask, { samples: 30, start: 500, signal: controller.signal });
      while (hung.completions().length < 24) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      expect((await pending.catch((e) => e)).code).toBe('ABORTED');
      // Node emits the warning on a later tick.
      await new Promise((r) => setTimeout(r, 10));
    } finally {
      process.off('warning', onWarning);
      await hung.close();
    }
    expect(seen).not.toContain('MaxListenersExceededWarning');
  });

  it('should refuse a signal that is not an AbortSignal, saying what to pass', async () => {
    server = await startScriptedLlmServer({ rules: [{ reply: 'ok' }] });
    const llm = client();
    for (const call of [
      () => llm.chat(ask, { signal: 'stop' as never }),
      () => llm.draw(ask, { samples: 2, signal: { aborted: false } as never }),
    ]) {
      const error = await call().catch((e) => e);
      expect(error.code).toBe('INVALID_OPTION');
      expect(error.message).toContain('must be an AbortSignal');
    }
    expect(server.completions()).toHaveLength(0);
  });

  it('should fill in what a server ignoring n did not return, warn once, and apportion usage', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter', ignoreN: true });
    const w = warnings();
    const llm = client({ strategy: 'server-n', onWarning: w.onWarning });
    const got = await llm.draw(ask, { samples: 4 });
    expect(got.map((c) => c.text)).toEqual(['reply 0', 'reply 1', 'reply 2', 'reply 3']);
    expect(server.completions().map((r) => r.n)).toEqual([4, 1, 1, 1]);
    expect(w.list).toEqual([expect.stringContaining('ignored n=4 and returned 1 choice')]);
    const honest = await startScriptedLlmServer({ unmatched: 'counter' });
    const llm2 = createLlm({
      model: 'm',
      baseURL: honest.url,
      strategy: 'server-n',
      cache: { dir: cache.dir, mode: 'read-write' },
    });
    const three = await llm2.draw(ask, { samples: 3 });
    expect(honest.completions().map((r) => r.n)).toEqual([3]);
    expect(three.map((c) => c.usage.apportioned)).toEqual([true, true, true]);
    const total = three.reduce((s, c) => s + (c.usage.completion ?? 0), 0);
    expect(total).toBe(3 * Math.ceil('reply 0.0'.length / 4));
    await honest.close();
  });
});
