import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  descendants,
  descendantsByChildren,
  descendantsByScan,
} from '../../src/exec/command/worker-process.ts';

const onLinux = process.platform === 'linux';

/** Spawns a three-level tree (sh → two sh → sleep each) and waits until it is all there. */
const spawnTree = async (): Promise<{ root: number; kill: () => void }> => {
  const child = spawn('sh', ['-c', "sh -c 'sleep 60 & wait' & sh -c 'sleep 60 & wait' & wait"], {
    stdio: 'ignore',
    detached: true,
  });
  const root = child.pid as number;
  for (let tries = 0; tries < 500 && descendantsByScan(root).length < 4; tries++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return { root, kill: () => process.kill(-root, 'SIGKILL') };
};

describe.runIf(onLinux)('the process tree under a worker', () => {
  let kill = (): void => {};
  afterEach(() => kill());

  it('should find the same descendants through the children files as through a scan of /proc', async () => {
    // Arrange
    const tree = await spawnTree();
    kill = tree.kill;
    // Act
    const byChildren = descendantsByChildren(tree.root);
    const byScan = descendantsByScan(tree.root);
    // Assert: two shells and two sleeps, whichever way they are found.
    expect(byScan).toHaveLength(4);
    if (existsSync(`/proc/${process.pid}/task/${process.pid}/children`))
      expect([...(byChildren ?? [])].sort()).toEqual([...byScan].sort());
    else expect(byChildren).toBeNull();
    expect([...descendants(tree.root)].sort()).toEqual([...byScan].sort());
  });

  it('should find nothing below a process that is gone', () => {
    expect(descendants(2 ** 22 + 12345)).toEqual([]);
  });
});
