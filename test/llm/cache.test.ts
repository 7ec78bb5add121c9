import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlm, isCrosscheckError } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache, warnings } from './helpers.ts';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');

/** Runs fixtures/draw.ts in a child process; `preload` adds an --import. */
const drawInChild = async (
  args: { url: string; dir: string; mode: string; samples: number; prompt: string },
  preload?: string,
  env: Record<string, string> = {},
) => {
  const r = await execa(
    process.execPath,
    [
      '--import',
      'tsx',
      ...(preload ? ['--import', join(FIXTURES, preload)] : []),
      join(FIXTURES, 'draw.ts'),
      args.url,
      args.dir,
      args.mode,
      String(args.samples),
      args.prompt,
    ],
    { reject: false, env: { CI: '', ...env } },
  );
  return {
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr,
    json: r.stdout ? JSON.parse(r.stdout.trim().split('\n').at(-1) as string) : null,
  };
};

const entries = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  if (existsSync(join(dir, 'v1'))) walk(join(dir, 'v1'));
  return out.filter((p) => /\d{4}\.json$/.test(p));
};

describe('the LLM cache across processes', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });

  it('should make exactly 10 requests when four processes draw the same 10 entries', async () => {
    // Arrange: a slow counting server, so the four processes overlap on every entry.
    server = await startScriptedLlmServer({
      unmatched: 'counter',
      rules: [{ delayMs: 200, reply: (_r, c) => `reply ${c.count}` }],
    });
    const args = { url: server.url, dir: cache.dir, mode: 'read-write', samples: 10, prompt: 'Same prompt.' };
    const barrier = join(cache.dir, 'barrier');
    mkdirSync(barrier);
    // Act: four children, released together once all are ready.
    const children = [0, 1, 2, 3].map(() => drawInChild(args, undefined, { BARRIER: barrier }));
    while (readdirSync(barrier).length < 4) await new Promise((r) => setTimeout(r, 10));
    writeFileSync(join(barrier, 'go'), '');
    const runs = await Promise.all(children);
    // Assert
    expect(server.completions()).toHaveLength(10);
    for (const r of runs) expect(r.json.texts, r.stderr).toEqual(runs[0]!.json.texts);
    expect(new Set(runs[0]!.json.texts).size).toBe(10);
    // Each entry was drawn live by exactly one process and waited for by the three others.
    for (let i = 0; i < 10; i++) expect(runs.filter((r) => r.json.cached[i] === false)).toHaveLength(1);
    expect(entries(cache.dir)).toHaveLength(10);
    expect(readdirSync(join(cache.dir, '.locks'))).toEqual([]);
    expect(readdirSync(join(cache.dir, '.tmp'))).toEqual([]);
  });

  it('should leave no partial entry when a process is killed between writing and publishing', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const args = { url: server.url, dir: cache.dir, mode: 'read-write', samples: 1, prompt: 'Killed.' };
    // Act: the child dies (SIGKILL) at the link of its entry.
    const killed = await drawInChild(args, 'kill-on-link.mjs');
    // Assert: a tmp file and a stale lock at worst; no entry.
    expect(killed.signal).toBe('SIGKILL');
    expect(server.completions()).toHaveLength(1);
    expect(entries(cache.dir)).toEqual([]);
    expect(readdirSync(join(cache.dir, '.locks'))).toHaveLength(1);
    // A replay finds nothing (no half entry is ever read) ...
    const replay = await drawInChild({ ...args, mode: 'replay-only' });
    expect(replay.json.error).toBe('LLM_REPLAY_MISS');
    // ... and the next read-write run breaks the dead process's lock and draws it.
    const next = await drawInChild(args);
    expect(next.json.texts).toEqual(['reply 1']);
    expect(entries(cache.dir)).toHaveLength(1);
    expect(readdirSync(join(cache.dir, '.locks'))).toEqual([]);
  });

  it('should replay without the openai package, and name it when a live call needs it', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const args = { url: server.url, dir: cache.dir, mode: 'read-write', samples: 3, prompt: 'No SDK.' };
    const recorded = await drawInChild(args);
    const replay = await drawInChild({ ...args, mode: 'replay-only' }, 'refuse-openai.mjs');
    expect(replay.json, replay.stderr).toEqual({ texts: recorded.json.texts, cached: [true, true, true] });
    const live = await drawInChild({ ...args, samples: 4 }, 'refuse-openai.mjs');
    expect(live.json.error).toBe('RUNTIME_MISSING');
    expect(live.json.message).toContain('npm i -D openai');
    expect(server.completions()).toHaveLength(3);
  });
});

