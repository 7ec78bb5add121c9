import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlm, isCrosscheckError } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache } from './helpers.ts';

/**
 * A replay miss for a model nothing is recorded for (a misspelt name, a changed base URL) names
 * the models that are recorded in the cache, and the one most likely meant. Recorded through a
 * real loopback server into a real cache directory, then replayed with `replay-only`.
 */

describe('a replay miss for an unrecorded model', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  const ask = { messages: [{ role: 'user' as const, content: 'Write inc(x).' }] };

  beforeEach(async () => {
    cache = tempCache();
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    for (const model of ['qwen2.5-coder', 'llama-3.1-8b']) {
      await createLlm({ model, baseURL: server.url, cache: { dir: cache.dir, mode: 'read-write' } }).chat(
        ask,
      );
    }
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });

  /** The message of the error a replay-only chat with `model` (at `provider`) ends in. */
  const missOf = async (model: string, provider?: string): Promise<string> => {
    const replay = createLlm({
      model,
      baseURL: server.url,
      ...(provider ? { provider } : {}),
      cache: { dir: cache.dir, mode: 'replay-only' },
    });
    const error = await replay.chat(ask).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCrosscheckError(error), String(error)).toBe(true);
    return (error as Error).message;
  };

  it('lists the recorded models and names the nearest for a misspelt one', async () => {
    const message = await missOf('qwen2.5-codr');
    expect(message).toContain('no recorded reply');
    expect(message).toMatch(/recorded models by provider: [^:]+: llama-3\.1-8b, qwen2\.5-coder\./);
    expect(message).toContain('Did you mean `qwen2.5-coder`?');
    expect(message).toContain('CROSSCHECK_LLM_CACHE=read-write');
  });

  it('says when the model is recorded under another provider (another base URL)', async () => {
    const message = await missOf('llama-3.1-8b', 'gpu-box/v1');
    expect(message).toMatch(/`llama-3\.1-8b` is recorded at localhost[^,]*, not at gpu-box\/v1/);
    expect(message).toContain('is the base URL the one it was recorded with?');
  });

  it('asks about the spelling when no recorded name is near', async () => {
    const message = await missOf('mistral-large');
    expect(message).toContain('llama-3.1-8b, qwen2.5-coder');
    expect(message).toContain('Is the model name spelt as when it was recorded?');
    expect(message).not.toContain('Did you mean');
  });
});
