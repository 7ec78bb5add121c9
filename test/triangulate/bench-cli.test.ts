import { resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

const root = resolve(import.meta.dirname, '..', '..');
const data = humanevalDir();
// Under CI a missing data directory fails here with instructions; elsewhere the tests skip.
const haveData = requireData();
const cli = (args: string[]) =>
  execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'bench', 'triangulation', ...args], {
    cwd: root,
    reject: false,
  });

describe.skipIf(!haveData)('crosscheck bench triangulation on the shared HumanEval data', () => {
  it('prints the metrics table with the identities checked and ends with one JSON line', async () => {
    const r = await cli([
      '--data',
      data,
      '--models',
      'gpt_4o',
      '--tasks',
      'HumanEval/27,HumanEval/25,HumanEval/0',
      '--samples',
      '4',
      '--n',
      '8',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/model\s+method\s+tasks\s+N1\s+N2\s+N3\s+N4\s+N5/);
    expect(r.stderr).toMatch(/gpt_4o\s+witness:fwd-inv\s+2/);
    const last = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(last.identitiesBroken).toBe(0);
    const pl = last.rows.find((x: { method: string }) => x.method === 'plurality');
    expect(pl.n1 + pl.n2 + pl.n3 + pl.n4 + pl.n5).toBe(3);
  }, 180_000);
  it('rejects a bad option with the usage and exit 2', async () => {
    const r = await cli(['--data', data, '--samples', 'many']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--samples must be a positive integer');
  }, 180_000);
});
