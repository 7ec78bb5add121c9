"""The zygote: the process the host starts (after startup.py), trusted, never running candidate
code. It holds the decoded inputs, forks one child per candidate slice (child.py), watches the
child's CPU time and its own time per call, checks every line the child writes before passing it
on, and reports how the child ended: only the zygote and the host assign timeouts and crashes."""

import gc
import json
from array import array as _array
from json.decoder import scanstring as _scanstring
import mmap
import os
import resource
import signal
import sys
import time

from .child import child_main
from .codec import _ATOMS, _copy_plan, _dumps, _loads, _pickled
from .limits import _fork, _kill
from .protocol import (
    _ALIVE, _OUT_KEYS, _REPORTABLE, ALIVE_SECONDS, PROTOCOL, WIRE_ERROR, _all_reportable, _check_loads,
    _error_wire, _text,
)


# The host's default output limit (src/exec/backend.ts), for a line before any run named its own.
_DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024
# A line this short that is not in the harness's own form is parsed whole, for the message that
# says what was wrong with it; a longer one is refused on its form alone.
_SMALL_LINE = 1 << 16
# An outcome array this long is checked string by string (json's C scanner, one string held at
# a time) rather than parsed whole into a list: what a line costs the zygote stays a small
# multiple of the line, whatever it holds.
_SCAN_OVER = 1 << 20


def _line_cap(max_output_bytes):
    """The longest reply line the host accepts from a run with this output limit (maxLineChars
    in src/exec/command/worker-process.ts, characters of a line that is ASCII when the harness
    wrote it): a child's line past it is the child's fault, found before the zygote holds more
    of it than that."""
    if type(max_output_bytes) is not int or max_output_bytes < 0:
        max_output_bytes = _DEFAULT_MAX_OUTPUT
    return 2 * max_output_bytes + (1 << 20)


def _too_long(cap):
    return "a reply line longer than %d bytes, the longest the host takes for this run" % cap


def _malformed(what, line):
    return "%s %s" % (what, line[:120].decode("utf-8", "replace"))


def _scan_strings(text, pos, each, most):
    """Checks that `text` (str) from `pos` on is the rest of a JSON array of at most `most`
    strings, `[` at pos - 1 and its `]` the last character, calling `each` on every string;
    returns how many. One string at a time: no list of them, no other object. ValueError if it
    is not."""
    last = len(text) - 1
    if pos == last and text[pos] == "]":
        return 0
    n = 0
    try:
        while True:
            if text[pos] != '"':
                raise ValueError("not a string at %d" % pos)
            if n == most:
                raise ValueError("more than %d strings" % most)
            value, pos = _scanstring(text, pos + 1)
            each(value)
            n += 1
            c = text[pos]
            if c == ",":
                pos += 1
            elif c == "]" and pos == last:
                return n
            else:
                raise ValueError("unexpected %r at %d" % (c, pos))
    except IndexError:
        raise ValueError("the array does not end")


def _ignore(_value):
    pass


def _check_outcome(o):
    if not (o.startswith(_REPORTABLE) and o.endswith("]")):
        raise Ended("fault", "a malformed outcome %s" % repr(o)[:120])


def _check_outcomes(outcomes):
    """Ended (a fault) unless every item of the list `outcomes` is a reportable outcome string."""
    if not _all_reportable(outcomes):
        # The slow check decides (and names the culprit): the fast one also fails on
        # well-formed outcomes that hold a NUL.
        for o in outcomes:
            if type(o) is not str:
                raise Ended("fault", "a malformed outcome %s" % repr(o)[:120])
            _check_outcome(o)


def _count_outcomes(array, most):
    """The number of outcomes in `array`, the bytes of the JSON array of an `out` line. Ended (a
    fault) for an outcome that is not a string that starts with a reportable kind and ends with
    `]`; ValueError if `array` is no JSON array, or a long one of more than `most` outcomes (the
    rest of the batch: a line of millions of tiny outcomes costs the zygote no more than its
    batch's)."""
    if len(array) <= _SCAN_OVER:
        outcomes = _check_loads(array.decode("utf-8"))
        if type(outcomes) is not list:
            raise ValueError("not an array")
        _check_outcomes(outcomes)
        return len(outcomes)
    # The harness writes ASCII only (json's ASCII escapes): a long line is checked as such.
    if not array.isascii():
        raise ValueError("not ASCII")
    return _scan_strings(array.decode("ascii"), 1, _check_outcome, most)


