"""crosscheck worker: serves Python candidates over the JSON-lines protocol of docs/protocol.md.

The host starts this file with fd 3 (requests, host -> worker) and fd 4 (replies, worker -> host),
a scrubbed environment and a fresh temporary working directory. Candidate prints go to a sink, so
they can never corrupt the protocol. Standard library only; Python >= 3.9.

Isolation here is defence in depth inside one process: rlimits (memory, processes, core files),
an audit hook that refuses writes outside the working directory, process creation, threads,
signals, sockets, ctypes and gc walks, and a per-call timer. The host
adds the hard guarantees: it kills and replaces a worker that dies or stops answering.
"""

import builtins
import json
import math
import os
import resource
import signal
import sys
import time

# Every builtin the harness uses, bound as a module global: global lookups find these first, so
# a candidate that rebinds builtins.repr or builtins.RecursionError cannot change how results
# are encoded or how the harness catches errors.
for _name in (
    "all", "any", "bool", "bytearray", "bytes", "callable", "complex", "dict", "float", "frozenset",
    "getattr", "hasattr", "id", "int", "isinstance", "len", "list", "map", "max", "memoryview", "min",
    "repr", "set", "setattr", "sorted", "str", "tuple", "type", "zip", "BaseException", "Exception",
    "AttributeError", "KeyError", "MemoryError", "OSError", "OverflowError", "PermissionError",
    "RecursionError", "TypeError", "ValueError",
):
    globals()[_name] = getattr(builtins, _name)
del _name

PROTOCOL = 1
MAX_SAFE = 2**53

# Python 3.11 refuses to convert ints of more than 4,300 digits to or from text, which made a
# big-int result crash the worker. Lift the limit: the size of a result is bounded by the output
# limit instead (an int's digit count is checked before it is converted, see _value_wire).
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
FLUSH_SECONDS = 0.025
MESSAGE_CHARS = 2000

# The script's own folder must not shadow candidate imports.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]


class _Timeout(BaseException):
    """Raised into a call that exceeded its limit. BaseException, so `except Exception` cannot eat it."""


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


