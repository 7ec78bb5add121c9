"""What one candidate costs the Python zygote, measured on the real harness code: `bench:floor`'s
per-candidate line (bench/floor.ts starts it, inside the OS boundary when there is one).

argv: the folder that holds crosscheck_worker, the number of candidates K. It sets up a zygote as
startup.py does (site-packages, warm imports, refusals), in its working directory, and has it
load and run K distinct trivial candidates, one call each, with the run carried by the load (as
the host sends them). Each run of K is measured with getrusage (this process and its reaped
children). Sections of the zygote are timed by wrapping its own methods (CPU time of this
thread); the child's parts by stopping children at a stage and taking the difference:

- fork:      the zygote's os.fork call, and a child that exits right after the fork
- sandbox:   the child's set-up before the candidate: descriptors, lifeline, limits, audit hook
- candidate: the child's load, call and reply (what the candidate's own process does)
- files:     the zygote making, checking, handing on and removing children's directories
- pipes:     the zygote creating pipes, relaying and checking lines, watching the child's clocks
- zygote:    the rest of the zygote's work per candidate (clean-up, limits, messages)

Prints one JSON line: microseconds of CPU per candidate by part, page faults, counts."""

import json
import os
import resource
import sys
import time


def main():
    sys.path.insert(0, sys.argv[1])
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    from crosscheck_worker import audit, startup
    from crosscheck_worker import child as child_mod
    from crosscheck_worker import zygote as zygote_mod
    from crosscheck_worker.limits import block_process_creation

    startup._add_site_packages()
    audit.set_roots()
    for name in startup._WARM + tuple(sys.builtin_module_names):
        try:
            __import__(name)
        except ImportError:
            pass
    block_process_creation()
    workdir = os.path.realpath(os.getcwd())
    sink = os.open(os.devnull, os.O_WRONLY)
    zygote = zygote_mod.Zygote(None, sink, [0], workdir, 0)
    zygote.on_inputs({"key": "k", "inputs": [[1]]})

    thread_ns = time.thread_time_ns
    sections = {}
    counts = {}
    depth = [0]

    def timed(owner, name, section, count=None):
        """Wraps owner.name: its CPU time goes to `section` unless a timed call is running."""
        real = getattr(owner, name)

        def wrapper(*args, **kwargs):
            if count:
                counts[count] = counts.get(count, 0) + 1
            if depth[0]:
                return real(*args, **kwargs)
            depth[0] = 1
            t0 = thread_ns()
            try:
                return real(*args, **kwargs)
            finally:
                sections[section] = sections.get(section, 0) + thread_ns() - t0
                depth[0] = 0

        setattr(owner, name, wrapper)

    timed(zygote_mod, "_fork", "fork", "forks")
    for name in ("new_dir", "point_at", "release_dir"):
        timed(zygote, name, "files")
    timed(os, "mkdir", "files", "dirs made")
    timed(zygote_mod, "_rmtree", "files", "dirs removed")
    timed(os, "pipe", "pipes", "pipes made")
    timed(zygote, "relay", "pipes", "lines relayed")
    timed(zygote, "watch", "pipes")

    run = {"id": 2, "inputs": "k", "from": 0, "to": 1, "timeoutMs": 1000, "wallTimeoutMs": 6000,
           "maxOutputBytes": 1 << 24, "invalid": ["ValueError"]}

    def usage():
        s = resource.getrusage(resource.RUSAGE_SELF)
        c = resource.getrusage(resource.RUSAGE_CHILDREN)
        return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime, s.ru_minflt, c.ru_minflt

    def batch(tag, n):
        """n candidates; returns per candidate (zygote s, children s, zygote faults, child faults)."""
        sections.clear()
        counts.clear()
        counts.update({"forks": 0, "dirs made": 0, "dirs removed": 0, "pipes made": 0, "lines relayed": 0})
        a = usage()
        for i in range(n):
            code = "def f(x):\n    return x + 1\n# %s %d\n" % (tag, i)
            zygote.on_load({"t": "load", "id": 1, "key": "%s%d" % (tag, i), "code": code, "entry": "f",
                            "timeoutMs": 1000, "run": run})
        zygote.end_child()
        zygote.reap(block=True)
        b = usage()
        return [(y - x) / n for x, y in zip(a, b)]

    def stop_at(stage):
        """Children exit at `stage` (restored by the caller)."""
        def leave(*_a, **_k):
            os._exit(0)

        if stage == "fork":
            zygote_mod.child_main = leave
        elif stage == "sandbox":
            child_mod.Child = leave

    real_child_main, real_child = zygote_mod.child_main, child_mod.Child
    batch("warm", 20)
    out = {}
    for stage in ("fork", "sandbox", "full"):
        stop_at(stage)
        try:
            out[stage] = batch(stage, k)
        finally:
            zygote_mod.child_main, child_mod.Child = real_child_main, real_child
        if stage == "full":
            zyg_sections = {s: ns / 1e9 / k for s, ns in sections.items()}
            per = {c: n / k for c, n in counts.items()}
    zygote_s, child_s, zygote_faults, child_faults = out["full"]
    fork_child = out["fork"][1]
    sandbox_child = out["sandbox"][1] - fork_child
    candidate_child = child_s - out["sandbox"][1]
    fork = zyg_sections.get("fork", 0) + fork_child
    files = zyg_sections.get("files", 0)
    pipes = zyg_sections.get("pipes", 0)
    rest = zygote_s - zyg_sections.get("fork", 0) - files - pipes
    us = lambda s: round(s * 1e6)  # noqa: E731
    print(json.dumps({
        "candidates": k,
        "cpuUs": us(zygote_s + child_s),
        "forkUs": us(fork),
        "sandboxUs": us(sandbox_child),
        "candidateUs": us(candidate_child),
        "filesUs": us(files),
        "pipesUs": us(pipes),
        "zygoteRestUs": us(rest),
        "zygoteFaults": round(zygote_faults, 1),
        "childFaults": round(child_faults, 1),
        "forkOnlyChildFaults": round(out["fork"][3], 1),
        "perCandidate": {name: round(n, 2) for name, n in per.items()},
    }))


main()
