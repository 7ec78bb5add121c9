import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCrosscheckError } from '../../src/index.ts';
import { sampleDataset } from '../../src/llm/index.ts';
import { fenced, type ScriptedLlmServer, startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { tempCache } from './helpers.ts';

/**
 * `sampleDataset` settles each sample on its own: an HTTP error answered for one request and a
 * reply with no code are failures of those samples, named and recorded, while an endpoint that
 * cannot be reached ends the run (every sample would fail the same way).
 */
const TASKS = [
  { task_id: 'T/1', entry_point: 'square', signature: '(x: int) -> int', description: 'Square x.' },
  { task_id: 'T/2', entry_point: 'negate', signature: '(x: int) -> int', description: 'Negate x.' },
];

describe('sampleDataset with failing samples', () => {
  let server: ScriptedLlmServer;
  let work: ReturnType<typeof tempCache>;
  beforeEach(() => {
    work = tempCache();
    writeFileSync(join(work.dir, 'tasks.jsonl'), `${TASKS.map((t) => JSON.stringify(t)).join('\n')}\n`);
  });
  afterEach(async () => {
    await server?.close();
    work.cleanup();
  });

  it('should record an HTTP error of one request and an empty reply as failed samples and draw the rest', async () => {
    // Arrange: sample 1 of `negate` is over the context length; sample 2 of `square` comes back empty.
    server = await startScriptedLlmServer({
      rules: [
        {
          match: (r) => r.sample === 1 && r.lastUser.includes('negate'),
          status: 400,
          error: { message: 'This prompt is too long.', code: 'context_length_exceeded' },
        },
        { match: (r) => r.sample === 2 && r.lastUser.includes('square'), reply: '' },
        {
          reply: (r) =>
            fenced(
              r.lastUser.includes('square')
                ? 'def square(x):\n    return x * x'
                : 'def negate(x):\n    return -x',
            ),
        },
      ],
    });
    // Act
    const result = await sampleDataset({
      data: work.dir,
      out: join(work.dir, 'out'),
      models: ['m'],
      n: 3,
      llm: { baseURL: server.url, cache: { dir: join(work.dir, 'cache'), mode: 'read-write' } },
    });
    // Assert
    expect(result.failures.map((f) => [f.taskId, f.sample, f.reason])).toEqual([
      ['T/1', 2, 'no-code'],
      ['T/2', 1, 'request-failed'],
    ]);
    expect(result.failures[1]?.message).toMatch(
      /sample 1 of task negate \(python\).*context_length_exceeded/,
    );
    // The empty reply was a paid, recorded reply: live. The 400 is a failed draw.
    expect(result.live.calls).toBe(5);
    expect(result.failed.calls).toBe(1);
    const lines = gunzipSync(readFileSync(join(work.dir, 'out', 'candidates', 'm.jsonl.gz')))
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      lines.map((l) => [l.task_id, l.codes.length, l.failed?.map((f: { sample: number }) => f.sample)]),
    ).toEqual([
      ['T/1', 2, [2]],
      ['T/2', 2, [1]],
    ]);
  });

  it('should end the run when the endpoint cannot be reached', async () => {
    // Arrange: a server that is closed before the run.
    server = await startScriptedLlmServer({ unmatched: 'counter' });
    const url = server.url;
    await server.close();
    mkdirSync(join(work.dir, 'cache'));
    // Act
    const error = await sampleDataset({
      data: work.dir,
      out: join(work.dir, 'out'),
      models: ['m'],
      n: 2,
      llm: {
        baseURL: url,
        cache: { dir: join(work.dir, 'cache'), mode: 'read-write' },
        retry: { maxRetries: 1, baseDelayMs: 1 },
      },
    }).catch((e: unknown) => e);
    // Assert
    expect(isCrosscheckError(error) && error.code).toBe('LLM_REQUEST_FAILED');
    expect((error as Error).message).toMatch(/connection failed/);
  });
});
