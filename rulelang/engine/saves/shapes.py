"""The save formats, declared once as shapes: each shape checks a parsed
JSON value (exact JSON types: no true for 1, no 1.0 or "1") and gives its
JSON Schema.  ``STATE`` (``State.to_json()``) and ``REPLAY``
(``State.to_replay()``) are published as ``schema/state.schema.json`` and
``schema/replay.schema.json`` (``write_schemas``); ``json_path`` and
``_what`` word the faults every check of a save reports.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import (Any, Callable, Dict, Iterable, List, Mapping, NoReturn, Optional, Sequence, Tuple,
                    Union)

from ...documents import Odd
from ...errors import SaveError
from ...limits import Limits
from ..ops import WAIT_CHANCE, WAIT_DECISION, WAIT_NONE

#: Where a value is in a document: its keys and indexes from the root
#: (``json_path`` writes them as ``$.piles[3][7]``).
Parts = Tuple[Union[int, str], ...]

#: A game (``game.Game``): ``Any`` to mypy, as ``St`` is (game.py and play.py
#: import this package, so no module of it may import them back).
Gm = Any

FORMAT = "rulelang-state/2"
REPLAY_FORMAT = "rulelang-replay/2"
M64 = (1 << 64) - 1

#: The endings the engine itself gives (besides a ruleset's own).
ENGINE_ENDINGS = ("no more turns", "setup complete")
_INT, _STR = {int}, {str}

_ROOT = pathlib.Path(__file__).resolve().parent.parent.parent.parent
SCHEMA_PATHS = {"state": _ROOT / "schema" / "state.schema.json",
                "replay": _ROOT / "schema" / "replay.schema.json"}


# ------------------------------------------------------------------ paths


def json_path(parts: Parts) -> str:
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


def _err(parts: Parts, reason: str) -> SaveError:
    return SaveError(json_path(parts), reason)


def _what(x: Any) -> str:
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

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        raise NotImplementedError

    def fits(self, x: Any) -> bool:
        """Whether ``x`` is of this shape's JSON type (to pick the
        alternative of an ``AnyOf`` whose error to report)."""
        return True

    def refuse(self, x: Any, parts: Parts, detail: Optional[str] = None) -> NoReturn:
        raise _err(parts, detail or f"expected {self.what}, not {_what(x)}")

    def ok(self, x: Any, cx: _Context) -> bool:
        """Whether ``check`` passes (without paths or messages: the quick
        way through a document that is right)."""
        raise NotImplementedError

    def all_ok(self, items: List[Any], start: int, cx: _Context) -> bool:
        ok = self.ok
        for i in range(start, len(items)):
            if not ok(items[i], cx):
                return False
        return True

    def check_all(self, items: List[Any], start: int, parts: Parts, cx: _Context) -> None:
        """``check`` each of ``items[start:]`` (item ``i`` at ``parts + (i,)``)."""
        if self.all_ok(items, start, cx):
            return
        ok, check = self.ok, self.check
        for i in range(start, len(items)):
            if not ok(items[i], cx):
                check(items[i], parts + (i,), cx)


class Int(Shape):
    """A whole number; no save holds one beyond 64 bits (a seed)."""

    def __init__(self, lo: Optional[int] = None, hi: Optional[int] = None,
                 what: Optional[str] = None) -> None:
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

    def schema(self) -> Dict[str, Any]:
        s: Dict[str, Any] = {"type": "integer"}
        if self.lo is not None:
            s["minimum"] = self.lo
        if self.hi is not None:
            s["maximum"] = self.hi
        return s

    def fits(self, x: Any) -> bool:
        return type(x) is int or isinstance(x, Odd)

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if type(x) is not int:
            self.refuse(x, parts)
        if (self.lo is not None and x < self.lo) or (self.hi is not None and x > self.hi):
            self.refuse(x, parts)

    def ok(self, x: Any, cx: _Context) -> bool:
        return type(x) is int and (self.lo is None or x >= self.lo) and \
            (self.hi is None or x <= self.hi)

    def all_ok(self, items: List[Any], start: int, cx: _Context) -> bool:
        rest = items[start:] if start else items
        return not rest or (set(map(type, rest)) <= _INT and
                            (self.lo is None or min(rest) >= self.lo) and
                            (self.hi is None or max(rest) <= self.hi))


class Str(Shape):
    def __init__(self, pattern: Optional[str] = None, what: str = "a string") -> None:
        self.pattern = pattern
        self.match: Optional[Callable[[str], Optional[re.Match[str]]]] = \
            re.compile(pattern).fullmatch if pattern else None
        self.what = what

    def schema(self) -> Dict[str, Any]:
        s = {"type": "string"}
        if self.pattern:
            s["pattern"] = f"^{self.pattern}$"
        return s

    def fits(self, x: Any) -> bool:
        return isinstance(x, str)

    def ok(self, x: Any, cx: _Context) -> bool:
        # (``match`` is None exactly when there is no pattern.)
        return type(x) is str and len(x) <= cx.max_text and \
            (self.match is None or self.match(x) is not None)

    def all_ok(self, items: List[Any], start: int, cx: _Context) -> bool:
        rest = items[start:] if start else items
        if self.pattern:
            return super().all_ok(items, start, cx)
        return not rest or (set(map(type, rest)) <= _STR and max(map(len, rest)) <= cx.max_text)

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if not isinstance(x, str):
            self.refuse(x, parts)
        if len(x) > cx.max_text:
            raise _err(parts, f"a string of {len(x)} characters is longer than the limit of "
                              f"{cx.max_text} (Limits.max_text)")
        if self.match is not None and not self.match(x):
            self.refuse(x, parts)


class Label(Str):
    """A move's label: made by the engine from the ruleset's names (a
    choice of many cards names them all), so it may be longer than any one
    text of the ruleset (``max_text``); the save's size bounds it."""

    def ok(self, x: Any, cx: _Context) -> bool:
        return type(x) is str

    def all_ok(self, items: List[Any], start: int, cx: _Context) -> bool:
        rest = items[start:] if start else items
        return set(map(type, rest)) <= _STR

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if not isinstance(x, str):
            self.refuse(x, parts)


