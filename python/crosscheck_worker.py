"""crosscheck worker: serves Python candidates over the JSON-lines protocol of docs/protocol.md.

The host starts this file with fd 3 (requests, host -> worker) and fd 4 (replies, worker -> host),
a scrubbed environment and a fresh temporary working directory. Standard library only; Python >= 3.9.

The process the host starts is a warmed zygote: it imports what the harness and common candidates
need, decodes the inputs, and never runs candidate code. Each candidate slice (a load and one
batch of calls) runs in a child forked for it, with its own directory, limits and audit hook; the
child exits after the batch, so nothing a candidate does (patched modules, signal handlers,
timers, profilers, interpreter settings) reaches another candidate or the reference. The zygote
watches the child's CPU time, ends it when a call or the batch runs too long, checks every line
it writes before passing it on, and reports how it ended: only the zygote and the host assign
timeouts and crashes. Isolation inside the child is defence in depth; the OS boundary around the
whole worker is the real guard.
"""

import builtins
import gc
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

PROTOCOL = 2
MAX_SAFE = 2**53
# Outcome kinds on the wire: the table WIRE of src/exec/outcome.ts (test/exec/wire-kinds.test.ts
# fails when they differ). Only the host assigns timeouts and crashes. The value fast paths spell
# WIRE_VALUE inside the literal "[0," (a constant costs less than building the text).
WIRE_VALUE, WIRE_INVALID, WIRE_ERROR, WIRE_TIMEOUT, WIRE_CRASH = 0, 1, 2, 3, 4

# Python 3.11 refuses to convert ints of more than 4,300 digits to or from text, which made a
# big-int result crash the worker. Lift the limit: the size of a result is bounded by the output
# limit instead (an int's digit count is checked before it is converted, see _value_wire).
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
FLUSH_SECONDS = 0.025
# The zygote tells the host it is alive after this long without a word (docs/protocol.md).
ALIVE_SECONDS = 1.0
MESSAGE_CHARS = 2000

# The script's own folder must not shadow candidate imports.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]


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
            return _INF
        if x == "-inf":
            return -_INF
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
# Bound now, in the zygote: a candidate that patches json.encoder or math changes only names in
# those modules, never these, so its own results are still reported as they are.
_INF = float("inf")


def _str_list(v):
    """JSON text of a list of strings without the json module."""
    return "[" + ",".join(map(_esc, v)) + "]"


def _special(x):
    if x != x:
        return "nan"
    if x == _INF:
        return "inf"
    if x == -_INF:
        return "-inf"
    return x


def _describe(v):
    return "an instance of " + type(v).__name__


_esc = json.encoder.encode_basestring_ascii


class _TooLarge(Exception):
    pass


# Characters a value being encoded may still produce. Each part is charged a lower bound of its
# text before it is encoded (a container two characters an item, with brackets and commas; a
# string, bytes or big int the rest of its own; one character of each part is its container's), so a result far over the output limit is refused
# at the cost of a length check, not of encoding it so a result far over the output limit is refused at the
# cost of a length check, not of encoding it (64 MB of text took ~360 ms of CPU, close to a
# per-call limit, and a busy machine turned OutputTooLarge into a timeout). Unbounded (inputs)
# unless _value_wire sets it.
_room = [math.inf]
# Big homogeneous int lists are joined in slices this long, charged after each.
_INT_SLICE = 1 << 16


def _charge(n):
    room = _room[0] - n
    if room < 0:
        raise _TooLarge()
    _room[0] = room


def encode(v):
    """Python value -> tagged JSON text. Raises Unserializable; RecursionError on cycles;
    _TooLarge once the text would pass the output limit.

    Writes text directly instead of building a tagged tree for json.dumps: half the time on the
    per-call path. Homogeneous lists of small ints or of strings go to the C encoder whole."""
    t = type(v)
    if t is int:
        return repr(v) if -MAX_SAFE <= v <= MAX_SAFE else _big_int(v)
    if t is str:
        _charge(len(v) + 1)
        return _esc(v)
    if t is list:
        if not v:
            return "[]"
        _charge(2 * len(v))
        types = set(map(type, v))
        if len(types) == 1:
            only = types.pop()
            if only is str:
                _charge(sum(map(len, v)) + len(v))
                return _str_list(v)
            if only is int and -MAX_SAFE <= min(v) and max(v) <= MAX_SAFE:
                return "[" + _int_items(v) + "]"
        return "[" + _items(v) + "]"
    if t is tuple:
        _charge(2 * len(v))
        return '{"$tuple":[' + _items(v) + "]}"
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "null"
    if t is float:
        return '{"$float":' + (repr(v) if v - v == 0 else '"' + _special(v) + '"') + "}"
    if t is dict:
        _charge(6 * len(v))
        return '{"$dict":[' + ",".join(["[" + encode(k) + "," + encode(x) + "]" for k, x in v.items()]) + "]}"
    if t is set:
        _charge(2 * len(v))
        return '{"$set":[' + _items(v) + "]}"
    if t is frozenset:
        _charge(2 * len(v))
        return '{"$frozenset":[' + _items(v) + "]}"
    return _encode_other(v)


