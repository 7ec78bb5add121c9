"""What a candidate's process may do, outside the audit hook: resource limits, process and thread
creation refused in the modules themselves (friendly errors for the common spellings), and the
lifeline that ends a child when its zygote dies.

No ctypes, anywhere in a process that forks candidates: once `_ctypes` is loaded its classes stay
reachable (`object.__subclasses__()`), and with them raw memory reads and writes that raise no
audit event. The zygote gets PR_SET_PDEATHSIG and PR_SET_NO_NEW_PRIVS from a first interpreter
that sets them and then executes this one (startup.py); a child, which cannot inherit them, gets
a lifeline pipe instead (arm_lifeline), and the zygote, told by SIGTERM that the host died, kills its
whole process group (die_with_host): a child that closed its lifeline still goes."""

import fcntl
import os
import resource
import signal
import sys

from .audit import HARNESS_FDS

def set_limits(memory_mb):
    """The child's resource limits, set right after the fork, before any candidate code."""

    def lower(which, value):
        try:
            soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY and hard < value:
                value = hard
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass

    if memory_mb > 0:
        lower(resource.RLIMIT_AS, memory_mb * 1024 * 1024)
    lower(resource.RLIMIT_CORE, 0)
    lower(resource.RLIMIT_FSIZE, 64 * 1024 * 1024)
    # No RLIMIT_NPROC here: it counts threads too, so 0 would stop the child's own watchdog
    # thread once the sandbox runs it as an ordinary uid. Process creation is refused by the
    # audit hook and the stubbed _posixsubprocess, and the OS boundary caps each sandbox's tasks.



# The zygote's own handles on what block_process_creation replaces in the modules: bound before
# it runs. They are no way around the policy: the interpreter raises the `os.fork`/`os.kill`
# audit events inside these functions themselves, and a child's hook refuses them.
_fork = os.fork
_kill = os.kill
_killpg = os.killpg


