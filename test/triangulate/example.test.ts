import { resolve } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

it('examples/triangulation.ts shows incoherence 0, plurality on the bug, abstention, then the wrapping program selected', async () => {
  const r = await execa('node', ['--import', 'tsx', 'examples/triangulation.ts'], {
    cwd: root,
    reject: false,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stdout).toContain('incoherence of the three no-wrap programs: 0');
  expect(r.stdout).toContain('plurality selects: model-a#0');
  expect(r.stdout).toContain('triangulation on the three: abstained');
  expect(r.stdout).toContain('selected wrapping#0 (support 2)');
}, 120_000);