def _big_int(v):
    # Text of an int takes time quadratic in its size: charge its digits (at least
    # bit_length * log10(2), less one) before converting it.
    _charge(max(0, int(v.bit_length() * 0.30103) - 2))
    return '{"$int":"%d"}' % v


def _int_items(v):
    if len(v) <= _INT_SLICE:
        return ",".join(map(repr, v))
    parts = []
    for i in range(0, len(v), _INT_SLICE):
        part = ",".join(map(repr, v[i:i + _INT_SLICE]))
        # The list charged one character and one comma an item already.
        _charge(len(part) + 1 - 2 * min(_INT_SLICE, len(v) - i))
        parts.append(part)
    return ",".join(parts)


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
        b = bytes(v)
        _charge(2 * len(b) + 11)
        return '{"$bytes":"' + b.hex() + '"}'
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
    return "[" + str(kind) + "," + _esc(name) + "," + _esc(_text(message)) + "]"


def _value_wire(r, max_chars):
    t = type(r)
    if t is int and -MAX_SAFE <= r <= MAX_SAFE:
        return "[0," + repr(r) + "]"
    if t is bool:
        return "[0,true]" if r else "[0,false]"
    if r is None:
        return "[0,null]"
    # Common small results, encoded as encode() would but without the recursion-limit and
    # output-room bookkeeping, which costs more than the text for them: their size is bounded
    # here, so the length check below is all the output limit needs.
    s = None
    if t is float:
        s = '{"$float":' + _float_text(r) + "}"
    elif t is str:
        if len(r) <= _SMALL:
            s = _esc(r)
    elif t is list and len(r) <= _SMALL:
        if not r:
            s = "[]"
        else:
            types = set(map(type, r))
            if len(types) == 1:
                only = types.pop()
                if only is int:
                    if -MAX_SAFE <= min(r) and max(r) <= MAX_SAFE:
                        s = "[" + ",".join(map(repr, r)) + "]"
                elif only is str and sum(map(len, r)) <= _SMALL:
                    s = _str_list(r)
    if s is not None:
        if len(s) > max_chars:
            return _too_large(max_chars)
        return "[0," + s + "]"
    limit = sys.getrecursionlimit()
    try:
        if limit > 2000:
            sys.setrecursionlimit(2000)
        _room[0] = max_chars
        s = encode(r)
    except _TooLarge:
        s = None
    except Unserializable as e:
        return _error_wire(WIRE_ERROR, "Unserializable", e)
    except RecursionError:
        cyclic = False
        try:
            cyclic = _has_cycle(r, set())
        except RecursionError:
            pass
        return _error_wire(
            WIRE_ERROR, "Unserializable",
            "the value contains a cycle (an object that contains itself)" if cyclic
            else "the value is nested too deeply to send",
        )
    except MemoryError:
        return _error_wire(WIRE_ERROR, "OutputTooLarge", "the value ran out of memory while being encoded")
    finally:
        _room[0] = math.inf
        if limit > 2000:
            sys.setrecursionlimit(limit)
    if s is None or len(s) > max_chars:
        return _too_large(max_chars)
    return "[0," + s + "]"


# Results at most this long (characters of a string, items of a list) take _value_wire's short way.
_SMALL = 4096


def _too_large(max_chars):
    return _error_wire(
        WIRE_ERROR, "OutputTooLarge",
        "the value is larger than the %d-byte output limit (raise maxOutputBytes to allow it)" % max_chars,
    )


# ---------------------------------------------------------------------------------------------
# What a candidate's process may do: limits and the audit hook, installed in each child right
# after the fork, before any candidate code runs. The zygote itself never runs candidate code.


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
        # audit hook below and the stubbed _posixsubprocess refuse process creation too).
        lower(resource.RLIMIT_NPROC, 0)


# Files under /proc a candidate may read (its own status, the machine's size); everything else
# there leads to other processes (`/proc/<ppid>/root/...`, `environ`, `mem`) or to descriptors.
_PROC_SAFE = ("/proc/cpuinfo", "/proc/meminfo", "/proc/self/stat", "/proc/self/statm", "/proc/self/status")

# Modules a candidate must not load afresh: a new copy of `_posixsubprocess` forks without an
# audit event, and new `posix`/`os` copies would undo the refusals below. Their loads raise the
# `import` audit event, which only fires when a module is really loaded (not for cached ones).
_NO_RELOAD = frozenset(("_posixsubprocess", "posix", "os", "_ctypes", "nt", "_thread", "_signal", "signal"))


def _readable_roots():
    """The Python installation and the system's libraries, resolved and sorted once in the
    zygote rather than in every child (a tuple: a child's hook keeps its own reference, so
    rebinding the name changes nothing)."""
    roots = set()
    for p in list(sys.path) + [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]:
        if p:
            roots.add(os.path.realpath(p))
    roots.update(("/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/share", "/lib", "/lib64",
                  "/etc/localtime", "/dev/null", "/dev/urandom", "/dev/random"))
    return tuple(sorted(roots))