def block_process_creation():
    """Friendly errors for the common spellings; the audit hook covers the rest. Threads too:
    one would outlive its call. `_posixsubprocess.fork_exec` raises no audit event, so the module
    is replaced by a stub and loading it again is refused by the hook.

    Runs once in the zygote, before its first fork (it uses _fork and _kill itself, and never
    threads or subprocesses), so that every child starts with the modules already patched:
    patching them in each child wrote to ~40 shared objects and cost ~0.4 ms of copied pages a
    candidate."""

    def refuser(what):
        def refuse(*_a, **_k):
            raise PermissionError("crosscheck: %s is not allowed for a candidate" % what)

        return refuse

    import posix

    # One gate a function, made before either module is patched, for both.
    own_only = {name: _own_process_only(getattr(posix, name), which_arg, name)
                for name, which_arg in (("setpriority", True), ("sched_setaffinity", False),
                                        ("sched_setscheduler", False), ("sched_setparam", False))
                if hasattr(posix, name)}
    for module in (os, posix):
        for name in ("fork", "forkpty", "system", "popen", "posix_spawn", "posix_spawnp", "spawnv",
                     "spawnve", "spawnl", "spawnle", "execv", "execve", "execl", "execle", "execlp",
                     "execvp", "execvpe", "register_at_fork"):
            if hasattr(module, name):
                setattr(module, name, refuser("creating processes"))
        for name in ("kill", "killpg", "pidfd_open"):
            if hasattr(module, name):
                setattr(module, name, refuser("sending signals"))
        # The scheduling of another process of the sandbox (the zygote shares the child's uid):
        # a zygote made to run last, or pinned to the child's own CPU, would look at the child's
        # clock too late to end a call at its limit. A child's own scheduling (pid 0 or its own
        # pid, as an int) is its own business.
        for name, gated in own_only.items():
            setattr(module, name, gated)
        # The host ends a worker by killing its process group: a child must stay in it.
        for name in ("setsid", "setpgid", "setpgrp"):
            if hasattr(module, name):
                setattr(module, name, refuser("leaving the worker's process group"))
    # A pidfd (which the refusals above and the audit hook keep from a child) signals its process
    # whatever its uid: refused too, for a descriptor got some other way.
    import _signal

    for module in (_signal, signal):
        if hasattr(module, "pidfd_send_signal"):
            setattr(module, "pidfd_send_signal", refuser("sending signals"))
    # A fresh copy of a built-in module (`_imp.create_builtin`, which raises no audit event)
    # would have none of the refusals above. The zygote loaded every built-in module already.
    import _imp

    if hasattr(_imp, "create_builtin"):
        del _imp.create_builtin
    stub = type(sys)("_posixsubprocess")
    stub.fork_exec = refuser("creating processes")
    sys.modules["_posixsubprocess"] = stub
    import _thread
    import threading  # imported now so that its own reference to _thread is patched too

    for module in (_thread, threading):
        for name in ("start_new_thread", "start_new", "start_joinable_thread", "_start_new_thread",
                     "_start_joinable_thread"):
            if hasattr(module, name):
                setattr(module, name, refuser("starting threads"))
    # Signal handlers get no frame (see _frameless).
    _gate_signal_handlers()
    # Under DEBUG_SAVEALL the collector keeps every unreachable object in gc.garbage, frames of
    # the harness included (a cycle through an exception it caught in its frame): a way to a frame
    # object with no attribute read for the audit hook to refuse.
    import gc

    gc.set_debug = refuser("collector debugging (gc.set_debug)")
    # threading registered _after_fork to run in every child of a fork: Python code that rebuilds
    # the module's locks and thread table, touching (so copying) ~100 of the zygote's pages a
    # child. The zygote has one thread and holds none of those locks when it forks, and a child
    # cannot start threads, so the table and locks it inherits are already right. The registered
    # function cannot be unregistered; its code is emptied instead (random's reseed, which keeps
    # children's random streams apart, still runs).
    after_fork = getattr(threading, "_after_fork", None)
    if type(after_fork) is type(block_process_creation):
        after_fork.__code__ = (lambda: None).__code__


def _own_process_only(original, which_arg, name):
    """`original` (a C function of posix whose first arguments name a process: `pid`, or `which,
    who` for setpriority) as one that refuses any process but the caller's own. The arguments
    must be plain ints (an __index__ could answer differently for the check and the call). The
    C function and the check are held only by the frame of a suspended generator, as in
    _gate_signal_handlers."""
    getpid = os.getpid

    # Builtins as defaults: a candidate that rebinds builtins.type must not change the check.
    def own(args, len=len, type=type, int=int, getpid=getpid):
        if which_arg:
            if len(args) < 2 or type(args[0]) is not int or args[0] != 0:  # PRIO_PROCESS
                return False
            who = args[1]
        else:
            if not args:
                return False
            who = args[0]
        return type(who) is int and (who == 0 or who == getpid())

    def gate():
        reply = None
        while True:
            args = yield reply
            try:
                if own(args):
                    reply = (False, original(*args))
                else:
                    reply = (True, PermissionError(
                        "crosscheck: changing the scheduling of another process (%s) is not "
                        "allowed for a candidate" % name))
            except BaseException as e:  # TypeError, OSError: the caller's to see
                reply = (True, e.with_traceback(None))
            del args

    g = gate()
    next(g)

    def call(*args, _ask=g.send):
        failed, value = _ask(args)
        if failed:
            raise value
        return value

    call.__name__ = name
    return call


def _frameless(handler):
    """`handler` as a signal handler that is given no frame: the interrupted frame's `f_back`
    leads to the harness's frames (audit.py refuses every other way to a frame)."""

    def call(signum, frame):
        del frame
        return handler(signum, None)

    return call


