"""The wire of docs/protocol.md: message constants, outcome texts, and the zygote's check of the
lines a child sends. Standard library only, and no import of the rest of the package (the tests
load this file alone)."""

import json
from builtins import BaseException, TypeError, ValueError, frozenset, len, str, tuple

PROTOCOL = 2
# Outcome kinds on the wire: the table WIRE of src/exec/outcome.ts (test/exec/wire-kinds.test.ts
# fails when they differ). Only the host assigns timeouts and crashes. The value fast paths spell
# WIRE_VALUE inside the literal "[0," (a constant costs less than building the text).
WIRE_VALUE, WIRE_INVALID, WIRE_ERROR, WIRE_TIMEOUT, WIRE_CRASH = 0, 1, 2, 3, 4

FLUSH_SECONDS = 0.025
# The zygote tells the host it is alive after this long without a word (docs/protocol.md).
ALIVE_SECONDS = 1.0
MESSAGE_CHARS = 2000
# Bound once: a candidate that patches json.encoder changes only that module's name, not this one.
_esc = json.encoder.encode_basestring_ascii


def _text(x):
    try:
        s = str(x)
    except BaseException:
        s = "(the message could not be read)"
    return s if len(s) <= MESSAGE_CHARS else s[: MESSAGE_CHARS - 3] + "..."


def _error_wire(kind, name, message):
    return "[" + str(kind) + "," + _esc(name) + "," + _esc(_text(message)) + "]"


_ALIVE = '{"t":"alive"}'


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
