import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlm, defineTask, fromModel, isCrosscheckError } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache, warnings } from './helpers.ts';

const ask = { messages: [{ role: 'user' as const, content: 'Say something.' }] };

describe('createLlm over a scripted loopback server', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(async () => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });

  it('should give ten different replies to ten repeats of one prompt, each its own entry', async () => {
    // Arrange
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const llm = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'read-write' } });
    // Act
    const got = await llm.draw(ask, { samples: 10 });
    // Assert
    expect(new Set(got.map((c) => c.text)).size).toBe(10);
    expect(got.map((c) => c.sample)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(server.completions()).toHaveLength(10);
    const dir = join(cache.dir, 'v1', 'localhost__v1', 'm', got[0]!.key.slice(0, 2), got[0]!.key);
    expect(readdirSync(dir).sort()).toEqual([
      '0000.json',
      '0001.json',
      '0002.json',
      '0003.json',
      '0004.json',
      '0005.json',
      '0006.json',
      '0007.json',
      '0008.json',
      '0009.json',
      'request.json',
    ]);
    // A second client replays all ten without a request.
    const again = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'replay-only' },
    });
    const replayed = await again.draw(ask, { samples: 10 });
    expect(replayed.map((c) => c.text)).toEqual(got.map((c) => c.text));
    expect(replayed.every((c) => c.cached)).toBe(true);
    expect(server.completions()).toHaveLength(10);
  });

  it('should replay with the server closed and throw a miss naming the file and the nearest request', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const rw = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      sampling: { temperature: 0.8 },
    });
    await rw.draw(ask, { samples: 3 });
    await server.close();
    const ro = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'replay-only' },
      sampling: { temperature: 0.8 },
    });
    expect((await ro.draw(ask, { samples: 3 })).map((c) => c.cached)).toEqual([true, true, true]);
    const err = await ro.chat(ask, { sample: 3 }).catch((e) => e);
    expect(isCrosscheckError(err) && err.code).toBe('LLM_REPLAY_MISS');
    expect(err.message).toContain('0003.json');
    expect(err.message).toContain('samples 0–2');
    const other = await ro
      .chat({ messages: [{ role: 'user', content: 'Say something else.' }] })
      .catch((e) => e);
    expect(other.code).toBe('LLM_REPLAY_MISS');
    expect(other.message).toMatch(/nearest: +[0-9a-f]{32} differs in messages\[0\]\.content at character 13/);
  });

  it('should sample candidates with provenance through fromModel', async () => {
    server = await startScriptedLlmServer({
      rules: [
        {
          match: { purpose: 'codegen' },
          reply: (_r, ctx) => `\`\`\`python\ndef inc(x):\n    return x + ${ctx.count}\n\`\`\``,
        },
      ],
    });
    const w = warnings();
    const llm = createLlm({
      model: 'gpt-4o-mini',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      sampling: { temperature: 0.6 },
      onWarning: w.onWarning,
    });
    const task = defineTask({ name: 'inc', description: 'Add one.', signature: '(x: int) -> int' });
    const cands = await fromModel(task, { llm, n: 3, language: 'python' });
    expect(cands.map((c) => c.label)).toEqual(['gpt-4o-mini#0', 'gpt-4o-mini#1', 'gpt-4o-mini#2']);
    expect(cands[1]!.tags).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.6, sample: 1 });
    expect(cands[2]!.code).toContain('def inc');
    expect(cands[0]!.llm).toMatchObject({
      provider: 'localhost/v1',
      model: 'gpt-4o-mini',
      sample: 0,
      cached: false,
      retries: 0,
    });
    expect(cands[0]!.llm!.usage.prompt).toBeGreaterThan(0);
    expect(cands[0]!.llm!.costUsd).toBeGreaterThan(0);
    const entry = JSON.parse(
      readFileSync(
        join(
          cache.dir,
          'v1',
          'localhost__v1',
          'gpt-4o-mini',
          cands[0]!.llm!.key.slice(0, 2),
          cands[0]!.llm!.key,
          '0000.json',
        ),
        'utf8',
      ),
    );
    expect(entry.reply.lines).toEqual(['```python', 'def inc(x):', '    return x + 0', '```']);
  });
});
