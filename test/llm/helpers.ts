import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createLlm, type Llm } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';

/** A fresh cache directory, removed by the returned cleanup. */
export const tempCache = (): { dir: string; cleanup: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-llm-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/** Collects warnings instead of printing them. */
export const warnings = (): { list: string[]; onWarning: (m: string) => void } => {
  const list: string[] = [];
  return { list, onWarning: (m) => list.push(m) };
};

/** A scripted loopback model, a fresh cache and a read-write handle on both. */
export interface ScriptedModel {
  server: ScriptedLlmServer;
  cache: ReturnType<typeof tempCache>;
  llm: Llm;
}

/**
 * Starts a scripted loopback model that answers every request with `reply`, and a handle
 * (model `m`) caching in a fresh directory, before each test of the calling file or `describe`;
 * closes and removes both after it. The returned object's fields are those of the running test.
 */
export const useScriptedModel = (
  reply: (lastUser: string, sample: number | null) => string,
): ScriptedModel => {
  const current = {} as ScriptedModel;
  beforeEach(async () => {
    current.cache = tempCache();
    current.server = await startScriptedLlmServer({
      rules: [{ reply: (req) => reply(req.lastUser, req.sample) }],
    });
    current.llm = createLlm({
      model: 'm',
      baseURL: current.server.url,
      cache: { dir: current.cache.dir, mode: 'read-write' },
    });
  });
  afterEach(async () => {
    await current.server.close();
    current.cache.cleanup();
  });
  return current;
};