_READABLE = _readable_roots()


# What the audit hook refuses and checks, built once in the zygote (building them in each child
# cost ~20 copied pages a candidate). Read-only views: the hook holds these, and a candidate that
# reaches one (through a frame) cannot change it.
_frozen = __import__("types").MappingProxyType
_FORBIDDEN = _frozen({
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
})
# Event -> (indexes of path arguments, indexes of dir_fd arguments; -1 there means none).
_PATH_WRITES = _frozen({
    "os.remove": ((0,), (1,)), "os.rmdir": ((0,), (1,)), "os.mkdir": ((0,), (2,)),
    "os.rename": ((0, 1), (2, 3)), "os.link": ((0, 1), (2, 3)), "os.symlink": ((1,), (2,)),
    "os.truncate": ((0,), ()), "os.chmod": ((0,), (2,)), "os.chown": ((0,), (3,)),
    "os.utime": ((0,), (3,)), "os.mkfifo": ((0,), (2,)), "os.mknod": ((0,), (3,)),
    "os.setxattr": ((0,), ()), "os.removexattr": ((0,), ()), "shutil.rmtree": ((0,), ()),
    "shutil.copyfile": ((1,), ()), "shutil.copytree": ((1,), ()), "shutil.move": ((1,), ()),
    "sqlite3.connect": ((0,), ()),
})
_PATH_READS = _frozen({"os.listdir": 0, "os.scandir": 0})


def _install_audit(work):
    """Installs the policy for the rest of the child's life. It has no off switch: the harness
    itself needs nothing it forbids, and a switch would be one more thing a candidate could
    reach. The hook is referenced only by the interpreter (and by gc, which is refused).
    `work` is the child's directory, already resolved (the zygote made it under its own
    resolved directory): no realpath walk per child."""
    own = "/proc/%d" % os.getpid()
    proc_safe = frozenset(_PROC_SAFE + tuple(own + p[len("/proc/self"):] for p in _PROC_SAFE
                                             if p.startswith("/proc/self/")))
    readable = _READABLE + (work,)
    realpath = os.path.realpath
    normpath = os.path.normpath
    abspath = os.path.abspath
    fspath = os.fspath
    stat = os.stat
    S_ISDIR = __import__("stat").S_ISDIR
    no_reload = _NO_RELOAD
    # A descriptor of a directory is what `dir_fd=` needs, and the "open" audit event does not
    # carry dir_fd: with no directory descriptor at all, no path can be resolved against one.
    dir_flags = getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_PATH", 0)
    tmpfile = getattr(os, "O_TMPFILE", 0)

    forbidden = _FORBIDDEN
    path_writes = _PATH_WRITES
    path_reads = _PATH_READS
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def inside(p, roots):
        for r in roots:
            if p == r or p.startswith(r + "/"):
                return True
        return False

    def deny(what):
        raise PermissionError("crosscheck: %s is not allowed for a candidate" % what)

    def resolved(path):
        try:
            given = fspath(path)
            if isinstance(given, bytes):
                given = given.decode("utf-8", "surrogateescape")
            return normpath(abspath(given)), realpath(given)
        except (TypeError, ValueError):
            deny("the path %r" % (path,))

    def check_read(path):
        lexical, p = resolved(path)
        # Both spellings: `/proc/<ppid>/root/etc` resolves to `/etc`, `/dev/fd/3` to `/proc/...`.
        for q in (lexical, p):
            if (q == "/proc" or q.startswith("/proc/")) and q not in proc_safe:
                deny("reading %r" % lexical)
        if not inside(p, readable):
            deny("reading %r outside the working directory and the Python installation" % p)
        return p

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
                lexical, p = resolved(path)
                p = realpath(p)
                if not inside(p, (work,)) or not inside(lexical, (work,)):
                    deny("writing %r outside the working directory" % (lexical,))
            else:
                p = check_read(path)
            if mode is not None or (flags is not None and tmpfile and flags & tmpfile == tmpfile):
                # io.open never hands out a directory (FileIO refuses one; an opener's own
                # os.open is checked by itself), and O_TMPFILE yields an unnamed regular file.
                return
            if mode is None and flags is not None and flags & dir_flags:
                deny("opening a directory")
            try:
                is_dir = S_ISDIR(stat(p).st_mode)
            except OSError:
                is_dir = False
            if is_dir:
                deny("opening a directory")
            return
        if event == "import":
            if args[0] in no_reload:
                deny("loading the module %s again" % args[0])
            return
        what = forbidden.get(event)
        if what is not None:
            deny(what)
        spec = path_writes.get(event)
        if spec is not None:
            paths, dir_fds = spec
            for i in dir_fds:
                if i < len(args) and isinstance(args[i], int) and args[i] != -1:
                    deny("a path relative to a directory descriptor")
            for i in paths:
                if i < len(args) and args[i] is not None and not isinstance(args[i], int):
                    lexical, p = resolved(args[i])
                    if not inside(p, (work,)) or not inside(lexical, (work,)):
                        deny("changing %r outside the working directory" % (lexical,))
            return
        i = path_reads.get(event)
        if i is not None and i < len(args) and args[i] is not None and not isinstance(args[i], int):
            check_read(args[i])

    sys.addaudithook(hook)