def _cpu_clock(pid):
    # clock_getcpuclockid(pid) for a whole process on Linux: CPUCLOCK_SCHED of that pid.
    return ((~pid) << 3) | 2




class _OwnTime:
    """The wall time a child spent on its current call, less what a busy machine added: the time
    it waited for a CPU (the run delay of /proc/<pid>/schedstat) and the time the zygote was
    blocked relaying to the host. What is left is running or sleeping of its own accord, so a
    candidate that sleeps is still ended while a loaded machine cannot end a fast one. Where the
    kernel keeps no schedstat, this is plain wall time."""

    def __init__(self, zygote, pid):
        self.zygote = zygote
        self.path = "/proc/%d/schedstat" % pid
        self.wall0 = self.delay0 = self.blocked0 = 0.0

    def _delay(self):
        # Descriptor calls, not a file object: read two or three times a candidate.
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                return int(os.read(fd, 256).split()[1]) / 1e9
            finally:
                os.close(fd)
        except (OSError, ValueError, IndexError):
            return 0.0

    def start(self, now):
        self.wall0, self.delay0, self.blocked0 = now, self._delay(), self.zygote.blocked

    def wall(self, now):
        return now - self.wall0

    def own(self, now):
        return (now - self.wall0) - (self._delay() - self.delay0) - (self.zygote.blocked - self.blocked0)

    def over(self, now, limit):
        """Past `limit` seconds of own time, or of plain wall time far past it. The run delay
        is read only once wall time alone has passed the limit."""
        wall = now - self.wall0
        return wall > limit and (self.own(now) > limit or wall > _hard_wall_limit(limit))


def _hard_wall_limit(own_limit):
    """Plain wall time after which a call ends whatever the clocks say: only a defence should
    the run delay be misread, never what decides a call on a working kernel."""
    return max(60.0, 10 * own_limit)


class Ended(Exception):
    """How a child's phase ended. `charge_ns`, for a timeout: the CPU time (on the child's clock)
    its candidate is charged, the hung call's start plus its limit, whatever the child burnt
    before the zygote's next look (more on a busy machine) ended it."""

    def __init__(self, cause, reason="", charge_ns=None):
        self.cause = cause
        self.reason = reason
        self.charge_ns = charge_ns


