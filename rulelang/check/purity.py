"""Which rules only work out a value.

A rule that gives a value and does nothing else — its body only makes
``let``s, changes them, asks ``if``, loops and ``give``s, and no roll, draw,
decision, log or change of the game is in it or in the rules whose values
it asks for — can be asked for anywhere a value can: in a 'where', a
choice's condition, a 'whenever', an ending, the score.  The checker allows
those uses of such a rule and no other (``Checker.pure``), and the compiler
calls it inline, as a function (``engine/values.py``), where another rule's
value is worked out first by an op of its own.  This module is the one
statement of which rules those are.
"""

from __future__ import annotations

from typing import Dict, Iterator, Mapping, Optional, Set, Tuple

from .. import ir

#: Statements a rule that only works out a value may hold.
_COMPUTING = (ir.Let, ir.Assign, ir.If, ir.Give, ir.While, ir.Repeat, ir.Stop,
              ir.ForEachPlayer, ir.ForEachPiece, ir.ForEachCard, ir.ForPlayer)

#: What each other statement does, for the reason a rule is not pure.
_DOES = {
    ir.RollOn: "rolls on a table", ir.Test: "makes a test", ir.Draw: "draws cards",
    ir.MoveAll: "moves cards", ir.MoveCards: "moves cards", ir.MoveCard: "moves a card",
    ir.ChooseCards: "asks a player", ir.ChooseOne: "asks a player", ir.ChooseOption: "asks a player",
    ir.ChooseRow: "asks a player", ir.May: "asks a player", ir.ChoosePiece: "asks a player",
    ir.ChooseCard: "asks a player", ir.ChooseNumber: "asks a player", ir.Skip: "skips a phase",
    ir.EndTurn: "ends the turn", ir.EndGame: "ends the game", ir.Log: "writes to the log",
    ir.Call: "carries out a rule", ir.Spend: "spends dice", ir.PickPiece: "draws a piece",
    ir.Reveal: "reveals a value",
}


def _statements(body: Tuple[ir.Stmt, ...]) -> Iterator[ir.Stmt]:
    """Every statement of ``body``, nested ones too."""
    stack = list(reversed(body))
    while stack:
        s = stack.pop()
        yield s
        for name in ("then", "orelse", "body"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple):
                stack.extend(reversed(inner))


def _line(node: object) -> str:
    pos = getattr(node, "pos", None)
    return f" (line {pos.line})" if pos is not None else ""


def _own_reason(rule: ir.Rule) -> Optional[str]:
    """Why ``rule``'s own body does more than work out a value (None: it
    does not), leaving aside the rules whose values it asks for."""
    if rule.gives is None:
        return "gives no value"
    body = tuple(_statements(rule.body))
    local = {p.name for p in rule.params} | {s.name for s in body if isinstance(s, ir.Let)}
    for s in body:
        if isinstance(s, (ir.ForEachPiece, ir.ForEachCard, ir.ForEachPlayer)) and s.var:
            local.add(s.var)
    for s in body:
        if not isinstance(s, _COMPUTING):
            return f"{_DOES.get(type(s), 'does more than work out a value')}{_line(s)}"
        if isinstance(s, ir.Assign) and not (isinstance(s.target, ir.Name) and s.target.name in local):
            what = s.target.name if isinstance(s.target, ir.Name) else f"{s.target.obj}.{s.target.name}"
            return f"changes '{what}'{_line(s)}"
        for node in _expressions(s):
            for n in ir.walk(node):
                if isinstance(n, (ir.Roll, ir.Pool, ir.RollOff)):
                    return f"rolls dice{_line(n)}"
    return None


def _expressions(s: ir.Stmt) -> Iterator[object]:
    """The expressions of statement ``s`` itself (not of its body)."""
    for f in getattr(type(s), "__attrs_attrs__", ()):
        if f.name in ("pos", "then", "orelse", "body"):
            continue
        v = getattr(s, f.name)
        if isinstance(v, tuple):
            yield from v
        else:
            yield v


def called(rule: ir.Rule) -> Set[str]:
    """The rules whose values ``rule`` asks for."""
    return {n.rule for s in _statements(rule.body) for e in _expressions(s)
            for n in ir.walk(e) if isinstance(n, ir.RuleValue)}


def pure_rules(rs: ir.Ruleset) -> Dict[str, Optional[str]]:
    """Each rule's name -> None when it only works out a value, else the
    reason it does not ("changes 'food' (line 12)", "asks for the value of
    'g', which rolls dice (line 3)").  A rule that asks for its own value,
    through others or not, is not pure: a pure rule is called inline, and
    its calls must end."""
    rules = {r.name: r for r in rs.rules}
    reason: Dict[str, Optional[str]] = {name: _own_reason(r) for name, r in rules.items()}
    # Whom a rule asks is needed only of a rule that may be pure (one that
    # is not needs no more reasons, and no pure rule asks it).
    calls = {name: called(r) for name, r in rules.items() if reason[name] is None}
    # A rule asking for the value of an impure (or unknown) one is impure;
    # repeat until nothing changes.
    changed = True
    while changed:
        changed = False
        for name in rules:
            if reason[name] is not None:
                continue
            for other in sorted(calls[name]):
                why = reason.get(other, "is not a rule")
                if why is not None:
                    reason[name] = f"asks for the value of '{other}', which {why}"
                    changed = True
                    break
    # Among those left, one that reaches itself is not pure either.
    for name in rules:
        if reason[name] is None and _reaches(name, name, calls, set()):
            reason[name] = "asks for its own value"
    return reason


def _reaches(start: str, goal: str, calls: Mapping[str, Set[str]], seen: Set[str]) -> bool:
    todo = list(calls.get(start, ()))
    while todo:
        n = todo.pop()
        if n == goal:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(calls.get(n, ()))
    return False


def names_read(e: object, rules: Mapping[str, ir.Rule]) -> Set[str]:
    """The names expression ``e`` reads (``ir.names_in``), and those read by
    the pure rules whose values it asks for, and by theirs: what a
    'whenever' watches."""
    out: Set[str] = set()
    todo = [e]
    seen: Set[str] = set()
    while todo:
        node = todo.pop()
        out |= ir.names_in(node)
        for n in ir.walk(node):
            if isinstance(n, ir.RuleValue) and n.rule in rules and n.rule not in seen:
                seen.add(n.rule)
                todo.extend(x for s in _statements(rules[n.rule].body) for x in _expressions(s))
    return out
