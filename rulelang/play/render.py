"""One seat's view of a game as short lines of text a person can read.

Everything here works from ``State.view(seat)`` (what that seat may see)
and the ruleset's declarations, never from the state itself, so a page, a
prompt for an agent or the terminal can show a seat exactly what it may
see.  Values are written as a ruleset spells them (``yes``, ``no``,
``none``, its words), stats with both bounds are drawn as tracks (every
seat's marker on one line), identical pieces are grouped, long piles are
counted.  Each line is a list of (text, style) segments: the terminal
colours the styles, ``plain`` joins the text.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .. import ir
from ..engine import Game
from ..errors import printable as _printable
from ..show import word

#: A piece of a line and its style ("" plain, "title", "seat", "me", "dim", "change", "warn").
Segment = Tuple[str, str]
Line = List[Segment]

#: Widest line drawn (the terminal player's screen is 100 wide).
WIDTH = 100
#: The widest range of a bounded stat drawn as a track (wider ones are numbers).
MOST_TRACK = 60
#: Groups of pieces shown per piece set before "+N more".
MOST_GROUPS = 3


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (a line
    break too: a rendered line is one line)."""
    return _printable(text).replace("\n", "\\x0a")


def plain(lines: Iterable[Line]) -> str:
    return "\n".join("".join(text for text, _ in line) for line in lines)