def _describe_status(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        return "the worker was killed by %s" % name
    return "the worker exited with code %d" % os.WEXITSTATUS(status)



def _rmtree(path):
    # Most candidates leave their directory empty: one rmdir, not rmtree's walk (~0.15 ms).
    try:
        os.rmdir(path)
        return
    except OSError:
        pass
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _remove(path):
    """Removes whatever is at `path`: a directory tree, or a file, link or FIFO."""
    try:
        if not os.path.isdir(path) or os.path.islink(path):
            os.unlink(path)
            return
    except OSError:
        pass
    _rmtree(path)


def _dir_state(path):
    """Everything a candidate could change about its directory's own inode, bar its entries and
    extended attributes (checked apart): a dead child's directory is given to the next child only
    if this is what it was when the zygote last checked it."""
    st = os.lstat(path)
    return (st.st_dev, st.st_ino, st.st_mode, st.st_uid, st.st_gid, st.st_nlink, st.st_atime_ns,
            st.st_mtime_ns, st.st_ctime_ns)


def _no_xattrs(path):
    try:
        return not os.listxattr(path, follow_symlinks=False)
    except OSError as e:
        # A file system without extended attributes: none can have been set.
        return e.errno in (_errno.ENOTSUP, _errno.EOPNOTSUPP)
    except AttributeError:
        return True


import errno as _errno


def _run_backstop_ms(run):
    """The CPU time a run may take before RLIMIT_CPU ends its child (see _cpu_backstop)."""
    timeout_ms = run["timeoutMs"]
    calls = max(1, run["to"] - run["from"])
    time_limit = run.get("timeLimitMs")
    return timeout_ms * calls if time_limit is None else min(timeout_ms * calls, time_limit + 2 * timeout_ms + 50)


def _child_run(run):
    """What the child needs of a run: its request, as the zygote would send it."""
    return {"id": run["id"], "from": run["from"], "to": run["to"], "timeLimitMs": run.get("timeLimitMs"),
            "maxOutputBytes": run["maxOutputBytes"], "invalid": list(run["invalid"])}


import select as _select


class Zygote:
    def __init__(self, rfile, wfd, progress, workdir, memory_mb):
        self.rfile = rfile
        self.wfd = wfd
        self.progress = progress
        self.workdir = workdir
        self.memory_mb = memory_mb
        self.inputs_key = None
        self.shared_inputs = []
        self.plans = []
        self.packed = (memoryview(b""), _array("q", [0]))
        self.inputs_from = 0
        self.child = None  # (pid, ctl fd, res fd, dir, key, lifeline fd)
        # Set by a child while the harness runs candidate code on a result (child.py): a page
        # shared with every child, outside the progress file the host reads.
        # Slot 1: the CPU clock at the start of the running call, written by the child.
        self.phase = memoryview(mmap.mmap(-1, 16)).cast("q")
        self.zombies = []
        self.count = 0
        # Directories of dead children found exactly as they were made (see release_dir), for the
        # next children: on ext4 a mkdir and an rmdir cost ~0.2 ms a candidate; the checks ~20 us.
        self.spare = []
        self.spare_names = set()
        self.env_dir = None
        self.dir_states = {}
        self.pending = b""
        # The longest line a child may write (the host's limit for the run's maxOutputBytes).
        self.line_cap = _line_cap(_DEFAULT_MAX_OUTPUT)
        # Seconds spent blocked writing to the host (a host too busy to read), and when the
        # host last heard from this zygote.
        self.blocked = 0.0
        self.last_out = time.monotonic()

    def send(self, text):
        self.relay(text.encode("utf-8") + b"\n")

    def relay(self, data):
        t0 = time.monotonic()
        # A view, so a line longer than the pipe holds is not copied again for each write.
        view = memoryview(data)
        while view:
            n = os.write(self.wfd, view)
            view = view[n:]
        self.last_out = now = time.monotonic()
        self.blocked += now - t0

    def beat(self, now):
        """Tells the host the zygote is still watching a call: on a busy machine a call within
        its CPU limit can take many times its limit in wall time, and the host must not take the
        silence for a hang."""
        if now - self.last_out > ALIVE_SECONDS:
            self.send(_ALIVE)

    def on_inputs(self, msg):
        """Decodes each input once, in the zygote: every child inherits the result. An input of
        builtin types is pickled into one blob, from which a child unpickles each call's own copy
        (codec._pickled); of the others, immutable arguments are shared by every call and
        mutable ones get a copy recipe."""
        self.inputs_key = msg["key"]
        base = msg.get("from", 0)
        self.inputs_from = base if type(base) is int and base >= 0 else 0
        shared, plans, parts = [], [], []
        # Input k is blob[at[k]:at[k + 1]]: an empty range for one that is not packed.
        at = _array("q", [0])
        total = 0
        undecoded = msg.get("undecoded", False)
        atoms = _ATOMS
        for args in msg["inputs"]:
            share, plan = None, None
            try:
                if undecoded:
                    args = _loads(_dumps(args))
                part = _pickled(args)
                if part is not None:
                    parts.append(part)
                    total += len(part)
                # Most other inputs are tuples of numbers and strings: one check in C instead of
                # a plan per argument (a reference filter sends tens of thousands of them).
                elif type(args) is list and set(map(type, args)) <= atoms:
                    share = args
                else:
                    plan = [_copy_plan(a) for a in args]
                    if all(kind == 0 for kind, _ in plan):
                        share, plan = args, None
            except BaseException as e:
                plan = _error_wire(WIRE_ERROR, "Unserializable", "the input cannot be built in Python: %s" % _text(e))
            shared.append(share)
            plans.append(plan)
            at.append(total)
        self.shared_inputs, self.plans = shared, plans
        self.packed = (memoryview(b"".join(parts)), at)

    # -- children

    def end_child(self, wait=True):
        """Kills the current child (if any). With `wait`, reaps it and returns its wait status
        and CPU seconds; without, it is reaped later: a killed process runs no more code, so the
        next child need not wait for its teardown."""
        c = self.child
        if c is None:
            return None
        self.child = None
        pid, ctl, res, subdir, _key, life = c
        try:
            _kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for fd in (ctl, res, life):
            try:
                os.close(fd)
            except OSError:
                pass
        if not wait:
            self.zombies.append((pid, subdir))
            return None
        _, status, usage = os.wait4(pid, 0)
        self.release_dir(subdir)
        return status, usage.ru_utime + usage.ru_stime

    def point_at(self, subdir):
        """Points the environment and tempfile at the next child's directory, in the zygote:
        done in each child, it cost ~40 copied pages a candidate; here it is done only when the
        directory differs from the last child's (a reused directory is the same)."""
        if subdir == self.env_dir:
            return
        for var in ("HOME", "TMPDIR", "TMP", "TEMP"):
            os.environ[var] = subdir
        import tempfile

        tempfile.tempdir = subdir
        self.env_dir = subdir

    def new_dir(self):
        """A directory for the next child: a spare one if it is still exactly as it was when it
        was last checked, else a new one. Called with no child alive, when the working folder
        holds the spare directories and nothing else: whatever else is there, or in a spare
        directory, a candidate that got past the audit hook left for the next one (a file that
        fills the tmpfs, a planted note), and is removed first."""
        names = os.listdir(self.workdir)
        if len(names) != len(self.spare) or not self.spare_names.issuperset(names):
            for name in names:
                path = os.path.join(self.workdir, name)
                if path not in self.spare:
                    self.dir_states.pop(path, None)
                    _remove(path)
        while self.spare:
            subdir = self.spare.pop()
            self.spare_names.discard(os.path.basename(subdir))
            if self._pristine(subdir):
                return subdir
            self.dir_states.pop(subdir, None)
            _remove(subdir)
        self.count += 1
        subdir = os.path.join(self.workdir, "c%d" % self.count)
        os.mkdir(subdir, 0o700)
        self.dir_states[subdir] = _dir_state(subdir)
        return subdir

    def _pristine(self, subdir):
        """True if `subdir` is as the zygote made or last checked it: same inode, mode, owner,
        link count and times, no entries, no extended attributes. Times are compared because a
        candidate could set them (os.utime) for the next one to read; entries and attributes are
        listed because a change within one tick of the file system's clock keeps the times.
        Listing it may set its access time: the state to compare next time is taken after."""
        state = self.dir_states.get(subdir)
        try:
            if (state is not None and _dir_state(subdir) == state and not os.listdir(subdir)
                    and _no_xattrs(subdir)):
                self.dir_states[subdir] = _dir_state(subdir)
                return True
        except OSError:
            pass
        return False

    def release_dir(self, subdir):
        """A dead child's directory: kept as a spare for a later child if its own inode is as the
        zygote handed it out, else removed now (while the host takes the last reply, not before
        the next fork). Its entries and attributes are checked when it is handed out (new_dir):
        only then is no other candidate left that could still change it."""
        state = self.dir_states.get(subdir)
        try:
            if state is not None and len(self.spare) < 4 and _dir_state(subdir) == state:
                self.spare.append(subdir)
                self.spare_names.add(os.path.basename(subdir))
                return
        except OSError:
            pass
        self.dir_states.pop(subdir, None)
        _rmtree(subdir)

    def reap(self, block=False):
        """Reaps children killed earlier and removes their directories."""
        left = []
        for pid, subdir in self.zombies:
            try:
                done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                self.release_dir(subdir)
            else:
                left.append((pid, subdir))
        self.zombies = left

    def on_load(self, msg):
        # A load may carry its run (docs/protocol.md "The Python zygote"). The child is forked
        # with it and starts its calls as soon as it has answered the load: no round trip
        # through the host, nor one through the zygote's pipe (a line to write, read and decode,
        # and a wake-up on each side).
        run = msg.get("run")
        carried = run if type(run) is dict and self.holds(run) else None
        self.line_cap = _line_cap(run.get("maxOutputBytes") if type(run) is dict else None)
        # No process of an earlier candidate is left when this one starts: each was killed when
        # its batch ended (or here), and is waited for (a killed process only has its teardown
        # left, mostly done by now), so that nothing it still held (files open in its
        # directory, space on the tmpfs) reaches the next one.
        self.end_child(wait=False)
        self.reap(block=True)
        subdir = self.new_dir()
        self.point_at(subdir)
        ctl_r, ctl_w = os.pipe()
        res_r, res_w = os.pipe()
        life_r, life_w = os.pipe()
        me = os.getpid()
        self.progress[0] = -1
        self.phase[0] = 0
        self.phase[1] = -1
        # Objects that exist now are never scanned by the child's garbage collector, which
        # would otherwise touch (and so copy) every page of the zygote's heap.
        gc.freeze()
        pid = _fork()
        if pid == 0:
            child_main(msg, (ctl_r, res_w, life_r), subdir, me, self.memory_mb, self.progress,
                       self.phase, self.plans, self.shared_inputs, self.packed, self.inputs_from,
                       None if carried is None else _child_run(carried))
        os.close(ctl_r)
        os.close(res_w)
        os.close(life_r)
        self.child = (pid, ctl_w, res_r, subdir, msg["key"], life_w)
        self.pending = b""
        if carried is None:
            self._cpu_backstop(pid, msg["timeoutMs"], False)
        else:
            # One backstop for the load and the batch: the child goes from one to the other
            # without waiting for the zygote.
            self._cpu_backstop(pid, msg["timeoutMs"] + _run_backstop_ms(carried), True)
        try:
            line, ok = self.watch(msg["id"], msg["timeoutMs"], None, None, load=True,
                                  more=carried is not None)
        except Ended as e:
            self.report_end(msg["id"], e, -1)
            return
        self.relay(line)
        if not ok:
            self.end_child()
            return
        if type(run) is dict:
            self.on_run(dict(run, t="run", key=msg["key"]), carried is not None)

    def _call_start(self, credible, floor, seen):
        """When the call the child runs started on its CPU clock: its own stamp (phase[1]) if that
        lies between `floor` (the last call's start) and `seen` (the clock when the zygote saw
        the call); else `seen`. A stamp outside that is the candidate's: believing a later one
        would give its call more time, and an earlier one can only end it sooner."""
        stamp = self.phase[1] if credible else -1
        return stamp if floor <= stamp <= seen else seen

    def _cpu_backstop(self, pid, ms, final):
        """RLIMIT_CPU as a backstop should the watch below ever fail to end the child. At load
        only the soft limit (the batch may need more, and only root may raise a hard limit)."""
        try:
            limit = int(time.clock_gettime(_cpu_clock(pid))) + int(ms / 1000.0 * 2) + 2
            resource.prlimit(pid, resource.RLIMIT_CPU, (limit, limit + 2 if final else resource.RLIM_INFINITY))
        except (OSError, ValueError, AttributeError):
            pass

    def on_run(self, msg, started=False):
        """Watches a run; unless the child `started` it with its load, first sends it the run."""
        c = self.child
        run_id = msg["id"]
        if c is None or c[4] != msg["key"] or not self.holds(msg):
            self.send(_dumps({"t": "fatal", "message": "run before load or inputs, or past the inputs held"}))
            return
        pid, ctl = c[0], c[1]
        begin, end = msg["from"], msg["to"]
        timeout_ms = msg["timeoutMs"]
        time_limit = msg.get("timeLimitMs")
        self.line_cap = _line_cap(msg.get("maxOutputBytes"))
        if not started:
            self._cpu_backstop(pid, _run_backstop_ms(msg), True)
            try:
                os.write(ctl, (_dumps(dict(_child_run(msg), t="run")) + "\n").encode("utf-8"))
            except OSError:
                pass
        try:
            self.watch(run_id, timeout_ms, time_limit, (begin, end), load=False,
                       wall_ms=msg.get("wallTimeoutMs"))
        except Ended as e:
            self.report_end(run_id, e, self._culprit())
            return
        # The batch is over: the child is killed before the zygote says so, so that nothing of
        # the candidate runs once the host may send the next request (a child that went on
        # would be unwatched, and could act on the next candidate's worker). Its CPU time is
        # read first. It is reaped at the next load, before the next fork: its teardown (the
        # pages it copied) overlaps the host's turn rather than delaying the reply.
        try:
            cpu = time.clock_gettime(_cpu_clock(pid))
        except OSError:
            ended = self.end_child()
            cpu = ended[1] if ended else 0.0
        self.end_child(wait=False)
        self.send(_dumps({"t": "ended", "id": run_id, "cause": "done", "cpuMs": round(cpu * 1000, 3)}))

    def holds(self, run):
        """True when `run` names the input set held and lies within it."""
        begin, end = run.get("from"), run.get("to")
        return (run.get("inputs") == self.inputs_key and type(begin) is int and type(end) is int
                and self.inputs_from <= begin <= end <= self.inputs_from + len(self.plans))

    def _culprit(self):
        try:
            return int(self.progress[0])
        except (TypeError, ValueError):
            return -1

    def report_end(self, req_id, e, at):
        ended = self.end_child()
        status, cpu = ended if ended else (0, 0.0)
        if e.charge_ns is not None:
            cpu = min(cpu, e.charge_ns / 1e9)
        reason = e.reason
        if e.cause == "exit":
            reason = _describe_status(status)
        self.send(_dumps({"t": "ended", "id": req_id, "cause": e.cause, "at": at,
                          "cpuMs": round(cpu * 1000, 3), "reason": _text(reason)}))

    def watch(self, req_id, timeout_ms, time_limit_ms, window, load, wall_ms=None, more=False):
        """Relays the child's checked lines until the phase is over: the `loaded` line (returned,
        not yet relayed) or the last `out` (relayed). Ends the child, by raising Ended, when one
        call (or the load) passes `timeout_ms` of its CPU time, when the child says the batch
        passed `time_limit_ms` of CPU time (checked; the zygote's own check, later, is a backstop), when a call passes the wall-time backstop (a candidate that
        sleeps), when it dies, or when it writes anything but a well-formed reply. With `more`
        (a run carried by the load) bytes after a successful load reply are the run's, kept in
        `self.pending` for the next watch; lines already there are checked before waiting."""
        select = _select

        pid, _ctl, res = self.child[0], self.child[1], self.child[2]
        clock = _cpu_clock(pid)
        timeout_ns = timeout_ms * 1_000_000
        wall_limit = (wall_ms if wall_ms is not None else 5 * timeout_ms + 1000) / 1000.0
        # The child stops itself between calls once the batch passed its time (child.py), so
        # that where it stops does not depend on when this loop looks; a call started before
        # then may take its timeout and its encoding's. Past that, the child broke its word.
        limit_ns = None if time_limit_ms is None else (time_limit_ms + 2 * timeout_ms + 50) * 1_000_000
        tick = max(0.002, min(0.025, timeout_ms / 10000.0))
        try:
            cpu0 = time.clock_gettime_ns(clock)
        except OSError:
            cpu0 = 0
        call_idx = self.progress[0]
        # The running call's start on the child's CPU clock: the child's stamp (phase[1]) where
        # it is credible, else when this loop first saw the call.
        call_cpu = self._call_start(call_idx >= 0 and not load, 0, cpu0)
        clock_own = _OwnTime(self, pid)
        clock_own.start(time.monotonic())
        nxt = window[0] if window else 0
        progress, phase = self.progress, self.phase
        # Own time of the call when the harness was first seen running candidate code on its
        # result: from there the call gets `timeout_ms` of its own time, no sleeping allowance.
        encoding_from = None
        held = b"\n" in self.pending
        cap = self.line_cap
        # Reads that end no line, kept apart and joined once their line ends: adding each to
        # `pending` would copy a long line again for every 64 KiB read.
        parts = []
        parts_len = 0
        while True:
            if held:
                # Whole lines that came with the load reply: checked before any wait.
                held, ready, data = False, True, b""
            else:
                ready, _, _ = select.select([res], [], [], tick)
                if ready:
                    try:
                        data = os.read(res, 1 << 16)
                    except OSError:
                        data = b""
                    if not data:
                        self.await_exit(pid, clock, call_cpu, clock_own, timeout_ns, wall_limit)
            if ready and data and b"\n" not in data:
                parts.append(data)
                parts_len += len(data)
                if len(self.pending) + parts_len > cap:
                    raise Ended("fault", _too_long(cap))
                ready = False
            # The clocks before any line read now is relayed: an outcome that arrives together
            # with the news that its call ran past the limit is a timeout, whenever the zygote
            # got to look (a zygote kept from looking, by a busy machine or otherwise, must not
            # pass on what it would have ended).
            try:
                cpu = time.clock_gettime_ns(clock)
            except OSError:
                raise Ended("exit")
            idx = progress[0]
            now = time.monotonic()
            if idx != call_idx:
                # The harness only moves it forward within the batch; the candidate, which can
                # reach the page too, must not restart its call's clock by moving it.
                if (idx < call_idx or (window is not None and not window[0] <= idx < window[1])
                        or (load and not more)):
                    raise Ended("fault", "the progress counter moved from %d to %d" % (call_idx, idx))
                # From its stamp, where credible: a call that started and ran past its limit
                # while the zygote did not look is over it now.
                call_idx, call_cpu = idx, self._call_start(True, call_cpu, cpu)
                clock_own.start(now)
                encoding_from = None
            if cpu - call_cpu > timeout_ns or clock_own.over(now, wall_limit):
                raise Ended("timeout", "%d ms of CPU time, %d ms of its own time, %d ms of wall time"
                            % ((cpu - call_cpu) // 1_000_000, clock_own.own(now) * 1000,
                               clock_own.wall(now) * 1000), call_cpu + timeout_ns)
            if phase[0]:
                own = clock_own.own(now)
                if encoding_from is None:
                    encoding_from = own
                elif (own - encoding_from) * 1e9 > timeout_ns:
                    raise Ended("timeout", "%d ms of its own time running the candidate's code on its result"
                                % ((own - encoding_from) * 1000), call_cpu + timeout_ns)
            else:
                encoding_from = None
            if ready:
                if parts:
                    data = b"".join([self.pending, *parts, data])
                    parts = []
                    parts_len = 0
                else:
                    data = self.pending + data
                lines = data.split(b"\n")
                del data
                self.pending = lines.pop()
                if len(self.pending) > cap:
                    raise Ended("fault", _too_long(cap))
                for k, line in enumerate(lines):
                    if load:
                        ok = self.check_loaded(line, req_id, cap)
                        if k + 1 < len(lines) or self.pending:
                            if not (more and ok):
                                raise Ended("fault", "bytes after the load reply")
                            self.pending = b"\n".join(lines[k + 1:] + [self.pending])
                        return line + b"\n", ok
                    nxt, done = self.check_out(line, req_id, nxt, window[1], clock, time_limit_ms, cap)
                    if len(line) < _SMALL_LINE:
                        self.relay(line + b"\n")
                    else:
                        # Not copied again to add its newline.
                        lines[k] = None
                        self.relay(line)
                        self.relay(b"\n")
                    del line
                    if done:
                        if self.pending:
                            raise Ended("fault", "bytes after the last reply")
                        return None
                del lines
            self.beat(now)
            if limit_ns is not None and cpu - cpu0 > limit_ns:
                raise Ended("time", "the candidate's time is spent")

    def await_exit(self, pid, clock, call_cpu, clock_own, timeout_ns, wall_limit):
        """The child closed its reply pipe: wait for it to exit (still within its limits) so
        that the reason names how it really ended."""
        while True:
            try:
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                info = True
            if info is not None:
                raise Ended("exit")
            try:
                cpu = time.clock_gettime_ns(clock)
            except OSError:
                raise Ended("exit")
            now = time.monotonic()
            if cpu - call_cpu > timeout_ns or clock_own.over(now, wall_limit):
                raise Ended("timeout", "it stopped answering", call_cpu + timeout_ns)
            self.beat(now)
            time.sleep(0.002)

    def check_loaded(self, line, req_id, cap=None):
        """True for a successful load reply, False for a load error; Ended (a fault) for any
        other line. The harness's own forms are checked on their bytes; only a short line in
        another form is parsed whole, so a long one costs the zygote no more than its length."""
        if cap is not None and len(line) > cap:
            raise Ended("fault", _too_long(cap))
        if line == b'{"t":"loaded","id":%d,"ok":true}' % req_id:
            return True
        head = b'{"t":"loaded","id":%d,"ok":false,"error":[2,' % req_id
        if line.startswith(head) and line.endswith(b"]}"):
            # [2, name, message]: two strings, checked one at a time.
            error = line[len(head) - 3:-1]
            try:
                if not error.isascii():
                    raise ValueError("not ASCII")
                if _scan_strings(error.decode("ascii"), 3, _ignore, 2) != 2:
                    raise ValueError("not a name and a message")
            except ValueError:
                raise Ended("fault", _malformed("a malformed load reply", line))
            return False
        if len(line) > _SMALL_LINE:
            raise Ended("fault", _malformed("expected the load reply, got", line))
        try:
            m = _check_loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise Ended("fault", _malformed("not JSON:", line))
        if type(m) is not dict or m.get("t") != "loaded" or m.get("id") != req_id:
            raise Ended("fault", _malformed("expected the load reply, got", line))
        if m.get("ok") is True and len(m) == 3:
            return True
        err = m.get("error")
        if (m.get("ok") is False and len(m) == 4 and type(err) is list and len(err) == 3 and err[0] == 2
                and type(err[1]) is str and type(err[2]) is str):
            return False
        raise Ended("fault", _malformed("a malformed load reply", line))

    def check_out(self, line, req_id, nxt, end, clock, time_limit_ms, cap=None):
        """A child line is relayed only if it is an `out` for this request, contiguous, within
        the batch, with values and exceptions only: never an `ended` or a timeout of its own.
        A `spent` line (the batch passed its time, child.py) ends the batch if the child's CPU
        clock bears it out. A line past `cap` bytes (the host's limit) is refused unread; the
        harness's own form is checked on its bytes, its outcomes string by string when they are
        many, and only a short line in another form is parsed whole."""
        if cap is not None and len(line) > cap:
            raise Ended("fault", _too_long(cap))
        head = b'{"t":"out","id":%d,"from":%d,"outcomes":[' % (req_id, nxt)
        if line.startswith(head):
            if line.endswith(b"]}"):
                done, tail = False, 1
            elif line.endswith(b'],"done":true}'):
                done, tail = True, 13
            elif line.endswith(b'],"done":false}'):
                done, tail = False, 14
            else:
                raise Ended("fault", _malformed("a malformed reply", line))
            try:
                nxt += _count_outcomes(line[len(head) - 1:len(line) - tail], end - nxt)
            except (ValueError, UnicodeDecodeError):
                raise Ended("fault", _malformed("a malformed reply", line))
            if nxt > end or (done and nxt != end):
                raise Ended("fault", "outcomes past the batch or a short batch")
            return nxt, done
        if len(line) > _SMALL_LINE:
            raise Ended("fault", _malformed("a malformed reply", line))
        try:
            m = _check_loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise Ended("fault", _malformed("not JSON:", line))
        if type(m) is dict and m.get("t") == "spent" and len(m) == 2 and m.get("id") == req_id:
            # An honest child says so once its batch alone took more than the limit, so its
            # whole CPU time is past it too. A candidate that says so sooner, to leave the
            # inputs it would get wrong without an outcome, broke the protocol instead.
            try:
                used = time.clock_gettime_ns(clock)
            except OSError:
                raise Ended("exit")
            if time_limit_ms is None or used <= time_limit_ms * 1_000_000:
                raise Ended("fault", "it said its time was spent after %d ms of CPU time" % (used // 1_000_000))
            raise Ended("time", "the candidate's time is spent")
        if (type(m) is not dict or not _OUT_KEYS.issuperset(m) or m.get("t") != "out"
                or m.get("id") != req_id or m.get("from") != nxt or type(m.get("outcomes")) is not list):
            raise Ended("fault", _malformed("a malformed reply", line))
        outcomes = m["outcomes"]
        _check_outcomes(outcomes)
        nxt += len(outcomes)
        done = m.get("done", False)
        if nxt > end or (done is not False and done is not True) or (done and nxt != end):
            raise Ended("fault", "outcomes past the batch or a short batch")
        return nxt, done

    def serve(self):
        handlers = {"inputs": self.on_inputs, "load": self.on_load, "run": self.on_run,
                    "unload": lambda msg: self.end_child(wait=False)}
        self.send(_dumps({"t": "hello", "protocol": PROTOCOL, "language": "python",
                          "runtime": "%d.%d.%d" % sys.version_info[:3], "pid": os.getpid()}))
        while True:
            line = self.rfile.readline()
            if not line:
                return
            try:
                msg = _loads(line.decode("utf-8"))
            except (TypeError, ValueError, OverflowError):
                # Some input has no Python form (a set of lists, say): decode inputs one by one.
                msg = json.loads(line)
                msg["undecoded"] = True
            kind = msg.get("t")
            if kind == "bye":
                return
            handler = handlers.get(kind)
            if handler is None:
                self.send(_dumps({"t": "fatal", "message": "unknown message type %r" % (kind,)}))
                continue
            try:
                handler(msg)
            except BaseException as e:
                # A harness fault: say so and exit, the host replaces the worker.
                self.send(_dumps({"t": "fatal", "message": "%s: %s" % (type(e).__name__, _text(e))}))
                return


def _progress_counter(path):
    """The index of the running call, shared with the host and the zygote through a mapped
    file that every child inherits: they read which call was running without a message per call."""
    if path:
        try:
            import mmap

            with open(path, "r+b") as f:
                mapped = mmap.mmap(f.fileno(), 8)
            return memoryview(mapped).cast("q")
        except (OSError, ValueError):
            pass
    return [0]
