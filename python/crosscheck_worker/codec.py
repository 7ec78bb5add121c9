"""Values: the tagged JSON of docs/protocol.md "Values" (mirrors src/values/codec-core.ts), each
call's own copy of its arguments, and the wire text of a result or an exception.

Every builtin used here is bound as a module global (global lookups find these first), so a
candidate that rebinds builtins.repr or builtins.RecursionError does not change how its results
are encoded or how the harness catches errors."""

import builtins
import json
import math
import sys
from _pickle import dumps as _pdumps
from itertools import chain
from builtins import (
    AttributeError, BaseException, Exception, KeyError, MemoryError, OverflowError, RecursionError,
    TypeError, ValueError, all, bool, bytearray, bytes, complex, dict, float, frozenset, getattr, id,
    int, isinstance, issubclass, len, list, map, max, memoryview, min, range, repr, set, sorted, str,
    tuple, type, vars, zip,
)

from .protocol import WIRE_ERROR, WIRE_INVALID, _error_wire, _esc, _text

MAX_SAFE = 2**53
# Python 3.11 refuses to convert ints of more than 4,300 digits to or from text, which made a
# big-int result crash the worker. Lift the limit: the size of a result is bounded by the output
# limit instead (an int's digit count is checked before it is converted, see _value_wire).
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


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
            if only is tuple or only is list:
                rows = _int_rows(v, only)
                if rows is not None:
                    # At most _SMALL items, so written before it is charged; the list charged a
                    # character and a comma a row already.
                    _charge(len(rows) - 2 * len(v))
                    return rows
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


# Types pickle writes with opcodes of their own: loading them looks up no global, so it runs no
# code but the unpickler's and raises no audit event (complex and datetime take a global).
_PACKABLE_ATOMS = frozenset((int, float, str, bool, type(None), bytes))


def _packable(v):
    """True when v is atoms in builtin containers only, so a pickle of it loads with no lookup."""
    t = type(v)
    if t in _PACKABLE_ATOMS:
        return True
    if t is list or t is tuple or t is set or t is frozenset:
        return _all_packable(v)
    if t is dict:
        return _all_packable(v) and _all_packable(v.values())
    return False


def _all_packable(items):
    # Item types are checked in C first: most inputs are flat containers of atoms, and a call
    # per item was most of the cost of packing them.
    return set(map(type, items)) <= _PACKABLE_ATOMS or all(map(_packable, items))


def _pickled(args):
    """The arguments of one input pickled, when _packable accepts them (else None): the zygote
    packs these into one blob, and a child unpickles each call's own copy from it.

    A forked child that reads the zygote's decoded inputs copies every page it touches (a
    reference count is a write), which cost 35 ms of CPU for 10,000 short lists in a VM where a
    page fault is dear. A child that unpickles each call's arguments only reads the zygote's
    memory, gets its own fresh copy (no plan needed for mutable arguments), and reuses the memory
    of the last call's: 0.85 us a call against 4 us for the copy."""
    try:
        if type(args) is list and _packable(args):
            return _pdumps(args, 5)
    except (RecursionError, MemoryError):
        # Too deep or too large to pack: the input keeps the zygote's own copy.
        pass
    return None


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
                elif only is tuple or only is list:
                    s = _int_rows(r, only)
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
_INT_ONLY = frozenset((int,))
_flatten = chain.from_iterable
# Format strings of _int_rows, by (row type, row length, rows); a candidate meets a few shapes.
_ROW_FORMATS = {}


def _int_rows(rows, row_type):
    """Text of a list of rows that are all tuples or all lists of one length, holding small ints
    only (the sorted items of a dict, a list of pairs, a matrix), or None for any other list.

    The general encoder makes a call per row and per item: 4.1 us for seven pairs, more than
    twice what bench:python's candidate takes to compute them. Here the checks run in C and one
    format string writes the whole text: 2.5 us for the whole of _value_wire. Exact types only:
    `%d` would write a bool as 1 and call an int subclass's `__index__`."""
    lengths = set(map(len, rows))
    if len(lengths) != 1:
        return None
    width = lengths.pop()
    if width == 0 or width * len(rows) > _SMALL:
        return None
    items = tuple(_flatten(rows))
    if set(map(type, items)) != _INT_ONLY or not (-MAX_SAFE <= min(items) and max(items) <= MAX_SAFE):
        return None
    key = (row_type, width, len(rows))
    fmt = _ROW_FORMATS.get(key)
    if fmt is None:
        row = ",".join(["%d"] * width)
        row = '{"$tuple":[' + row + "]}" if row_type is tuple else "[" + row + "]"
        fmt = "[" + ",".join([row] * len(rows)) + "]"
        if len(_ROW_FORMATS) >= 64:
            _ROW_FORMATS.clear()
        _ROW_FORMATS[key] = fmt
    return fmt % items

def _too_large(max_chars):
    return _error_wire(
        WIRE_ERROR, "OutputTooLarge",
        "the value is larger than the %d-byte output limit (raise maxOutputBytes to allow it)" % max_chars,
    )


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