class _Exact(Shape):
    """A shape decided by ``fits`` alone (no limits, no message of its own)."""

    def ok(self, x: Any, cx: _Context) -> bool:
        return self.fits(x)

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if not self.fits(x):
            self.refuse(x, parts)


class Bool(_Exact):
    what = "true or false"

    def schema(self) -> Dict[str, Any]:
        return {"type": "boolean"}

    def fits(self, x: Any) -> bool:
        return x is True or x is False


class Null(_Exact):
    what = "null"

    def schema(self) -> Dict[str, Any]:
        return {"type": "null"}

    def fits(self, x: Any) -> bool:
        return x is None


class Enum(Shape):
    def __init__(self, values: Iterable[Any], what: Optional[str] = None) -> None:
        self.values = tuple(values)
        self.what = what or "one of " + ", ".join(json.dumps(v) for v in self.values)
        # (type, value): so that true is not 1, nor 1 true.
        self._types = frozenset(type(v) for v in self.values)
        self._pairs = frozenset((type(v), v) for v in self.values)

    def schema(self) -> Dict[str, Any]:
        if len(self.values) == 1:
            return {"const": self.values[0]}
        return {"enum": list(self.values)}

    def fits(self, x: Any) -> bool:
        return any(type(x) is type(v) for v in self.values)

    def ok(self, x: Any, cx: _Context) -> bool:
        t = type(x)
        return t in self._types and (t, x) in self._pairs

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if not self.ok(x, cx):
            self.refuse(x, parts)


class Arr(Shape):
    def __init__(self, items: Optional[Shape], prefix: Sequence[Shape] = (),
                 what: Optional[str] = None) -> None:
        self.items, self.prefix = items, tuple(prefix)
        self.what = what or "a list"

    def schema(self) -> Dict[str, Any]:
        s: Dict[str, Any] = {"type": "array"}
        if self.prefix:
            s["prefixItems"] = [p.schema() for p in self.prefix]
            s["minItems"] = len(self.prefix)
        if self.items is not None:
            s["items"] = self.items.schema()
        elif self.prefix:
            s["items"] = False
        return s

    def fits(self, x: Any) -> bool:
        return isinstance(x, list)

    def ok(self, x: Any, cx: _Context) -> bool:
        if type(x) is not list or len(x) < len(self.prefix) or \
                (self.items is None and len(x) != len(self.prefix)):
            return False
        for i, shape in enumerate(self.prefix):
            if not shape.ok(x[i], cx):
                return False
        return self.items is None or self.items.all_ok(x, len(self.prefix), cx)

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if not isinstance(x, list):
            self.refuse(x, parts)
        if len(x) < len(self.prefix) or (self.items is None and len(x) != len(self.prefix)):
            self.refuse(x, parts, f"expected {self.what}, not a list of {len(x)}")
        for i, shape in enumerate(self.prefix):
            shape.check(x[i], parts + (i,), cx)
        if self.items is not None:
            self.items.check_all(x, len(self.prefix), parts, cx)