# The zygote's own handles on what _block_process_creation replaces in the modules: bound before
# it runs. They are no way around the policy: the interpreter raises the `os.fork`/`os.kill`
# audit events inside these functions themselves, and a child's hook refuses them.
_fork = os.fork
_kill = os.kill


def _block_process_creation():
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

    for module in (os, posix):
        for name in ("fork", "forkpty", "system", "popen", "posix_spawn", "posix_spawnp", "spawnv",
                     "spawnve", "spawnl", "spawnle", "execv", "execve", "execl", "execle", "execlp",
                     "execvp", "execvpe", "register_at_fork"):
            if hasattr(module, name):
                setattr(module, name, refuser("creating processes"))
        for name in ("kill", "killpg", "pidfd_open"):
            if hasattr(module, name):
                setattr(module, name, refuser("sending signals"))
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
    # threading registered _after_fork to run in every child of a fork: Python code that rebuilds
    # the module's locks and thread table, touching (so copying) ~100 of the zygote's pages a
    # child. The zygote has one thread and holds none of those locks when it forks, and a child
    # cannot start threads, so the table and locks it inherits are already right. The registered
    # function cannot be unregistered; its code is emptied instead (random's reseed, which keeps
    # children's random streams apart, still runs).
    after_fork = getattr(threading, "_after_fork", None)
    if type(after_fork) is type(_block_process_creation):
        after_fork.__code__ = (lambda: None).__code__


# ---------------------------------------------------------------------------------------------
# prctl through libc, loaded by the zygote before any candidate exists (ctypes is refused to
# candidates by the audit hook).

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38


def _load_prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.prctl
        fn.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
        fn.restype = ctypes.c_int
        return fn
    except (ImportError, OSError, AttributeError):
        return None


_prctl = _load_prctl()


def _harden():
    """No privileges gained through exec, and no other process of this user may read this
    process's memory or attach to it. Set once in the zygote: every child inherits both
    attributes through fork (prctl(2)), so a child makes no calls of its own for them."""
    if _prctl is not None:
        _prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        _prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _die_with_parent(expected_parent):
    """SIGKILL when the parent dies, then a check that it has not died already (in which case
    the signal will never come)."""
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != expected_parent:
        os._exit(1)


# ---------------------------------------------------------------------------------------------
# The child: one candidate slice (load + one batch of calls), then exit.


def _write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def _read_line(fd):
    """One line from fd, without a buffered file object (the child reads a single line)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b""
        data += chunk
    return data


class Child:
    def __init__(self, progress, plans, shared, base):
        self.progress = progress
        self.plans = plans
        self.shared = shared
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
        plans, shared, progress, base = self.plans, self.shared, self.progress, self.base
        perf, send = time.perf_counter, self.send
        head = '{"t":"out","id":%d,"from":' % msg["id"]
        parts = []
        append = parts.append
        i = sent = msg["from"]
        held = 0
        last_flush = perf()
        while i < end:
            args = shared[i - base]
            if args is None:
                plan = plans[i - base]
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
            progress[0] = i
            try:
                r = fn(*args)
            except BaseException as e:
                append(_exception_wire(e, invalid, heads))
                del e
            else:
                wire = _value_wire(r, max_chars)
                held += len(wire)
                append(wire)
            i += 1
        send(head + '%d,"outcomes":%s,"done":true}' % (sent, _str_list(parts)))


def _class_name(e):
    try:
        name = type(e).__name__
        return name if type(name) is str else "BaseException"
    except BaseException:
        return "BaseException"


def _exception_head(e, invalid):
    """The start of an exception's wire, up to its message: `[kind,"Class",`."""
    try:
        kind = WIRE_INVALID if invalid and not invalid.isdisjoint(c.__name__ for c in type(e).__mro__) else WIRE_ERROR
    except BaseException:
        kind = WIRE_ERROR
    return "[" + str(kind) + "," + _esc(_class_name(e)) + ","


# Built-in exception classes, by id: static types whose name and bases nobody can change, so the
# head of their wire is the same for every call of a run and is kept (`heads`, one dict a run).
# Most calls of a reference filter raise one of these for the inputs it rejects. Keyed by id, not
# by class: a candidate's metaclass cannot make its class compare or hash equal to one of them.
_BUILTIN_EXCEPTIONS = frozenset(
    id(v) for v in vars(builtins).values() if isinstance(v, type) and issubclass(v, BaseException)
)


def _exception_wire(e, invalid, heads=None):
    t = id(type(e))
    head = None if heads is None else heads.get(t)
    if head is None:
        head = _exception_head(e, invalid)
        if heads is not None and t in _BUILTIN_EXCEPTIONS:
            heads[t] = head
    return head + _esc(_text(e)) + "]"


