import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { osBoundaryAvailable } from '../helpers/os-boundary.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'parent-death');

const osAvailable = osBoundaryAvailable('python-parent-death');

/** pid -> parent pid of every process. */
const parents = (): Map<number, number> => {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      out.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
};

const below = (root: number): number[] => {
  const map = parents();
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const p = queue.pop() as number;
    for (const [pid, ppid] of map) {
      if (ppid === p) {
        out.push(pid);
        queue.push(pid);
      }
    }
  }
  return out;
};

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe.runIf(process.platform === 'linux')('python workers and their parent', () => {
  it.each([
    { host: 'host.ts', isolation: 'auto', available: true, what: 'loop forever' },
    {
      host: 'host-closed-lifeline.ts',
      isolation: 'process',
      available: true,
      what: 'close their lifeline and loop',
    },
    {
      host: 'host-closed-lifeline.ts',
      isolation: 'os',
      available: osAvailable,
      what: 'close their lifeline and loop',
    },
  ])(
    'should leave no worker or candidate process behind when the host is killed with SIGKILL ($isolation, candidates that $what)',
    async ({ host: file, isolation, available }) => {
      if (!available) return;
      // Arrange: a host whose candidates loop forever inside forked children of its workers.
      const host = execa('node', ['--import', 'tsx', join(FIXTURES, file)], {
        reject: false,
        cwd: join(import.meta.dirname, '..', '..'),
        env: { HOST_ISOLATION: isolation },
      });
      const host_ = host.pid as number;
      // Workers and the candidates' processes they forked (not the interpreter probe).
      const workers = (): number[] =>
        below(host_).filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('crosscheck_worker');
          } catch {
            return false;
          }
        });
      const forked = (tree: number[]): number => {
        const map = parents();
        return tree.filter((pid) => tree.includes(map.get(pid) ?? -1)).length;
      };
      // Wait (a bounded number of tries) until both workers have forked a candidate's process and
      // watch it loop: they no longer read the host's pipe, so its end cannot tell them.
      let tree: number[] = [];
      // Up to 2 minutes: a host under tsx on a loaded 2-core runner takes a while to start both.
      for (let i = 0; i < 2400 && forked(tree) < 2; i++) {
        await sleep(50);
        tree = workers();
      }
      expect(forked(tree)).toBeGreaterThanOrEqual(2);

      // Act
      process.kill(host.pid as number, 'SIGKILL');
      await host;

      // Assert: every process the host had below it dies (polled, no assertion on speed).
      let survivors = tree;
      for (let i = 0; i < 1200 && survivors.length > 0; i++) {
        await sleep(50);
        survivors = tree.filter(alive);
      }
      expect(survivors).toEqual([]);
    },
    300_000,
  );
});
