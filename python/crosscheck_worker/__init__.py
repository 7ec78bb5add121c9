"""crosscheck worker: serves Python candidates over the JSON-lines protocol of docs/protocol.md.

The process the host starts is a warmed zygote: it imports what the harness and common candidates
need, decodes the inputs, and never runs candidate code. Each candidate slice (a load and one
batch of calls) runs in a child forked for it, with its own directory, limits, lifeline and audit
hook; the child exits after the batch, so nothing a candidate does (patched modules, signal
handlers, timers, interpreter settings) reaches another candidate or the reference. The zygote
watches the child's CPU time, ends it when a call or the batch runs too long, checks every line it
writes before passing it on, and reports how it ended. Isolation inside the child is defence in
depth; the OS boundary around the whole worker is the real guard.

One concern a module, each readable alone:

- `__main__`  entry point; the first stage that hands the zygote its process settings
- `protocol`  the wire: message constants, outcome texts, the check of a child's lines
- `codec`     tagged JSON values, argument copies, the wire of a result or an exception
- `audit`     the audit hook: what a candidate may open, load and call
- `limits`    resource limits, process and thread refusals, the lifeline to the zygote
- `child`     the forked process that loads a candidate and runs its calls
- `zygote`    the trusted loop: forks children, watches their time, checks their lines
- `startup`   site-packages, warm imports, then the zygote
"""


def __getattr__(name):
    # bench/floor.py encodes and decodes as the harness does, in a plain interpreter.
    if name in ("_loads", "_copy_plan", "_fresh_args", "_value_wire"):
        from . import codec

        return getattr(codec, name)
    if name == "_Sink":
        from .child import _Sink

        return _Sink
    raise AttributeError(name)
