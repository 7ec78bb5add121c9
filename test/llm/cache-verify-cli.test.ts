import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlm } from '../../src/index.ts';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { crosscheck } from '../reporter/helpers.ts';
import { tempCache } from './helpers.ts';

/** `crosscheck llm-cache verify <dir>` over a cache recorded through real HTTP. */
describe('crosscheck llm-cache verify', () => {
  let server: ScriptedLlmServer;
  let cache: ReturnType<typeof tempCache>;
  /** The request directories of the recorded cache (two requests, three samples each). */
  let keyDirs: string[];
  beforeEach(async () => {
    cache = tempCache();
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const llm = createLlm({
      model: 'm',
      provider: 'p',
      baseURL: server.url,
      cache: { dir: cache.dir, mode: 'read-write' },
    });
    for (const content of ['First prompt.', 'Second prompt.'])
      await llm.draw({ messages: [{ role: 'user', content }] }, { samples: 3 });
    const modelDir = join(cache.dir, 'v1', 'p', 'm');
    keyDirs = readdirSync(modelDir).flatMap((s) =>
      readdirSync(join(modelDir, s)).map((k) => join(modelDir, s, k)),
    );
  });
  afterEach(async () => {
    await server.close();
    cache.cleanup();
  });

  it('should count the requests and entries of a clean cache and exit 0', async () => {
    // Act
    const r = await crosscheck(['llm-cache', 'verify', cache.dir]);
    // Assert
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ dir: cache.dir, requests: 2, entries: 6, problems: [] });
  });

  it('should name every bad file and exit 1', async () => {
    // Arrange: conflict markers in one entry, a hand-edited request, a quarantined file, a lost request.
    const [a, b] = keyDirs as [string, string];
    const entry = join(a, '0001.json');
    writeFileSync(entry, `<<<<<<< HEAD\n${readFileSync(entry, 'utf8')}=======\n{}\n>>>>>>> theirs\n`);
    renameSync(join(a, '0002.json'), join(a, '0002.json.corrupt-2026-11-26T00-00-00-000Z'));
    const req = join(a, 'request.json');
    writeFileSync(req, readFileSync(req, 'utf8').replace('prompt', 'prompts'));
    rmSync(join(b, 'request.json'));
    // Act
    const r = await crosscheck(['llm-cache', 'verify', cache.dir]);
    // Assert
    expect(r.exitCode, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { problems: { path: string; why: string }[] };
    const why = (file: string) => out.problems.filter((p) => p.path.endsWith(file)).map((p) => p.why);
    expect(why(`${a.slice(-32)}/0001.json`)).toEqual(['it holds merge-conflict markers']);
    expect(why('0002.json.corrupt-2026-11-26T00-00-00-000Z')[0]).toContain('quarantined');
    expect(why(`${a.slice(-32)}/request.json`)[0]).toContain('not to the key');
    expect(why(`${a.slice(-32)}/0000.json`)[0]).toContain('can never replay');
    expect(why(`${b.slice(-32)}/0000.json`)).toEqual(['its request.json is missing']);
    expect(out.problems).toHaveLength(7); // 4 in the first request, b's three entries
    expect(r.stderr).toContain('7 problems');
  });

  it.each([
    [['llm-cache', 'verify', '/nonexistent/llm-cache'], 'does not exist'],
    [['llm-cache', 'check', 'x'], 'unknown subcommand "check"'],
    [['llm-cache', 'verify', 'a', 'b'], 'one directory, got 2'],
  ])('should reject %j with a typed error and exit 2', async (args, message) => {
    const r = await crosscheck(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('CrosscheckError [INVALID_OPTION]');
    expect(r.stderr).toContain(message);
  });

  it('should say a directory without v1/ is not a cache, and exit 2', async () => {
    const r = await crosscheck(['llm-cache', 'verify', join(cache.dir, 'v1', 'p')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not an LLM cache directory');
  });
});
