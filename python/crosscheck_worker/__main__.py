"""Entry point: `python -S -s -B <path>/python/crosscheck_worker`, as the host starts it
(src/exec/python/backend.ts), with fd 3 (requests, host -> worker), fd 4 (replies, worker -> host),
a scrubbed environment and a fresh temporary working directory. Standard library only; Python >= 3.9.

Two stages. The first sets what the zygote must inherit (no new privileges, death with the host)
through ctypes, then executes the same command again; the second, which never loads ctypes, is
the zygote (startup.py, zygote.py)."""

import os
import sys

# Set by the first stage for the second.
_STAGE = "CROSSCHECK_WORKER_STAGE"


def _run():
    here = os.path.dirname(os.path.abspath(__file__))
    # Running a directory puts it first on sys.path, where the harness's modules would shadow a
    # candidate's imports (`import codec`). The package is imported from its parent folder, which
    # leaves sys.path again before any candidate exists.
    if sys.path and os.path.abspath(sys.path[0] or ".") == here:
        del sys.path[0]
    parent = os.path.dirname(here)
    sys.path.insert(0, parent)
    try:
        if os.environ.get(_STAGE) != "1":
            from crosscheck_worker.limits import harden_then_exec

            argv = getattr(sys, "orig_argv", None) or [sys.executable, "-S", "-s", "-B"] + sys.argv
            harden_then_exec(argv, _STAGE)
        from crosscheck_worker.startup import main
    finally:
        sys.path.remove(parent)
    main()


_run()