def _close_from(low):
    """Closes every descriptor from `low` up. Python >= 3.10 does it with one close_range(2);
    3.9's closerange closes each number in turn (65,536 system calls, ~15 ms a child), so
    there the open ones are listed first."""
    if sys.version_info >= (3, 10):
        os.closerange(low, 1 << 16)
        return
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):
        os.closerange(low, 1 << 16)
        return
    for fd in fds:
        if fd >= low:
            try:
                os.close(fd)
            except OSError:
                pass


def _child_main(msg, ctl_r, res_w, subdir, zygote_pid, memory_mb, progress, plans, shared, base, run):
    """Runs in the forked child; never returns. `run` is the run the load carried, else the
    child reads it from the zygote."""
    try:
        _die_with_parent(zygote_pid)
        # The child speaks the same protocol to the zygote on its own fd 3/4; nothing else of
        # the zygote's (the host's pipes, other children's pipes) stays open.
        os.dup2(ctl_r, 3)
        os.dup2(res_w, 4)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _close_from(5)
        os.chdir(subdir)
        # HOME, TMPDIR, TMP, TEMP and tempfile.tempdir name `subdir` already: the zygote set
        # them before the fork (Zygote.point_at).
        # PR_SET_NO_NEW_PRIVS and PR_SET_DUMPABLE 0 hold already: the zygote set them for
        # itself, and a fork inherits both (_harden).
        _set_limits(memory_mb)
        # rmtree's descriptor-based variant opens directories, which the hook refuses. (Only
        # in the child: the zygote's own rmtree keeps the variant that is safe against symlinks.)
        import shutil

        shutil._use_fd_functions = False
        # sys.stdout, sys.stderr and sys.stdin are the zygote's (a _Sink, None), and the
        # process-creation refusals are in place since the zygote ran _block_process_creation.
        _install_audit(subdir)
        child = Child(progress, plans, shared, base)
        error = child.load(msg)
        if error is None:
            child.send('{"t":"loaded","id":%d,"ok":true}' % msg["id"])
        else:
            child.send('{"t":"loaded","id":%d,"ok":false,"error":%s}' % (msg["id"], error))
            os._exit(0)
        if run is not None:
            child.run(run)
        else:
            line = _read_line(3)
            if line:
                child.run(_loads(line.decode("utf-8")))
    except BaseException:
        os._exit(70)
    finally:
        # Whatever happens, the child never returns into the zygote's code.
        os._exit(0)


# ---------------------------------------------------------------------------------------------
# The zygote: trusted, holds the decoded inputs, forks one child per candidate slice, watches
# its CPU time, checks every line it sends and reports how it ended.


def _cpu_clock(pid):
    # clock_getcpuclockid(pid) for a whole process on Linux: CPUCLOCK_SCHED of that pid.
    return ((~pid) << 3) | 2


_ALIVE = '{"t":"alive"}'


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
    def __init__(self, cause, reason=""):
        self.cause = cause
        self.reason = reason


