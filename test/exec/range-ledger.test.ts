import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exec/index.ts';
import { blameCall, culpritOf, failureCost, type RangeLedger } from '../../src/exec/range-ledger.ts';

/** The range bookkeeping both the JS pool and the command runner use when a call fails. */

const ledger = () => {
  const recorded: Array<[number, Outcome]> = [];
  const reruns: Array<[number, number]> = [];
  let charged = 0;
  const l: RangeLedger = {
    record: (i, o) => recorded.push([i, o]),
    rerun: (from, to) => reruns.push([from, to]),
    charge: (ms) => {
      charged += ms;
    },
    stats: { timeouts: 0, crashes: 0 },
  };
  return { l, recorded, reruns, charged: () => charged };
};

const crash: Outcome = { kind: 'crash', reason: 'exit 1' };

describe('range bookkeeping of a failed call', () => {
  it('should blame the claimed call, rerun the calls on both sides and count a crash', () => {
    // Arrange
    const { l, recorded, reruns, charged } = ledger();
    // Act
    const culprit = blameCall(l, {
      failure: 'crash',
      outcome: crash,
      claimed: 7,
      next: 4,
      to: 10,
      timeoutMs: 100,
      lostMs: 30,
    });
    // Assert
    expect(culprit).toBe(7);
    expect(recorded).toEqual([[7, crash]]);
    expect(reruns).toEqual([
      [8, 10],
      [4, 7],
    ]);
    expect(l.stats).toEqual({ timeouts: 0, crashes: 1 });
    expect(charged()).toBe(30);
  });

  it('should blame the first open call when the worker claims one outside the range', () => {
    expect(culpritOf(12, 4, 10)).toBe(4);
    expect(culpritOf(-1, 4, 10)).toBe(4);
    expect(culpritOf(null, 4, 10)).toBe(4);
    expect(culpritOf(2.5, 0, 10)).toBe(0);
  });

  it.each([
    ['timeout', 100, 900, 100],
    ['wall', 100, 900, 900],
    ['wall', 100, 50, 100],
    ['crash', 100, 900, 100],
    ['crash', 100, 30, 30],
    ['fault', 100, 900, 0],
  ] as const)('should charge a %s (limit %d ms, %d ms lost) %d ms', (failure, timeoutMs, lostMs, cost) => {
    expect(failureCost(failure, timeoutMs, lostMs)).toBe(cost);
  });
});
