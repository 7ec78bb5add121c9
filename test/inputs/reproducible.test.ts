import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { snapshot } from './fixtures/print-inputs.ts';

const script = join(import.meta.dirname, 'fixtures', 'print-inputs.ts');
const root = join(import.meta.dirname, '..', '..');

const inChild = async (seed: number): Promise<Record<string, string[]>> => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, String(seed)], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as Record<string, string[]>;
};

describe('reproducible generation', () => {
  it('should give the same inputs for the same seed in two new processes and in this one', async () => {
    const [first, second] = await Promise.all([inChild(1234), inChild(1234)]);
    expect(Object.keys(first)).toEqual([
      'arbitrary',
      'signature',
      'schema',
      'examples',
      'typed',
      'difftrust',
    ]);
    expect(second).toEqual(first);
    expect(await snapshot(1234)).toEqual(first);
    for (const values of Object.values(first)) expect(values.length).toBe(200);
  });

  it('should give other inputs for another seed', async () => {
    const [a, b] = await Promise.all([snapshot(1), snapshot(2)]);
    for (const name of Object.keys(a)) expect(b[name]).not.toEqual(a[name]);
  });
});
