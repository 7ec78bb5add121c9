"""Start-up of the zygote: site-packages without running .pth code, the modules every child
starts with, the refusals of limits.py, then the zygote's loop (zygote.py)."""

import os
import resource
import sys

from . import audit
from .child import _Sink
from .limits import block_process_creation, die_with_host
from .zygote import Zygote, _progress_counter

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
    _add_site_packages()
    # Readable by candidates: the installation, now with its site-packages.
    audit.set_roots()
    rfile = os.fdopen(3, "rb", buffering=1 << 16)
    # Resolved once: each child's directory is made under it, and its audit hook compares
    # resolved paths with it.
    workdir = os.path.realpath(os.getcwd())
    memory_mb = int(os.environ.get("CROSSCHECK_MEMORY_MB", "0") or 0)
    sys.stdout = sys.stderr = _Sink()
    sys.stdin = None
    # Modules the audit hook refuses are refused only when a child loads them: one the zygote
    # loaded would be every child's already (an interpreter built with one of them built in).
    refused = audit._NATIVE | audit._UNCHECKED_WRITERS
    for name in _WARM + tuple(sys.builtin_module_names):
        if name in refused:
            continue
        try:
            __import__(name)
        except ImportError:
            pass
    # Every child forked from here must be without ctypes (limits.py says why), and without
    # the modules that write files past the audit hook.
    for name in refused:
        if name in sys.modules:
            raise SystemExit("crosscheck worker: %s was loaded before the zygote started" % name)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    progress = _progress_counter(os.environ.get("CROSSCHECK_PROGRESS_FILE"))
    die_with_host()
    block_process_creation()
    zygote = Zygote(rfile, 4, progress, workdir, memory_mb)
    try:
        zygote.serve()
    finally:
        zygote.end_child()
        zygote.reap(block=True)
        # The host removes it too; this covers a host that died without cleaning up.
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