def _gate_signal_handlers():
    """`_signal.signal` (which `signal.signal` calls) replaced by one that installs a handler as
    `_frameless(handler)`; SIG_DFL, SIG_IGN and errors as before. The C function is held only by
    the frame of a suspended generator: no audit-free attribute leads to it (`gi_frame` is
    refused by the hook, a function's defaults or closure would not be)."""
    import _signal

    def gate(install):
        reply = None
        while True:
            signalnum, handler = yield reply
            try:
                reply = (False, install(signalnum, _frameless(handler) if callable(handler) else handler))
            except BaseException as e:  # TypeError, ValueError, OSError: the caller's to see
                reply = (True, e.with_traceback(None))
            del signalnum, handler

    g = gate(_signal.signal)
    next(g)

    def signal(signalnum, handler, _ask=g.send):
        failed, value = _ask((signalnum, handler))
        if failed:
            raise value
        return value

    _signal.signal = signal


def die_with_host():
    """The zygote's end of the host's death. The first stage asked the kernel for SIGTERM when
    the host dies (harden_then_exec); this handler then kills the zygote's process group (the
    host starts each worker as its own group, and a child cannot leave it, see above) with
    SIGKILL: the zygote and every child, including one that closed its lifeline. Installed by
    the zygote before its first fork; each child sets SIGTERM back to its default."""
    import signal as _sig

    group = os.getpgrp()
    if group != os.getpid():
        # Not a group leader (started by hand): killing the group would reach others.
        _sig.signal(_sig.SIGTERM, lambda *_: os._exit(1))
        return

    def end(*_):
        try:
            _killpg(group, _sig.SIGKILL)
        finally:
            os._exit(1)

    _sig.signal(_sig.SIGTERM, end)


def arm_lifeline(fd, zygote_pid):
    """Makes the end of the zygote kill this child. `fd` is the read end of a pipe whose only
    write end the zygote holds: when the zygote exits, for any reason, the kernel closes that end
    and signals the reader's owner (O_ASYNC), here with SIGKILL (F_SETSIG), which no handler can
    catch. PR_SET_PDEATHSIG, which did this before, needs ctypes. Then a check that the zygote
    has not died already (the signal would never come)."""
    if fd != HARNESS_FDS:
        os.dup2(fd, HARNESS_FDS)
    try:
        fcntl.fcntl(HARNESS_FDS, fcntl.F_SETOWN, os.getpid())
    except PermissionError:
        # Only crosscheck's seccomp filter refuses F_SETOWN (isolation 'os', see
        # src/exec/isolation/seccomp.ts: no process of the sandbox may have the kernel signal
        # another). That sandbox always has a PID namespace whose init is bubblewrap's, which
        # exits when the zygote does, and the kernel then kills every process left in it:
        # there, the lifeline is the namespace's.
        armed = False
    else:
        armed = True
    if armed:
        fcntl.fcntl(HARNESS_FDS, getattr(fcntl, "F_SETSIG", 10), signal.SIGKILL)
        fcntl.fcntl(HARNESS_FDS, fcntl.F_SETFL, fcntl.fcntl(HARNESS_FDS, fcntl.F_GETFL) | os.O_ASYNC)
    if os.getppid() != zygote_pid:
        os._exit(1)


PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38


def harden_then_exec(argv, marker):
    """The first stage of the worker (startup.py): sets, for the zygote to inherit through
    execve, no privileges gained through exec and SIGKILL when the parent dies; checks the parent
    is still there; then replaces this interpreter, which loaded ctypes, with a fresh one that
    never does (`marker`, an environment variable, tells it so). Off Linux, or where ctypes does
    not load, the worker goes on as it is, without either setting."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes
    except ImportError:
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
        prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
        prctl.restype = ctypes.c_int
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        # SIGTERM, not SIGKILL: the zygote's handler kills its whole group (die_with_host).
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)
    os.environ[marker] = "1"
    os.execv(sys.executable, argv)
