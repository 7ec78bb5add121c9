import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadPaperLog, loadTasks } from '../../src/bench/index.ts';

/**
 * Hostile dataset files: each must end in a typed CrosscheckError naming the file (and line),
 * never a raw stack trace, an out-of-memory abort or a V8 fatal.
 */
const root = mkdtempSync(join(tmpdir(), 'crosscheck-dataset-hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
const dataset = (files: Record<string, Buffer | string>): string => {
  const dir = join(root, `d${count++}`);
  mkdirSync(join(dir, 'candidates'), { recursive: true });
  mkdirSync(join(dir, 'paper_logs'), { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
};

const TASK = JSON.stringify({ task_id: 't/0', entry_point: 'f', seed_inputs_tagged: [{ $tuple: [1] }] });

const failure = (load: () => unknown): unknown => {
  try {
    load();
  } catch (error) {
    return error;
  }
  return 'no error';
};

describe('dataset readers on hostile files', () => {
  it('should refuse a truncated .gz with a typed error naming the file', () => {
    // Arrange
    const whole = gzipSync(`${TASK}\n`.repeat(2000));
    const dir = dataset({ 'tasks.jsonl.gz': whole.subarray(0, whole.length >> 1) });

    // Act
    const error = failure(() => loadTasks(dir));

    // Assert
    expect(error).toMatchObject({ name: 'CrosscheckError', code: 'INVALID_INPUT' });
    expect((error as Error).message).toMatch(/tasks\.jsonl\.gz: the gzip stream is truncated/);
  });

  it('should refuse a gzip bomb at the default limit without inflating it', () => {
    // Arrange: 64 gzip members of 16 MiB of zeros each, 1 GiB decompressed, about 1 MB on disk.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
    const dir = dataset({ 'candidates/m.jsonl.gz': Buffer.concat(Array(64).fill(member)) });
    const before = process.memoryUsage().rss;

    // Act
    const error = failure(() => loadCandidates(dir, 'm'));

    // Assert
    expect(error).toMatchObject({ name: 'CrosscheckError', code: 'INVALID_INPUT' });
    expect((error as Error).message).toMatch(/m\.jsonl\.gz: it decompresses to more than the 256 MiB limit/);
    expect(process.memoryUsage().rss - before).toBeLessThan(768 * 1024 * 1024);
  });

  it('should honour a smaller maxBytes option', () => {
    // Arrange
    const dir = dataset({ 'tasks.jsonl.gz': gzipSync(`${TASK}\n`.repeat(100)) });

    // Act
    const error = failure(() => loadTasks(dir, { maxBytes: 1000 }));
    const tasks = loadTasks(dir, { maxBytes: 1_000_000 });

    // Assert
    expect((error as Error).message).toMatch(/more than the 0\.001 MiB limit/);
    expect(tasks).toHaveLength(100);
  });

  it.each([
    ['not JSON', `${TASK}\n\n{"task_id": "t/1", \n`, /line 3 is not valid JSON/],
    ['JSON null', `${TASK}\nnull\n`, /line 2 is not a JSON object/],
    [
      'a seed that is null',
      `${JSON.stringify({ task_id: 't', entry_point: 'f', seed_inputs_tagged: [null] })}\n`,
      null,
    ],
  ])('should report a tasks line that is %s with its line number', (_name, text, message) => {
    // Arrange
    const dir = dataset({ 'tasks.jsonl': text });

    // Act
    const error = failure(() => loadTasks(dir));

    // Assert
    if (message === null) expect(error).toBe('no error');
    else {
      expect(error).toMatchObject({ name: 'CrosscheckError', code: 'INVALID_INPUT' });
      expect((error as Error).message).toMatch(message);
    }
  });

  it('should refuse a paper log that is not an array of objects', () => {
    // Arrange
    const dir = dataset({ 'paper_logs/m.json': '[null, 1]', 'paper_logs/n.json': '{"task_id"' });

    // Act
    const errors = [failure(() => loadPaperLog(dir, 'm')), failure(() => loadPaperLog(dir, 'n'))];

    // Assert
    for (const error of errors)
      expect(error).toMatchObject({ name: 'CrosscheckError', code: 'INVALID_INPUT' });
  });
});