class Obj(Shape):
    def __init__(self, fields: Mapping[str, Shape], optional: Iterable[str] = (),
                 what: str = "an object", doc: Optional[str] = None) -> None:
        self.fields = dict(fields)
        self.optional = frozenset(optional)
        self.what = what
        self.doc = doc

    def schema(self) -> Dict[str, Any]:
        s: Dict[str, Any] = {"type": "object"}
        if self.doc:
            s["description"] = self.doc
        s["properties"] = {k: v.schema() for k, v in self.fields.items()}
        s["required"] = [k for k in self.fields if k not in self.optional]
        s["additionalProperties"] = False
        return s

    def fits(self, x: Any) -> bool:
        return isinstance(x, dict)

    def ok(self, x: Any, cx: _Context) -> bool:
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

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
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

    def __init__(self, values: Shape, what: str = "an object") -> None:
        self.values, self.what = values, what

    def schema(self) -> Dict[str, Any]:
        return {"type": "object", "additionalProperties": self.values.schema()}

    def fits(self, x: Any) -> bool:
        return isinstance(x, dict)

    def ok(self, x: Any, cx: _Context) -> bool:
        return type(x) is dict and all(self.values.ok(v, cx) for v in x.values())

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        if not isinstance(x, dict):
            self.refuse(x, parts)
        for key, value in x.items():
            self.values.check(value, parts + (key,), cx)


class AnyOf(Shape):
    def __init__(self, *options: Shape, what: Optional[str] = None) -> None:
        self.options = options
        self.what = what or " or ".join(o.what for o in options)

    def schema(self) -> Dict[str, Any]:
        return {"anyOf": [o.schema() for o in self.options]}

    def fits(self, x: Any) -> bool:
        return any(o.fits(x) for o in self.options)

    def ok(self, x: Any, cx: _Context) -> bool:
        for o in self.options:
            if o.fits(x):
                return o.ok(x, cx)
        return False

    def check(self, x: Any, parts: Parts, cx: _Context) -> None:
        for o in self.options:
            if o.fits(x):
                o.check(x, parts, cx)
                return
        self.refuse(x, parts)


class Value(Shape):
    """A plain value of the machine (a stat, a local, a log entry's value):
    null, true/false, a whole number, a string, or a list of these."""

    what = "a plain value (null, true/false, a whole number, a string or a list of these)"

    def schema(self) -> Dict[str, Any]:
        return {"$ref": "#/$defs/value"}

    @staticmethod
    def definition() -> Dict[str, Any]:
        return {"description": "A plain value of the machine: a tuple is saved as a list.",
                "anyOf": [{"type": "null"}, {"type": "boolean"}, {"type": "integer"},
                          {"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/value"}}]}

    def check(self, x: Any, parts: Parts, cx: _Context, depth: int = 0) -> None:
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

    def ok(self, x: Any, cx: _Context, depth: int = 0) -> bool:
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

    def all_ok(self, items: List[Any], start: int, cx: _Context) -> bool:
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
#: The values a game was made with for its parameters (``Game.with_params``).
PARAMS = Map(Int(), what="the values given to the game's parameters")

class _LogEntries(Obj):
    """A log entry; a long log is looked over in one tight loop (the same
    test as ``Obj.ok``, written out for these keys)."""

    def all_ok(self, items: List[Any], start: int, cx: _Context) -> bool:
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
    "shown": Arr(Int(None), what="the hidden and secret stats revealed now"),
    "test": AnyOf(Null(), Arr(None, prefix=(Bool(), Int()), what="a test result [passed, margin]")),
    "over": AnyOf(Null(), Str()),
    "options": OPTIONS,
    "params": PARAMS,
    "logging": Bool(),
    "history": Arr(Label(), what="the labels of the moves made"),
    "log": Arr(LOG_ENTRY, what="the log"),
    "mac": MAC,
}, optional=("params", "shown", "mac"), what="a saved state",
    doc="A rulelang game state saved by State.to_json(); restored by Game.restore().")

REPLAY = Obj({
    "format": Enum([REPLAY_FORMAT], what=f"the format {json.dumps(REPLAY_FORMAT)}"),
    "ruleset": HEX16,
    "players": Int(1),
    "seed": Int(0, M64),
    "chance": Enum(["sample", "explicit"]),
    "options": OPTIONS,
    "params": PARAMS,
    "logging": Bool(),
    "moves": Arr(Label(), what="the labels of the moves"),
    "mac": MAC,
}, optional=("seed", "params", "logging", "mac"), what="a replay",
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
        "turn_player": "The seat whose turn it is (null during setup and as a round begins, in 'every round').",
        "round": "The round (0 during setup).",
        "order_pos": "The place in the turn order of the turn's player (-1 before the first turn, and as a round begins).",
        "skips": "The phases skipped this turn.",
        "shown": "The hidden and secret stats whose values are revealed now: a player's stat "
                 "by its place in v, a global stat i as -1 - i; left out when none is.",
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
    out: Dict[str, Any] = {
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

    def __init__(self, limits: Limits) -> None:
        self.max_text = limits.max_text
        self.max_nesting = limits.max_nesting



def write_schemas() -> None:
    """Write ``schema/state.schema.json`` and ``schema/replay.schema.json``
    (``python -c "import rulelang.engine.saves as s; s.write_schemas()"``)."""
    for which, path in SCHEMA_PATHS.items():
        path.write_text(schema_text(which), encoding="utf-8")
