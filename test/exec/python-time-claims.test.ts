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

/**
 * The zygote relays a child's replies only after it has read the child's CPU clock: an outcome
 * that arrives together with the news that its call ran past the limit is a timeout, whenever
 * the zygote got to look. A zygote that a candidate could keep from looking (it shares the uid)
 * relayed it first, and the candidate got a value for a call far past its limit.
 */
const LATE_LOOK = `
import json, mmap, os, select, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from crosscheck_worker import zygote as z

work = tempfile.mkdtemp()
progress = memoryview(mmap.mmap(-1, 8)).cast("q")
zy = z.Zygote(None, os.open(os.devnull, os.O_WRONLY), progress, work, 0)

def case(spin_s, limit_ms):
    progress[0] = -1
    zy.phase[0] = 0
    zy.phase[1] = -1
    res_r, res_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(res_r)
        # As the harness does: the call's start on the child's CPU clock, then its index.
        zy.phase[1] = time.clock_gettime_ns(time.CLOCK_THREAD_CPUTIME_ID)
        progress[0] = 0
        c0 = time.process_time()
        while time.process_time() - c0 < spin_s:
            pass
        os.write(res_w, b'{"t":"out","id":7,"from":0,"outcomes":["[0,1]"],"done":true}\\n')
        os.read(go_r, 1)
        os._exit(0)
    os.close(res_w)
    select.select([res_r], [], [])
    zy.child = (pid, -1, res_r, None, "k", -1)
    try:
        zy.watch(7, limit_ms, None, (0, 1), load=False)
        return "relayed"
    except z.Ended as e:
        return e.cause
    finally:
        zy.child = None
        os.write(go_w, b"x")
        os.waitpid(pid, 0)
        for fd in (res_r, go_r, go_w):
            os.close(fd)

print(json.dumps({"over": case(0.6, 200), "within": case(0.01, 1000)}))
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

  it('should end as a timeout a call whose outcome arrives with news that it ran past its limit', () => {
    // Act: a real child stamps its call, spins, writes its last reply and waits; the zygote
    // looks only then (kept from looking: a busy machine, or a zygote a candidate had stopped).
    const out = JSON.parse(
      execFileSync('python3', ['-c', LATE_LOOK, join(root, 'python')], { encoding: 'utf8' }),
    ) as Record<string, string>;
    // Assert: the spin is 600 ms of CPU against a 200 ms limit; the control, 10 ms against 1 s.
    expect(out).toEqual({ over: 'timeout', within: 'relayed' });
  });
});