describe('cache corruption', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  beforeEach(() => {
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache.cleanup();
  });
  const ask = { messages: [{ role: 'user' as const, content: 'Corrupt me.' }] };

  it('should quarantine a conflicted entry in read-write and name it in replay-only', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const w = warnings();
    const llm = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      onWarning: w.onWarning,
    });
    const first = await llm.chat(ask);
    const file = first.file as string;
    writeFileSync(file, `<<<<<<< HEAD\n${readFileSync(file, 'utf8')}=======\n{}\n>>>>>>> theirs\n`);
    // replay-only: a typed error naming the file, the file left alone.
    const ro = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'replay-only' } });
    const err = await ro.chat(ask).catch((e) => e);
    expect(isCrosscheckError(err) && err.code).toBe('LLM_CACHE_CORRUPT');
    expect(err.message).toContain(file);
    expect(err.message).toContain('merge-conflict markers');
    expect(existsSync(file)).toBe(true);
    // read-write: moved aside with a warning, drawn again.
    const rw = createLlm({
      model: 'm',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
      onWarning: w.onWarning,
    });
    const again = await rw.chat(ask);
    expect(again.cached).toBe(false);
    expect(again.text).toBe('reply 1');
    expect(w.list.join('\n')).toMatch(/merge-conflict markers\); moved to .*\.corrupt-/);
    expect(readdirSync(join(file, '..')).some((n) => n.startsWith('0000.json.corrupt-'))).toBe(true);
  });

  it('should treat a corrupt or missing sample of a draw like a single read, the other samples read from disk', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const w = warnings();
      const rwOpts = {
        model: 'm',
        baseURL: server.url,
        cache: { dir: cache.dir, mode: 'read-write' as const },
        onWarning: w.onWarning,
      };
      const first = await createLlm(rwOpts).draw(ask, { samples: 4 });
      expect(server.completions()).toHaveLength(4);
      const file = (i: number) => first[i]?.file as string;
      writeFileSync(file(2), '{"schema": "crosscheck/llm-entry", "version": 1, "key": ');
      // replay-only: the corrupt sample rejects the draw with a typed error naming it.
      const ro = createLlm({
        model: 'm',
        baseURL: server.url,
        cache: { dir: cache.dir, mode: 'replay-only' },
      });
      const err = await ro.draw(ask, { samples: 4 }).catch((e) => e);
      expect(isCrosscheckError(err) && err.code).toBe('LLM_CACHE_CORRUPT');
      expect(err.message).toContain(file(2));
      expect(existsSync(file(2))).toBe(true);
      // read-write: only the corrupt sample is moved aside and drawn again.
      const again = await createLlm(rwOpts).draw(ask, { samples: 4 });
      expect(again.map((c) => c.cached)).toEqual([true, true, false, true]);
      expect(again.map((c) => c.text)).toEqual([first[0]?.text, first[1]?.text, 'reply 4', first[3]?.text]);
      expect(server.completions()).toHaveLength(5);
      expect(w.list.join('\n')).toMatch(/0002\.json was not a valid cache entry/);
      // A sample missing beside recorded ones: replay-only names its file.
      rmSync(file(1));
      const miss = await ro.draw(ask, { samples: 4 }).catch((e) => e);
      expect(isCrosscheckError(miss) && miss.code).toBe('LLM_REPLAY_MISS');
      expect(miss.message).toContain(file(1));
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('should never take a hand-edited request.json for a hit', async () => {
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const llm = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'read-write' } });
    const first = await llm.chat(ask);
    const req = join(first.file as string, '..', 'request.json');
    writeFileSync(req, readFileSync(req, 'utf8').replace('Corrupt me.', 'Something else.'));
    const ro = createLlm({ model: 'm', baseURL: server.url, cache: { dir: cache.dir, mode: 'replay-only' } });
    const err = await ro.chat(ask).catch((e) => e);
    expect(err.code).toBe('LLM_CACHE_CORRUPT');
    expect(err.message).toContain('request.json');
  });
});