def _describe_status(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        return "the worker was killed by %s" % name
    return "the worker exited with code %d" % os.WEXITSTATUS(status)


def _strict_constant(name):
    raise ValueError("not JSON: %s" % name)


_check_loads = json.JSONDecoder(parse_constant=_strict_constant).decode
_OUT_KEYS = frozenset(("t", "id", "from", "outcomes", "done"))
_REPORTABLE = tuple("[%d," % k for k in (WIRE_VALUE, WIRE_INVALID, WIRE_ERROR))


def _all_reportable(outcomes):
    """True when every outcome is a string that starts with a reportable kind (`[0,` `[1,` `[2,`)
    and ends with `]`. Counted in C over the outcomes joined by NULs, about 3.5 times faster than
    two string-method calls per outcome (110 against 380 us on 2,000 outcomes, measured on one
    machine). When no outcome holds a NUL, the NULs are exactly the boundaries, each but the
    last followed by an outcome's first characters and each but the first preceded by an
    outcome's last. False (and the caller checks one by one) otherwise."""
    n = len(outcomes)
    if n == 0:
        return True
    try:
        s = "\0" + "\0".join(outcomes) + "\0"
    except TypeError:
        return False
    if s.count("\0") != n + 1 or s.count("]\0") != n:
        return False
    # Values first: most outcomes are values, and then one count is all it takes.
    starts = 0
    for kind in _REPORTABLE:
        starts += s.count("\0" + kind)
        if starts == n:
            return True
    return False


def _rmtree(path):
    # Most candidates leave their directory empty: one rmdir, not rmtree's walk (~0.15 ms).
    try:
        os.rmdir(path)
        return
    except OSError:
        pass
    import shutil

    shutil.rmtree(path, ignore_errors=True)


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


_errno = __import__("errno")


def _run_backstop_ms(run):
    """The CPU time a run may take before RLIMIT_CPU ends its child (see _cpu_backstop)."""
    timeout_ms = run["timeoutMs"]
    calls = max(1, run["to"] - run["from"])
    time_limit = run.get("timeLimitMs")
    return timeout_ms * calls if time_limit is None else min(timeout_ms * calls, time_limit + timeout_ms)


def _child_run(run):
    """What the child needs of a run: its request, as the zygote would send it."""
    return {"id": run["id"], "from": run["from"], "to": run["to"],
            "maxOutputBytes": run["maxOutputBytes"], "invalid": list(run["invalid"])}


_select = __import__("select")


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
        self.inputs_from = 0
        self.child = None  # (pid, ctl fd, res fd, dir, key)
        self.zombies = []
        self.count = 0
        # Directories of dead children found exactly as they were made (see release_dir), for the
        # next children: on ext4 a mkdir and an rmdir cost ~0.2 ms a candidate; the checks ~20 us.
        self.spare = []
        self.env_dir = None
        self.dir_states = {}
        self.pending = b""
        # Seconds spent blocked writing to the host (a host too busy to read), and when the
        # host last heard from this zygote.
        self.blocked = 0.0
        self.last_out = time.monotonic()

    def send(self, text):
        self.relay(text.encode("utf-8") + b"\n")

    def relay(self, data):
        t0 = time.monotonic()
        while data:
            n = os.write(self.wfd, data)
            data = data[n:]
        self.last_out = now = time.monotonic()
        self.blocked += now - t0

    def beat(self, now):
        """Tells the host the zygote is still watching a call: on a busy machine a call within
        its CPU limit can take many times its limit in wall time, and the host must not take the
        silence for a hang."""
        if now - self.last_out > ALIVE_SECONDS:
            self.send(_ALIVE)

    def on_inputs(self, msg):
        """Decodes each input once, in the zygote: every child inherits the result. Immutable
        arguments are shared by every call; mutable ones get a copy recipe."""
        self.inputs_key = msg["key"]
        base = msg.get("from", 0)
        self.inputs_from = base if type(base) is int and base >= 0 else 0
        shared, plans = [], []
        undecoded = msg.get("undecoded", False)
        atoms = _ATOMS
        for args in msg["inputs"]:
            # Most inputs are tuples of numbers and strings: one check in C instead of a plan
            # per argument (a reference filter sends tens of thousands of them).
            if not undecoded and type(args) is list and set(map(type, args)) <= atoms:
                shared.append(args)
                plans.append(None)
                continue
            try:
                if undecoded:
                    args = _loads(_dumps(args))
                plan = [_copy_plan(a) for a in args]
            except BaseException as e:
                shared.append(None)
                plans.append(_error_wire(WIRE_ERROR, "Unserializable", "the input cannot be built in Python: %s" % _text(e)))
                continue
            if all(kind == 0 for kind, _ in plan):
                shared.append(args)
                plans.append(None)
            else:
                shared.append(None)
                plans.append(plan)
        self.shared_inputs, self.plans = shared, plans

    # -- children

    def end_child(self, wait=True):
        """Kills the current child (if any). With `wait`, reaps it and returns its wait status
        and CPU seconds; without, it is reaped later: a killed process runs no more code, so the
        next child need not wait for its teardown."""
        c = self.child
        if c is None:
            return None
        self.child = None
        pid, ctl, res, subdir, _key = c
        try:
            _kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for fd in (ctl, res):
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
        if self.spare:
            return self.spare.pop()
        self.count += 1
        subdir = os.path.join(self.workdir, "c%d" % self.count)
        os.mkdir(subdir, 0o700)
        self.dir_states[subdir] = _dir_state(subdir)
        return subdir

    def release_dir(self, subdir):
        """A dead child's directory: kept for the next child if nothing of it changed (same inode,
        mode, owner, link count and times as when it was made or last checked, no entries, no
        extended attributes), else removed. No process can change it meanwhile: its child is dead
        and no other child may write outside its own directory. Times are compared because a
        candidate could set them (os.utime) for the next one to read; entries and attributes are
        listed because a change within one tick of the file system's clock keeps the times."""
        state = self.dir_states.pop(subdir, None)
        try:
            if (state is not None and len(self.spare) < 4 and _dir_state(subdir) == state
                    and not os.listdir(subdir) and _no_xattrs(subdir)):
                # Listing it may have set its access time: the state to compare next time.
                self.dir_states[subdir] = _dir_state(subdir)
                self.spare.append(subdir)
                return
        except OSError:
            pass
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
        self.end_child(wait=False)
        self.reap(block=len(self.zombies) > 8)
        subdir = self.new_dir()
        self.point_at(subdir)
        ctl_r, ctl_w = os.pipe()
        res_r, res_w = os.pipe()
        me = os.getpid()
        self.progress[0] = -1
        # Objects that exist now are never scanned by the child's garbage collector, which
        # would otherwise touch (and so copy) every page of the zygote's heap.
        gc.freeze()
        pid = _fork()
        if pid == 0:
            _child_main(msg, ctl_r, res_w, subdir, me, self.memory_mb, self.progress, self.plans,
                        self.shared_inputs, self.inputs_from,
                        None if carried is None else _child_run(carried))
        os.close(ctl_r)
        os.close(res_w)
        self.child = (pid, ctl_w, res_r, subdir, msg["key"])
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
        # The child exits by itself now. Its CPU time is read before it is reaped, so that the
        # host can go on at once; it is killed and reaped before the next child is forked.
        try:
            cpu = time.clock_gettime(_cpu_clock(pid))
        except OSError:
            ended = self.end_child()
            cpu = ended[1] if ended else 0.0
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
        reason = e.reason
        if e.cause == "exit":
            reason = _describe_status(status)
        self.send(_dumps({"t": "ended", "id": req_id, "cause": e.cause, "at": at,
                          "cpuMs": round(cpu * 1000, 3), "reason": _text(reason)}))

    def watch(self, req_id, timeout_ms, time_limit_ms, window, load, wall_ms=None, more=False):
        """Relays the child's checked lines until the phase is over: the `loaded` line (returned,
        not yet relayed) or the last `out` (relayed). Ends the child, by raising Ended, when one
        call (or the load) passes `timeout_ms` of its CPU time, when the batch passes
        `time_limit_ms` of CPU time, when a call passes the wall-time backstop (a candidate that
        sleeps), when it dies, or when it writes anything but a well-formed reply. With `more`
        (a run carried by the load) bytes after a successful load reply are the run's, kept in
        `self.pending` for the next watch; lines already there are checked before waiting."""
        select = _select

        pid, _ctl, res = self.child[0], self.child[1], self.child[2]
        clock = _cpu_clock(pid)
        timeout_ns = timeout_ms * 1_000_000
        wall_limit = (wall_ms if wall_ms is not None else 5 * timeout_ms + 1000) / 1000.0
        limit_ns = None if time_limit_ms is None else time_limit_ms * 1_000_000
        tick = max(0.002, min(0.025, timeout_ms / 10000.0))
        try:
            cpu0 = time.clock_gettime_ns(clock)
        except OSError:
            cpu0 = 0
        call_idx = self.progress[0]
        call_cpu = cpu0
        clock_own = _OwnTime(self, pid)
        clock_own.start(time.monotonic())
        nxt = window[0] if window else 0
        progress = self.progress
        held = b"\n" in self.pending
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
            if ready:
                data = self.pending + data
                lines = data.split(b"\n")
                self.pending = lines.pop()
                if len(self.pending) > (1 << 30):
                    raise Ended("fault", "a reply line longer than 1 GiB")
                for k, line in enumerate(lines):
                    if load:
                        ok = self.check_loaded(line, req_id)
                        if k + 1 < len(lines) or self.pending:
                            if not (more and ok):
                                raise Ended("fault", "bytes after the load reply")
                            self.pending = b"\n".join(lines[k + 1:] + [self.pending])
                        return line + b"\n", ok
                    nxt, done = self.check_out(line, req_id, nxt, window[1])
                    self.relay(line + b"\n")
                    if done:
                        if self.pending:
                            raise Ended("fault", "bytes after the last reply")
                        return None
            try:
                cpu = time.clock_gettime_ns(clock)
            except OSError:
                raise Ended("exit")
            idx = progress[0]
            now = time.monotonic()
            if idx != call_idx:
                call_idx, call_cpu = idx, cpu
                clock_own.start(now)
            elif cpu - call_cpu > timeout_ns or clock_own.over(now, wall_limit):
                raise Ended("timeout", "%d ms of CPU time, %d ms of its own time, %d ms of wall time"
                            % ((cpu - call_cpu) // 1_000_000, clock_own.own(now) * 1000,
                               clock_own.wall(now) * 1000))
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
                raise Ended("timeout", "it stopped answering")
            self.beat(now)
            time.sleep(0.002)

    def check_loaded(self, line, req_id):
        try:
            m = _check_loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise Ended("fault", "not JSON: %s" % line[:120].decode("utf-8", "replace"))
        if type(m) is not dict or m.get("t") != "loaded" or m.get("id") != req_id:
            raise Ended("fault", "expected the load reply, got %s" % line[:120].decode("utf-8", "replace"))
        if m.get("ok") is True and len(m) == 3:
            return True
        err = m.get("error")
        if (m.get("ok") is False and len(m) == 4 and type(err) is list and len(err) == 3 and err[0] == 2
                and type(err[1]) is str and type(err[2]) is str):
            return False
        raise Ended("fault", "a malformed load reply %s" % line[:120].decode("utf-8", "replace"))

    def check_out(self, line, req_id, nxt, end):
        """A child line is relayed only if it is an `out` for this request, contiguous, within
        the batch, with values and exceptions only: never an `ended` or a timeout of its own."""
        try:
            m = _check_loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise Ended("fault", "not JSON: %s" % line[:120].decode("utf-8", "replace"))
        if (type(m) is not dict or not _OUT_KEYS.issuperset(m) or m.get("t") != "out"
                or m.get("id") != req_id or m.get("from") != nxt or type(m.get("outcomes")) is not list):
            raise Ended("fault", "a malformed reply %s" % line[:120].decode("utf-8", "replace"))
        outcomes = m["outcomes"]
        if not _all_reportable(outcomes):
            # The slow check decides (and names the culprit): the fast one also fails on
            # well-formed outcomes that hold a NUL.
            for o in outcomes:
                if type(o) is not str or not o.startswith(_REPORTABLE) or not o.endswith("]"):
                    raise Ended("fault", "a malformed outcome %s" % repr(o)[:120])
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


def _add_site_packages():
    """The host starts the worker with -S, so `site` ran nothing: this adds what it would have
    added to sys.path (the installation's or virtualenv's site-packages, and the directories that
    .pth files there name) without executing the `import` lines of .pth files (nor
    `sitecustomize`/`usercustomize`, which `site` would import). Those lines run
    arbitrary start-up code (setuptools' distutils shim, certificate hooks, coverage or debugger
    start-up) that no candidate needs, and what they import and allocate would be in every child:
    each fork copies the zygote's page tables, and every page a child touches is copied. An
    editable install whose .pth only imports a finder is therefore not importable by candidates;
    one that names a directory is. Also installs `exit`, `quit`, `help`, `copyright`, `credits`
    and `license` as `site` does, so candidates see the same builtins. Does nothing without -S
    (bench/floor.py imports this module in a normal interpreter)."""
    if not sys.flags.no_site:
        return
    import site  # with -S, importing site runs nothing

    exe_dir = os.path.dirname(os.path.abspath(sys.executable))
    prefixes = [sys.prefix, sys.exec_prefix]
    # A virtualenv, as site.venv() finds it (Python < 3.11 sets sys.prefix there, not at start-up).
    for conf in (os.path.join(exe_dir, "pyvenv.cfg"), os.path.join(os.path.dirname(exe_dir), "pyvenv.cfg")):
        if os.path.isfile(conf):
            system_site = "true"
            with open(conf, encoding="utf-8", errors="replace") as f:
                for line in f:
                    key, eq, value = line.partition("=")
                    if eq and key.strip().lower() == "include-system-site-packages":
                        system_site = value.strip().lower()
            venv = os.path.dirname(exe_dir)
            sys.prefix = sys.exec_prefix = venv
            prefixes = [venv] + ([sys.base_prefix, sys.base_exec_prefix] if system_site == "true" else [])
            break
    known = set(os.path.normcase(os.path.abspath(p)) for p in sys.path if p)

    def add(d, exists=os.path.isdir):
        key = os.path.normcase(d)
        if key not in known and exists(d):
            known.add(key)
            sys.path.append(d)
            return True
        return False

    for sitedir in site.getsitepackages(prefixes):
        sitedir = os.path.abspath(sitedir)
        if not add(sitedir):
            continue
        try:
            names = sorted(n for n in os.listdir(sitedir) if n.endswith(".pth") and not n.startswith("."))
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(sitedir, name), encoding="utf-8", errors="replace") as f:
                    lines = f.read().splitlines()
            except OSError:
                continue
            for line in lines:
                if not line.strip() or line.startswith(("#", "import ", "import\t")):
                    continue
                add(os.path.abspath(os.path.join(sitedir, line.rstrip())), os.path.exists)
    site.setquit()
    site.setcopyright()
    site.sethelper()


