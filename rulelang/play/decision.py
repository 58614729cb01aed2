"""What a decision is about, told before it is made: its title (the
choice's own words in the rule file), and, where a die decides, what the
die means and the odds of the test it leads to.

Only what the deciding seat may see is used: the title is read from the
note the choice would write (as that seat would read it), a die's meaning
from the ruleset's tables and test, a test's target from the seat's view.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import attrs

from .. import ir
from ..engine import State
from ..show import word
from .render import WIDTH, Layout


def _wrap(parts: Sequence[str], first: str, indent: str, sep: str) -> List[str]:
    """``parts`` after ``first``, joined by ``sep``, in lines that fit."""
    lines, line = [], first
    for part in parts:
        if len(line) + len(sep) + len(part) > WIDTH - 2 and line.strip() != first.strip():
            lines.append(line)
            line = indent
        line += (sep if line.strip() and line != first else "") + part
    return lines + [line]

_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


@attrs.frozen
class Decision:
    """Who decides, what, among which moves, with a note per option
    (by its index) and lines that explain the decision as a whole."""

    seat: int
    title: str
    labels: Tuple[str, ...]
    notes: Dict[int, str]
    context: Tuple[str, ...]


def is_reroll(moves: Sequence[Any]) -> bool:
    """The ruleset's reroll question: keep the die or roll it again."""
    return len(moves) == 2 and moves[0].value == "keep" and moves[1].value == "reroll"


def title_of(state: State, moves: Sequence[Any], seat: int) -> str:
    """The choice's title from the rule file (``State.decision``)."""
    return state.decision or "choose"


def _row(table: ir.Table, value: int) -> Optional[ir.Row]:
    for row in table.rows:
        if row.low <= value <= row.high:
            return row
    return None


def _row_test(row: ir.Row) -> Optional[str]:
    """The stat a table row tests first, if it starts by testing one."""
    for stmt in row.body:
        if isinstance(stmt, ir.Test) and isinstance(stmt.target, ir.Name):
            return stmt.target.name
    return None


def _stat_of(view: Mapping[str, Any], seat: Optional[int], name: str) -> Optional[int]:
    """A stat of ``seat`` (or a global) as the view shows it; None when it
    is not a number this seat may see."""
    for p in view["players"]:
        if p["seat"] == seat and type(p["stats"].get(name)) is int:
            return int(p["stats"][name])
    v = view["globals"].get(name)
    return v if type(v) is int else None


def pass_chance(layout: Layout, target: int) -> Optional[Fraction]:
    """The chance a test of a stat worth ``target`` passes: the faces of the
    ruleset's test die that compare as its ``test`` says."""
    t = layout.test
    if t is None:
        return None
    faces = [f for f in range(1, t.sides + 1) if _COMPARE[t.op](f, target)]
    return Fraction(len(faces), t.sides)


def percent(p: Fraction) -> str:
    return f"{round(100 * p)}%" if p not in (0, 1) else ("never" if p == 0 else "always")


def test_note(layout: Layout, view: Mapping[str, Any], who: Optional[int], stat: str) -> str:
    """``test of will (5): d10 <= 5, passes 50%`` for a test of ``who``."""
    t = layout.test
    target = _stat_of(view, who, stat)
    if t is None:
        return f"test of {stat}"
    if target is None:
        return f"test of {stat}: d{t.sides} {t.op} {stat}"
    p = pass_chance(layout, target)
    return (f"test of {stat} ({target}): d{t.sides} {t.op} {target}, passes "
            + (percent(p) if p is not None else "?"))


def _last_roll(state: State, seat: int) -> Optional[Tuple[str, int]]:
    """(what the die was rolled for, its value) of the newest roll."""
    for entry in reversed(state.log_for(seat)):
        if entry.kind == "roll" and type(entry.value) is int and ": rolled " in entry.text:
            return entry.text.rsplit(": rolled ", 1)[0], int(entry.value)
    return None


def _reroll(state: State, seat: int, view: Mapping[str, Any],
            layout: Layout) -> Tuple[str, Dict[int, str], List[str]]:
    """The reroll question explained: what the die was rolled for, what
    keeping it gives, what a new roll may give."""
    rolled = _last_roll(state, seat)
    if rolled is None:
        return "keep the die or roll it again", {}, []
    why, value = rolled
    who = view.get("turn_player")
    title = f"keep or reroll the {value} rolled for {why}"
    table = layout.tables.get(why)
    if table is not None:
        row = _row(table, value)
        keep = f"→ {row.label or f'row {row.low}'}" if row is not None else "→ no row"
        if row is not None and (stat := _row_test(row)):
            keep += f"; {test_note(layout, view, who, stat)}"
        outcomes = []
        for r in table.rows:
            span = str(r.low) if r.low == r.high else f"{r.low}-{r.high}"
            stat = _row_test(r)
            odds = ""
            if stat is not None and (target := _stat_of(view, who, stat)) is not None:
                p = pass_chance(layout, target)
                odds = f" ({stat} {percent(p)})" if p is not None else ""
            outcomes.append(f"{span} {r.label or ''}{odds}")
        return title, {0: keep, 1: f"→ a new d{table.sides} on {why}"}, \
            _wrap(outcomes, f"{why} (d{table.sides}): ", "  ", " · ")
    if why.startswith("test of ") and layout.test is not None:
        stat = why[len("test of "):]
        target = _stat_of(view, who, stat)
        if target is None:
            return title, {}, [f"the test passes on d{layout.test.sides} {layout.test.op} {stat}"]
        passes = _COMPARE[layout.test.op](value, target)
        p = pass_chance(layout, target)
        return title, {0: f"→ {'passes' if passes else 'fails'} ({value} {layout.test.op} {target} "
                          f"is {word(passes)})",
                       1: f"→ passes {percent(p) if p is not None else '?'} of the time"}, \
            [test_note(layout, view, who, stat)]
    return title, {}, []


def describe(state: State, seat: int, moves: Sequence[Any], view: Mapping[str, Any],
             layout: Layout) -> Decision:
    """The decision ``seat`` faces now, told as a person needs it."""
    labels = tuple(m.label for m in moves)
    if is_reroll(moves):
        title, keep, context = _reroll(state, seat, view, layout)
        return Decision(seat, title, labels, keep, tuple(context))
    title = title_of(state, moves, seat)
    notes: Dict[int, str] = {}
    # A choice of a table's rows: each row's test, with its odds.
    for table in layout.tables.values():
        rows = {r.label: r for r in table.rows if r.label}
        if labels and all(label in rows for label in labels):
            for i, label in enumerate(labels):
                stat = _row_test(rows[label])
                if stat is not None:
                    notes[i] = test_note(layout, view, seat, stat)
            break
    return Decision(seat, title, labels, notes, ())
