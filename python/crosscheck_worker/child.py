"""The child: one candidate slice (a load and one batch of calls) in a process forked for it,
then exit. Its limits, lifeline and audit hook are in place before any candidate code runs.

The harness code here shares the process with the candidate, which can reach and change any of
it; it only ever forges the candidate's own replies, which the zygote checks line by line. What
decides anything (timeouts, crashes, blame) is in the zygote. The names this module calls while
candidate code is loaded are still bound privately (a candidate that patches os.write or
time.perf_counter for its own reasons must not break its replies)."""

import builtins
import sys
import time
from builtins import BaseException, OSError, ValueError, callable, frozenset, getattr, int, len, sorted, str, type
from os import _exit, chdir, close, closerange, devnull, dup2, listdir, open as _os_open, read, write
from os import O_RDWR

from . import audit, limits
from _pickle import loads as _ploads

from .codec import _exception_wire, _fresh_args, _loads, _str_list, _value_wire, _class_name
from .protocol import FLUSH_SECONDS, WIRE_ERROR, _error_wire, _text

_perf = time.perf_counter
_cpu_ns = time.clock_gettime_ns
# The child's CPU time, read on its thread's clock: a forked child has one thread and may start no
# other, so that clock holds all of the process's time, and unlike the process clock it is exact.
# Once a CPU limit is armed (the zygote's RLIMIT_CPU backstop), Linux serves the process clock
# from a total it updates only at a scheduler tick or a context switch, so a read can lag by a
# tick: 4 ms at HZ=250, 10 ms at HZ=100. A batch whose start was read stale was charged that tick,
# and where it stopped moved with the kernel's HZ. Reading the thread clock also brings that total
# up to date, so the zygote's later reads of the process clock see at least what the child saw.
_OWN_CPU = time.CLOCK_THREAD_CPUTIME_ID


class _Sink:
    """Where candidate prints go: accepted and dropped without a system call."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, s):
        return len(s)

    def writelines(self, lines):
        pass

    def flush(self):
        pass

    def isatty(self):
        return False

    def fileno(self):
        raise OSError("candidate output is discarded")


def _write_all(fd, data):
    while data:
        data = data[write(fd, data):]


def _read_line(fd):
    """One line from fd, without a buffered file object (the child reads a single line)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = read(fd, 1 << 16)
        if not chunk:
            return b""
        data += chunk
    return data


class Child:
    def __init__(self, progress, phase, plans, shared, packed, base):
        self.progress = progress
        # Non-zero while the harness runs candidate code on a result (zygote.py: the encoding
        # gets no more than the call's limit of its own time, where a call gets the sleeping
        # allowance too).
        self.phase = phase
        self.plans = plans
        self.shared = shared
        # (blob, at): input k's arguments pickled at blob[at[k]:at[k + 1]], or an empty range
        # for one that only `shared` and `plans` hold (Zygote.on_inputs).
        self.packed = packed
        # Number of the first input held (a split candidate's slice holds only its share).
        self.base = base
        self.fn = None

    def send(self, text):
        # Straight to the pipe, with no buffered file object: one system call a line either way.
        _write_all(4, text.encode("utf-8") + b"\n")

    def load(self, msg):
        """Compiles and runs the candidate's module code; returns an error wire or None. Time
        is the zygote's business: it ends this process when loading takes too long."""
        try:
            code = compile(msg["code"], "<candidate>", "exec", dont_inherit=True)
        except BaseException as e:  # SyntaxError, ValueError (null bytes), MemoryError, RecursionError
            return _error_wire(WIRE_ERROR, "CompileError", "%s: %s" % (type(e).__name__, _text(e)))
        ns = {"__name__": "candidate", "__builtins__": builtins.__dict__}
        try:
            exec(code, ns)
        except BaseException as e:
            return _error_wire(WIRE_ERROR, _class_name(e), "while loading the candidate: %s" % _text(e))
        fn = ns.get(msg["entry"])
        if not callable(fn):
            defined = sorted(k for k, v in ns.items() if type(k) is str and callable(v) and not k.startswith("__")
                             and getattr(v, "__module__", None) == "candidate")
            listed = ", ".join("`%s`" % d for d in defined) if defined else "no functions"
            return _error_wire(
                WIRE_ERROR, "EntryNotFound",
                "the code defines no function `%s`; it defines %s. Set `entry` to the function to call."
                % (msg["entry"], listed),
            )
        self.fn = fn
        return None

    def run(self, msg):
        """Calls the candidate on inputs [from, to) and reports values and exceptions only:
        timeouts and crashes are facts about this process that only the zygote and the host see."""
        fn = self.fn
        max_chars = msg["maxOutputBytes"]
        invalid = frozenset(msg["invalid"])
        heads = {}
        end = msg["to"]
        plans, shared, progress, base, phase = self.plans, self.shared, self.progress, self.base, self.phase
        blob, at = self.packed
        unpickle = _ploads
        perf, send = _perf, self.send
        head = '{"t":"out","id":%d,"from":' % msg["id"]
        parts = []
        append = parts.append
        i = sent = msg["from"]
        held = 0
        last_flush = perf()
        # The batch's share of the candidate's time, checked here between calls rather than by
        # the zygote's periodic look: where the batch stops must not depend on how soon a busy
        # machine let the zygote look. The zygote checks the claim (see Zygote.check_out).
        limit = msg.get("timeLimitMs")
        limit_ns = None if limit is None else int(limit * 1_000_000)
        cpu_ns, own_cpu = _cpu_ns, _OWN_CPU
        started = cpu_ns(own_cpu) if limit_ns is not None else 0
        while i < end:
            k = i - base
            a = at[k]
            b = at[k + 1]
            if a != b:
                # The call's own copy, read from the blob: nothing of the zygote's is written.
                args = unpickle(blob[a:b])
            else:
                args = shared[k]
                if args is None:
                    plan = plans[k]
                    if type(plan) is str:
                        append(plan)
                        i += 1
                        continue
                    args = _fresh_args(plan)
            t0 = perf()
            if t0 - last_flush > FLUSH_SECONDS or held > max_chars:
                # Also by size: the host refuses reply lines past 2 x maxOutputBytes.
                send(head + '%d,"outcomes":%s}' % (sent, _str_list(parts)))
                sent = i
                del parts[:]
                last_flush = t0
                held = 0
            if limit_ns is not None:
                # A system call a call (a few us in a VM), so only where a time limit needs it;
                # the zygote times a call without a stamp from when it first saw the index move.
                now = cpu_ns(own_cpu)
                if now - started > limit_ns:
                    if parts:
                        send(head + '%d,"outcomes":%s}' % (sent, _str_list(parts)))
                    send('{"t":"spent","id":%d}' % msg["id"])
                    return
                # The call's start on this process's CPU clock, then its index: the zygote times
                # the call from here and charges a timeout from here.
                phase[1] = now
            progress[0] = i
            try:
                r = fn(*args)
            except BaseException as e:
                # An exception's message and class name may be candidate code (__str__ of it
                # or of its arguments, a metaclass's __name__), and so may its finalizer.
                phase[0] = 1
                append(_exception_wire(e, invalid, heads))
                del e
                phase[0] = 0
            else:
                t = type(r)
                # Results of these exact types are encoded without running any candidate code
                # (compared by identity: hashing a type would call its metaclass's __hash__).
                if t is int or t is str or t is float or t is bool or r is None:
                    wire = _value_wire(r, max_chars)
                else:
                    phase[0] = 1
                    wire = _value_wire(r, max_chars)
                    # Its finalizers run now, within the encoding's limit, not in the next call.
                    del r
                    phase[0] = 0
                held += len(wire)
                append(wire)
            i += 1
        send(head + '%d,"outcomes":%s,"done":true}' % (sent, _str_list(parts)))



