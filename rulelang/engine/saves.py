"""Saved states and replays: their formats, their JSON Schema, and the one
boundary every save passes before it becomes a ``State``.

Two forms (``docs/saves.md``):

- the **full state** (``State.to_json()``, ``Game.restore(text)``): every
  value, pile, frame and the generator, for a server to keep.  With a key
  (``to_json(key=...)``) it carries an HMAC-SHA256 of its canonical form and
  ``restore(text, key=...)`` refuses it when the MAC is missing or wrong.
- the **replay** (``State.to_replay()``, ``Game.replay(text)``): the game's
  setup (players, seed, chance mode, options) and the labels of every move;
  restored by playing the moves again, so it can only give legal play.

A save is untrusted: ``restore`` reads it with bounds (bytes, values,
nesting, numbers), checks it against the declared shape (``STATE``, published
as ``schema/state.schema.json``, and ``REPLAY``; ``write_schemas`` writes
them) and then against the game (``Spec``: lengths, every value of its kind,
cards neither made nor lost, program counters where the code waits or
calls), and finally probes the state it built.  Anything wrong raises
``SaveError`` with the JSON path of the fault and the reason.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import pathlib
import re
import weakref
from collections import Counter
from typing import Any, Dict

from .. import documents, ir
from ..check import ANY, BOOL, CARD, CARDS, NUM, PLAYER, POOL, TEXT, Checker
from ..documents import Odd
from ..errors import IllegalMoveError, RulesetError, RulesetRuntimeError, SaveError
from . import ops as O
from .program import compile_ruleset
from .ops import LOCALS, PC, PLAYER as PLAYER_SLOT, WAIT_CHANCE, WAIT_DECISION, WAIT_NONE, RuleFault

FORMAT = "rulelang-state/2"
REPLAY_FORMAT = "rulelang-replay/1"
M64 = (1 << 64) - 1

#: The endings the engine itself gives (besides a ruleset's own).
ENGINE_ENDINGS = ("no more turns", "setup complete")

_ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SCHEMA_PATHS = {"state": _ROOT / "schema" / "state.schema.json",
                "replay": _ROOT / "schema" / "replay.schema.json"}


# ------------------------------------------------------------------ paths


def json_path(parts) -> str:
    """``$.piles[3][7]`` for the parts ("piles", 3, 7)."""
    out = ["$"]
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out.append(f".{p}")
        else:
            out.append(f"[{json.dumps(p)}]")
    return "".join(out)


def _err(parts, reason) -> SaveError:
    return SaveError(json_path(parts), reason)


def _what(x) -> str:
    """How a JSON value is named in a reason."""
    if isinstance(x, Odd):
        return x.what
    if x is None:
        return "null"
    if x is True or x is False:
        return f"{'true' if x else 'false'} (yes/no)"
    if isinstance(x, int):
        return f"the number {x}"
    if isinstance(x, str):
        shown = x if len(x) <= 40 else x[:37] + "..."
        return f"the string {json.dumps(shown)}"
    if isinstance(x, list):
        return f"a list of {len(x)}"
    if isinstance(x, dict):
        return "an object"
    return type(x).__name__


# ------------------------------------------------------------------ shapes
# The save formats, declared once: each shape gives its JSON Schema and
# checks a parsed value (exact JSON types: no true for 1, no 1.0 or "1").


class Shape:
    what = "a value"

    def schema(self) -> Dict[str, Any]:
        raise NotImplementedError

    def check(self, x, parts, cx) -> None:
        raise NotImplementedError

    def fits(self, x) -> bool:
        """Whether ``x`` is of this shape's JSON type (to pick the
        alternative of an ``AnyOf`` whose error to report)."""
        return True

    def refuse(self, x, parts, detail=None):
        raise _err(parts, detail or f"expected {self.what}, not {_what(x)}")

    def ok(self, x, cx) -> bool:
        """Whether ``check`` passes (without paths or messages: the quick
        way through a document that is right)."""
        raise NotImplementedError

    def all_ok(self, items, start, cx) -> bool:
        ok = self.ok
        for i in range(start, len(items)):
            if not ok(items[i], cx):
                return False
        return True

    def check_all(self, items, start, parts, cx):
        """``check`` each of ``items[start:]`` (item ``i`` at ``parts + (i,)``)."""
        if self.all_ok(items, start, cx):
            return
        ok, check = self.ok, self.check
        for i in range(start, len(items)):
            if not ok(items[i], cx):
                check(items[i], parts + (i,), cx)


class Int(Shape):
    """A whole number; no save holds one beyond 64 bits (a seed)."""

    def __init__(self, lo=None, hi=None, what=None):
        self.lo = -M64 if lo is None else lo
        self.hi = M64 if hi is None else hi
        if what is None:
            if hi is not None:
                what = f"a whole number from {self.lo} to {hi}"
            elif lo is not None:
                what = f"a whole number of at least {lo}"
            else:
                what = "a whole number"
        self.what = what

    def schema(self):
        s = {"type": "integer"}
        if self.lo is not None:
            s["minimum"] = self.lo
        if self.hi is not None:
            s["maximum"] = self.hi
        return s

    def fits(self, x):
        return type(x) is int or isinstance(x, Odd)

    def check(self, x, parts, cx):
        if type(x) is not int:
            self.refuse(x, parts)
        if (self.lo is not None and x < self.lo) or (self.hi is not None and x > self.hi):
            self.refuse(x, parts)

    def ok(self, x, cx):
        return type(x) is int and (self.lo is None or x >= self.lo) and \
            (self.hi is None or x <= self.hi)

    def all_ok(self, items, start, cx):
        rest = items[start:] if start else items
        return not rest or (all(type(x) is int for x in rest) and
                            (self.lo is None or min(rest) >= self.lo) and
                            (self.hi is None or max(rest) <= self.hi))


class Str(Shape):
    def __init__(self, pattern=None, what="a string"):
        self.pattern = pattern
        self.what = what

    def schema(self):
        s = {"type": "string"}
        if self.pattern:
            s["pattern"] = f"^{self.pattern}$"
        return s

    def fits(self, x):
        return isinstance(x, str)

    def ok(self, x, cx):
        return type(x) is str and len(x) <= cx.max_text and \
            (not self.pattern or re.fullmatch(self.pattern, x) is not None)

    def all_ok(self, items, start, cx):
        rest = items[start:] if start else items
        if self.pattern:
            return super().all_ok(items, start, cx)
        return all(type(x) is str for x in rest) and (not rest or max(map(len, rest)) <= cx.max_text)

    def check(self, x, parts, cx):
        if not isinstance(x, str):
            self.refuse(x, parts)
        if len(x) > cx.max_text:
            raise _err(parts, f"a string of {len(x)} characters is longer than the limit of "
                              f"{cx.max_text} (Limits.max_text)")
        if self.pattern and not re.fullmatch(self.pattern, x):
            self.refuse(x, parts)


class _Exact(Shape):
    """A shape decided by ``fits`` alone (no limits, no message of its own)."""

    def ok(self, x, cx):
        return self.fits(x)

    def check(self, x, parts, cx):
        if not self.fits(x):
            self.refuse(x, parts)


class Bool(_Exact):
    what = "true or false"

    def schema(self):
        return {"type": "boolean"}

    def fits(self, x):
        return x is True or x is False


class Null(_Exact):
    what = "null"

    def schema(self):
        return {"type": "null"}

    def fits(self, x):
        return x is None


class Enum(Shape):
    def __init__(self, values, what=None):
        self.values = tuple(values)
        self.what = what or "one of " + ", ".join(json.dumps(v) for v in self.values)

    def schema(self):
        if len(self.values) == 1:
            return {"const": self.values[0]}
        return {"enum": list(self.values)}

    def fits(self, x):
        return any(type(x) is type(v) for v in self.values)

    def ok(self, x, cx):
        return any(type(x) is type(v) and x == v for v in self.values)

    def check(self, x, parts, cx):
        if not any(type(x) is type(v) and x == v for v in self.values):
            self.refuse(x, parts)


class Arr(Shape):
    def __init__(self, items, prefix=(), what=None):
        self.items, self.prefix = items, tuple(prefix)
        self.what = what or "a list"

    def schema(self):
        s = {"type": "array"}
        if self.prefix:
            s["prefixItems"] = [p.schema() for p in self.prefix]
            s["minItems"] = len(self.prefix)
        if self.items is not None:
            s["items"] = self.items.schema()
        elif self.prefix:
            s["items"] = False
        return s

    def fits(self, x):
        return isinstance(x, list)

    def ok(self, x, cx):
        if type(x) is not list or len(x) < len(self.prefix) or \
                (self.items is None and len(x) != len(self.prefix)):
            return False
        for i, shape in enumerate(self.prefix):
            if not shape.ok(x[i], cx):
                return False
        return self.items is None or self.items.all_ok(x, len(self.prefix), cx)

    def check(self, x, parts, cx):
        if not isinstance(x, list):
            self.refuse(x, parts)
        if len(x) < len(self.prefix) or (self.items is None and len(x) != len(self.prefix)):
            self.refuse(x, parts, f"expected {self.what}, not a list of {len(x)}")
        for i, shape in enumerate(self.prefix):
            shape.check(x[i], parts + (i,), cx)
        if self.items is not None:
            self.items.check_all(x, len(self.prefix), parts, cx)


class Obj(Shape):
    def __init__(self, fields, optional=(), what="an object", doc=None):
        self.fields = dict(fields)
        self.optional = frozenset(optional)
        self.what = what
        self.doc = doc

    def schema(self):
        s = {"type": "object"}
        if self.doc:
            s["description"] = self.doc
        s["properties"] = {k: v.schema() for k, v in self.fields.items()}
        s["required"] = [k for k in self.fields if k not in self.optional]
        s["additionalProperties"] = False
        return s

    def fits(self, x):
        return isinstance(x, dict)

    def ok(self, x, cx):
        if type(x) is not dict:
            return False
        fields = self.fields
        for key, value in x.items():
            shape = fields.get(key)
            if shape is None or not shape.ok(value, cx):
                return False
        if len(x) == len(fields):
            return True
        return len(x) - sum(1 for k in self.optional if k in x) == len(fields) - len(self.optional)

    def check(self, x, parts, cx):
        if not isinstance(x, dict):
            self.refuse(x, parts)
        for key in x:
            if key not in self.fields:
                raise _err(parts + (key,), f"unknown key {json.dumps(key)} in {self.what} "
                                           f"(its keys: {', '.join(self.fields)})")
        for key, shape in self.fields.items():
            if key in x:
                shape.check(x[key], parts + (key,), cx)
            elif key not in self.optional:
                raise _err(parts, f"{self.what} needs the key {json.dumps(key)}")


class Map(Shape):
    """An object whose keys are names and whose values have one shape."""

    def __init__(self, values, what="an object"):
        self.values, self.what = values, what

    def schema(self):
        return {"type": "object", "additionalProperties": self.values.schema()}

    def fits(self, x):
        return isinstance(x, dict)

    def ok(self, x, cx):
        return type(x) is dict and all(self.values.ok(v, cx) for v in x.values())

    def check(self, x, parts, cx):
        if not isinstance(x, dict):
            self.refuse(x, parts)
        for key, value in x.items():
            self.values.check(value, parts + (key,), cx)


class AnyOf(Shape):
    def __init__(self, *options, what=None):
        self.options = options
        self.what = what or " or ".join(o.what for o in options)

    def schema(self):
        return {"anyOf": [o.schema() for o in self.options]}

    def fits(self, x):
        return any(o.fits(x) for o in self.options)

    def ok(self, x, cx):
        for o in self.options:
            if o.fits(x):
                return o.ok(x, cx)
        return False

    def check(self, x, parts, cx):
        for o in self.options:
            if o.fits(x):
                o.check(x, parts, cx)
                return
        self.refuse(x, parts)


class Value(Shape):
    """A plain value of the machine (a stat, a local, a log entry's value):
    null, true/false, a whole number, a string, or a list of these."""

    what = "a plain value (null, true/false, a whole number, a string or a list of these)"

    def schema(self):
        return {"$ref": "#/$defs/value"}

    @staticmethod
    def definition():
        return {"description": "A plain value of the machine: a tuple is saved as a list.",
                "anyOf": [{"type": "null"}, {"type": "boolean"}, {"type": "integer"},
                          {"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/value"}}]}

    def check(self, x, parts, cx, depth=0):
        t = type(x)
        if t is int:
            if -M64 <= x <= M64:
                return
            raise _err(parts, f"{_what(x)} is larger than any value a game holds")
        if x is None or t is bool:
            return
        if t is str:
            if len(x) > cx.max_text:
                raise _err(parts, f"a string of {len(x)} characters is longer than the limit of "
                                  f"{cx.max_text} (Limits.max_text)")
            return
        if t is list:
            if depth >= cx.max_nesting:
                raise _err(parts, f"lists nested more than {cx.max_nesting} deep "
                                  f"(Limits.max_nesting)")
            for i, item in enumerate(x):
                self.check(item, parts + (i,), cx, depth + 1)
            return
        self.refuse(x, parts)

    def ok(self, x, cx, depth=0):
        t = type(x)
        if t is int:
            return -M64 <= x <= M64
        if x is None or t is bool:
            return True
        if t is str:
            return len(x) <= cx.max_text
        if t is list:
            if depth >= cx.max_nesting:
                return False
            ok = self.ok
            for item in x:
                if not ok(item, cx, depth + 1):
                    return False
            return True
        return False

    def all_ok(self, items, start, cx):
        ok = self.ok
        for i in range(start, len(items)):
            x = items[i]
            t = type(x)
            if t is int:
                if not -M64 <= x <= M64:
                    return False
            elif x is not None and t is not bool and not ok(x, cx):
                return False
        return True


HEX16 = Str(r"[0-9a-f]{16}", "a ruleset fingerprint (16 hex digits)")
MAC = Str(r"[0-9a-f]{64}", "an HMAC-SHA256 (64 hex digits)")
SEAT = Int(0, what="a seat (a whole number of at least 0)")
OPTIONS = AnyOf(Null(), Map(AnyOf(Str(), Null(), Arr(AnyOf(Str(), Null()))),
                            what="the options given at setup"))
VALUE = Value()

class _LogEntries(Obj):
    """A log entry; a long log is looked over in one tight loop (the same
    test as ``Obj.ok``, written out for these keys)."""

    def all_ok(self, items, start, cx):
        most, value_ok = cx.max_text, VALUE.ok
        for i in range(start, len(items)):
            e = items[i]
            if type(e) is not dict:
                return False
            size = len(e)
            if size == 8:       # an entry not everyone reads in full (LogEntry.seen_by)
                public, seen = e.get("public", 0), e.get("seen_by", 0)
                if public is not None and (type(public) is not str or len(public) > most):
                    return False
                if type(seen) is not list or \
                        any(type(x) is not int or not 0 <= x <= M64 for x in seen):
                    return False
                if "public_value" not in e:
                    return False
                pv = e["public_value"]
                if pv is not None and not value_ok(pv, cx):
                    return False
            elif size != 5:
                return False
            try:
                r, p, k, t, v = e["round"], e["player"], e["kind"], e["text"], e["value"]
            except KeyError:
                return False
            if type(r) is not int or not 0 <= r <= M64 or \
                    (p is not None and (type(p) is not int or not 0 <= p <= M64)) or \
                    type(k) is not str or type(t) is not str or len(k) > most or len(t) > most or \
                    (v is not None and not value_ok(v, cx)):
                return False
        return True


LOG_ENTRY = _LogEntries({
    "round": Int(0), "player": AnyOf(SEAT, Null()), "kind": Str(), "text": Str(),
    "value": VALUE, "public": AnyOf(Str(), Null()),
    "seen_by": Arr(SEAT, what="the seats that read the entry in full"),
    "public_value": VALUE,
}, optional=("public", "seen_by", "public_value"), what="a log entry")

FRAME = Arr(VALUE, prefix=(Int(0, what="a code number"), Int(0, what="a program counter"), SEAT),
            what="a frame: [code, pc, player, locals...]")

STATE = Obj({
    "format": Enum([FORMAT], what=f"the format {json.dumps(FORMAT)}"),
    "ruleset": HEX16,
    "players": Int(1),
    "chance": Enum(["sample", "explicit"]),
    "seed": Int(0, M64),
    "rng": Int(0, M64),
    "v": Arr(VALUE, what="the players' stats"),
    "g": Arr(VALUE, what="the global stats and the pieces' values"),
    "piles": Arr(Arr(Int(0, what="a card id")), what="the piles"),
    "stack": Arr(FRAME, what="the stack of frames"),
    "waiting": Enum([WAIT_NONE, WAIT_CHANCE, WAIT_DECISION]),
    "actor": AnyOf(SEAT, Null()),
    "rerolling": Bool(),
    "turn_player": AnyOf(SEAT, Null()),
    "round": Int(0),
    "order_pos": Int(-1),
    "skips": Arr(Str(), what="the phases skipped this turn"),
    "test": AnyOf(Null(), Arr(None, prefix=(Bool(), Int()), what="a test result [passed, margin]")),
    "over": AnyOf(Null(), Str()),
    "options": OPTIONS,
    "logging": Bool(),
    "history": Arr(Str(), what="the labels of the moves made"),
    "log": Arr(LOG_ENTRY, what="the log"),
    "mac": MAC,
}, optional=("mac",), what="a saved state",
    doc="A rulelang game state saved by State.to_json(); restored by Game.restore().")

REPLAY = Obj({
    "format": Enum([REPLAY_FORMAT], what=f"the format {json.dumps(REPLAY_FORMAT)}"),
    "ruleset": HEX16,
    "players": Int(1),
    "seed": Int(0, M64),
    "chance": Enum(["sample", "explicit"]),
    "options": OPTIONS,
    "logging": Bool(),
    "moves": Arr(Str(), what="the labels of the moves"),
    "mac": MAC,
}, optional=("seed", "logging", "mac"), what="a replay",
    doc="A rulelang game as its setup and its moves: State.to_replay(); played again by "
        "Game.replay().")

_DESCRIPTIONS = {
    "state": {
        "format": "The save format and its version.",
        "ruleset": "The fingerprint of the ruleset the state belongs to (Game.fingerprint).",
        "players": "The number of seats.",
        "chance": "'sample': dice and draws come from the generator; 'explicit': each is a chance node.",
        "seed": "The generator's seed.",
        "rng": "The generator's counter (how many numbers it has given).",
        "v": "Each player's stats, player after player (players × stats per player).",
        "g": "The global stats, then every piece's state values.",
        "piles": "The card ids in each pile: the shared piles (decks first), then each "
                 "per-player pile once per seat.",
        "stack": "The rule machine's frames, bottom first: [code, pc, player, locals...].",
        "waiting": "What the top frame waits for: 0 nothing (the game is over), 1 a chance "
                   "outcome, 2 a decision.",
        "actor": "The seat to decide (null at a chance node and at the end).",
        "rerolling": "Whether the decision is the reroll rule's keep-or-reroll.",
        "turn_player": "The seat whose turn it is (null during setup).",
        "round": "The round (0 during setup).",
        "order_pos": "The place in the turn order of the turn's player (-1 before the first turn).",
        "skips": "The phases skipped this turn.",
        "test": "The last test's [passed, margin], or null.",
        "over": "How the game ended, or null while it goes on.",
        "options": "The setup options given to new_game (a choice, or one per seat).",
        "logging": "Whether the game keeps a log.",
        "history": "The label of every move made since new_game (chance outcomes too, in "
                   "explicit mode): what State.to_replay() gives.",
        "log": "The log entries, oldest first.",
        "mac": "With a key: HMAC-SHA256 (hex) of the canonical JSON of every other key.",
    },
    "replay": {
        "format": "The replay format and its version.",
        "ruleset": "The fingerprint of the ruleset (Game.fingerprint).",
        "players": "The number of seats.",
        "seed": "The seed new_game gets (left out when the server keeps it: "
                "Game.replay(text, seed=...)).",
        "chance": "The chance mode ('sample' or 'explicit').",
        "options": "The setup options given to new_game.",
        "logging": "Whether the game keeps a log (true when left out).",
        "moves": "The label of every move, in order.",
        "mac": "With a key: HMAC-SHA256 (hex) of the canonical JSON of every other key.",
    },
}


def build_schema(which: str = "state") -> Dict[str, Any]:
    """The JSON Schema (2020-12) of a saved state ("state") or of a replay
    ("replay"), from the shapes the checks use (so the two cannot drift)."""
    shape = {"state": STATE, "replay": REPLAY}[which]
    root = shape.schema()
    for key, text in _DESCRIPTIONS[which].items():
        root["properties"][key] = {"description": text, **root["properties"][key]}
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://rulelang.dev/schema/{which}.schema.json",
        "title": {"state": "rulelang saved state", "replay": "rulelang replay"}[which],
    }
    out.update(root)
    if which == "state":
        out["$defs"] = {"value": Value.definition()}
    return out


def schema_text(which: str = "state") -> str:
    return json.dumps(build_schema(which), indent=2) + "\n"


# --------------------------------------------------------------- reading


class _Context:
    """What the shape checks need: the bounds."""

    def __init__(self, limits):
        self.max_text = limits.max_text
        self.max_nesting = limits.max_nesting


def read(text, limits, what="save") -> Any:
    """The JSON document in ``text`` (str or bytes), read within the limits:
    its size (``max_save_bytes``), its values (``max_nodes``) and nesting
    (``max_nesting``), and no fractions, NaN, huge numbers or duplicate keys."""
    most = limits.max_save_bytes
    if isinstance(text, str):
        if len(text) > most:
            raise SaveError("$", f"the {what} is longer than the limit of {most} bytes "
                                 f"(Limits.max_save_bytes)")
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise SaveError("$", f"the {what} is not valid Unicode text") from None
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise SaveError("$", f"a {what} is JSON text (a str or bytes), not {type(text).__name__}")
    if len(data) > most:
        raise SaveError("$", f"the {what} is {len(data)} bytes, more than the limit of {most} "
                             f"(Limits.max_save_bytes)")
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveError("$", f"the {what} is not UTF-8 text (at byte {e.start})") from None
    # (Long numbers are refused by Python's own bound on their digits,
    # fast; saves are big documents of numbers.)
    try:
        doc = documents.decode_json(source, places=False)
    except documents.DocumentError as e:
        where = f" at line {e.line}, column {e.column}" if e.message.startswith("not valid") else ""
        raise SaveError("$", f"the {what}: {e.message}{where}") from None
    if len(data) > 2 * limits.max_nodes:     # (a value takes two bytes at least)
        _measure(doc, limits, what)
    return doc


def _measure(doc, limits, what):
    """Refuse a document of more values than ``max_nodes`` or nested deeper
    than ``max_nesting`` (without recursion).  (The shapes hold the
    nesting of a document that passes to ``max_nesting`` as well.)"""
    most, deepest = limits.max_nodes, limits.max_nesting
    count = 0
    stack = [(doc, 0)]
    while stack:
        x, depth = stack.pop()
        count += 1
        if count > most:
            raise SaveError("$", f"the {what} holds more than {most} values (Limits.max_nodes)")
        if depth > deepest:
            raise SaveError(json_path(_path_to_depth(doc, deepest)),
                            f"nested more than {deepest} levels deep (Limits.max_nesting)")
        if isinstance(x, list):
            stack.extend((item, depth + 1) for item in x)
        elif isinstance(x, dict):
            stack.extend((item, depth + 1) for item in x.values())


def _path_to_depth(doc, depth):
    """The path of the first value nested ``depth + 1`` levels down."""
    stack = [(doc, ())]
    while stack:
        x, parts = stack.pop()
        if len(parts) > depth:
            return parts
        if isinstance(x, list):
            stack.extend((item, parts + (i,)) for i, item in enumerate(x))
        elif isinstance(x, dict):
            stack.extend((item, parts + (k,)) for k, item in x.items())
    return ()


# --------------------------------------------------------------- the MAC


def _key_bytes(key) -> bytes:
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)) or not key:
        raise TypeError("a save's key is a non-empty str or bytes")
    return bytes(key)


def canonical(doc) -> bytes:
    """The canonical form of a document (without its "mac"): sorted keys,
    no spaces, ASCII."""
    body = {k: v for k, v in doc.items() if k != "mac"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def mac_of(doc, key) -> str:
    """The HMAC-SHA256 (hex) of ``doc``'s canonical form under ``key``."""
    return hmac.new(_key_bytes(key), canonical(doc), hashlib.sha256).hexdigest()


def _verify(doc, key, what):
    if key is None:
        return
    k = _key_bytes(key)
    given = doc.get("mac")
    if given is None:
        raise SaveError("$", f"the {what} carries no MAC, and a key was given: it is not "
                             f"authenticated")
    want = hmac.new(k, canonical(doc), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode("ascii"), want.encode("ascii")):
        raise SaveError("$.mac", f"the MAC does not match: the {what} was changed, or made "
                                 f"with another key")


def _head(doc, shape, fmt, what, game):
    """The checks every document starts with: an object of the right
    format, of the declared shape, of this ruleset."""
    if not isinstance(doc, dict):
        raise SaveError("$", f"a {what} is a JSON object, not {_what(doc)}")
    got = doc.get("format")
    if got != fmt:
        if isinstance(got, str) and got.startswith(fmt.split("/")[0] + "/"):
            raise SaveError("$.format", f"this is a {got} {what}; this version of rulelang "
                                        f"reads {fmt}")
        raise SaveError("$.format", f"not a rulelang {what} (its format is {_what(got)}, "
                                    f"not {json.dumps(fmt)})")
    cx = _Context(game.limits)
    if not shape.ok(doc, cx):
        shape.check(doc, (), cx)


def _same_ruleset(doc, game, what):
    if doc["ruleset"] != game.fingerprint:
        raise SaveError("$.ruleset", f"the {what} belongs to another ruleset (fingerprint "
                                     f"{doc['ruleset']}; this game, {game.title!r}, is "
                                     f"{game.fingerprint})")


def _check_players(doc, game):
    n = doc["players"]
    if not game.min_players <= n <= game.max_players:
        raise SaveError("$.players", f"{game.title} is for {game.min_players} to "
                                     f"{game.max_players} players, not {n}")
    return n


def _check_options(doc, game, n):
    options = doc["options"]
    if options is None:
        return
    known = game.options
    for name, value in options.items():
        if name not in known:
            raise _err(("options", name), f"the game has no option {json.dumps(name)} "
                                          f"(its options: {', '.join(known) or 'none'})")
        values = value if isinstance(value, list) else [value]
        for i, v in enumerate(values):
            if v is not None and v not in known[name]:
                where = ("options", name, i) if isinstance(value, list) else ("options", name)
                raise _err(where, f"option {json.dumps(name)} has no choice {json.dumps(v)} "
                                  f"(its choices: {', '.join(known[name])})")


# ------------------------------------------------------------- the game


class _Typed(Checker):
    """The checker, noting the type of every value a rule assigns to a stat
    or a piece's value (so a restored value is held to what the rules can
    put there, not only to the stat's declared type)."""

    def __init__(self, rs, limits):
        super().__init__(rs, limits)
        self.assigned: Dict[tuple, set] = {}

    def s_Assign(self, s, scope):
        t = s.target
        if s.op == "=":
            place = None
            if isinstance(t, ir.Name):
                if t.name not in scope.locals and t.name in self.stats:
                    place = ("stat", t.name)
            else:
                kind = scope.locals.get(t.obj)
                if isinstance(kind, str) and kind.startswith("piece:"):
                    place = ("piece", kind[6:], t.name)
                elif t.obj in scope.locals:
                    place = ("stat", t.name)
            if place is not None:
                value = self.expr(s.value, scope)
                if isinstance(s.value, ir.Name) and s.value.name in self.enum_values \
                        and value == TEXT:
                    value = ("word", s.value.name)
                self.assigned.setdefault(place, set()).add(value)
        super().s_Assign(s, scope)


class Spec:
    """What a state of one game may hold, worked out once per game from
    its program: what each value, pile and frame of a save is checked
    against."""

    def __init__(self, game):
        prog = game.prog
        rs = prog.rs
        self.game = game
        self.prog = prog
        self.big = prog.limits.max_number
        self.max_dice = game.limits.max_dice
        typed = _Typed(rs, prog.limits)
        typed.run()
        self.typed = typed
        # Every word a rule can work out: the ruleset's words and what its
        # cards, pieces and track spaces print.
        words = set(prog.names.words)
        for spaces in prog.track_data.values():
            for printed in spaces.values():
                words.update(v for v in printed.values() if isinstance(v, str))
        for values in prog.card_props.values():
            words.update(v for v in values.values() if isinstance(v, str))
        for attrs_of in prog.piece_attr.values():
            for values in attrs_of.values():
                words.update(v for v in values if isinstance(v, str))
        words.update(v for v in prog.piece_init if isinstance(v, str))
        self.words = frozenset(words)
        self._predicates = {}
        self.ncards = len(prog.card_names)
        self.deck_cards = Counter(c for cards in prog.deck_contents.values() for c in cards)
        # Stats and pieces: (kinds, the value it starts at when that is also allowed, name).
        self.v_slots = [(self._stat_kinds(s), None, f"'{s.name}'") for s in prog.player_stats]
        self.g_slots = [(self._stat_kinds(s), None, f"the global '{s.name}'")
                        for s in prog.global_stats]
        k = 0
        for ps in rs.pieces:
            fields = [(self._field_kinds(ps, f), f) for f in ps.state]
            for piece in ps.pieces:
                for kinds, f in fields:
                    self.g_slots.append((kinds, (prog.piece_init[k],),
                                         f"{piece.name}'s '{f.name}' ({ps.name})"))
                    k += 1
        # Code: where each code waits and where it calls others.
        self.endings = {e.name for e in rs.endings}
        self.end_game = {op.ending for code in prog.codes for op in code
                         if isinstance(op, O.EndGameOp)}
        self.phases = {ph.name for ph in rs.turn.phases} if rs.turn is not None else set()
        self.calls = [self._calls(c, code) for c, code in enumerate(prog.codes)]
        self.v_tests = [self.predicate(kinds) for kinds, _, _ in self.v_slots]
        self.g_tests = [self.predicate(kinds) for kinds, _, _ in self.g_slots]

    # ------------------------------------------------------------ values

    def _kinds_of(self, t, values=None, lo=None, hi=None):
        """The kinds of value of checker type ``t``.  Each may also be none:
        a type names what a value is when it is there (a piece without a
        printed attribute, a card without a property, gives none)."""
        big = self.big
        if t == NUM:
            return [("int", -big if lo is None else max(lo, -big), big if hi is None else min(hi, big)),
                    ("none",)]
        if t == BOOL:
            return [("bool",), ("none",)]
        if t == PLAYER:
            return [("seat",), ("none",)]
        if t == TEXT:
            return [("word", frozenset(values) if values else None), ("none",)]
        if t == "none":
            return [("none",)]
        if t == CARD:
            return [("card",), ("none",)]
        if t == CARDS:
            return [("cards",), ("none",)]
        if t == POOL:
            return [("dice", None), ("none",)]
        if isinstance(t, str) and t.startswith("piece:"):
            return [("piece", t[6:]), ("none",)]
        if isinstance(t, tuple) and t[0] == "word":
            return [("word", frozenset([t[1]]))]
        return [("any",)]

    def _bounds(self, lo, hi):
        prog = self.prog
        return (None if lo is None else prog.const_value(lo),
                None if hi is None else prog.const_value(hi))

    def _merge(self, kinds, assigned, values, lo, hi):
        out = list(kinds)
        for t in assigned:
            if isinstance(t, tuple) and values and t[1] in values:
                continue        # one of its own words
            for k in self._kinds_of(t, None, lo, hi):
                if k not in out:
                    out.append(k)
        return tuple(out)

    def _stat_kinds(self, s):
        typed, prog = self.typed, self.prog
        t = typed.stat_types.get(s.name, ANY)
        lo, hi = prog.bounds[s.name]
        literal = isinstance(s.initial, (ir.Num, ir.Bool, ir.NoneLit)) or s.values
        kinds = self._kinds_of(t, s.values, lo, hi) if literal else self._kinds_of(t)
        return self._merge(kinds, typed.assigned.get(("stat", s.name), ()), s.values, lo, hi)

    def _field_kinds(self, ps, f):
        typed = self.typed
        t = typed.piece_fields.get(ps.name, {}).get(f.name, (ANY,))[0]
        lo, hi = self._bounds(f.min, f.max)
        if t == ANY and isinstance(f.initial, ir.NoneLit):
            kinds = [("none",)]
        else:
            kinds = self._kinds_of(t, f.values, lo, hi)
        return self._merge(kinds, typed.assigned.get(("piece", ps.name, f.name), ()), f.values,
                           lo, hi)

    def fits(self, kind, x, n, pc=None, top=None):
        """Whether JSON value ``x`` is of ``kind`` (a stat's or a local's;
        ``n`` players).  A loop's work is checked by ``work``."""
        k = kind[0]
        if k == "any" or k == "value":
            return self.plain(x)
        if x is None:
            return k in _NULLABLE
        if k == "int":
            return type(x) is int and kind[1] <= x <= kind[2]
        if k == "bool":
            return x is True or x is False
        if k == "none" or k == "probe":
            return False
        if k == "word":
            return isinstance(x, str) and (x in kind[1] if kind[1] is not None else x in self.words)
        if k == "seat":
            return type(x) is int and 0 <= x < n
        if k == "card":
            return type(x) is int and 0 <= x < self.ncards
        if k == "cards":
            return isinstance(x, list) and all(type(c) is int and 0 <= c < self.ncards for c in x)
        if k == "piece":
            return type(x) is int and 0 <= x < len(self.prog.piece_names[kind[1]])
        if k == "roll":
            return type(x) is int and kind[1] <= x <= kind[1] * kind[2]
        if k == "dice":
            if not isinstance(x, list):
                return False
            top_face = self.big if kind[1] is None else kind[1]
            low = -self.big if kind[1] is None else 1
            return all(type(f) is int and low <= f <= top_face for f in x)
        if k == "count":
            return type(x) is int and -self.big <= x <= self.big
        return False

    def predicate(self, kinds):
        """fn(x, n) -> whether JSON value ``x`` is of one of ``kinds``
        (``fits``), made once per set of kinds: the common ones written out."""
        found = self._predicates.get(kinds)
        if found is not None:
            return found
        fits = self.fits
        simple = [k for k in kinds if k != ("none",)]
        nullable = len(simple) < len(kinds)
        if len(simple) == 1 and simple[0][0] == "int":
            _, lo, hi = simple[0]
            if nullable:
                def ok(x, n):
                    return x is None or (type(x) is int and lo <= x <= hi)
            else:
                def ok(x, n):
                    return type(x) is int and lo <= x <= hi
        elif len(simple) == 1 and simple[0][0] == "bool" and nullable:
            def ok(x, n):
                return x is None or x is True or x is False
        elif len(kinds) == 1:
            kind = kinds[0]

            def ok(x, n):
                return fits(kind, x, n)
        else:
            def ok(x, n):
                for kind in kinds:
                    if fits(kind, x, n):
                        return True
                return False
        self._predicates[kinds] = ok
        return ok

    def plain(self, x):
        """A plain value a rule can work out: none, yes/no, a number within
        max_number, a word of this ruleset, or a list of numbers."""
        if x is None or x is True or x is False:
            return True
        if type(x) is int:
            return -self.big <= x <= self.big
        if isinstance(x, str):
            return x in self.words
        if isinstance(x, list):
            big = self.big
            return all(type(i) is int and -big <= i <= big for i in x)
        return False

    def describe(self, kinds, n) -> str:
        out = []
        for kind in kinds:
            k = kind[0]
            if k in ("any", "value"):
                out.append("a plain value (a number, yes/no, none, a word of the ruleset or a "
                           "list of numbers)")
            elif k == "int":
                out.append(f"a whole number from {kind[1]} to {kind[2]}")
            elif k == "bool":
                out.append("true or false")
            elif k in ("none", "probe"):
                out.append("null")
            elif k == "word":
                words = sorted(kind[1] if kind[1] is not None else self.words)
                shown = ", ".join(words[:8]) + (", …" if len(words) > 8 else "")
                out.append(f"a word ({shown})" if words else "a word")
            elif k == "seat":
                out.append(f"a seat (0 to {n - 1})")
            elif k == "card":
                out.append(f"a card id (0 to {self.ncards - 1})")
            elif k == "cards":
                out.append("a list of card ids")
            elif k == "piece":
                out.append(f"a piece of {kind[1]} (0 to {len(self.prog.piece_names[kind[1]]) - 1})")
            elif k == "roll":
                out.append(f"a roll of {kind[1]}d{kind[2]} ({kind[1]} to {kind[1] * kind[2]})")
            elif k == "dice":
                out.append("a list of dice" + (f" (1 to {kind[1]})" if kind[1] else ""))
            elif k == "count":
                out.append("a whole number")
        if any(k[0] in ("seat", "card", "cards", "piece", "roll", "dice", "count") for k in kinds) \
                and "null" not in out:
            out.append("null")
        return " or ".join(dict.fromkeys(out))

    # ------------------------------------------------------------- code

    def _calls(self, c, code):
        """pc of a waiting caller -> [(the codes it may be calling, how the
        callee's player relates, the op)]."""
        prog = self.prog
        out = {}

        def add(pc, codes, relation, op):
            out.setdefault(pc, []).append((frozenset(codes), relation, op))
        for k, op in enumerate(code):
            t = type(op)
            if t is O.CallOp:
                add(k + 1, [op.code], "same", op)
            elif t is O.TriggerAssign:
                add(k + 1, [code for _, code in op.triggers], "trigger", op)
            elif t is O.ChooseRowOp:
                add(k + 1, [op.table_code], "same", op)
            elif t is O.DrawOp and op.hooks:
                add(k, [code for _, code in op.hooks], "same", op)
            elif t is O.NextTurnOp:
                add(k, [prog.turn_code], "turn", op)
        return out


#: The ops that wait for each kind of thing (``RollOp`` also waits for the
#: reroll rule's decision).
CHANCE_OPS = (O.RollOp, O.RollOffOp, O.DrawOp, O.PoolOp, O.PickPieceOp)
DECISION_OPS = (O.ChooseCardsOp, O.ChooseOneOp, O.ChooseRowOp, O.MayOp, O.ChooseNumberOp,
                O.ChooseOneOfOp)
#: The kinds of value that may also be none (a local not yet set).
_NULLABLE = frozenset(("none", "probe", "seat", "card", "cards", "piece", "roll", "dice", "count"))
_WORK = ("each-player", "each-card", "each-piece", "repeat", "pool-work", "roll-off")


def spec_of(game) -> Spec:
    spec = game.__dict__.get("_save_spec")
    if spec is None:
        spec = game.__dict__["_save_spec"] = Spec(game)
    return spec


def _check_values(spec, doc, n):
    prog = spec.prog
    K = prog.K
    v, g = doc["v"], doc["g"]
    if len(v) != n * K:
        raise SaveError("$.v", f"{n} players with {K} stats each make {n * K} values, not {len(v)}")
    if len(g) != len(spec.g_slots):
        raise SaveError("$.g", f"the game has {len(prog.global_stats)} global stats and "
                               f"{len(spec.g_slots) - len(prog.global_stats)} piece values, "
                               f"{len(spec.g_slots)} in all, not {len(g)}")
    tests = spec.v_tests
    for i, x in enumerate(v):
        if not tests[i % K](x, n):
            kinds, _, name = spec.v_slots[i % K]
            raise _err(("v", i), f"P{i // K}'s {name} holds {spec.describe(kinds, n)}, "
                                 f"not {_what(x)}")
    tests = spec.g_tests
    for i, x in enumerate(g):
        if not tests[i](x, n):
            kinds, start, name = spec.g_slots[i]
            if start is not None and type(x) is type(start[0]) and x == start[0]:
                continue
            raise _err(("g", i), f"{name} holds {spec.describe(kinds, n)}, not {_what(x)}")


def _check_piles(spec, doc, n):
    prog = spec.prog
    piles = doc["piles"]
    nshared, nper = len(prog.shared_piles), len(prog.player_piles)
    want = nshared + nper * n
    if len(piles) != want:
        raise SaveError("$.piles", f"the game has {nshared} shared piles and {nper} per player: "
                                   f"{want} with {n} players, not {len(piles)}")
    have = Counter()
    for pile in piles:
        have.update(pile)
    if have == spec.deck_cards:
        return
    names = prog.card_names
    have = Counter()
    for i, pile in enumerate(piles):
        for j, c in enumerate(pile):
            if c >= spec.ncards:
                raise _err(("piles", i, j), f"card id {c} does not exist (the decks hold ids "
                                            f"0 to {spec.ncards - 1})")
            have[c] += 1
            if have[c] > spec.deck_cards[c]:
                raise _err(("piles", i, j), f"one {names[c]!r} too many: the decks hold "
                                            f"{spec.deck_cards[c]}, and cards are never made")
    for c, count in spec.deck_cards.items():
        if have[c] != count:
            raise SaveError("$.piles", f"{count - have[c]} {names[c]!r} missing: the decks hold "
                                       f"{count}, the piles {have[c]}, and cards are never lost")


def _work(spec, code, kind, x, fr_pc, top_wait, n):
    """Why the value ``x`` of a loop's or op's work local is wrong (None if
    it is right).  ``top_wait``: whether the frame is the top one, waiting
    for chance."""
    ops = spec.prog.codes[code]
    head = kind[1]
    op = ops[head]
    k = kind[0]
    if k in ("pool-work", "roll-off"):
        active = top_wait and fr_pc == head
        where = "while its op waits for a roll"
    else:
        active = head < fr_pc < op.end
        where = f"inside its loop (pc {head + 1} to {op.end - 1})"
    if not active:
        return None if x is None else f"a loop's or roll's work is null outside it, not {_what(x)}"
    if x is None:
        return f"the work of the loop or roll at pc {head} is set {where}, not null"
    if k == "each-player":
        ok = isinstance(x, list) and len(x) == 2 and type(x[0]) is int and 1 <= x[0] <= n \
            and type(x[1]) is int and 0 <= x[1] < n
        return None if ok else f"a 'for each player' loop's work is [seats looked at (1 to {n}), " \
                               f"first seat], not {_what(x)}"
    if k == "each-card":
        ok = isinstance(x, list) and len(x) == 2 and spec.fits(("cards",), x[0], n) \
            and x[0] is not None and type(x[1]) is int and 1 <= x[1] <= len(x[0])
        return None if ok else f"a 'for each card' loop's work is [card ids, cards looked at], " \
                               f"not {_what(x)}"
    if k == "each-piece":
        ok = type(x) is int and 1 <= x <= op.n
        return None if ok else f"a 'for each' loop over pieces has looked at 1 to {op.n}, not {_what(x)}"
    if k == "repeat":
        ok = type(x) is int and 0 <= x <= spec.big
        return None if ok else f"a 'repeat' has a whole number of passes left, not {_what(x)}"
    if k == "pool-work":
        sides = kind[2]
        ok = isinstance(x, list) and len(x) == 2 and isinstance(x[0], list) \
            and all(type(f) is int and 1 <= f <= sides for f in x[0]) \
            and type(x[1]) is int and 1 <= x[1] and len(x[0]) + x[1] <= spec.max_dice
        return None if ok else f"a pool being rolled is [faces so far (1 to {sides}), dice left " \
                               f"(at least 1)], at most {spec.max_dice} dice, not {_what(x)}"
    if k == "roll-off":
        sides = kind[2]
        ok = isinstance(x, list) and len(x) == 2 and isinstance(x[0], list) and isinstance(x[1], list) \
            and len(x[0]) >= 2 and all(type(s) is int and 0 <= s < n for s in x[0]) \
            and all(a < b for a, b in zip(x[0], x[0][1:])) \
            and all(type(r) is int and 1 <= r <= sides for r in x[1]) and len(x[1]) < len(x[0])
        return None if ok else f"a roll-off is [contenders (two or more seats, in order), their " \
                               f"rolls so far (1 to {sides})], not {_what(x)}"
    return f"unknown work {k}"


def _check_frame(spec, doc, i, fr, n, top_wait):
    prog = spec.prog
    code, pc = fr[0], fr[1]
    parts = ("stack", i)
    if code >= len(prog.codes):
        raise _err(parts + (0,), f"code {code} does not exist (the game has codes 0 to "
                                 f"{len(prog.codes) - 1})")
    name = prog.code_names[code]
    if pc > len(prog.codes[code]):
        raise _err(parts + (1,), f"{name} has {len(prog.codes[code])} ops; pc {pc} is past its end")
    if fr[2] >= n:
        raise _err(parts + (2,), f"the frame's player is a seat (0 to {n - 1}), not {fr[2]}")
    want = LOCALS + prog.nlocals[code]
    if len(fr) != want:
        raise _err(parts, f"a frame of {name} has {want} items ([code, pc, player] and "
                          f"{want - LOCALS} locals), not {len(fr)}")
    kinds_of = prog.local_kinds[code]
    for s in range(LOCALS, want):
        x = fr[s]
        kinds = kinds_of[s - LOCALS] if s - LOCALS < len(kinds_of) else (("value",),)
        work = [k for k in kinds if k[0] in _WORK]
        if work:
            reasons = [_work(spec, code, k, x, pc, top_wait, n) for k in work]
            if any(r is None for r in reasons):
                continue
            plain = [k for k in kinds if k[0] not in _WORK]
            if plain and any(spec.fits(k, x, n) for k in plain):
                continue
            raise _err(parts + (s,), reasons[0])
        if not spec.predicate(kinds)(x, n):
            raise _err(parts + (s,), f"local {s - LOCALS} of {name} holds "
                                     f"{spec.describe(kinds, n)}, not {_what(x)}")


def _player_loops(spec, fr, n):
    """(the frame's player before its 'for each player' loops changed it,
    or the reason it is wrong)."""
    ops = spec.prog.codes[fr[0]]
    active = []
    for kinds in spec.prog.local_kinds[fr[0]]:
        for k in kinds:
            if k[0] == "each-player":
                op = ops[k[1]]
                if op.var is None and fr[op.work] is not None:
                    active.append((k[1], op))
    if not active:
        return fr[PLAYER_SLOT], None
    active.sort(key=lambda a: a[0])
    _, inner = active[-1]
    i, first = fr[inner.work]
    if fr[PLAYER_SLOT] != (first + i - 1) % n:
        return None, (f"inside a 'for each player' loop the frame's player is the seat the "
                      f"loop is at ({(first + i - 1) % n}), not {fr[PLAYER_SLOT]}")
    base = fr[active[0][1].saved]
    if type(base) is not int:
        return None, "a 'for each player' loop has no player saved"
    return base, None


def _check_stack(spec, doc, n):
    """The frames, bottom to top: the main code at the bottom, each lower
    frame at a place where its code calls the code of the frame above, the
    top one where its code waits for what the state waits for."""
    prog = spec.prog
    stack, waiting, over = doc["stack"], doc["waiting"], doc["over"]
    explicit = doc["chance"] == "explicit"
    if over is not None:
        if over not in spec.endings and over not in spec.end_game and over not in ENGINE_ENDINGS:
            raise SaveError("$.over", f"{json.dumps(over)} is not an ending this ruleset can "
                                      f"give (its endings: "
                                      f"{', '.join(sorted(spec.endings | spec.end_game | set(ENGINE_ENDINGS)))})")
        if stack:
            raise SaveError("$.stack", "a game that is over has no frames left")
        if waiting != WAIT_NONE:
            raise SaveError("$.waiting", "a game that is over waits for nothing (0)")
        if doc["actor"] is not None:
            raise SaveError("$.actor", "a game that is over has no player to move")
        if doc["rerolling"]:
            raise SaveError("$.rerolling", "a game that is over offers no reroll")
        return
    if not stack:
        raise SaveError("$.stack", "a game that is not over has at least one frame")
    if waiting == WAIT_NONE:
        raise SaveError("$.waiting", "a game that is not over waits for a decision (2) or a "
                                     "chance outcome (1)")
    for i, fr in enumerate(stack):
        _check_frame(spec, doc, i, fr, n, i == len(stack) - 1 and waiting == WAIT_CHANCE)
    if stack[0][0] != prog.main_code:
        raise SaveError("$.stack[0][0]", f"the bottom frame runs {prog.code_names[prog.main_code]} "
                                         f"(code {prog.main_code}), not code {stack[0][0]}")
    if stack[0][2] != 0:
        raise SaveError("$.stack[0][2]", "the bottom frame's player is 0")
    bases = []
    for fr in stack:
        base, why = _player_loops(spec, fr, n)
        if why is not None:
            raise _err(("stack", len(bases), 2), why)
        bases.append(base)
    i = 0
    top = len(stack) - 1
    while i < top:
        lower, upper = stack[i], stack[i + 1]
        name = prog.code_names[lower[0]]
        sites = spec.calls[lower[0]].get(lower[1])
        if not sites:
            raise _err(("stack", i, 1), f"{name} calls no other code at pc {lower[1]}, so no "
                                        f"frame can be above it there")
        found = [s for s in sites if upper[0] in s[0]]
        if not found:
            callees = sorted({prog.code_names[c] for s in sites for c in s[0]})
            raise _err(("stack", i + 1, 0), f"at pc {lower[1]} {name} calls {', '.join(callees)}, "
                                            f"not {prog.code_names[upper[0]]}")
        _, relation, op = found[0]
        if relation == "same" and bases[i + 1] != lower[2]:
            raise _err(("stack", i + 1, 2), f"a code called by {name} runs for the caller's "
                                            f"player ({lower[2]}), not {bases[i + 1]}")
        if relation == "turn" and bases[i + 1] != doc["turn_player"]:
            raise _err(("stack", i + 1, 2), f"the turn runs for the turn's player "
                                            f"({doc['turn_player']}), not {bases[i + 1]}")
        if relation == "trigger":
            order = [code for _, code in op.triggers]
            try:
                who = op.player(None, lower)
            except Exception:
                who = None
            j = i + 1
            while True:
                fr = stack[j]
                if who is not None and bases[j] != who:
                    raise _err(("stack", j, 2), f"the reaction runs for the player whose value "
                                                f"changed ({who}), not {bases[j]}")
                if j == top or fr[1] != 0:
                    break
                # A reaction not yet started, below one started after it.
                nxt = stack[j + 1]
                if any(x is not None for x in fr[LOCALS:]):
                    raise _err(("stack", j), "a reaction that has not started has no values yet")
                if nxt[0] not in order or order.index(nxt[0]) <= order.index(fr[0]):
                    raise _err(("stack", j + 1, 0), f"{prog.code_names[fr[0]]} has not started, so "
                                                    f"the frame above it is a reaction set off after "
                                                    f"it, not {prog.code_names[nxt[0]]}")
                j += 1
            i = j
            continue
        i += 1
    # Setup or a turn: what the frame above the main code runs.
    if len(stack) > 1:
        if stack[1][0] == prog.setup_code:
            if doc["turn_player"] is not None or doc["round"] != 0 or doc["order_pos"] != -1:
                raise SaveError("$.turn_player", "during setup there is no turn: turn_player is "
                                                 "null, round 0, order_pos -1")
        elif doc["turn_player"] is None or doc["round"] < 1 or not 0 <= doc["order_pos"] < n:
            raise SaveError("$.turn_player", f"during a turn turn_player is a seat, round at least "
                                             f"1 and order_pos 0 to {n - 1}")
    # The top frame: where it waits, and for what.
    fr = stack[top]
    code, pc = fr[0], fr[1]
    ops = prog.codes[code]
    op = ops[pc] if pc < len(ops) else None
    name = prog.code_names[code]
    where = ("stack", top, 1)
    if doc["rerolling"]:
        if prog.reroll is None or waiting != WAIT_DECISION:
            raise SaveError("$.rerolling", "a reroll is offered only as a decision, in a ruleset "
                                           "with a reroll rule")
        if type(op) is not O.RollOp:
            raise _err(where, f"a reroll is offered at a roll; {name} rolls nothing at pc {pc}")
        if doc["turn_player"] is None or doc["actor"] != doc["turn_player"]:
            raise SaveError("$.actor", "a reroll is offered to the turn's player")
        if fr[op.slot] is None:
            raise _err(("stack", top, op.slot), "a reroll is offered for a roll made")
        return
    if waiting == WAIT_CHANCE:
        if not explicit:
            raise SaveError("$.waiting", "in sample mode the generator settles every chance "
                                         "node: a state waits for a decision")
        if not isinstance(op, CHANCE_OPS):
            raise _err(where, f"{name} does not wait for a chance outcome at pc {pc}")
        if doc["actor"] is not None:
            raise SaveError("$.actor", "at a chance node no player is to move (null)")
        if type(op) is O.DrawOp:
            left = fr[op.count]
            if type(left) is not int or left < 1:
                raise _err(("stack", top, op.count), f"a draw waits only while cards are left to "
                                                     f"draw, not with {_what(left)}")
    else:
        if not isinstance(op, DECISION_OPS):
            raise _err(where, f"{name} does not wait for a decision at pc {pc}")
        if doc["actor"] != fr[PLAYER_SLOT]:
            raise SaveError("$.actor", f"the player to decide is the player of the top frame "
                                       f"({fr[PLAYER_SLOT]}), not {_what(doc['actor'])}")


def _check_rest(spec, doc, n):
    for i, name in enumerate(doc["skips"]):
        if name not in spec.phases:
            raise _err(("skips", i), f"{json.dumps(name)} is not a phase of the turn "
                                     f"({', '.join(sorted(spec.phases)) or 'none'})")
    test = doc["test"]
    if test is not None and not -spec.big <= test[1] <= spec.big:
        raise SaveError("$.test[1]", f"a test's margin is within {spec.big}")
    if doc["turn_player"] is not None and doc["turn_player"] >= n:
        raise SaveError("$.turn_player", f"the turn's player is a seat (0 to {n - 1})")
    if doc["actor"] is not None and doc["actor"] >= n:
        raise SaveError("$.actor", f"the player to move is a seat (0 to {n - 1})")
    if doc["order_pos"] >= n:
        raise SaveError("$.order_pos", f"the place in the turn order is -1 to {n - 1}")
    if doc["round"] > spec.big:
        raise SaveError("$.round", f"the round is at most {spec.big}")
    log, limits = doc["log"], spec.game.limits
    if len(log) > limits.max_log_entries:
        raise SaveError("$.log", f"more than {limits.max_log_entries} log entries "
                                 f"(Limits.max_log_entries)")
    if not doc["logging"] and log:
        raise SaveError("$.log", "a game that keeps no log has no log entries")
    for i, e in enumerate(log):
        if e["player"] is not None and e["player"] >= n:
            raise _err(("log", i, "player"), f"a log entry's player is a seat (0 to {n - 1})")
        seen = e.get("seen_by")
        if seen is not None:
            if any(x >= n for x in seen) or len(set(seen)) != len(seen):
                raise _err(("log", i, "seen_by"), f"the seats that read an entry are different "
                                                  f"seats from 0 to {n - 1}")
            if "public" not in e or "public_value" not in e:
                raise _err(("log", i), "an entry not everyone reads gives its public text and "
                                       "value")
    if len(doc["history"]) > limits.max_history:
        raise SaveError("$.history", f"more than {limits.max_history} moves (Limits.max_history)")


def _ending_holds(spec, st):
    """A game ended by one of its declared endings ended when that ending's
    condition was the first to hold, and nothing changed after: so it
    holds now, and no ending before it does (``State.check_endings``)."""
    over = st.over
    if over is None or over in spec.end_game or \
            (over not in spec.endings and over != "setup complete"):
        return
    probe = [None, 0, st.turn_player or 0]
    first = None
    try:
        for name, cond in spec.prog.endings:
            if cond(st, probe):
                first = name
                break
    except Exception as e:
        raise SaveError("$", f"the end conditions cannot be worked out for this state "
                             f"({type(e).__name__}: {e})") from None
    if over not in spec.endings:       # "setup complete": no ending held
        if first is not None:
            raise SaveError("$.over", f"the game would have ended {json.dumps(first)}, not "
                                      f"\"setup complete\"")
        return
    if first != over:
        raise SaveError("$.over", f"the game cannot have ended {json.dumps(over)}: "
                                  + ("its condition does not hold" if first is None else
                                     f"the condition of {json.dumps(first)} holds first"))


def _probe(st):
    """The state plays: its legal moves, every seat's view, the result."""
    def fails(what, e):
        cause = e.__cause__ if isinstance(e, RulesetRuntimeError) else e
        if isinstance(e, RulesetRuntimeError) and (cause is None or isinstance(cause, RuleFault)):
            return      # a limit of the rules, as the state it was saved from would hit
        raise SaveError("$", f"the state cannot be played: {what} fails "
                             f"({type(cause).__name__}: {cause})") from None
    try:
        moves = st.legal_moves()
    except Exception as e:
        fails("legal_moves()", e)
        moves = None
    if moves is not None and not st.is_over and not moves:
        raise SaveError("$", "the state cannot be played: it is not over and has no legal move")
    for seat in list(range(st.n)) + [None]:
        try:
            st.view(seat)
        except Exception as e:
            fails(f"view({seat})", e)
    try:
        st.result()
    except Exception as e:
        fails("result()", e)
    st._moves = None


def _bounded(fn):
    """``fn``, with a ``RecursionError`` (a document nested deeper than the
    interpreter can follow, under limits an embedder raised) as a refusal."""
    def run(*args, **kw):
        try:
            return fn(*args, **kw)
        except RecursionError:
            raise SaveError("$", "the document is nested too deeply to check") from None
    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


@_bounded
def restore(game, text, key=None):
    """``Game.restore``: the state in ``text``, checked (see the module)."""
    doc = read(text, game.limits, "save")
    _head(doc, STATE, FORMAT, "saved state", game)
    _verify(doc, key, "save")
    _same_ruleset(doc, game, "save")
    n = _check_players(doc, game)
    _check_options(doc, game, n)
    spec = spec_of(game)
    _check_values(spec, doc, n)
    _check_piles(spec, doc, n)
    _check_rest(spec, doc, n)
    _check_stack(spec, doc, n)
    st = state_from_plain(game, doc)
    _ending_holds(spec, st)
    if st.over is None and st.waiting == WAIT_CHANCE:
        fr = st.stack[-1]
        op = spec.prog.codes[fr[0]][fr[PC]]
        if type(op) is O.DrawOp:
            try:
                src = st.piles[op.src(st, fr)]
            except Exception as e:
                raise _err(("stack", len(st.stack) - 1), f"the pile a draw waits on cannot be "
                                                         f"found ({type(e).__name__}: {e})") from None
            if not src:
                raise _err(("stack", len(st.stack) - 1, 1), "a draw waits for a card from an "
                                                            "empty deck (an empty deck is "
                                                            "refilled first)")
    _probe(st)
    return st


# ----------------------------------------------------------- the state


def _tuplify(x):
    if isinstance(x, list):
        return tuple(_tuplify(i) for i in x)
    return x


def _linked(items):
    tail = None
    for item in items:
        tail = (item, tail)
    return tail


def state_from_plain(game, d, limits=None):
    """The ``State`` a plain save ``d`` describes, as it is (no checks: for
    a document ``restore`` has checked, and for pickles)."""
    LogEntry = game.log_entry_class
    st = game.state_class.__new__(game.state_class)
    st.game = game
    st.prog = game.prog
    st.n = d["players"]
    st.explicit = d["chance"] == "explicit"
    st.seed = d["seed"]
    st.rng = d["rng"]
    st.v = [_tuplify(x) if type(x) is list else x for x in d["v"]]
    st.g = [_tuplify(x) if type(x) is list else x for x in d["g"]]
    st.piles = [list(p) for p in d["piles"]]
    st.nshared = len(game.prog.shared_piles)
    st.stack = [[_tuplify(x) if type(x) is list else x for x in f] for f in d["stack"]]
    st.waiting = d["waiting"]
    st.actor = d["actor"]
    st.rerolling = d["rerolling"]
    st.turn_player = d["turn_player"]
    st.round = d["round"]
    st.order_pos = d["order_pos"]
    st.skips = tuple(d["skips"])
    st.test = tuple(d["test"]) if d["test"] is not None else None
    st.over = d["over"]
    options = d["options"]
    st.options = dict(options) if options else None
    st.limits = limits or game.limits
    st.logging = d["logging"]
    st._moves = None
    st.chance_record = None
    st.steps = 0
    st.hist = (tuple(d["history"]),) if d["history"] else None    # (see State)
    st.log_tail = _linked(LogEntry.from_dict(e) for e in d["log"])
    return st


# ------------------------------------------------------------- replays


def replay_doc(st, seed=True, key=None):
    """``State.to_replay``'s document."""
    doc = {"format": REPLAY_FORMAT, "ruleset": st.game.fingerprint, "players": st.n,
           "chance": "explicit" if st.explicit else "sample", "options": st.options,
           "logging": st.logging, "moves": st.history}
    if seed:
        doc["seed"] = st.seed
    if key is not None:
        doc["mac"] = mac_of(doc, key)
    return doc


@_bounded
def replay(game, text, seed=None, key=None):
    """``Game.replay``: the game the replay in ``text`` describes, made with
    ``new_game`` and played move by move."""
    doc = read(text, game.limits, "replay")
    _head(doc, REPLAY, REPLAY_FORMAT, "replay", game)
    _verify(doc, key, "replay")
    _same_ruleset(doc, game, "replay")
    n = _check_players(doc, game)
    _check_options(doc, game, n)
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"a seed is a whole number, not {seed!r}")
        seed &= M64
        if "seed" in doc and doc["seed"] != seed:
            raise SaveError("$.seed", "the replay's seed is not the seed of this game")
    elif "seed" not in doc:
        raise SaveError("$", "the replay has no seed: give the game's (Game.replay(text, seed=...))")
    else:
        seed = doc["seed"]
    moves = doc["moves"]
    if len(moves) > game.limits.max_history:
        raise SaveError("$.moves", f"more than {game.limits.max_history} moves (Limits.max_history)")
    try:
        st = game.new_game(players=n, seed=seed, chance=doc["chance"], options=doc["options"],
                           log=doc.get("logging", True))
    except RulesetError as e:
        raise SaveError("$", f"the game cannot be set up: {e.message}") from e
    for i, label in enumerate(moves):
        if st.over is not None:
            raise _err(("moves", i), f"the game is over ({st.over}) after move {i}: no move is legal")
        try:
            st.apply(label)
        except IllegalMoveError:
            raise _err(("moves", i), f"{json.dumps(label)} is not a legal move at this point "
                                     f"of the game") from None
        except RulesetError as e:
            raise _err(("moves", i), f"the move {json.dumps(label)} fails: {e.message}") from e
    return st


# ------------------------------------------------------------- pickles

_unpickled: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()


def unpickle_game(fingerprint, rs, limits, game_class):
    """A pickled ``Game``: compiled again from its ruleset (once per
    process for each ruleset and limits; admitted at the trust boundary
    again, as any ruleset from outside)."""
    key = (fingerprint, limits)
    game = _unpickled.get(key)
    if game is None:
        game = _unpickled[key] = game_class(compile_ruleset(rs, limits), limits)
    return game


def write_schemas() -> None:
    """Write ``schema/state.schema.json`` and ``schema/replay.schema.json``
    (``python -c "import rulelang.engine.saves as s; s.write_schemas()"``)."""
    for which, path in SCHEMA_PATHS.items():
        path.write_text(schema_text(which), encoding="utf-8")
