import { afterAll, afterEach, beforeEach } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { createLlm } from '../../src/llm/index.ts';
import {
  type ScriptedLlmServer,
  type ScriptedRule,
  startScriptedLlmServer,
} from '../../src/llm/testing/index.ts';
import { tempCache } from '../llm/helpers.ts';

/** A scripted loopback server and a fresh cache per test, and a client over both. */
export interface ScriptedLlm {
  /** This test's server (a new one per test). */
  readonly server: ScriptedLlmServer;
  /** A client of this test's server, recording into or replaying from this test's cache. */
  client(mode: 'read-write' | 'replay-only'): ReturnType<typeof createLlm>;
}

/**
 * The sampler tests' set-up: each test records through a scripted server into an empty cache,
 * then replays with the server closed. Registers the hooks in the calling file.
 */
export const useScriptedLlm = (rules: readonly ScriptedRule[]): ScriptedLlm => {
  let server: ScriptedLlmServer | undefined;
  let cache: ReturnType<typeof tempCache> | undefined;
  beforeEach(async () => {
    server = await startScriptedLlmServer({ rules, unmatched: 'error' });
    cache = tempCache();
  });
  afterEach(async () => {
    await server?.close();
    cache?.cleanup();
  });
  afterAll(() => closePythonWorkers());
  return {
    get server() {
      if (!server) throw new Error('useScriptedLlm: the server exists only inside a test');
      return server;
    },
    client: (mode) => {
      if (!server || !cache) throw new Error('useScriptedLlm: the client exists only inside a test');
      return createLlm({
        model: 'scripted',
        baseURL: server.url,
        apiKey: 'x',
        cache: { dir: cache.dir, mode },
      });
    },
  };
};