class Unserializable(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Codec (tagged JSON, docs/protocol.md "Values"); mirrors src/values/codec-core.ts.

_TAGS = frozenset(
    ("$tuple", "$set", "$frozenset", "$dict", "$map", "$float", "$int", "$bytes", "$complex",
     "$undefined", "$date", "$object")
)


def _float_of(x):
    if type(x) is str:
        if x == "nan":
            return math.nan
        if x == "inf":
            return math.inf
        if x == "-inf":
            return -math.inf
        if x == "-0":
            return -0.0
        return float(x)
    return float(x)


def _pairs_dict(items):
    out = {}
    for k, v in items:
        out[k] = v
    return out


def _decode_tag(d):
    """json object_hook: children are already decoded when a tag is seen."""
    if len(d) != 1:
        return d
    for k in d:
        if k not in _TAGS:
            return d
        body = d[k]
        if k == "$float":
            return _float_of(body)
        if k == "$tuple":
            return tuple(body)
        if k == "$dict" or k == "$map" or k == "$object":
            return _pairs_dict(body)
        if k == "$set":
            return set(body)
        if k == "$frozenset":
            return frozenset(body)
        if k == "$int":
            return int(body)
        if k == "$bytes":
            return bytes.fromhex(body)
        if k == "$complex":
            return complex(_float_of(body[0]), _float_of(body[1]))
        if k == "$undefined":
            return None
        if k == "$date":
            import datetime

            if body is None:
                return None
            return datetime.datetime.fromisoformat(body.replace("Z", "+00:00"))
    return d


_loads = json.JSONDecoder(object_hook=_decode_tag).decode
_dumps = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def _special(x):
    if x != x:
        return "nan"
    if x == math.inf:
        return "inf"
    if x == -math.inf:
        return "-inf"
    return x


def _describe(v):
    return "an instance of " + type(v).__name__


_esc = json.encoder.encode_basestring_ascii


def encode(v):
    """Python value -> tagged JSON text. Raises Unserializable; RecursionError on cycles.

    Writes text directly instead of building a tagged tree for json.dumps: half the time on the
    per-call path. Homogeneous lists of small ints or of strings go to the C encoder whole."""
    t = type(v)
    if t is int:
        return repr(v) if -MAX_SAFE <= v <= MAX_SAFE else '{"$int":"%d"}' % v
    if t is str:
        return _esc(v)
    if t is list:
        if not v:
            return "[]"
        types = set(map(type, v))
        if len(types) == 1:
            only = types.pop()
            if only is str or (only is int and -MAX_SAFE <= min(v) and max(v) <= MAX_SAFE):
                return _dumps(v)
        return "[" + _items(v) + "]"
    if t is tuple:
        return '{"$tuple":[' + _items(v) + "]}"
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "null"
    if t is float:
        return '{"$float":' + (repr(v) if v - v == 0 else '"' + _special(v) + '"') + "}"
    if t is dict:
        return '{"$dict":[' + ",".join(["[" + encode(k) + "," + encode(x) + "]" for k, x in v.items()]) + "]}"
    if t is set:
        return '{"$set":[' + _items(v) + "]}"
    if t is frozenset:
        return '{"$frozenset":[' + _items(v) + "]}"
    return _encode_other(v)


def _items(v):
    # Small ints inline: most containers hold them, and a call per item is the main cost.
    return ",".join([repr(x) if type(x) is int and -MAX_SAFE <= x <= MAX_SAFE else encode(x) for x in v])


def _float_text(x):
    return repr(x) if x - x == 0 else '"' + _special(x) + '"'


def _encode_other(v):
    if isinstance(v, bool):
        return encode(bool(v))
    if isinstance(v, int):
        return encode(int(v))
    if isinstance(v, float):
        return encode(float(v))
    if isinstance(v, str):
        return encode(str(v))
    if isinstance(v, (bytes, bytearray, memoryview)):
        return '{"$bytes":"' + bytes(v).hex() + '"}'
    if isinstance(v, complex):
        return '{"$complex":[' + _float_text(v.real) + "," + _float_text(v.imag) + "]}"
    if isinstance(v, list):
        return "[" + ",".join(map(encode, v)) + "]"
    if isinstance(v, tuple):
        return encode(tuple(v))
    if isinstance(v, dict):
        return encode(dict(v))
    if isinstance(v, frozenset):
        return encode(frozenset(v))
    if isinstance(v, set):
        return encode(set(v))
    if type(v).__module__ == "datetime" and type(v).__name__ == "datetime":
        return '{"$date":' + _esc(v.isoformat()) + "}"
    raise Unserializable(
        "the value contains " + _describe(v) + ", which has no data form; return plain data "
        "(numbers, strings, lists, tuples, dicts, sets)"
    )


def _has_cycle(v, path):
    if isinstance(v, (list, tuple, set, frozenset, dict)):
        if id(v) in path:
            return True
        path.add(id(v))
        items = v.items() if isinstance(v, dict) else v
        for x in items:
            if _has_cycle(x, path):
                return True
        path.discard(id(v))
    return False


_ATOMS = frozenset((int, float, str, bool, type(None), bytes, complex))


def _copy_plan(value):
    """How a call gets its own copy of one argument: (0, shared) for immutable values, (1|2|3, v)
    for a flat list, dict or set of immutables (one C-level copy), else (4, json) to decode."""
    t = type(value)
    if t is list or t is dict:
        items = value if t is list else value.values()
        # Checking item types in C first keeps decoding 10,000 inputs cheap.
        if set(map(type, items)) <= _ATOMS or all(_immutable(x) for x in items):
            return (1 if t is list else 2, value)
        return (4, encode(value))
    if _immutable(value):
        return (0, value)
    if t is set:
        return (3, value)
    return (4, encode(value))


def _fresh_args(plan):
    out = []
    for kind, v in plan:
        if kind == 0:
            out.append(v)
        elif kind == 1:
            out.append(list(v))
        elif kind == 2:
            out.append(dict(v))
        elif kind == 3:
            out.append(set(v))
        else:
            out.append(_loads(v))
    return out


def _immutable(v):
    t = type(v)
    if t is int or t is str or t is float or t is bool or v is None or t is bytes or t is complex:
        return True
    if t is tuple or t is frozenset:
        return all(_immutable(x) for x in v)
    return False


# ---------------------------------------------------------------------------------------------
# Outcomes in wire form (docs/protocol.md "Outcomes"), as JSON text.


def _text(x):
    try:
        s = str(x)
    except BaseException:
        s = "(the message could not be read)"
    return s if len(s) <= MESSAGE_CHARS else s[: MESSAGE_CHARS - 3] + "..."


def _error_wire(kind, name, message):
    return "[" + str(kind) + "," + _dumps(name) + "," + _dumps(_text(message)) + "]"


def _value_wire(r, max_chars):
    t = type(r)
    if t is int and -MAX_SAFE <= r <= MAX_SAFE:
        return "[0," + repr(r) + "]"
    if t is bool:
        return "[0,true]" if r else "[0,false]"
    if r is None:
        return "[0,null]"
    if t is int and r.bit_length() * 0.30103 > max_chars:
        # Converting a huge int to text takes time quadratic in its size: refuse it up front.
        return _error_wire(
            2, "OutputTooLarge",
            "the value is larger than the %d-byte output limit (raise maxOutputBytes to allow it)" % max_chars,
        )
    limit = sys.getrecursionlimit()
    try:
        if limit > 2000:
            sys.setrecursionlimit(2000)
        s = encode(r)
    except Unserializable as e:
        return _error_wire(2, "Unserializable", e)
    except RecursionError:
        cyclic = False
        try:
            cyclic = _has_cycle(r, set())
        except RecursionError:
            pass
        return _error_wire(
            2, "Unserializable",
            "the value contains a cycle (an object that contains itself)" if cyclic
            else "the value is nested too deeply to send",
        )
    except MemoryError:
        return _error_wire(2, "OutputTooLarge", "the value ran out of memory while being encoded")
    finally:
        if limit > 2000:
            sys.setrecursionlimit(limit)
    if len(s) > max_chars:
        return _error_wire(
            2, "OutputTooLarge",
            "the value is larger than the %d-byte output limit (raise maxOutputBytes to allow it)" % max_chars,
        )
    return "[0," + s + "]"


# ---------------------------------------------------------------------------------------------
# Process limits and the audit hook.


def _set_limits(memory_mb):
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
    if hasattr(resource, "RLIMIT_NPROC"):
        # Counts every process of the user, so 0 forbids any fork (not enforced for root: the
        # audit hook below refuses process creation too).
        lower(resource.RLIMIT_NPROC, 0)


def _install_audit(workdir):
    """Installs the policy for the rest of the process's life. It has no off switch: the harness
    itself needs nothing it forbids, and a switch would be one more thing a candidate could
    reach. The hook is referenced only by the interpreter (and by gc, which is refused)."""
    work = os.path.realpath(workdir)
    own = "/proc/%d" % os.getpid()
    readable = set()
    for p in list(sys.path) + [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]:
        if p:
            readable.add(os.path.realpath(p))
    readable.update((work, "/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/share", "/lib", "/lib64",
                     "/etc/localtime", "/dev/null", "/dev/urandom", "/dev/random", own))
    readable = tuple(sorted(readable))
    realpath = os.path.realpath
    fspath = os.fspath

    forbidden = {
        "os.fork": "creating processes",
        "os.forkpty": "creating processes",
        "os.system": "running commands",
        "os.exec": "running programs",
        "os.posix_spawn": "running programs",
        "os.spawn": "running programs",
        "os.startfile": "running programs",
        "subprocess.Popen": "running programs",
        "pty.spawn": "running programs",
        "os.kill": "sending signals",
        "os.killpg": "sending signals",
        "signal.pthread_kill": "sending signals",
        "socket.__new__": "network access",
        "socket.connect": "network access",
        "socket.bind": "network access",
        "socket.getaddrinfo": "network access",
        "ctypes.dlopen": "loading native code",
        "ctypes.dlsym": "loading native code",
        "ctypes.call_function": "calling native code",
        "ctypes.addressof": "raw memory access",
        "ctypes.cdata": "raw memory access",
        "_thread.start_new_thread": "starting threads",
        "resource.setrlimit": "changing resource limits",
        "resource.prlimit": "changing resource limits",
        "gc.get_objects": "inspecting the harness",
        "gc.get_referrers": "inspecting the harness",
        "gc.get_referents": "inspecting the harness",
        "os.chdir": "changing directory",
        "os.chroot": "changing directory",
        "os.setuid": "changing identity",
        "os.setgid": "changing identity",
    }
    path_writes = {
        "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1),
        "os.link": (0, 1), "os.symlink": (1,), "os.truncate": (0,), "os.chmod": (0,),
        "os.chown": (0,), "os.utime": (0,), "os.mkfifo": (0,), "os.mknod": (0,),
        "os.setxattr": (0,), "os.removexattr": (0,), "shutil.rmtree": (0,),
        "shutil.copyfile": (1,), "shutil.copytree": (1,), "shutil.move": (1,),
    }
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def inside(path, roots):
        try:
            p = realpath(fspath(path))
        except (TypeError, ValueError):
            return False
        for r in roots:
            if p == r or p.startswith(r + "/"):
                return True
        return False

    def deny(what):
        raise PermissionError("crosscheck: %s is not allowed for a candidate" % what)

    def hook(event, args):
        if event == "open":
            path, mode, flags = args
            if isinstance(path, int):
                # Wrapping descriptors the candidate opened itself (tempfile does) is fine; the
                # standard streams and the protocol pipes are not its to open.
                if path <= 4:
                    deny("opening file descriptor %d" % path)
                return
            writing = (mode is not None and any(c in mode for c in "wax+")) or (
                mode is None and flags is not None and flags & writes)
            if writing:
                if not inside(path, (work,)):
                    deny("writing %r outside the working directory" % (fspath(path),))
            else:
                p = realpath(fspath(path)) if not isinstance(path, int) else ""
                if p.startswith("/proc/") and not (p.startswith(own + "/") or p == own):
                    deny("reading %r" % p)
                if p.endswith("/environ") and p.startswith("/proc/"):
                    deny("reading %r" % p)
                if not inside(path, readable):
                    deny("reading %r outside the working directory and the Python installation" % p)
            return
        what = forbidden.get(event)
        if what is not None:
            deny(what)
        idx = path_writes.get(event)
        if idx is not None:
            for i in idx:
                if i < len(args) and args[i] is not None and not isinstance(args[i], int):
                    if not inside(args[i], (work,)):
                        deny("changing %r outside the working directory" % (fspath(args[i]),))
            return

    sys.addaudithook(hook)


def _block_process_creation():
    """Friendly errors for the common spellings; the audit hook covers the rest. Threads too:
    one would outlive its call and could end the worker under a later candidate."""

    def refuser(what):
        def refuse(*_a, **_k):
            raise PermissionError("crosscheck: %s is not allowed for a candidate" % what)

        return refuse

    for name in ("fork", "forkpty", "system", "popen", "posix_spawn", "posix_spawnp", "spawnv",
                 "spawnve", "spawnl", "spawnle", "execv", "execve", "execl", "execle", "execlp",
                 "execvp", "execvpe"):
        if hasattr(os, name):
            setattr(os, name, refuser("creating processes"))
    for name in ("kill", "killpg"):
        if hasattr(os, name):
            setattr(os, name, refuser("sending signals"))
    import _thread
    import threading  # imported now so that its own reference to _thread is patched too

    for module in (_thread, threading):
        for name in ("start_new_thread", "start_new", "start_joinable_thread", "_start_new_thread",
                     "_start_joinable_thread"):
            if hasattr(module, name):
                setattr(module, name, refuser("starting threads"))


# ---------------------------------------------------------------------------------------------
# The worker.


class Worker:
    def __init__(self, rfile, wfile, progress):
        self.progress = progress
        self.rfile = rfile
        self.wfile = wfile
        self.candidates = {}
        self.inputs_key = None
        self.shared_inputs = []
        self.plans = []
        self.start = [math.inf]
        self.limit = [1.0]
        self.base_recursion = sys.getrecursionlimit()
        self.base_builtins = dict(builtins.__dict__)
        self.ppid = os.getppid()

    def send(self, text):
        self.wfile.write(text.encode("utf-8") + b"\n")
        self.wfile.flush()

    # The timer: one interval timer per batch; the handler compares the running call's start
    # with the limit, so a call costs two stores instead of two setitimer system calls.
    def _tick(self, signum, frame):
        if os.getppid() != self.ppid:
            os._exit(1)
        if time.perf_counter() - self.start[0] > self.limit[0]:
            raise _Timeout()

    def _arm(self, timeout_s):
        self.limit[0] = timeout_s
        self.start[0] = math.inf
        signal.signal(signal.SIGALRM, self._tick)
        tick = max(0.002, min(0.05, timeout_s / 4))
        signal.setitimer(signal.ITIMER_REAL, tick, tick)

    def _disarm(self):
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.start[0] = math.inf

    def _reset_process_state(self):
        """Undoes process-wide changes a candidate may have made, before and after each batch."""
        b = builtins.__dict__
        if len(b) != len(self.base_builtins) or any(b.get(k) is not v for k, v in self.base_builtins.items()):
            b.clear()
            b.update(self.base_builtins)
        sys.setrecursionlimit(self.base_recursion)
        sys.stdout = sys.stderr = _Sink()
        sys.stdin = None

    def on_inputs(self, msg):
        """Decodes each input once. Immutable arguments are shared by every call; mutable ones
        get a copy recipe, so each call still receives its own copy at a fraction of a decode."""
        self.inputs_key = msg["key"]
        shared, plans = [], []
        # The message was parsed with the tag decoder, so the inputs arrive as Python values.
        undecoded = msg.get("undecoded", False)
        for args in msg["inputs"]:
            try:
                if undecoded:
                    args = _loads(_dumps(args))
                plan = [_copy_plan(a) for a in args]
            except BaseException as e:
                shared.append(None)
                plans.append(_error_wire(2, "Unserializable", "the input cannot be built in Python: %s" % _text(e)))
                continue
            if all(kind == 0 for kind, _ in plan):
                shared.append(args)
                plans.append(None)
            else:
                shared.append(None)
                plans.append(plan)
        self.shared_inputs, self.plans = shared, plans

    def on_load(self, msg):
        error = self._load(msg)
        if error is None:
            self.send('{"t":"loaded","id":%d,"ok":true}' % msg["id"])
        else:
            self.send('{"t":"loaded","id":%d,"ok":false,"error":%s}' % (msg["id"], error))

    def _load(self, msg):
        """Compiles and runs the candidate's module code in its own namespace; returns an error wire or None."""
        try:
            code = compile(msg["code"], "<candidate>", "exec", dont_inherit=True)
        except BaseException as e:  # SyntaxError, ValueError (null bytes), MemoryError, RecursionError
            return _error_wire(2, "CompileError", "%s: %s" % (type(e).__name__, _text(e)))
        # Its own builtins, so a candidate that rebinds `len` or `print` changes only itself.
        ns = {"__name__": "candidate", "__builtins__": dict(self.base_builtins)}
        self._reset_process_state()
        self._arm(msg["timeoutMs"] / 1000.0)
        try:
            try:
                self.start[0] = time.perf_counter()
                exec(code, ns)
            finally:
                self.start[0] = math.inf
        except _Timeout:
            return '[3,"call",%d]' % msg["timeoutMs"]
        except BaseException as e:
            return _error_wire(2, type(e).__name__, "while loading the candidate: %s" % _text(e))
        finally:
            self._disarm()
            self._reset_process_state()
        fn = ns.get(msg["entry"])
        if not callable(fn):
            defined = sorted(k for k, v in ns.items() if callable(v) and not k.startswith("__")
                             and getattr(v, "__module__", None) == "candidate")
            listed = ", ".join("`%s`" % d for d in defined) if defined else "no functions"
            return _error_wire(
                2, "EntryNotFound",
                "the code defines no function `%s`; it defines %s. Set `entry` to the function to call."
                % (msg["entry"], listed),
            )
        self.candidates[msg["key"]] = fn
        return None

    def on_unload(self, msg):
        self.candidates.pop(msg["key"], None)

    def on_run(self, msg):
        fn = self.candidates.get(msg["key"])
        if fn is None or msg["inputs"] != self.inputs_key:
            self.send(_dumps({"t": "fatal", "message": "run before load or inputs"}))
            return
        timeout_ms = msg["timeoutMs"]
        timeout_s = timeout_ms / 1000.0
        budget = msg["budgetMs"] / 1000.0
        time_limit = msg.get("timeLimitMs")
        max_chars = msg["maxOutputBytes"]
        invalid = frozenset(msg["invalid"])
        end = msg["to"]
        plans, shared, progress = self.plans, self.shared_inputs, self.progress
        start, perf, send = self.start, time.perf_counter, self.send
        inf = math.inf
        timeout_wire = '[3,"call",%d]' % timeout_ms
        head = '{"t":"out","id":%d,"from":' % msg["id"]
        parts = []
        append = parts.append
        i = sent = msg["from"]
        held = 0
        last_flush = perf()
        self._reset_process_state()
        stop_at = inf if time_limit is None else perf() + time_limit / 1000.0
        self._arm(timeout_s)
        try:
            while i < end:
                # The inner loop is the hot path: no system calls, two stores around each call.
                try:
                    while i < end:
                        args = shared[i]
                        if args is None:
                            plan = plans[i]
                            if type(plan) is str:
                                append(plan)
                                i += 1
                                continue
                            args = _fresh_args(plan)
                        t0 = perf()
                        if t0 - last_flush > FLUSH_SECONDS or held > max_chars:
                            # Also by size: the host refuses reply lines past 2 x maxOutputBytes.
                            send(head + '%d,"outcomes":%s}' % (sent, _dumps(parts)))
                            sent = i
                            del parts[:]
                            last_flush = t0
                            held = 0
                        if t0 > stop_at:
                            # The candidate's time for this batch is spent: skip the rest unrun.
                            while i < end:
                                append('[3,"budget",0]')
                                i += 1
                            break
                        progress[0] = i
                        start[0] = t0
                        try:
                            r = fn(*args)
                        except BaseException as e:
                            start[0] = inf
                            if type(e) is _Timeout:
                                raise
                            kind = 1 if invalid and not invalid.isdisjoint(c.__name__ for c in type(e).__mro__) else 2
                            append(_error_wire(kind, type(e).__name__, e))
                            del e
                        else:
                            start[0] = inf
                            wire = _value_wire(r, max_chars)
                            held += len(wire)
                            append(wire)
                        i += 1
                except _Timeout:
                    start[0] = inf
                    append(timeout_wire)
                    i += 1
                    budget -= timeout_s
                    if budget <= 0:
                        while i < end:
                            append('[3,"budget",0]')
                            i += 1
                    # The candidate may have swallowed one alarm or replaced the handler: re-arm.
                    self._reset_process_state()
                    self._arm(timeout_s)
        finally:
            self._disarm()
            self._reset_process_state()
        send(head + '%d,"outcomes":%s,"done":true}' % (sent, _dumps(parts)))

    def serve(self):
        handlers = {"inputs": self.on_inputs, "load": self.on_load, "run": self.on_run,
                    "unload": self.on_unload}
        self.send(_dumps({"t": "hello", "protocol": PROTOCOL, "language": "python",
                          "runtime": "%d.%d.%d" % sys.version_info[:3], "pid": os.getpid()}))
        while True:
            line = self.rfile.readline()
            if not line:
                return
            try:
                msg = _loads(line)
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
    """The index of the running call, shared with the host through a mapped file: when the host
    has to kill a worker it reads which call was running without a message per call."""
    if path:
        try:
            import mmap

            with open(path, "r+b") as f:
                mapped = mmap.mmap(f.fileno(), 8)
            return memoryview(mapped).cast("q")
        except (OSError, ValueError):
            pass
    return [0]


def main():
    rfile = os.fdopen(3, "rb", buffering=1 << 16)
    wfile = os.fdopen(4, "wb", buffering=1 << 16)
    workdir = os.getcwd()
    memory_mb = int(os.environ.get("CROSSCHECK_MEMORY_MB", "0") or 0)
    sys.stdout = sys.stderr = _Sink()
    sys.stdin = None
    _set_limits(memory_mb)
    _block_process_creation()
    progress = _progress_counter(os.environ.get("CROSSCHECK_PROGRESS_FILE"))
    _install_audit(workdir)
    try:
        Worker(rfile, wfile, progress).serve()
    finally:
        # The host removes it too; this covers a host that died without cleaning up.
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
