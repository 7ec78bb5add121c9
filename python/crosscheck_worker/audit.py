"""The audit hook (PEP 578) each child installs before any candidate code runs.

It has no off switch, and candidate code cannot rebind anything it uses:

- The hook is one function with no global names, no closure and no helper functions. Everything
  it calls or reads is bound once as a default argument when the child installs it: C functions
  of `posix` and `_signal` (not `os.path` or `signal`, whose Python functions look names up in
  module globals at call time), type methods of `str`, frozen sets, tuples and read-only
  mappings. A candidate that
  reaches the hook's frame (a traceback, a signal handler) sees copies of those values in its
  locals; the function object, which holds the originals, is referenced only by the interpreter.
- Paths are resolved by the kernel: the hook opens the path with O_PATH (no read or write, no
  blocking on a FIFO, no device side effect), follows links as the real call will, and reads the
  result back from /proc/self/fd. A path that does not exist yet is resolved through its parent.
- While the hook works, every audited event but its own opens is refused: candidate code that
  runs inside it (a signal handler, another audit hook) can neither use the descriptor the hook
  holds for a moment nor walk to the hook's frame.
- No frame object reaches a candidate. From any frame, `f_back` (which raises no audit event)
  leads to the harness's frames and what their locals hold: the marks the zygote reads, the
  reply pipe's run id. Every way to a first frame is refused instead: `sys._getframe` (with
  ValueError, which the standard library's callers, namedtuple, typing, enum and logging, catch
  and do without) and the `tb_frame`, `gi_frame`, `cr_frame` and `ag_frame` attributes; signal
  handlers get None for their frame (limits.py).
- Code objects come from the compiler only. `marshal.loads` of data that holds a code object is
  refused unless the bytes are those of a compiled module of the installation that the import
  system has just opened; a `.pyc` anywhere else is not opened (the import system then compiles
  the module from its source).

Defence in depth: the OS boundary around the worker is the real guard.
"""

import _signal
import errno
import os
import posix
import stat
import sys
from types import MappingProxyType as _frozen

# Files under /proc a candidate may read (its own status, the machine's size); everything else
# there leads to other processes (`/proc/<ppid>/root/...`, `environ`, `mem`) or to descriptors.
_PROC_SAFE = ("/proc/cpuinfo", "/proc/meminfo", "/proc/self/stat", "/proc/self/statm", "/proc/self/status")

# Modules a candidate must not load afresh: a new copy of `_posixsubprocess` forks without an
# audit event, and new `posix`/`os` copies would undo the refusals of limits.py. Their loads raise
# the `import` audit event, which only fires when a module is really loaded (not for cached ones).
_NO_RELOAD = frozenset(("_posixsubprocess", "posix", "os", "nt", "_thread", "_signal", "signal"))

# Modules that are doors to raw memory, system calls or an interpreter without this hook: never
# loaded by the zygote (so never cached in a child), refused by their last name (an extension
# module is found by it: `x._ctypes` loads `_ctypes`). Refused with ImportError, which libraries
# that use them only when present (numpy, for ctypes) already expect.
_NATIVE = frozenset((
    "ctypes", "_ctypes", "_ctypes_test", "cffi", "_cffi_backend", "_xxsubinterpreters",
    "_xxinterpchannels", "_interpreters", "_interpchannels", "_interpqueues", "_testcapi",
    "_testinternalcapi", "_testmultiphase", "_testsinglephase", "_testbuffer", "_testimportmultiple",
    "_testclinic",
))

# Modules that write files (or shared memory) from C, with no audit event to check the path by:
# readline's history files, SQLite's own files (ATTACH, VACUUM INTO, URI names, its journals),
# POSIX shared memory and named semaphores under /dev/shm, the dbm libraries, and Tcl (whose
# `open` and `exec` also reach files and programs). What they leave would reach the next
# candidate of the worker (a file in its directory, a full tmpfs, a channel through /tmp), so
# they are refused like _NATIVE, by their last name, with ImportError. `dbm.open` falls back to
# dbm.dumb, whose files go through the audited open.
_UNCHECKED_WRITERS = frozenset((
    "readline", "sqlite3", "_sqlite3", "_posixshmem", "_multiprocessing", "_gdbm", "_dbm",
    "_tkinter",
))

