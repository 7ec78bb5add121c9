import { resolve } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

// The bench test must not skip silently in CI: without the data it fails and says where to put it.
it('bench triangulation test fails under CI when the HumanEval data is missing, naming the fix', async () => {
  const r = await execa('npx', ['vitest', 'run', 'test/triangulate/bench-cli.test.ts'], {
    cwd: root,
    reject: false,
    env: { CI: 'true', CROSSCHECK_DATA: resolve(root, 'no-such-data-dir') },
  });
  expect(r.exitCode).not.toBe(0);
  expect(`${r.stdout}\n${r.stderr}`).toMatch(/HumanEval reference data is missing.*CROSSCHECK_DATA/s);
});
