import { symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlm, isCrosscheckError } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache, warnings } from './helpers.ts';

/**
 * Every request that leaves the process is in the ledger, whatever became of its reply: a
 * request sent again for an entry whose `request.json` was corrupt is live (its tokens were
 * paid) even though the entry recorded earlier is the one kept, and a draw whose reply could not
 * be used is a failed call, not nothing.
 */
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('the ledger counts every request that left the process', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });

  it('should count the requests sent again for a corrupt request.json as live, with their tokens', async () => {
    // Arrange: three samples recorded, then their request.json corrupted.
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const first = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
    });
    const recorded = await first.draw(ask('Corrupt me.'), { samples: 3 });
    const dir = join(cache.dir, 'v1', 'localhost__v1', 'm', recorded[0]!.key.slice(0, 2), recorded[0]!.key);
    writeFileSync(join(dir, 'request.json'), '{ not json');
    // A second path to the same directory: a fresh store, as a second process would have.
    const links = tempCache();
    const again = join(links.dir, 'cache');
    symlinkSync(cache.dir, again);
    const w = warnings();
    const second = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: again, mode: 'read-write' },
      onWarning: w.onWarning,
    });
    // Act
    const got = await second.draw(ask('Corrupt me.'), { samples: 3 });
    // Assert: three requests left the process and all three are in the totals.
    expect(server.completions()).toHaveLength(6);
    expect(w.list.join('\n')).toContain('request.json');
    const totals = second.ledger.totals();
    expect(totals.live.calls).toBe(3);
    expect(totals.replayed.calls).toBe(0);
    expect(totals.live.prompt).toBeGreaterThan(0);
    expect(got.every((c) => !c.cached && c.usage.completion !== null)).toBe(true);
    // The entries recorded first are still what everyone replays.
    expect(got.map((c) => c.text)).toEqual(recorded.map((c) => c.text));
    links.cleanup();
  });

  it('should count a draw whose 9 MB reply is refused as failed, and keep counting later draws of it', async () => {
    // Arrange: sample 1 answers with 9 MB, over the 8 MiB default limit; the others are small.
    server = await startScriptedLlmServer({
      unmatched: 'counter',
      rules: [{ match: { sample: 1 }, reply: 'x'.repeat(9_000_000) }],
    });
    const llm = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    // Act
    const good = await llm.chat(ask('Big one.'), { sample: 0 });
    const bad = await llm.chat(ask('Big one.'), { sample: 1 }).catch((e: unknown) => e);
    const badAgain = await llm.chat(ask('Big one.'), { sample: 1 }).catch((e: unknown) => e);
    // Assert
    expect(good.cached).toBe(false);
    expect(isCrosscheckError(bad) && bad.code).toBe('LLM_BAD_REPLY');
    expect(isCrosscheckError(badAgain) && badAgain.code).toBe('LLM_BAD_REPLY');
    expect(server.completions()).toHaveLength(1 + 2 * 2);
    const totals = llm.ledger.totals();
    expect(totals.live.calls).toBe(1);
    expect(totals.failed.calls).toBe(2);
    expect(totals.failed.retries).toBe(2);
    // The server's usage never arrived: the failed calls are unreported, never 0 tokens.
    expect(totals.failed.unreportedCalls).toBe(2);
    expect(llm.stats.requests).toBe(5);
  });

  it('should count the tokens a bad reply reported', async () => {
    // Arrange: a loopback server answering 200 with no choices but a usage object, every time.
    const http = createServer((_req, res) => {
      const body = JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        model: 'm',
        choices: [],
        usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const port = (http.address() as { port: number }).port;
    try {
      const llm = createLlm({
        model: 'm',
        baseURL: `http://127.0.0.1:${port}/v1`,
        cache: { dir: cache.dir, mode: 'read-write' },
        retry: { maxRetries: 2, baseDelayMs: 1 },
      });
      // Act
      const error = await llm.chat(ask('No choices.')).catch((e: unknown) => e);
      // Assert: three attempts, each reported 7 + 5 tokens.
      expect(isCrosscheckError(error) && error.code).toBe('LLM_BAD_REPLY');
      const { failed, live } = llm.ledger.totals();
      expect(live.calls).toBe(0);
      expect(failed).toMatchObject({ calls: 1, prompt: 21, completion: 15, retries: 2, unreportedCalls: 0 });
    } finally {
      await new Promise((r) => http.close(r));
    }
  });
});
