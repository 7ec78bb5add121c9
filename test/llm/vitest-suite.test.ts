import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { spawnVitest } from '../helpers/spawn-host.ts';
import { tempCache } from './helpers.ts';

const FIXTURE = resolve(import.meta.dirname, '..', 'fixtures', 'llm-suite');

// Three correct replies, written three ways.
const REPLIES = [
  '```javascript\nfunction largest(xs) {\n  return Math.max(...xs);\n}\n```',
  'Here it is:\n```js\nfunction largest(xs) {\n  let m = xs[0];\n  for (const x of xs) if (x > m) m = x;\n  return m;\n}\n```',
  '```javascript\nfunction largest(xs) {\n  return xs.reduce((a, b) => (b > a ? b : a));\n}\n```',
];

describe('a Vitest suite whose candidates come from fromModel', () => {
  const work = tempCache();
  const cacheDir = join(work.dir, 'llm-cache');
  const env = (extra: Record<string, string>) => ({
    LLM_CACHE_DIR: cacheDir,
    REPORT_OUT: join(work.dir, 'reports'),
    NO_COLOR: '1',
    GITHUB_STEP_SUMMARY: '',
    ...extra,
  });
  let url = '';
  let requests = () => 0;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const server = await startScriptedLlmServer({
      rules: [{ match: { purpose: 'codegen' }, reply: (req) => REPLIES[req.sample ?? 0] ?? 'no reply' }],
    });
    url = server.url;
    requests = () => server.completions().length;
    close = () => server.close();
  });
  afterAll(async () => {
    await close();
    work.cleanup();
  });

  it('should record, show tokens and cost, replay under CI, and fail naming a deleted entry', async () => {
    // Record (read-write): three live calls, priced (gpt-4o-mini is in the built-in table).
    const recorded = await spawnVitest(FIXTURE, {
      env: env({ LLM_URL: url, CROSSCHECK_LLM_CACHE: 'read-write' }),
    });
    expect(recorded.exitCode, recorded.all).toBe(0);
    expect(requests()).toBe(3);
    expect(recorded.all).toMatch(/LLM {2}3 calls: 3 live, 0 replayed/);
    expect(recorded.all).toMatch(/live spend \$0\.\d{4} \(\d+ prompt \+ \d+ completion tokens\)/);
    expect(recorded.all).toMatch(/\d+ tok · \$0\.\d{4}/);
    const report = JSON.parse(readFileSync(join(work.dir, 'reports', 'report.json'), 'utf8'));
    expect(report.summary.llm.live.calls).toBe(3);
    expect(report.records[0].llm.calls.map((c: { id: string }) => c.id.split('/')[1])).toEqual([
      '0',
      '1',
      '2',
    ]);
    expect(report.records[0].tokens.costUsd).toBeGreaterThan(0);
    expect(readFileSync(join(work.dir, 'reports', 'report.md'), 'utf8')).toContain('### LLM');
    expect(readFileSync(join(work.dir, 'reports', 'report.html'), 'utf8')).toContain('<h2>LLM</h2>');

    // CI=true: replay-only by default; the endpoint is unreachable and never needed.
    const replayed = await spawnVitest(FIXTURE, {
      env: env({ LLM_URL: 'http://127.0.0.1:9/v1', CI: 'true' }),
    });
    expect(replayed.exitCode, replayed.all).toBe(0);
    expect(replayed.all).toMatch(/3 calls: 0 live, 3 replayed/);
    expect(replayed.all).toMatch(/no live calls · replayed calls worth \$0\.\d{4} at current prices/);
    expect(requests()).toBe(3);

    // One entry deleted: under CI the suite fails, naming the file it looked for.
    const entry = report.records[0].llm.calls[1].id.split('/')[0] as string;
    const missing = join(
      cacheDir,
      'v1',
      'localhost__v1',
      'gpt-4o-mini',
      entry.slice(0, 2),
      entry,
      '0001.json',
    );
    rmSync(missing);
    const failed = await spawnVitest(FIXTURE, { env: env({ LLM_URL: 'http://127.0.0.1:9/v1', CI: 'true' }) });
    expect(failed.exitCode).not.toBe(0);
    expect(failed.all).toContain(
      'no recorded reply for sample 1 of this request (cache mode replay-only, set by CI)',
    );
    expect(failed.all).toContain(`looked in: ${missing}`);
    expect(failed.all).toContain('recorded:  samples 0, 2 of this request');
    expect(requests()).toBe(3);
  });
});