# The child's lifeline (limits.py) and everything below it are the harness's descriptors.
HARNESS_FDS = 5

# fcntl commands that would have the kernel signal another process: F_SETOWN and F_SETOWN_EX
# name the process SIGIO (or SIGURG) goes to, F_SETSIG makes it any signal, SIGKILL and SIGSTOP
# included. With them a candidate could stop or kill its zygote (whose uid it shares), which
# os.kill refuses. Refused on every descriptor, with O_ASYNC set through F_SETFL and the ioctls
# that do the same: FIOASYNC (any descriptor), FIOSETOWN and SIOCSPGRP (sockets). Linux numbers;
# the seccomp filter under 'os' (src/exec/isolation/seccomp.ts) refuses the same.
_F_SIGNALLING = frozenset((8, 10, 15))  # F_SETOWN, F_SETSIG, F_SETOWN_EX
_F_SETFL = 4
_O_ASYNC = getattr(os, "O_ASYNC", 0o20000)
_IOCTL_SIGNALLING = frozenset((0x5452, 0x8901, 0x8902))  # FIOASYNC, FIOSETOWN, SIOCSPGRP

# What the audit hook refuses outright, by event.
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
    "sys._current_frames": "inspecting the harness",
    "sys.settrace": "tracing",
    "sys.setprofile": "tracing",
    "sys.monitoring.register_callback": "tracing",
    "sys.addaudithook": "adding audit hooks",
    # Reads a file object's bytes with no "open" event of its own to check them by.
    "marshal.load": "unmarshalling from a file",
    # Hand-made code objects and functions run any bytecode, and bytecode is not checked: a
    # crafted one reads and writes raw memory.
    "code.__new__": "building code objects",
    "function.__new__": "building functions from code objects",
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
# Attributes that hand out a frame object (CPython raises `object.__getattr__` for them).
_FRAME_ATTRS = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame"))
# Events on a descriptor that could turn off the lifeline or reach the protocol pipes.
_FD_EVENTS = frozenset(("fcntl.fcntl", "fcntl.ioctl", "fcntl.flock", "fcntl.lockf"))

_roots = ()


def _readable_roots():
    """The Python installation and the system's libraries, resolved once in the zygote."""
    roots = set()
    for p in list(sys.path) + [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]:
        if p:
            roots.add(os.path.realpath(p))
    roots.update(("/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/share", "/lib", "/lib64",
                  "/etc/localtime", "/dev/null", "/dev/urandom", "/dev/random"))
    return tuple(sorted(roots))


def set_roots():
    """Called by the zygote once site-packages are on sys.path: what candidates may read."""
    global _roots
    _roots = _readable_roots()


def _extension_suffixes():
    import _imp

    return tuple(_imp.extension_suffixes()) + (".so",)


_EXTENSIONS = _extension_suffixes()


def install(work):
    """Installs the policy for the rest of the child's life. `work` is the child's directory,
    already resolved (the zygote made it under its own resolved directory) and its cwd."""
    own = "/proc/%d" % os.getpid()
    proc_safe = frozenset(_PROC_SAFE + tuple(own + p[len("/proc/self"):] for p in _PROC_SAFE
                                             if p.startswith("/proc/self/")))
    installed = tuple(_roots)
    readable = frozenset(installed + (work,))
    hook = _make_hook(work, readable, tuple(r + "/" for r in readable), frozenset(installed),
                      tuple(r + "/" for r in installed), proc_safe)
    sys.addaudithook(hook)


