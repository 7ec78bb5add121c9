import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ChatRequest,
  closePythonWorkers,
  createLlm,
  defineTask,
  fromModel,
  type LlmOptions,
  run,
} from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache } from './helpers.ts';

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Key me.' }] };

const allFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe('cache keys', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeAll(async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(() => cache.cleanup());
  const keyOf = async (extra: Partial<LlmOptions>, request = ask) =>
    (
      await createLlm({
        model: 'm',
        baseURL: server.url,
        cache: { dir: cache.dir, mode: 'off' },
        ...extra,
      }).chat(request)
    ).key;

  it('should change with every field that decides the reply', async () => {
    const base = await keyOf({});
    const variants: Partial<LlmOptions>[] = [
      { model: 'm2' },
      { provider: 'other' },
      { sampling: { temperature: 0.7 } },
      { sampling: { topP: 0.9 } },
      { sampling: { maxTokens: 100 } },
      { sampling: { stop: ['\n\n'] } },
      { sampling: { seed: 1 } },
      { sampling: { presencePenalty: 0.5 } },
      { sampling: { frequencyPenalty: 0.5 } },
      { sampling: { logprobs: true } },
      { sampling: { extra: { top_k: 40 } } },
    ];
    const keys = [base, ...(await Promise.all(variants.map((v) => keyOf(v))))];
    keys.push(await keyOf({}, { messages: [{ role: 'user', content: 'Key me!' }] }));
    keys.push(await keyOf({}, { messages: [{ role: 'system', content: 'Key me.' }] }));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('should not change with transport, strategy or purpose', async () => {
    const base = await keyOf({});
    const same = await Promise.all([
      keyOf({ apiKey: 'sk-other' }),
      keyOf({ headers: { 'x-team': 'a' } }),
      keyOf({ timeoutMs: 5000 }),
      keyOf({ retry: { maxRetries: 7 } }),
      keyOf({ maxConcurrency: 1 }),
      keyOf({ strategy: 'server-n' }),
      keyOf({ baseURL: server.url.replace('127.0.0.1', 'localhost') }),
      keyOf({}, { ...ask, purpose: 'judge' } as never),
    ]);
    expect(same).toEqual(same.map(() => base));
  });

  it('should send each sample its own seed derived from the base seed, and record it', async () => {
    const llm = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      sampling: { seed: 7 },
    });
    const before = server.completions().length;
    const got = await llm.draw(ask, { samples: 5 });
    const seeds = server
      .completions()
      .slice(before)
      .map((r) => r.body?.seed);
    expect(new Set(seeds).size).toBe(5);
    const recorded = got.map((c) => JSON.parse(readFileSync(c.file as string, 'utf8')).meta.seed);
    expect(recorded.sort()).toEqual([...seeds].sort());
    expect(JSON.parse(readFileSync(join(got[0]!.file as string, '..', 'request.json'), 'utf8')).seed).toBe(7);
  });
});

describe('cache modes', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const mode = (opt?: LlmOptions['cache']) =>
    createLlm({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', cache: opt }).cacheMode;

  it('should default to read-write, to replay-only under CI, and let the env override the option', () => {
    vi.stubEnv('CI', '');
    vi.stubEnv('CROSSCHECK_LLM_CACHE', '');
    expect(mode()).toMatchObject({ mode: 'read-write', source: 'default' });
    vi.stubEnv('CI', 'true');
    expect(mode()).toMatchObject({ mode: 'replay-only', source: 'ci' });
    expect(mode({ mode: 'read-write' })).toMatchObject({ mode: 'read-write', source: 'option' });
    expect(mode(false)).toMatchObject({ mode: 'off', source: 'option' });
    vi.stubEnv('CROSSCHECK_LLM_CACHE', 'replay-only');
    expect(mode({ mode: 'read-write' })).toMatchObject({ mode: 'replay-only', source: 'env' });
    vi.stubEnv('CROSSCHECK_LLM_CACHE', 'sometimes');
    expect(() => mode()).toThrow(
      /CROSSCHECK_LLM_CACHE must be one of read-write, replay-only, refresh, off, got "sometimes"/,
    );
  });

  it('should name option, rule and value of a bad option', () => {
    expect(() => createLlm({ model: 'm', timeoutMs: -1 })).toThrow(
      'createLlm({ timeoutMs }): must be a positive integer of milliseconds, got -1 (number).',
    );
    expect(() => createLlm({ model: 'm', sampling: { temperature: 3 } })).toThrow(
      'createLlm({ sampling.temperature }): must be a number in [0, 2], got 3 (number).',
    );
    expect(() => createLlm({ model: 'm', sampling: { top_k: 3 } as never })).toThrow(
      /unknown option `sampling.top_k`.*Server-specific sampling fields go in `sampling.extra`/,
    );
    vi.stubEnv('CROSSCHECK_LLM_MODEL', '');
    expect(() => createLlm({})).toThrow(/Pass `model` or set CROSSCHECK_LLM_MODEL/);
  });
});

describe('the API key', () => {
  const SECRET = 'sk-test-DO-NOT-LEAK-8c1f';
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(async () => {
    cache = tempCache();
    server = await startScriptedLlmServer({
      rules: [
        { reply: '```python\nimport os\ndef leak():\n    return " ".join(sorted(os.environ.values()))\n```' },
      ],
    });
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server.close();
    await closePythonWorkers();
    cache.cleanup();
  });

  it('should reach the server and nothing else: not the cache, the client, errors or candidates', async () => {
    vi.stubEnv('OPENAI_API_KEY', SECRET);
    const llm = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'read-write' } });
    const task = defineTask({ name: 'leak', description: 'Return the environment.' });
    const [cand] = await fromModel(task, { llm, n: 1, language: 'python' });
    expect(server.completions()[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    for (const f of allFiles(cache.dir)) expect(readFileSync(f, 'utf8'), f).not.toContain(SECRET);
    expect(JSON.stringify(llm)).not.toContain(SECRET);
    expect(inspect(llm, { depth: 5 })).not.toContain(SECRET);
    expect(JSON.stringify(cand)).not.toContain(SECRET);
    const miss = await createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'replay-only' },
    })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(`${miss.message}${miss.stack}`).not.toContain(SECRET);
    // The candidate runs sandboxed with a scrubbed environment.
    const matrix = await run(task, [cand!], [[]]);
    const out = matrix.outcomes[0]![0]!;
    expect(out.kind).toBe('value');
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });
});