# Modules candidates commonly import, loaded once here so that every child starts with them.
_WARM = ("collections", "itertools", "functools", "heapq", "bisect", "re", "string", "typing",
         "fractions", "decimal", "statistics", "datetime", "random", "copy", "operator", "hashlib",
         "textwrap", "unicodedata", "array", "enum", "dataclasses", "numbers", "struct", "tempfile",
         "shutil", "pathlib", "threading", "select")


def main():
    parent = os.getppid()
    _die_with_parent(parent)
    _harden()
    _add_site_packages()
    # Readable by candidates: the installation, now with its site-packages.
    global _READABLE
    _READABLE = _readable_roots()
    rfile = os.fdopen(3, "rb", buffering=1 << 16)
    # Resolved once: each child's directory is made under it, and its audit hook compares
    # resolved paths with it.
    workdir = os.path.realpath(os.getcwd())
    memory_mb = int(os.environ.get("CROSSCHECK_MEMORY_MB", "0") or 0)
    sys.stdout = sys.stderr = _Sink()
    sys.stdin = None
    for name in _WARM + tuple(sys.builtin_module_names):
        try:
            __import__(name)
        except ImportError:
            pass
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    progress = _progress_counter(os.environ.get("CROSSCHECK_PROGRESS_FILE"))
    _block_process_creation()
    zygote = Zygote(rfile, 4, progress, workdir, memory_mb)
    try:
        zygote.serve()
    finally:
        zygote.end_child()
        zygote.reap(block=True)
        # The host removes it too; this covers a host that died without cleaning up.
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
