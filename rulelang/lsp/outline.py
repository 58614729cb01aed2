"""The outline of a rule file (the editor's document symbols): stats by
scope, constants, actors, decks and their cards, piles, pieces, tables,
rules, options, the turn and its phases, setup, triggers, endings, the
score; each with the range of its declaration and the place of its name."""

from __future__ import annotations

import bisect
from typing import Dict, List, Optional, Sequence

from .. import ir
from .model import Analysis, Outline, Place, Symbol


def make_outline(a: Analysis, rs: ir.Ruleset) -> List[Outline]:
    """The outline of ``rs``, from the declarations ``a`` found, in the file's order."""
    out: List[Outline] = []
    groups: Dict[str, List[Outline]] = {}
    for s in rs.stats:
        item = _entry(a, Symbol("stat", s.name), s.pos, "variable", s.scope)
        if item is not None:
            groups.setdefault({"player": "per player", "turn": "per turn"}.get(s.scope, "global"),
                              []).append(item)
    for title, items in groups.items():
        out.append(_group(a, title, "namespace", items))
    for gp in rs.params:
        _add(a, out, Symbol("param", gp.name), gp.pos, "constant", "param")
    for c in rs.consts:
        _add(a, out, Symbol("const", c.name), c.pos, "constant", "const")
    for actor in rs.actors:
        kids = [e for e in (_entry(a, Symbol("stat", s.name), s.pos, "variable", "stat")
                            for s in actor.stats) if e is not None]
        _add(a, out, Symbol("actor", actor.name), actor.pos, "object", "actor", kids)
    for d in rs.decks:
        kids = [e for e in (_entry(a, Symbol("card", c.name), c.pos, "enum_member",
                                       f"x{c.count}") for c in d.cards) if e is not None]
        _add(a, out, Symbol("deck", d.name), d.pos, "class", "deck", kids)
    for pile in rs.piles:
        _add(a, out, Symbol("pile", pile.name), pile.pos, "array", "pile")
    for ps in rs.pieces:
        kids = [e for e in (_entry(a, Symbol("piece", pc.name), pc.pos, "enum_member", "")
                            for pc in ps.pieces[:200]) if e is not None]
        _add(a, out, Symbol("pieces", ps.name), ps.pos, "struct",
                 "board" if ps.links else "pieces", kids)
    for t in rs.tables:
        _add(a, out, Symbol("table", t.name), t.pos, "struct", f"table d{t.sides}")
    for r in rs.rules:
        _add(a, out, Symbol("rule", r.name), r.pos, "function", "rule")
    for o in rs.options:
        _add(a, out, Symbol("option", o.name), o.pos, "enum", "option")
    if rs.turn is not None and rs.turn.pos is not None:
        kids = [e for e in (_entry(a, Symbol("phase", ph.name), ph.pos, "method", "phase")
                            for ph in rs.turn.phases) if e is not None]
        out.append(_block(a, "turn", "namespace", "", rs.turn.pos, kids))
    for start, _, key in a.regions:
        if key == "setup":
            line, col = a.line_col(start)
            out.append(_block(a, "setup", "namespace", "", ir.Pos(line + 1, col + 1), []))
    for trig in rs.triggers:
        if trig.pos is not None:
            out.append(_block(a, "whenever", "event", a.source_line(trig.pos), trig.pos, []))
    for dt in rs.draw_triggers:
        if dt.pos is not None:
            out.append(_block(a, f"on draw from {dt.deck}", "event", "", dt.pos, []))
    for e in rs.endings:
        if e.pos is not None:
            out.append(_block(a, f"end \"{e.name}\"", "event", "", e.pos, []))
    if rs.score and rs.score[0].pos is not None:
        out.append(_block(a, "score", "namespace", "", rs.score[0].pos, []))
    if rs.heuristic and rs.heuristic[0].pos is not None:
        out.append(_block(a, "heuristic", "namespace", "", rs.heuristic[0].pos, []))
    out.sort(key=lambda o: (o.range[0], o.range[1]))
    return out


def _entry(a: Analysis, symbol: Symbol, pos: Optional[ir.Pos], kind: str, detail: str,
          children: Sequence[Outline] = ()) -> Optional[Outline]:
    place = a.definitions.get(symbol)
    if place is None or pos is None:
        return None
    start = min(a.offset_of(pos), a.offset(place.line, place.start))
    sl, sc = a.line_col(start)
    el, ec = a.block_end(start)
    for kid in children:
        if (kid.range[2], kid.range[3]) > (el, ec):
            el, ec = kid.range[2], kid.range[3]
    return Outline(symbol.name, kind, detail, (sl, sc, el, ec), place, tuple(children))

def _add(a: Analysis, out: List[Outline], symbol: Symbol, pos: Optional[ir.Pos], kind: str,
        detail: str, children: Sequence[Outline] = ()) -> None:
    item = _entry(a, symbol, pos, kind, detail, children)
    if item is not None:
        out.append(item)

def _block(a: Analysis, name: str, kind: str, detail: str, pos: ir.Pos,
          children: Sequence[Outline]) -> Outline:
    start = a.offset_of(pos)
    sl, sc = a.line_col(start)
    el, ec = a.block_end(start)
    t = a.token_at(sl, sc)
    sel = Place(sl, sc, t.end_column if t is not None and t.line == sl else sc + 1)
    return Outline(name, kind, detail, (sl, sc, el, ec), sel, tuple(children))

def _group(a: Analysis, title: str, kind: str, items: List[Outline]) -> Outline:
    first = min(items, key=lambda o: (o.range[0], o.range[1]))
    last = max(items, key=lambda o: (o.range[2], o.range[3]))
    # the block's keyword: the 'per' or 'global' before its first stat
    start = (first.range[0], first.range[1])
    i = bisect.bisect_left(a._starts, a.offset(*start))
    for t in reversed(a.tokens[max(0, i - 6):i]):
        if t.text in ("per", "global"):
            start = (t.line, t.column)
            break
    sel = Place(start[0], start[1], start[1] + len(title.split()[0]))
    return Outline(title, kind, f"{len(items)} stats", (start[0], start[1], last.range[2],
                                                        last.range[3]), sel, tuple(items))