def _make_hook(work, readable, readable_below, installed, installed_below, proc_safe):
    o_path = getattr(os, "O_PATH", 0) | os.O_CLOEXEC

    # Every name below is a parameter: the hook loads no global and no closure cell (the tests
    # check its bytecode). `busy` is the one mutable value: a stack of markers, non-empty while
    # the hook works.
    def hook(event, args, busy=[], pyc=[None], work=work, work_below=work + "/", readable=readable,
             readable_below=readable_below, installed=installed, installed_below=installed_below,
             proc_safe=proc_safe, forbidden=_FORBIDDEN, path_writes=_PATH_WRITES,
             path_reads=_PATH_READS, fd_events=_FD_EVENTS, frame_attrs=_FRAME_ATTRS, no_reload=_NO_RELOAD, native=_NATIVE,
             unchecked_writers=_UNCHECKED_WRITERS, f_signalling=_F_SIGNALLING, f_setfl=_F_SETFL,
             o_async=_O_ASYNC, ioctl_signalling=_IOCTL_SIGNALLING,
             extensions=_EXTENSIONS, harness_fds=HARNESS_FDS, str_=str, bytes_=bytes, int_=int,
             type_=type, issubclass_=issubclass, len_=len, join="".join, join_bytes=b"".join,
             decode=bytes.decode, p_open=posix.open, p_close=posix.close, p_readlink=posix.readlink,
             p_fstat=posix.fstat, p_lstat=posix.lstat, p_read=posix.read, o_path=o_path,
             o_read=os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), s_ifreg=stat.S_IFREG,
             o_dir=o_path | getattr(os, "O_DIRECTORY", 0), s_ifmt=stat.S_IFMT(0o177777),
             s_ifdir=stat.S_IFDIR, writes=os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND,
             dir_flags=getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_PATH", 0),
             tmpfile=getattr(os, "O_TMPFILE", 0), enoent=errno.ENOENT, sigmask=_signal.pthread_sigmask,
             sig_block=int(_signal.SIG_BLOCK), sig_setmask=int(_signal.SIG_SETMASK),
             all_signals=frozenset(int(n) for n in _signal.valid_signals()),
             PermissionError_=PermissionError, ImportError_=ImportError, OSError_=OSError,
             ValueError_=ValueError, TypeError_=TypeError):
        if busy:
            top = busy[-1]
            if event == "open" and top is not None and args[0] is top and args[2] in (o_path, o_dir, o_read):
                # The hook's own open, once.
                busy[-1] = None
                return
            raise PermissionError_("crosscheck: %s while the harness checks an operation is not "
                                   "allowed for a candidate" % event)
        what = forbidden.get(event)
        if what is not None:
            raise PermissionError_("crosscheck: %s is not allowed for a candidate" % what)
        if event == "object.__getattr__":
            if len_(args) > 1 and args[1] in frame_attrs:
                raise PermissionError_("crosscheck: frame objects (%s) are not available to a candidate" % args[1])
            return
        if event == "sys._getframe":
            raise ValueError_("crosscheck: frame objects (sys._getframe) are not available to a candidate")
        if event == "marshal.loads":
            data = args[0] if len_(args) > 0 else None
            if type_(data) is bytes_ and b"c" not in data and b"\xe3" not in data:
                # No TYPE_CODE byte ('c', or 'c' | FLAG_REF): the data holds no code object.
                return
            path, pyc[0] = pyc[0], None
            same = False
            if type_(data) is bytes_ and path is not None:
                # The bytes of the compiled module just opened, read again here: a file of the
                # installation, reached without following a link, whose code follows its
                # 16-byte header. Signals wait meanwhile, as for the checks below.
                busy.append(path)
                old = sigmask(sig_block, ())
                fd = -1
                try:
                    sigmask(sig_block, all_signals)
                    try:
                        fd = p_open(path, o_read)
                        st = p_fstat(fd)
                        real = p_readlink("/proc/self/fd/%d" % fd)
                        if (st.st_mode & s_ifmt == s_ifreg and st.st_size == len_(data) + 16
                                and (real in installed or real.startswith(installed_below))):
                            chunks = []
                            left = st.st_size
                            while left > 0:
                                chunk = p_read(fd, left)
                                if not chunk:
                                    break
                                chunks.append(chunk)
                                left -= len_(chunk)
                            same = left == 0 and join_bytes(chunks)[16:] == data
                    except OSError_:
                        same = False
                finally:
                    busy.pop()
                    if fd >= 0:
                        p_close(fd)
                    sigmask(sig_setmask, old)
            if not same:
                raise PermissionError_("crosscheck: unmarshalling code objects is not allowed for a candidate, "
                                       "except the installation's compiled modules as they are imported")
            return
        # (path object, 0 read / 1 write / 2 load native code, a directory is fine)
        checks = []
        if event == "open":
            path, mode, flags = args
            if type_(path) is int_:
                # Wrapping descriptors the candidate opened itself (tempfile does) is fine; the
                # standard streams, the protocol pipes and the lifeline are not its to open.
                if path <= harness_fds:
                    raise PermissionError_("crosscheck: opening file descriptor %d is not allowed for "
                                           "a candidate" % path)
                return
            writing = (mode is not None and ("w" in mode or "a" in mode or "x" in mode or "+" in mode)) or (
                mode is None and flags is not None and flags & writes)
            # io.open never hands out a directory (FileIO refuses one) and O_TMPFILE yields an
            # unnamed regular file; an os.open of a directory would give the candidate a
            # descriptor for dir_fd=, which the "open" event does not show.
            dir_ok = mode is not None or (flags is not None and tmpfile and flags & tmpfile == tmpfile)
            if not dir_ok and flags is not None and flags & dir_flags:
                raise PermissionError_("crosscheck: opening a directory is not allowed for a candidate")
            checks.append((path, 1 if writing else 0, dir_ok))
        elif event == "import":
            name = args[0]
            if type_(name) is str_:
                if name in no_reload:
                    raise PermissionError_("crosscheck: loading the module %s again is not allowed for "
                                           "a candidate" % name)
                last = name.rpartition(".")[2]
                if last in native:
                    raise ImportError_("crosscheck: the module %s is not available to a candidate "
                                       "(no native code, raw memory or system calls)" % name)
                if last in unchecked_writers:
                    raise ImportError_("crosscheck: the module %s is not available to a candidate "
                                       "(its C code writes files or starts programs past the "
                                       "harness's checks)" % name)
            if len_(args) > 1 and type_(args[1]) is str_ and args[1].endswith(extensions):
                checks.append((args[1], 2, False))
        elif event == "object.__setattr__":
            if len_(args) > 1 and args[1] == "__code__":
                raise PermissionError_("crosscheck: replacing a function's code is not allowed for a "
                                       "candidate")
            return
        elif event in fd_events:
            if type_(args[0]) is int_ and args[0] <= harness_fds:
                raise PermissionError_("crosscheck: %s on file descriptor %d is not allowed for a "
                                       "candidate" % (event, args[0]))
            # fcntl.fcntl and fcntl.ioctl raise (fd, cmd or request, arg); flock and lockf
            # take no command that signals.
            if len_(args) > 2 and type_(args[1]) is int_:
                cmd = args[1] & 0xFFFFFFFF
                if event == "fcntl.fcntl":
                    # F_SETFL given a buffer passes its address as the flags: refused too.
                    flags = args[2]
                    if cmd in f_signalling or (cmd == f_setfl and flags is not None and (
                            type_(flags) is not int_ or flags & o_async)):
                        raise PermissionError_("crosscheck: sending signals is not allowed for a "
                                               "candidate (fcntl command %d)" % cmd)
                elif event == "fcntl.ioctl" and cmd in ioctl_signalling:
                    raise PermissionError_("crosscheck: sending signals is not allowed for a "
                                           "candidate (ioctl request %#x)" % cmd)
            return
        else:
            spec = path_writes.get(event)
            if spec is not None:
                paths, dir_fds = spec
                for i in dir_fds:
                    if i < len_(args) and type_(args[i]) is int_ and args[i] != -1:
                        raise PermissionError_("crosscheck: a path relative to a directory descriptor "
                                               "is not allowed for a candidate")
                for i in paths:
                    if i < len_(args) and args[i] is not None and type_(args[i]) is not int_:
                        checks.append((args[i], 1, True))
            else:
                i = path_reads.get(event)
                if i is not None and i < len_(args) and args[i] is not None and type_(args[i]) is not int_:
                    checks.append((args[i], 0, True))
        if not checks:
            return
        busy.append(None)
        try:
            for given, want, dir_ok in checks:
                # The exact characters the real call uses: a str or bytes subclass is copied
                # (its methods are the candidate's), any other object refused (its __fspath__
                # could answer differently for the real call).
                t = type_(given)
                if t is str_:
                    p = given
                elif t is bytes_ or issubclass_(t, bytes_):
                    p = decode(given, "utf-8", "surrogateescape")
                elif issubclass_(t, str_):
                    p = join((given,))
                else:
                    raise PermissionError_("crosscheck: a path that is not a str or bytes is not allowed "
                                           "for a candidate; pass a str")
                # Lexical form: `/proc/<ppid>/root/etc` resolves to `/etc`, and must be refused
                # as the /proc path it is spelled as.
                parts = []
                for c in (p if p[:1] == "/" else work + "/" + p).split("/"):
                    if c == "" or c == ".":
                        continue
                    if c == "..":
                        if parts:
                            parts.pop()
                        continue
                    parts.append(c)
                lexical = "/" + "/".join(parts)
                if (lexical == "/proc" or lexical.startswith("/proc/")) and lexical not in proc_safe:
                    raise PermissionError_("crosscheck: reading %r is not allowed for a candidate" % lexical)
                # Resolved by the kernel: the path itself through an O_PATH descriptor, or, for a
                # name that does not exist yet, its directory. Signals are blocked while the
                # descriptor exists, so no candidate handler runs and sees it.
                real = None
                mode_bits = 0
                target, flags_, base = p, o_path, None
                while True:
                    fd, err, got, bits = -1, 0, None, 0
                    busy[-1] = target
                    old = sigmask(sig_block, ())
                    try:
                        sigmask(sig_block, all_signals)
                        try:
                            fd = p_open(target, flags_)
                        except OSError_ as e:
                            err = e.errno
                        except (ValueError_, TypeError_):
                            err = -1
                        if fd >= 0:
                            try:
                                got = p_readlink("/proc/self/fd/%d" % fd)
                                bits = p_fstat(fd).st_mode & s_ifmt
                            except OSError_:
                                got = None
                    finally:
                        busy[-1] = None
                        if fd >= 0:
                            p_close(fd)
                        sigmask(sig_setmask, old)
                    if base is not None:
                        if got is not None:
                            real = (got if got != "/" else "") + "/" + base
                        break
                    if fd >= 0 or err != enoent or want == 0:
                        # Found, or an error the real call meets too (nothing to read there).
                        real, mode_bits = got, bits
                        break
                    # A new name. A link that leads nowhere would be followed by the real call
                    # to wherever it names.
                    try:
                        p_lstat(p)
                        is_link = True
                    except OSError_:
                        is_link = False
                    if is_link:
                        raise PermissionError_("crosscheck: writing through the link %r is not allowed "
                                               "for a candidate" % lexical)
                    q = p
                    while len_(q) > 1 and q.endswith("/"):
                        q = q[:-1]
                    head, sep, base = q.rpartition("/")
                    if base == "" or base == "." or base == "..":
                        raise PermissionError_("crosscheck: the path %r is not allowed for a candidate" % lexical)
                    target, flags_ = (head or "/") if sep else ".", o_dir
                if real is None:
                    if fd < 0 and err == enoent and want == 0:
                        continue
                    raise PermissionError_("crosscheck: the path %r, which does not resolve to a file, "
                                           "is not allowed for a candidate" % lexical)
                if real[:1] != "/":
                    raise PermissionError_("crosscheck: the path %r, which does not resolve to a file, "
                                           "is not allowed for a candidate" % lexical)
                if (real == "/proc" or real.startswith("/proc/")) and real not in proc_safe:
                    raise PermissionError_("crosscheck: reading %r is not allowed for a candidate" % lexical)
                if want == 1:
                    if not ((real == work or real.startswith(work_below))
                            and (lexical == work or lexical.startswith(work_below))):
                        raise PermissionError_("crosscheck: writing %r outside the working directory is "
                                               "not allowed for a candidate" % lexical)
                elif want == 2:
                    if not (real in installed or real.startswith(installed_below)):
                        raise ImportError_("crosscheck: loading native code from %r is not allowed for "
                                           "a candidate" % real)
                elif not (real in readable or real.startswith(readable_below)):
                    raise PermissionError_("crosscheck: reading %r outside the working directory and the "
                                           "Python installation is not allowed for a candidate" % real)
                elif event == "open" and real.endswith(".pyc"):
                    # Compiled code is trusted from the installation only; the import system,
                    # refused one elsewhere, compiles the module from its source.
                    if not (real in installed or real.startswith(installed_below)):
                        raise PermissionError_("crosscheck: reading compiled code outside the Python "
                                               "installation is not allowed for a candidate")
                    pyc[0] = real
                if not dir_ok and mode_bits == s_ifdir:
                    raise PermissionError_("crosscheck: opening a directory is not allowed for a candidate")
        finally:
            busy.pop()

    return hook
