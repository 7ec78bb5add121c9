import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../reporter/helpers.ts';

/**
 * The zygote's check of a child's outcomes (python/crosscheck_worker/protocol.py `_all_reportable`) counts
 * over the outcomes joined by NULs instead of calling two string methods per outcome. It must
 * never pass a list the one-by-one check rejects, and must pass every list without a NUL that the
 * one-by-one check passes.
 */

const WORKER = join(root, 'python', 'crosscheck_worker', 'protocol.py');

const SCRIPT = String.raw`
import importlib.util, json, random, sys
spec = importlib.util.spec_from_file_location("protocol", sys.argv[1])
w = importlib.util.module_from_spec(spec)
spec.loader.exec_module(w)
# Pieces that make outcomes well-formed, nearly so, or broken in the ways the counts could miss.
PIECES = ["[0,", "[1,", "[2,", "[3,", "[", "]", ",", "0", "x", "\0", "]\0", "\0[0,", "", '"', "[0,1]"]
def slow(outcomes):
    return all(type(o) is str and o.startswith(w._REPORTABLE) and o.endswith("]") for o in outcomes)
rng = random.Random(int(sys.argv[2]))
stats = {"lists": 0, "passed": 0, "rejected": 0, "unsound": 0, "missed": 0, "with_nul": 0}
for _ in range(40000):
    outcomes = []
    for _ in range(rng.randint(0, 6)):
        if rng.random() < 0.02:
            outcomes.append(rng.choice([1, None, ["[0,1]"]]))
        elif rng.random() < 0.5:
            outcomes.append(rng.choice(w._REPORTABLE) + "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3))) + "]")
        else:
            outcomes.append("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 5))))
    fast, ok = w._all_reportable(outcomes), slow(outcomes)
    nul = any(type(o) is str and "\0" in o for o in outcomes)
    stats["lists"] += 1
    stats["passed" if ok else "rejected"] += 1
    stats["with_nul"] += nul
    if fast and not ok:
        stats["unsound"] += 1
    if ok and not nul and not fast:
        stats["missed"] += 1
print(json.dumps(stats))
`;

describe('the zygote check of outcomes', () => {
  it('should pass exactly the outcome lists the one-by-one check passes, NULs aside', () => {
    // Arrange
    const seed = 20261126;
    // Act
    const stats = JSON.parse(
      execFileSync('python3', ['-c', SCRIPT, WORKER, String(seed)], { encoding: 'utf8' }),
    ) as Record<string, number>;
    // Assert
    expect(stats, `seed ${seed}`).toMatchObject({ unsound: 0, missed: 0 });
    // Both answers, and NULs inside outcomes, came up often enough for the check to mean something.
    expect(stats.passed).toBeGreaterThan(5000);
    expect(stats.rejected).toBeGreaterThan(5000);
    expect(stats.with_nul).toBeGreaterThan(1000);
  });
});
