import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureCandidateCost, measureForkCost } from '../../bench/per-candidate.ts';
import { resolveIsolation } from '../../src/exec/isolation/index.ts';
import { checkPython } from '../../src/exec/python/index.ts';

/**
 * bench:floor's per-candidate line and the fork cost every Python benchmark prints: the probes
 * must run (inside the OS boundary where there is one) and report what they measured, parts
 * that add up, and one fork per candidate. Figures are never compared with a time.
 */
const dir = mkdtempSync(join(tmpdir(), 'crosscheck-per-candidate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench per-candidate probes', () => {
  it('should measure a bare fork-and-exit: CPU on both sides, page faults', async () => {
    // Arrange
    const python = await checkPython('python3', 'CROSSCHECK_PYTHON');
    // Act
    const fork = await measureForkCost(python.executable, 20);
    // Assert
    expect(fork.forks).toBe(20);
    expect(fork.cpuMsPerFork).toBeCloseTo(fork.parentCpuMs + fork.childCpuMs, 2);
    expect(fork.childFaults).toBeGreaterThan(0);
  });

  it('should split what a candidate costs the zygote into parts that add up, one fork each', async () => {
    // Arrange
    const python = await checkPython('python3', 'CROSSCHECK_PYTHON');
    const isolation = resolveIsolation('auto');
    // Act
    const cost = await measureCandidateCost(python.executable, isolation, dir, 10);
    // Assert
    expect(cost.candidates).toBe(10);
    expect(cost.perCandidate).toMatchObject({ forks: 1, 'pipes made': 3 });
    // A candidate's directory is usually one a dead child left as it was made; when the next
    // candidate starts before that child is reaped (a busy machine), the zygote makes one. A
    // measurement, so the test asserts reuse, not a count: in a CI run 1 of 10 made one.
    expect(cost.perCandidate['dirs made'] ?? 0).toBeLessThanOrEqual(0.5);
    const parts =
      cost.forkUs + cost.sandboxUs + cost.candidateUs + cost.filesUs + cost.pipesUs + cost.zygoteRestUs;
    // The child's parts are differences between runs stopped at successive stages, the zygote's
    // rest what its timed sections leave: together exactly the total, but for rounding each.
    expect(Math.abs(parts - cost.cpuUs)).toBeLessThanOrEqual(6);
    expect(cost.childFaults).toBeGreaterThan(cost.forkOnlyChildFaults);
  });
});
