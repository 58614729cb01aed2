"""The quick way through a save that is right: one function per game,
written once from its ``Spec``, that answers whether a document certainly
passes the shape check of ``STATE`` and the checks of its values and piles
(``checks._check_values``, ``checks._check_piles``).  It never raises and
never reports: when it answers no, ``restore`` runs those checks in full,
which find the fault and word it (or pass a document the quick way was
too strict for).  So it may be stricter than the full checks, never more
lenient; ``tests/test_saves.py`` holds it to that over the corpus of
tampered saves.

Every value of ``v`` and ``g`` is tested by one expression written out
for its slot (the same test as ``Spec.fits`` for each of its kinds, and the
shape's own bounds), in one generated function, instead of a call per
value; the piles by comparing the sorted card ids with the decks'.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Callable, Dict, List, Optional, Tuple

from ...limits import Limits
from ..kinds import Kind
from .shapes import FORMAT, M64, STATE, _Context
from .spec import Kinds, Spec

#: Whether a document certainly passes (``build``).
Quick = Callable[[Any], bool]

#: The keys every saved state has, and those it may have (its MAC, its parameters).
_KEYS = frozenset(k for k in STATE.fields if k not in STATE.optional)
_ALL_KEYS = frozenset(STATE.fields)
#: The keys the quick function tests itself; every other key is tested by its shape.
_OWN = ("format", "v", "g", "piles")
_INT = {int}


class _Writer:
    """The source of one test function, its constants named ``c0``, ``c1``…
    in its namespace (no value of the ruleset is written into the source)."""

    def __init__(self, spec: Spec, cx: _Context) -> None:
        self.spec = spec
        self.cx = cx
        self.ns: Dict[str, Any] = {}
        self.lines: List[str] = []

    def const(self, value: Any) -> str:
        name = f"c{len(self.ns)}"
        self.ns[name] = value
        return name

    def kind(self, kind: Kind) -> str:
        """An expression in ``x`` (and ``n``, the players) true exactly when
        ``Spec.fits(kind, x, n)`` is, and ``x`` is a value of the shape
        ``VALUE`` (within its bounds); False for a kind it does not know."""
        spec, cx = self.spec, self.cx
        big = min(spec.big, M64)
        k = kind[0]

        def whole(lo: int, hi: int) -> str:
            return f"(type(x) is int and {max(lo, -M64)} <= x <= {min(hi, M64)})"

        def ints(lo: int, hi: int) -> str:
            # A flat list of whole numbers from lo to hi (the shape allows
            # a list when lists may nest one deep at least).
            if cx.max_nesting < 1:
                return "False"
            return (f"(type(x) is list and (not x or (set(map(type, x)) <= _INT and "
                    f"{max(lo, -M64)} <= min(x) and max(x) <= {min(hi, M64)})))")
        if k in ("any", "value"):
            words = self.const(spec.words)
            return (f"(x is None or x is True or x is False or {whole(-big, big)} or "
                    f"(type(x) is str and len(x) <= {cx.max_text} and x in {words}) or "
                    f"{ints(-big, big)})")
        if k == "int":
            return whole(kind[1], kind[2])
        if k == "bool":
            return "(x is True or x is False)"
        if k in ("none", "probe"):
            return "(x is None)"
        if k == "word":
            words = self.const(kind[1] if kind[1] is not None else spec.words)
            return f"(type(x) is str and len(x) <= {cx.max_text} and x in {words})"
        if k == "seat":
            return "(x is None or (type(x) is int and 0 <= x < n))"
        if k == "card":
            return f"(x is None or {whole(0, spec.ncards - 1)})"
        if k == "cards":
            return f"(x is None or {ints(0, spec.ncards - 1)})"
        if k == "piece":
            return f"(x is None or {whole(0, len(spec.prog.piece_names[kind[1]]) - 1)})"
        if k == "roll":
            return f"(x is None or {whole(kind[1], kind[1] * kind[2])})"
        if k == "dice":
            top = big if kind[1] is None else kind[1]
            low = -big if kind[1] is None else 1
            return f"(x is None or {ints(low, top)})"
        if k == "count":
            return f"(x is None or {whole(-big, big)})"
        return "False"

    def slot(self, kinds: Kinds, start: Optional[Tuple[Any]]) -> str:
        """The test of one value slot: one of its kinds, or (a piece's
        value) the value it starts at."""
        tests = [self.kind(k) for k in kinds]
        if start is not None:
            s = start[0]
            if s is None or s is True or s is False:
                tests.append(f"(x is {s!r})")
            elif type(s) is int and -M64 <= s <= M64:
                tests.append(f"(type(x) is int and x == {s!r})")
            elif type(s) is str and len(s) <= self.cx.max_text:
                tests.append(f"(type(x) is str and x == {self.const(s)})")
        return " or ".join(tests) or "False"


def build(spec: Spec, cx: _Context) -> Quick:
    """The quick test of ``spec``'s game under the bounds ``cx``."""
    prog = spec.prog
    w = _Writer(spec, cx)
    K, G = prog.K, len(spec.g_slots)
    nshared, nper = len(prog.shared_piles), len(prog.player_piles)
    cards = w.const(sorted(spec.deck_cards.elements()))
    if spec.player_deck_cards:      # (the cards then depend on the players: the full check)
        cards = "None"
    rest = w.const(tuple((k, s.ok) for k, s in STATE.fields.items() if k not in _OWN))
    lines = [
        "def quick(doc):",
        "    if type(doc) is not dict:",
        "        return False",
        "    keys = doc.keys()",
        f"    if not ({w.const(_KEYS)} <= keys <= {w.const(_ALL_KEYS)}):",
        "        return False",
        f"    if doc['format'] != {w.const(FORMAT)} or type(doc['format']) is not str:",
        "        return False",
        f"    for key, ok in {rest}:",
        "        if key in doc and not ok(doc[key], cx):",
        "            return False",
        "    n, v, g, piles = doc['players'], doc['v'], doc['g'], doc['piles']",
        f"    if type(v) is not list or type(g) is not list or len(v) != n * {K} or len(g) != {G}:",
        "        return False",
        f"    if type(piles) is not list or len(piles) != {nshared} + {nper} * n:",
        "        return False",
        "    for pile in piles:",
        "        if type(pile) is not list:",
        "            return False",
        "    flat = list(chain.from_iterable(piles))",
        f"    if not set(map(type, flat)) <= _INT or sorted(flat) != {cards}:",
        "        return False",
    ]
    if K:
        lines.append(f"    for b in range(0, n * {K}, {K}):")
    for i, (kinds, start, _) in enumerate(spec.v_slots):
        lines += [f"        x = v[b + {i}]", f"        if not ({w.slot(kinds, start)}):",
                  "            return False"]
    for i, (kinds, start, _) in enumerate(spec.g_slots):
        lines += [f"    x = g[{i}]", f"    if not ({w.slot(kinds, start)}):", "        return False"]
    lines.append("    return True")
    w.ns.update(cx=cx, chain=chain, _INT=_INT)
    code = compile("\n".join(lines) + "\n", f"<rulelang saves: the quick test of ruleset "
                   f"{spec.game.fingerprint}>", "exec")
    exec(code, w.ns)
    quick: Quick = w.ns["quick"]
    return quick


#: Beyond this many values (a game of thousands of pieces), no function is
#: written: every save of that game takes the full checks.
MOST_SLOTS = 5000


def _never(doc: Any) -> bool:
    return False


def quick_of(spec: Spec, limits: Limits) -> Quick:
    """``spec``'s quick test for these limits (made once per game and bounds)."""
    key = (limits.max_text, limits.max_nesting)
    found: Optional[Tuple[Tuple[int, int], Quick]] = spec.__dict__.get("_quick")
    if found is None or found[0] != key:
        quick: Quick = _never
        if len(spec.v_slots) + len(spec.g_slots) <= MOST_SLOTS:
            try:
                quick = _safe(build(spec, _Context(limits)))
            except Exception:   # (never expected: then every save takes the full checks,
                pass            # and the corpus of tampered saves says so)
        found = spec.__dict__["_quick"] = (key, quick)
    return found[1]


def _safe(quick: Quick) -> Quick:
    def run(doc: Any) -> bool:
        try:
            return quick(doc)
        except Exception:   # (anything odd: the full checks word it)
            return False
    return run