def _close_from(low):
    """Closes every descriptor from `low` up. Python >= 3.10 does it with one close_range(2);
    3.9's closerange closes each number in turn (65,536 system calls, ~15 ms a child), so
    there the open ones are listed first."""
    if sys.version_info >= (3, 10):
        closerange(low, 1 << 16)
        return
    try:
        fds = [int(n) for n in listdir("/proc/self/fd")]
    except (OSError, ValueError):
        closerange(low, 1 << 16)
        return
    for fd in fds:
        if fd >= low:
            try:
                close(fd)
            except OSError:
                pass


def child_main(msg, pipes, subdir, zygote_pid, memory_mb, progress, phase, plans, shared, packed, base, run):
    """Runs in the forked child; never returns. `pipes` are its ends of the control, result and
    lifeline pipes; `run` is the run the load carried, else the child reads it from the zygote."""
    try:
        ctl_r, res_w, life_r = pipes
        # The child speaks the same protocol to the zygote on its own fd 3/4, and holds its
        # lifeline on fd 5; nothing else of the zygote's (the host's pipes, other children's
        # pipes, the lifeline's write end) stays open.
        dup2(ctl_r, 3)
        dup2(res_w, 4)
        dup2(life_r, audit.HARNESS_FDS)
        null = _os_open(devnull, O_RDWR)
        for fd in (0, 1, 2):
            dup2(null, fd)
        _close_from(audit.HARNESS_FDS + 1)
        limits.arm_lifeline(audit.HARNESS_FDS, zygote_pid)
        # The zygote's SIGTERM handler (limits.die_with_host) kills the whole group: not the
        # candidate's to run by raising SIGTERM in its own process.
        import signal

        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        chdir(subdir)
        # HOME, TMPDIR, TMP, TEMP and tempfile.tempdir name `subdir` already: the zygote set
        # them before the fork (Zygote.point_at). PR_SET_NO_NEW_PRIVS holds already: the zygote
        # got it from the first stage (startup.py), and a fork inherits it.
        limits.set_limits(memory_mb)
        # rmtree's descriptor-based variant opens directories, which the hook refuses. (Only
        # in the child: the zygote's own rmtree keeps the variant that is safe against symlinks.)
        import shutil

        shutil._use_fd_functions = False
        # sys.stdout, sys.stderr and sys.stdin are the zygote's (a _Sink, None), and the
        # process-creation refusals are in place since the zygote ran block_process_creation.
        audit.install(subdir)
        child = Child(progress, phase, plans, shared, packed, base)
        error = child.load(msg)
        if error is None:
            child.send('{"t":"loaded","id":%d,"ok":true}' % msg["id"])
        else:
            child.send('{"t":"loaded","id":%d,"ok":false,"error":%s}' % (msg["id"], error))
            _exit(0)
        if run is not None:
            child.run(run)
        else:
            line = _read_line(3)
            if line:
                child.run(_loads(line.decode("utf-8")))
    except BaseException:
        _exit(70)
    finally:
        # Whatever happens, the child never returns into the zygote's code.
        _exit(0)