def clip(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def counted(cards: Sequence[str]) -> str:
    """Cards as a person lists them: ``Trek ×2, Ice`` (in the view's order)."""
    counts = collections.Counter(cards)
    return ", ".join(f"{c} ×{k}" if k > 1 else c for c, k in counts.items())


def _wrap(parts: Sequence[str], indent: str, width: int = WIDTH, sep: str = "  ") -> List[str]:
    """``parts`` joined by ``sep`` into lines no wider than ``width``."""
    lines: List[str] = []
    line = indent
    for part in parts:
        if line.strip() and len(line) + len(sep) + len(part) > width:
            lines.append(line)
            line = indent
        line += (sep if line.strip() else "") + part
    if line.strip():
        lines.append(line)
    return [clip(x, width) for x in lines]


class Layout:
    """What the renderer needs to know of a game beyond a view: which stats
    are tracks (named spaces, or a number between two bounds), the state
    fields of each piece set, the boards, the decks and the tables."""

    def __init__(self, game: Game) -> None:
        rs = game.ruleset
        consts = {c.name: c.value.value for c in rs.consts if isinstance(c.value, ir.Num)}
        params = {p.name: p.default for p in rs.params}

        def number(e: Optional[ir.Expr]) -> Optional[int]:
            if isinstance(e, ir.Num) and type(e.value) is int:
                return e.value
            if isinstance(e, ir.Name):
                v = consts.get(e.name, params.get(e.name))
                return v if type(v) is int else None
            return None
        self.title = rs.title
        #: stat -> its lowest and highest value, for a number drawn as a track
        self.bounds: Dict[str, Tuple[int, int]] = {}
        #: stat -> its spaces, for a track of named spaces
        self.spaces: Dict[str, Tuple[str, ...]] = {}
        for s in rs.stats:
            if s.spaces:
                self.spaces[s.name] = tuple(sp.name for sp in s.spaces)
                continue
            lo, hi = number(s.min), number(s.max)
            if lo is not None and hi is not None and 0 < hi - lo <= MOST_TRACK:
                self.bounds[s.name] = (lo, hi)
        self.fields: Dict[str, List[str]] = {ps.name: [f.name for f in ps.state] for ps in rs.pieces}
        self.steps: Dict[str, Any] = dict(game.prog.board_step)
        self.decks = {d.name for d in rs.decks}
        self.tables = {t.name: t for t in rs.tables}
        self.test = rs.test


# ---------------------------------------------------------------- the state

def state_lines(view: Mapping[str, Any], layout: Layout) -> List[Line]:
    """The whole state as ``view`` shows it, compactly."""
    seat = view.get("viewer")
    out: List[Line] = []
    head = f"{view['game']} · round {view['round']}"
    if view.get("over"):
        head += f" · game over: {view['over']}"
    elif view.get("turn_player") is not None:
        head += f" · P{view['turn_player']}'s turn"
    out.append([(head, "title")])
    out.extend(_globals(view, layout))
    out.extend(_tracks(view, layout))
    for p in view["players"]:
        out.extend(_player(p, view, layout, seat))
    for name, actor in view.get("actors", {}).items():
        out.extend(_stat_block(name, actor.get("stats", {}), actor.get("piles", {}), {}, layout,
                               actor.get("secret", []), "seat"))
    out.extend(_pieces(view, layout))
    out.extend(_shared_piles(view, layout))
    return out


def _value(name: str, value: Any, scales: Mapping[str, Any]) -> Optional[str]:
    """``name value`` for a stat (a yes/no stat by its name when yes,
    nothing when no), with what its scale prints beside it."""
    if value is False:
        return None
    text = name if value is True else f"{name} {word(value)}"
    row = scales.get(name)
    if row:
        text += " (" + ", ".join(f"{k} {word(v)}" for k, v in row.items()) + ")"
    return text


def _scaled(name: str, value: Any, scales: Mapping[str, Any]) -> str:
    """A value and what its scale prints beside it: ``8 (capacity 40)``."""
    row = scales.get(name)
    return word(value) + (" (" + ", ".join(f"{k} {word(v)}" for k, v in row.items()) + ")" if row else "")


def _globals(view: Mapping[str, Any], layout: Layout) -> List[Line]:
    scales = view.get("scales", {}) or {}
    parts = [t for k, v in view["globals"].items()
             if k not in layout.spaces and k not in layout.bounds
             and (t := _value(k, v, scales)) is not None]
    parts += [f"{k} ?" for k in view.get("secret", [])]
    lines = [[(x, "")] for x in _wrap(parts, "  ")]
    for k, v in view["globals"].items():
        if k in layout.bounds and type(v) is int:
            lines.append([(_bar(k, layout.bounds[k], {v: "●"}, _scaled(k, v, scales)), "")])
    return lines


def _bar(name: str, bounds: Tuple[int, int], marks: Mapping[int, str], legend: str = "",
         label_width: int = 12) -> str:
    """A numeric track: a cell per value, each seat's mark where its value is."""
    lo, hi = bounds
    cells = hi - lo + 1
    wide = 2 if cells * 2 + label_width + 14 <= WIDTH else 1
    row = []
    for v in range(lo, hi + 1):
        mark = marks.get(v, "·")
        row.append(mark.ljust(wide) if wide == 2 else mark[:1])
    label_width = max(label_width, len(name) + 1)
    return clip(f"  {name:<{label_width}}{lo} {''.join(row).rstrip()} {hi}" + (f"   {legend}" if legend else ""))


def _tracks(view: Mapping[str, Any], layout: Layout) -> List[Line]:
    """Tracks of named spaces (the marker's space bracketed, and what that
    space gives), then per-player bounded stats, all seats on one line."""
    out: List[Line] = []
    for name, track in view.get("tracks", {}).items():
        here = track.get("space")
        spaces = layout.spaces.get(name, (here,))
        drawn = "─".join(f"[{s}]" if s == here else str(s) for s in spaces)
        extra = ", ".join(f"{k} {word(v)}" for k, v in track.items() if k != "space")
        out.append([(clip(f"  {name}: {drawn}" + (f"   ({extra})" if extra else "")), "")])
    players = view["players"]
    for name, bounds in layout.bounds.items():
        marks: Dict[int, str] = {}
        where = []
        for p in players:
            v = p["stats"].get(name)
            if type(v) is int:
                marks[v] = "+" if v in marks else str(p["seat"])[-1]
                where.append(f"P{p['seat']} " + _scaled(name, v, p.get("scales", {}) or {}))
        if marks and len(players) > 1:
            out.append([(_bar(name, bounds, marks, " ".join(where)), "")])
    return out


def _player(p: Mapping[str, Any], view: Mapping[str, Any], layout: Layout,
            seat: Optional[int]) -> List[Line]:
    s = p["seat"]
    marker = "▶" if s == view.get("current_player") else " "
    who = f"{marker}P{s}" + (" (you)" if s == seat else "")
    stats = dict(p["stats"])
    if len(view["players"]) > 1:       # (drawn on the shared tracks)
        stats = {k: v for k, v in stats.items() if not (k in layout.bounds and type(v) is int)}
    return _stat_block(who, stats, p.get("piles", {}), p.get("scales", {}) or {}, layout,
                       p.get("hidden", []), "me" if s == seat else "seat")


def _stat_block(who: str, stats: Mapping[str, Any], piles: Mapping[str, Any],
                scales: Mapping[str, Any], layout: Layout, hidden: Sequence[str], style: str) -> List[Line]:
    parts = [t for k, v in stats.items() if (t := _value(k, v, scales)) is not None]
    parts += [f"{k} ?" for k in hidden]
    body = _wrap(parts, " " * 10)
    first = body[0][10:] if body else ""
    lines: List[Line] = [[(f"{who:<10}", style), (first, "")]]
    lines += [[(x, "")] for x in body[1:]]
    empty = [name for name, cards in piles.items() if isinstance(cards, list) and not cards]
    for name, cards in piles.items():
        if name not in empty:
            lines.append([(clip(f"{'':10}{name}: {_pile_text(name, cards, layout)}"), "")])
    if empty:
        lines.append([(clip(f"{'':10}{', '.join(empty)}: empty"), "")])
    return lines


def _pile_text(name: str, cards: Any, layout: Layout) -> str:
    if isinstance(cards, dict):
        n = cards.get("size", 0)
        kind = "deck" if name in layout.decks else "hidden"
        return f"{n} card{'s' if n != 1 else ''} ({kind})"
    if not cards:
        return "empty"
    return f"{len(cards)}: {counted(cards)}" if len(cards) > 1 else counted(cards)


def _shared_piles(view: Mapping[str, Any], layout: Layout) -> List[Line]:
    piles = view.get("piles", {})
    if not piles:
        return []
    small = [f"{name} {_pile_text(name, cards, layout)}" for name, cards in piles.items()
             if isinstance(cards, dict) or not cards]
    out = [[(x, "")] for x in _wrap(small, "  ", sep="  ·  ")]
    for name, cards in piles.items():
        if isinstance(cards, list) and cards:
            out.append([(clip(f"  {name}: {_pile_text(name, cards, layout)}"), "")])
    return out


def _pieces(view: Mapping[str, Any], layout: Layout) -> List[Line]:
    out: List[Line] = []
    for pset, pieces in view.get("pieces", {}).items():
        fields = layout.fields.get(pset, [])
        drawn = board_drawing(pieces, fields, layout.steps.get(pset))
        if drawn:
            out.append([(f"  {pset} ({fields[0]}):", "")])
            out.extend([[(row, "")] for row in drawn])
            continue
        out.extend([[(x, "")] for x in _grouped(pset, pieces, fields)])
    return out


def _grouped(pset: str, pieces: Sequence[Mapping[str, Any]], fields: Sequence[str]) -> List[str]:
    """A piece set as a few lines: the pieces whose state is the same
    together (``side fresh, group 1: Wild, Crean``), the fields every piece
    shares said once; when that still gives many groups, the field with the
    most values is written beside each name instead."""
    if not pieces:
        return []

    def shown(piece: Mapping[str, Any], f: str) -> str:
        return "(hidden)" if f not in piece else word(piece[f])
    same = [f for f in fields if len({shown(p, f) for p in pieces}) == 1]
    varied = [f for f in fields if f not in same]
    inline: List[str] = []
    while varied:
        keys = {tuple(shown(p, f) for f in varied) for p in pieces}
        if len(keys) <= MOST_GROUPS or len(varied) == 1:
            break
        most = max(varied, key=lambda f: len({shown(p, f) for p in pieces}))
        varied.remove(most)
        inline.append(most)
    groups: Dict[Tuple[str, ...], List[str]] = {}
    for p in pieces:
        name = str(p["name"]) + ("(" + ", ".join(shown(p, f) for f in inline) + ")" if inline else "")
        groups.setdefault(tuple(shown(p, f) for f in varied), []).append(name)
    common = ", ".join(f"{f} {shown(pieces[0], f)}" for f in same)
    lines = [clip(f"  {pset} ({len(pieces)})" + (f", all {common}" if common else "")
                  + (f"; beside each name: {', '.join(inline)}" if inline else "") + ":")]
    items = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    for key, names in items[:MOST_GROUPS]:
        what = ", ".join(f"{f} {v}" for f, v in zip(varied, key))
        lines.append(clip(f"     {what + ': ' if what else ''}{', '.join(names)}"))
    if len(items) > MOST_GROUPS:
        rest = sum(len(n) for _, n in items[MOST_GROUPS:])
        lines.append(f"     … {rest} more in {len(items) - MOST_GROUPS} other states ('state' lists them)")
    return lines


def full_piece_lines(view: Mapping[str, Any], layout: Layout) -> List[str]:
    """Every piece with its state, one a line (the ``state`` command)."""
    out = []
    for pset, pieces in view.get("pieces", {}).items():
        fields = layout.fields.get(pset, [])
        out.append(f"  {pset}:")
        for p in pieces:
            out.append(clip("     " + str(p["name"]) + ": "
                            + ", ".join(f"{f} {word(p[f]) if f in p else '(hidden)'}" for f in fields)))
    return out


def board_drawing(spaces: Sequence[Mapping[str, Any]], fields: Sequence[str],
                  steps: Optional[Mapping[str, Any]]) -> List[str]:
    """A grid or hex board (its ``steps``: direction -> links) with one
    state value, drawn as rows, north at the top (a hex board's rows
    shifted as its hexagons lie): each space shows its value ('.' for none,
    a player's seat, a word's first letter); [] when the spaces are not
    laid out by x and y (then they are grouped like pieces)."""
    if not steps or len(fields) != 1 or not spaces:
        return []
    field = fields[0]
    at = {}
    for space in spaces:
        x, y = space.get("x"), space.get("y")
        if type(x) is not int or type(y) is not int or (x, y) in at:
            return []
        at[(x, y)] = space.get(field, "?")
    wide, high = max(x for x, _ in at), max(y for _, y in at)
    if len(at) != wide * high or wide > 26:
        return []
    skew = len(steps) == 6      # (a hex board: six directions)

    def mark(v: Any) -> str:
        if v is None:
            return "."
        if v is True or v is False:
            return "y" if v else "n"
        return str(v)[:1]
    rows = []
    for y in range(high, 0, -1):
        indent = " " * (y - 1) if skew else ""
        rows.append(f"    {y:>2} {indent}" + " ".join(mark(at[(x, y)]) for x in range(1, wide + 1)))
    rows.append("       " + " ".join(chr(ord("a") + i) for i in range(wide)))
    return rows


# ---------------------------------------------------------------- changes

def flatten(view: Mapping[str, Any]) -> Dict[Tuple[str, ...], Any]:
    """Every value of a view a player would notice, by a key that names it
    (a stat, a track, a piece's field, a pile's cards or size)."""
    flat: Dict[Tuple[str, ...], Any] = {}
    for k, v in view.get("globals", {}).items():
        flat[("", k)] = v
    for p in view["players"]:
        who = f"P{p['seat']}"
        for k, v in p["stats"].items():
            flat[(who, k)] = v
        for k, cards in p.get("piles", {}).items():
            flat[(who, k, "pile")] = cards
    for name, actor in view.get("actors", {}).items():
        for k, v in actor.get("stats", {}).items():
            flat[(name, k)] = v
        for k, cards in actor.get("piles", {}).items():
            flat[(name, k, "pile")] = cards
    for pset, pieces in view.get("pieces", {}).items():
        for p in pieces:
            for k, v in p.items():
                if k not in ("name", "hidden"):
                    flat[(pset, str(p["name"]), k, "piece")] = v
    for k, cards in view.get("piles", {}).items():
        flat[("", k, "pile")] = cards
    return flat


def changes(before: Mapping[Tuple[str, ...], Any], after: Mapping[Tuple[str, ...], Any]) -> List[str]:
    """One short sentence per value that changed between two ``flatten``ed
    views (a value that was hidden and still is says nothing)."""
    out = []
    for key, new in after.items():
        if key not in before:
            continue
        old = before[key]
        if old == new:
            continue
        if key[-1] == "pile":
            text = _pile_change(old, new)
            if text:
                out.append(f"{_owner(key[0])}{key[1]}: {text}")
            continue
        if key[-1] == "piece":
            out.append(f"{key[1]} ({key[0]}): {key[2]} {word(old)} → {word(new)}")
            continue
        delta = (f" ({new - old:+d})" if type(old) is int and type(new) is int else "")
        out.append(f"{_owner(key[0])}{key[1]} {word(old)} → {word(new)}{delta}")
    return out


def _owner(who: str) -> str:
    return f"{who} " if who else ""


def _pile_change(old: Any, new: Any) -> str:
    if isinstance(old, list) and isinstance(new, list):
        gone = collections.Counter(old) - collections.Counter(new)
        came = collections.Counter(new) - collections.Counter(old)
        parts = [f"+{c}" + (f" ×{k}" if k > 1 else "") for c, k in came.items()]
        parts += [f"−{c}" + (f" ×{k}" if k > 1 else "") for c, k in gone.items()]
        return ", ".join(parts) + f" (now {len(new)})"
    a = old["size"] if isinstance(old, dict) else len(old)
    b = new["size"] if isinstance(new, dict) else len(new)
    return f"{a} → {b} cards" if a != b else ""


# ---------------------------------------------------------------- the decision

def option_lines(labels: Sequence[str], notes: Mapping[int, str] = {}) -> List[Line]:
    """Numbered options in as many columns as fit; an option with a note
    (odds, what a die means) gets a line of its own."""
    numbered = [f"{i:>2}. {label}" for i, label in enumerate(labels, 1)]
    out: List[Line] = []
    if notes:
        for i, text in enumerate(numbered):
            note = notes.get(i)
            out.append([(clip(text), "option")] + ([(clip("   " + note, WIDTH - len(text)), "dim")]
                                                   if note else []))
        return out
    wide = max(len(t) for t in numbered) + 3
    cols = max(1, min(len(numbered), WIDTH // wide))
    rows = -(-len(numbered) // cols)
    for r in range(rows):
        cells = [numbered[c * rows + r] for c in range(cols) if c * rows + r < len(numbered)]
        out.append([(clip("".join(cell.ljust(wide) for cell in cells).rstrip()), "option")])
    return out
