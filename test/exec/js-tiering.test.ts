import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tieringFlags } from '../../src/exec/js/tiering.ts';
import { candidates, closeSandboxPools, defineTask, run } from '../../src/index.ts';

// The sandbox host is started with V8 flags chosen for the engine it runs on. A flag that engine
// does not know stops Node before any candidate runs, so the choice is checked against the
// Node running the tests (CI runs Node 20 here and Node 24 in its own step), not only on paper.

describe('tiering flags of the sandbox host', () => {
  it('should start this Node with the flags chosen for its engine', () => {
    const r = spawnSync(process.execPath, [...tieringFlags(), '-e', 'process.stdout.write("up")'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('up');
    expect(r.status).toBe(0);
  });

  it('should raise the tier-up budget on V8 11.3 only and pass nothing to engines it was not checked on', () => {
    expect(tieringFlags('11.3.244.8-node.30')).toEqual(['--interrupt-budget=270336']);
    for (const v of ['11.8.172.17-node.15', '12.4.254.21-node.33', '13.6.233.10-node.28', '', 'x.y']) {
      expect(tieringFlags(v), v).toEqual([]);
    }
  });

  it('should give a long-running candidate the same outcomes as a short one', async () => {
    // A loop long enough to be optimized under any budget, beside one that ends at baseline code:
    // when and whether code is optimized must never change what it returns.
    const source = `function f(n) {
      let s = 0;
      for (let i = 0; i < n; i++) s = (s + ((i * 2654435761) % 1000003)) % 1000000007;
      return s;
    }`;
    const expected = (n: number) => {
      let s = 0;
      for (let i = 0; i < n; i++) s = (s + ((i * 2654435761) % 1000003)) % 1000000007;
      return s;
    };
    const inputs = [[1], [10], [1000], [2_000_000], [5]];
    try {
      const m = await run(
        defineTask({ name: 'f' }),
        candidates.fromSources([source], { language: 'javascript', entry: 'f' }),
        inputs,
      );
      expect(m.outcomes[0]?.map((o) => (o.kind === 'value' ? o.value : o.kind))).toEqual(
        inputs.map(([n]) => expected(n as number)),
      );
    } finally {
      await closeSandboxPools();
    }
  });
});
