"""A saved state held to its game (``Spec``): the lengths of its values
and piles, every value of its kind, cards neither made nor lost, the
frames where their code waits or calls the code above, the rest of the
document, and then the state built from it: its ending, and a probe that
it plays.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Dict, List, Optional, Tuple, cast

from ...errors import RulesetRuntimeError, SaveError
from .. import ops as O
from ..kinds import Frame, Kind, St
from ..ops import LOCALS, PLAYER as PLAYER_SLOT, WAIT_CHANCE, WAIT_DECISION, WAIT_NONE, RuleFault
from .shapes import ENGINE_ENDINGS, _err, _what
from .spec import CHANCE_OPS, DECISION_OPS, Spec


def _check_values(spec: Spec, doc: Dict[str, Any], n: int) -> None:
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


def _check_piles(spec: Spec, doc: Dict[str, Any], n: int) -> None:
    prog = spec.prog
    piles = doc["piles"]
    nshared, nper = len(prog.shared_piles), len(prog.player_piles)
    want = nshared + nper * n
    if len(piles) != want:
        raise SaveError("$.piles", f"the game has {nshared} shared piles and {nper} per player: "
                                   f"{want} with {n} players, not {len(piles)}")
    cards_of_game = spec.deck_cards + Counter({c: k * n for c, k in spec.player_deck_cards.items()})
    have: Counter[int] = Counter()
    for pile in piles:
        have.update(pile)
    if have == cards_of_game:
        return
    names = prog.card_names
    have = Counter()
    for i, pile in enumerate(piles):
        for j, c in enumerate(pile):
            if c >= spec.ncards:
                raise _err(("piles", i, j), f"card id {c} does not exist (the decks hold ids "
                                            f"0 to {spec.ncards - 1})")
            have[c] += 1
            if have[c] > cards_of_game[c]:
                raise _err(("piles", i, j), f"one {names[c]!r} too many: the decks hold "
                                            f"{cards_of_game[c]}, and cards are never made")
    for c, count in cards_of_game.items():
        if have[c] != count:
            raise SaveError("$.piles", f"{count - have[c]} {names[c]!r} missing: the decks hold "
                                       f"{count}, the piles {have[c]}, and cards are never lost")


def _work(spec: Spec, code: int, kind: Kind, x: Any, fr_pc: int, top_wait: bool,
          n: int) -> Optional[str]:
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


def _check_frame(spec: Spec, doc: Dict[str, Any], i: int, fr: Frame, n: int,
                 top_wait: bool) -> None:
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
    for s, kinds, work, plain, test in spec.locals_of(code):
        x = fr[s]
        if work:
            reasons = [_work(spec, code, k, x, pc, top_wait, n) for k in work]
            if any(r is None for r in reasons):
                continue
            if plain and any(spec.fits(k, x, n) for k in plain):
                continue
            raise _err(parts + (s,), cast(str, reasons[0]))     # (none of them is None)
        if not test(x, n):
            raise _err(parts + (s,), f"local {s - LOCALS} of {name} holds "
                                     f"{spec.describe(kinds, n)}, not {_what(x)}")


def _player_loops(spec: Spec, fr: Frame, n: int) -> Tuple[Any, Optional[str]]:
    """(the frame's player before its 'for each player' loops changed it,
    or the reason it is wrong)."""
    active = [(pc, op) for pc, op in spec.player_loops(fr[0]) if fr[op.work] is not None]
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


def _check_stack(spec: Spec, doc: Dict[str, Any], n: int) -> None:
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
    bases: List[Any] = []
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
        elif stack[1][0] == prog.round_code:
            if doc["round"] < 1 or doc["order_pos"] != -1 or doc["turn_player"] is not None:
                raise SaveError("$.turn_player", "as a round begins ('every round') there is no "
                                                 "turn: turn_player is null, round at least 1 "
                                                 "and order_pos -1")
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


def _check_rest(spec: Spec, doc: Dict[str, Any], n: int) -> None:
    _check_shown(spec, doc.get("shown", []), n)
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


def _ending_holds(spec: Spec, st: St) -> None:
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


def _probe(st: St) -> None:
    """The state plays: its legal moves, its view, the result.  The view is
    a spectator's: a seat's differs from it only in the names of the cards
    of the piles that seat may see (cards ``_check_piles`` has found to be
    the decks' own) and in its legal moves (worked out here already), so it
    cannot fail where the spectator's does not, and one view is worked
    out, not one a seat."""
    def fails(what: str, e: Exception) -> None:
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
    try:
        st.view(None)
    except Exception as e:
        fails("view(None)", e)
    try:
        st.result()
    except Exception as e:
        fails("result()", e)
    st._changed()


def _check_shown(spec: Spec, shown: List[int], n: int) -> None:
    """Each revealed stat is a hidden or secret stat or piece value of this game, once,
    in order (``State.shown``)."""
    prog = spec.prog
    K, hidden = prog.K, {k for k, _ in prog.player_sight}
    for i, key in enumerate(shown):
        if key >= 0:
            ok = key < n * K and key % K in hidden
        else:
            ok = (-1 - key < len(prog.global_stats) and prog.global_stats[-1 - key].sight is not None) \
                or -1 - key in prog.piece_sight_g
        if not ok:
            raise _err(("shown", i), f"{key} is not a hidden or secret stat or piece value of this game")
    if shown != sorted(set(shown)):
        raise SaveError("$.shown", "the revealed stats are listed once each, in increasing order")
