"""The floor of `npm run bench:floor`: the same calls as the benchmark, in one plain loop.

Reads the work the benchmark did (tasks, the reference and each candidate's code, the exact
inputs it ran, as tagged JSON) from the file named by argv[1] and calls the reference and every
candidate on every input, in this one process: no process per candidate, no encoding, no
transport, no comparison. The same per-call limit and per-candidate time limit as the benchmark
keep it from hanging on the same candidates. Prints one JSON line of its figures.

Then, outside the timed loop, it encodes every candidate result with the Python harness's own
encoder: what that costs the benchmark, for its breakdown. Runs inside the OS boundary when the
host has one (bench/floor.ts starts it), since the candidates are untrusted.
"""

import json
import os
import resource
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import crosscheck_worker as harness  # noqa: E402  (the decoder and encoder the benchmark uses)


class CallTimeout(BaseException):
    pass


def _alarm(_sig, _frame):
    raise CallTimeout()


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        work = json.load(f)
    sys.setrecursionlimit(10000)
    signal.signal(signal.SIGALRM, _alarm)
    timeout_s = work["timeoutMs"] / 1000.0
    time_limit_s = work["candidateTimeMs"] / 1000.0
    tasks = []
    for t in work["tasks"]:
        inputs = [harness._loads(json.dumps(a)) for a in t["inputs"]]
        plans = [[harness._copy_plan(a) for a in args] for args in inputs]
        tasks.append((t, plans))
    real_stdout, real_stderr = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = harness._Sink()
    figures = {"referenceCalls": 0, "candidateCalls": 0, "referenceSeconds": 0.0, "candidateSeconds": 0.0,
               "timeouts": 0, "skipped": 0, "repeatCalls": 0, "repeatSeconds": 0.0}
    results = []
    perf = time.perf_counter
    wall0, cpu0 = perf(), cpu()
    # Progress: a line at each tenth of the tasks (a run over every task and model takes minutes).
    step = max(1, len(tasks) // 10)
    for done, (t, plans) in enumerate(tasks):
        if done and done % step == 0:
            real_stderr.write("floor: %d of %d tasks, %.0f s\n" % (done, len(tasks), perf() - wall0))
            real_stderr.flush()
        seen = set()
        for k, code in enumerate([t["reference"]] + t["candidates"]):
            # A program repeated among the task's samples: the benchmark runs it once, this loop
            # runs it every time; its share is reported apart.
            repeat = k > 0 and code in seen
            seen.add(code)
            is_ref = k == 0
            ns = {"__name__": "candidate"}
            try:
                exec(compile(code, "<candidate>", "exec"), ns)
                fn = ns[t["entry"]]
            except BaseException:
                continue
            mine = []
            # One timer per candidate, not per call (two system calls per call would inflate the
            # floor): it fires once the candidate's time on the task plus one call's limit is
            # spent, which also ends a hung call. The benchmark skips the rest then, as here.
            limit = None if is_ref else time_limit_s
            if limit is not None:
                signal.setitimer(signal.ITIMER_REAL, limit + timeout_s)
            start = perf()
            cpu_start = time.process_time()
            try:
                for i, plan in enumerate(plans):
                    # CPU time, as the benchmark counts it (checked every 64 calls: it costs a
                    # system call).
                    if limit is not None and not i & 63 and time.process_time() - cpu_start > limit:
                        break
                    args = harness._fresh_args(plan)
                    try:
                        r = fn(*args)
                    except CallTimeout:
                        raise
                    except BaseException:
                        r = None
                    mine.append(r)
            except CallTimeout:
                figures["timeouts"] += 1
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            spent = perf() - start
            figures["skipped"] += len(plans) - len(mine)
            calls = len(mine)
            if is_ref:
                figures["referenceCalls"] += calls
                figures["referenceSeconds"] += spent
            else:
                figures["candidateCalls"] += calls
                figures["candidateSeconds"] += spent
                if repeat:
                    figures["repeatCalls"] += calls
                    figures["repeatSeconds"] += spent
                results.append(mine)
    figures["wallSeconds"] = perf() - wall0
    figures["cpuSeconds"] = cpu() - cpu0
    # What the benchmark's harness spends encoding the same candidate results (not part of the
    # floor: the floor keeps results as Python objects).
    max_chars = work["maxOutputBytes"]
    cpu1 = cpu()
    for mine in results:
        for r in mine:
            harness._value_wire(r, max_chars)
    figures["encodeSeconds"] = cpu() - cpu1
    real_stdout.write(json.dumps(figures) + "\n")
    real_stdout.flush()


if __name__ == "__main__":
    main()
