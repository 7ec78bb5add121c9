import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../reporter/helpers.ts';

/**
 * The child stops its own batch once the batch passed its share of the candidate's time, and
 * stamps each call's start on its CPU clock, so that neither depends on how soon the zygote
 * looks. Both are the candidate's to forge (it shares the child's process): the zygote believes
 * a claim that the time is spent only if the child's CPU clock is past the limit, and a call's
 * stamp only if it gives the call no more time than the zygote saw. A run cannot reach these
 * (a forged line needs the run's id, which the harness keeps from the candidate), so this
 * drives the zygote's checks directly, with this process's own CPU clock as the child's.
 */
const SCRIPT = `
import json, mmap, os, sys, time
sys.path.insert(0, sys.argv[1])
from crosscheck_worker import zygote as z

zy = z.Zygote.__new__(z.Zygote)
zy.phase = memoryview(mmap.mmap(-1, 16)).cast("q")
clock = z._cpu_clock(os.getpid())
used_ms = time.clock_gettime_ns(clock) // 1_000_000

def outcome(line, limit_ms, req_id=8):
    try:
        return ["relayed", zy.check_out(line, req_id, 0, 10, clock, limit_ms)]
    except z.Ended as e:
        return [e.cause, e.reason]

report = {
    "honest": outcome(b'{"t":"spent","id":8}', max(1, used_ms - 5)),
    "early": outcome(b'{"t":"spent","id":8}', used_ms + 60_000),
    "no_limit": outcome(b'{"t":"spent","id":8}', None),
    "other_id": outcome(b'{"t":"spent","id":9}', 1),
    "extra_key": outcome(b'{"t":"spent","id":8,"at":3}', 1),
}
starts = {}
for name, stamp in (("true", 500), ("later", 900), ("before_last", 100), ("unset", -1)):
    zy.phase[1] = stamp
    starts[name] = zy._call_start(True, 200, 800)
zy.phase[1] = 500
starts["not_credible"] = zy._call_start(False, 200, 800)
report["starts"] = starts
print(json.dumps(report))
`;

describe('the zygote and what a child says about its time', () => {
  it('should end a batch as spent only when the child CPU clock is past the limit, and fault an early claim', () => {
    // Act
    const out = JSON.parse(
      execFileSync('python3', ['-c', SCRIPT, join(root, 'python')], { encoding: 'utf8' }),
    ) as Record<string, unknown>;
    // Assert
    expect(out.honest).toEqual(['time', "the candidate's time is spent"]);
    expect((out.early as string[])[0]).toBe('fault');
    expect((out.early as string[])[1]).toMatch(/^it said its time was spent after \d+ ms of CPU time$/);
    expect((out.no_limit as string[])[0]).toBe('fault');
    // Not a claim for this batch: a malformed reply, like any other line that is not its own.
    expect((out.other_id as string[])[0]).toBe('fault');
    expect((out.extra_key as string[])[0]).toBe('fault');
  });

  it("should time a call from the child's stamp only when the stamp gives it no more time than the zygote saw", () => {
    // Act
    const out = JSON.parse(
      execFileSync('python3', ['-c', SCRIPT, join(root, 'python')], { encoding: 'utf8' }),
    ) as { starts: Record<string, number> };
    // Assert: the last call started at 200, the zygote saw this one at 800.
    expect(out.starts).toEqual({
      true: 500,
      // After the zygote saw it: more time for the call, so not believed.
      later: 800,
      // Before the last call's start: out of order, so not believed.
      before_last: 800,
      unset: 800,
      not_credible: 800,
    });
  });
});
