"""A view of a game made for language-model agents, the same for every
ruleset and needing no third-party library.

- ``prompt(state, seat)``: the seat's situation as text a model can read
  (whose decision it is, the options numbered with their exact move
  strings, what the seat sees, its latest events) and the same as JSON.
- ``parse_move(state, text, seat)``: the move a reply names, accepted only
  when the reply is exactly one option's move string or its number;
  anything else is refused with the reason and the nearest options (a
  lenient parser that guesses would play a move the model did not make).
- ``explain(state, move, seat)``: why a move is not legal now, as far as
  the engine can tell it without reading anything the seat may not see.

Everything a seat is given comes from ``State.view(seat)``,
``State.log_for(seat)`` and ``State.legal_moves(player=seat)``, so a
prompt never holds what that seat may not see.  ``render(state, seat)`` is
the view in words, which the other adapters' ``render`` use too.
"""

from __future__ import annotations

import difflib
import json
from typing import Any, Dict, List, Optional, Sequence, Union

import attrs

from ..engine import CHANCE, Move, State
from ..errors import IllegalMoveError
from ..show import terminal, word

#: The latest log entries a prompt shows, unless told.
RECENT = 12
#: The nearest options a refusal lists.
NEAREST = 5


# ----------------------------------------------------------------- the view in words

def _pile(p: Any) -> str:
    if isinstance(p, dict) and set(p) == {"size"}:
        n = p["size"]
        return f"{n} card{'s' if n != 1 else ''} (unseen)"
    if isinstance(p, list):
        return ", ".join(map(str, p)) if p else "empty"
    return word(p)


def _stats(stats: Dict[str, Any]) -> str:
    return ", ".join(f"{k} {word(v)}" for k, v in stats.items())


def _who(seat: Optional[int], viewer: Optional[int]) -> str:
    if seat is None:
        return "nobody"
    if seat == CHANCE:
        return "chance"
    return f"P{seat}" + (" (you)" if seat == viewer else "")


def render_view(view: Dict[str, Any]) -> str:
    """A view (``State.view``) as lines of text: the game and whose move it
    is, then the game's values, each player's, the piles, the pieces."""
    viewer = view.get("viewer")
    lines = [f"{view.get('game', 'Game')}, round {view.get('round')}"]
    if view.get("over") is not None:
        lines[0] += f": the game is over ({view['over']})"
    else:
        lines[0] += f"; {_who(view.get('current_player'), viewer)} to move"
    if view.get("globals"):
        lines.append("Game: " + _stats(view["globals"]))
    if view.get("secret"):
        lines.append("Secret: " + ", ".join(map(str, view["secret"])))
    for p in view.get("players", []):
        parts = [_stats(p.get("stats", {}))]
        parts += [f"{name}: {_pile(pile)}" for name, pile in p.get("piles", {}).items()]
        if p.get("hidden"):
            parts.append("hidden: " + ", ".join(p["hidden"]))
        lines.append(f"{_who(p.get('seat'), viewer)}: " + "; ".join(x for x in parts if x))
    for name, actor in view.get("actors", {}).items():
        parts = [_stats(actor.get("stats", {}))]
        parts += [f"{pname}: {_pile(pile)}" for pname, pile in actor.get("piles", {}).items()]
        lines.append(f"{name}: " + "; ".join(x for x in parts if x))
    if view.get("piles"):
        lines.append("Piles: " + "; ".join(f"{k}: {_pile(v)}" for k, v in view["piles"].items()))
    for name, track in view.get("tracks", {}).items():
        lines.append(f"Track {name}: {word(track)}")
    for kind, pieces in view.get("pieces", {}).items():
        shown = []
        for piece in pieces:
            fields = {k: v for k, v in piece.items() if k != "name" and v is not None}
            shown.append(f"{piece.get('name')} ({_stats(fields)})" if fields else str(piece.get("name")))
        lines.append(f"{kind}: " + "; ".join(shown))
    known = {"game", "viewer", "round", "over", "current_player", "turn_player", "globals", "secret",
             "players", "actors", "piles", "tracks", "pieces", "legal_moves"}
    for key, value in view.items():
        if key not in known:
            lines.append(f"{key}: {word(value)}")
    return "\n".join(lines)


def render(state: State, seat: Optional[int] = None) -> str:
    """What ``seat`` sees (None: a spectator), in words."""
    return render_view(state.view(seat))


def ansi(state: State, seat: Optional[int] = None) -> str:
    """``render`` for a terminal (the environments' ``render_mode="ansi"``):
    a ruleset's control characters written as escapes (``show.terminal``)."""
    return terminal(render(state, seat))


# ----------------------------------------------------------------- prompts

@attrs.frozen
class Prompt:
    """A seat's situation: ``text`` for the model, ``data`` the same as
    plain JSON-ready data (``to_json``)."""

    text: str
    data: Dict[str, Any]

    def to_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, default=str)

    def __str__(self) -> str:
        return self.text


def prompt(state: State, seat: int, recent: int = RECENT) -> Prompt:
    """The prompt for ``seat``: its decision and options when it is to
    move, what it sees and its latest ``recent`` events."""
    view = state.view(seat)
    options = state.legal_moves(player=seat)
    events = [e.text for e in state.log_for(seat)[-recent:]] if recent > 0 else []
    who = state.current_player
    if state.is_over:
        decision = f"The game is over ({state.result().ending})."
    elif who == seat:
        decision = f"It is your decision (you are P{seat}). Choose one of these {len(options)} moves."
    elif who == CHANCE:
        decision = f"You are P{seat}. Chance decides next; you have no move now."
    else:
        decision = f"You are P{seat}. It is P{who}'s decision; you have no move now."
    data: Dict[str, Any] = {
        "game": state.game.title, "seat": seat, "your_turn": bool(options),
        "decision": decision,
        "options": [{"number": i, "move": m.label} for i, m in enumerate(options, 1)],
        "view": {k: v for k, v in view.items() if k != "legal_moves"},
        "recent_events": events,
    }
    lines = [f"You are playing {state.game.title}, as P{seat}.", decision]
    if options:
        lines.append("Options (reply with the exact move, or its number):")
        lines += [f"  {i}. {m.label}" for i, m in enumerate(options, 1)]
    lines += ["", "What you see:", render_view(view)]
    if events:
        lines += ["", "Latest events:"] + [f"  - {t}" for t in events]
    return Prompt("\n".join(lines), data)


# ----------------------------------------------------------------- replies

class MoveRefused(IllegalMoveError):
    """A reply that names no legal move: ``reason`` says why, ``nearest``
    lists the closest legal moves (the seat's own)."""

    def __init__(self, reason: str, text: str, nearest: Sequence[str]) -> None:
        shown = f"; the nearest legal moves: {', '.join(map(repr, nearest))}" if nearest else ""
        super().__init__(reason + shown, text)
        self.reason = reason
        self.nearest = list(nearest)


def _nearest(text: str, labels: List[str], most: int = NEAREST) -> List[str]:
    close = difflib.get_close_matches(text, labels, n=most, cutoff=0.0)
    return close or labels[:most]


def _moves_for(state: State, seat: Optional[int]) -> List[Move]:
    return state.legal_moves() if seat is None else state.legal_moves(player=seat)


def parse_move(state: State, text: Any, seat: Optional[int] = None) -> Move:
    """The legal move ``text`` names: exactly one option's move string
    (outer spaces aside), or a number from 1 to the number of options
    (their order in ``prompt``) when no option's string is that number.
    ``seat``: whose reply it is (its options only; None: the embedding
    program's, any legal move).  Anything else raises ``MoveRefused``."""
    if not isinstance(text, str):
        raise MoveRefused(f"a reply is text, not {type(text).__name__}", repr(text), [])
    if state.is_over:
        raise MoveRefused(f"the game is over ({state.result().ending}); no move is legal", text, [])
    moves = _moves_for(state, seat)
    if not moves:
        who = state.current_player
        now = "chance decides next" if who == CHANCE else f"it is P{who}'s decision"
        raise MoveRefused(f"P{seat} has no move now ({now})", text, [])
    labels = [m.label for m in moves]
    given = text.strip()
    if not given:
        raise MoveRefused("the reply names no move", text, _nearest(given, labels))
    exact = [m for m in moves if m.label == given]
    if given.isascii() and given.isdigit():
        n = int(given)
        if 1 <= n <= len(moves):
            if exact and exact[0] is not moves[n - 1]:
                raise MoveRefused(f"{given!r} is both a move string and the number of another "
                                  f"move; give the whole move", text, [exact[0].label, moves[n - 1].label])
            return moves[n - 1]
        if exact:
            return exact[0]
        raise MoveRefused(f"there are {len(moves)} options; {n} is not one of their numbers",
                          text, labels[:NEAREST])
    if exact:
        return exact[0]
    folded = [label for label in labels if label.casefold() == given.casefold()
              or " ".join(label.split()).casefold() == " ".join(given.split()).casefold()]
    if folded:
        raise MoveRefused(f"{given!r} is not a move string; moves are matched exactly "
                          f"(letters' case and spaces too)", text, folded)
    inside = [label for label in labels if given.casefold() in label.casefold()]
    if len(inside) > 1:
        raise MoveRefused(f"{given!r} is part of {len(inside)} moves; give one whole", text,
                          inside[:NEAREST])
    raise MoveRefused(_why(given, labels, state, seat), text, _nearest(given, labels))


def _why(given: str, labels: List[str], state: Optional[State] = None,
         seat: Optional[int] = None) -> str:
    """Why ``given`` is none of ``labels``, from what the seat may know:
    its options (never the game's history, which holds others' secrets),
    the statement that asks, and what the seat sees of the thing named."""
    reason = _answers(given, labels)
    if state is None:
        return reason
    extra = [x for x in (_asked_by(state), _seen(state, seat, given.rpartition(": ")[2])) if x]
    return "; ".join([reason] + extra)


def _answers(given: str, labels: List[str]) -> str:
    prompt_of, _, answer = given.rpartition(": ")
    if prompt_of:
        same = [label.rpartition(": ")[2] for label in labels if label.rpartition(": ")[0] == prompt_of]
        if same:
            return (f"{prompt_of!r} is asked now, but {answer!r} is not among its answers "
                    f"({', '.join(same[:12])}{', …' if len(same) > 12 else ''})")
        asked = sorted({label.rpartition(': ')[0] for label in labels if ": " in label})
        if asked:
            return f"{prompt_of!r} is not asked now (asked: {', '.join(map(repr, asked))})"
    return f"{given!r} is not a legal move now"


def _asked_by(state: State) -> Optional[str]:
    """The rule and line of the statement that asks now, quoted from the
    rule file (public: the rules are).  Read from the engine's running
    state, defensively: None when it cannot be told."""
    try:
        frame = state.stack[-1]
        rule, pos = state.prog.codes[frame[0]][frame[1]].where
        if pos is None:
            return None
        number = int(pos.line)
        line = state.game.ruleset.source.splitlines()[number - 1].strip()
    except Exception:       # (the engine's inside changed, or no source kept)
        return None
    return f"asked by {rule}, line {number}: `{line}`" if line else None


def _seen(state: State, seat: Optional[int], name: str) -> Optional[str]:
    """What ``seat`` (None: the seat to decide) sees of a piece or a card
    named ``name``: a piece's values, or the piles the card is in."""
    viewer = seat if seat is not None else state.current_player
    if viewer is not None and viewer < 0:
        viewer = None
    view = state.view(viewer)
    for kind, pieces in view.get("pieces", {}).items():
        for piece in pieces:
            if piece.get("name") == name:
                values = {k: v for k, v in piece.items() if k != "name"}
                return f"{name} ({kind}) has {_stats(values)}" if values else None
    places = [f"{'your ' if p.get('seat') == viewer else _who(p.get('seat'), viewer) + ' '}{pile}"
              for p in view.get("players", []) for pile, cards in p.get("piles", {}).items()
              if isinstance(cards, list) and name in cards]
    places += [pile for pile, cards in view.get("piles", {}).items()
               if isinstance(cards, list) and name in cards]
    if places:
        return f"{name} is in {', '.join(places)}"
    return None


def explain(state: State, move: Union[Move, str], seat: Optional[int] = None) -> str:
    """Why ``move`` (a ``Move`` or a move string) is not legal now for
    ``seat`` (None: anyone), or that it is legal.  Says only what the seat
    may know: whose turn it is, the options it has, what was asked."""
    label = move.label if isinstance(move, Move) else move
    if not isinstance(label, str):
        return f"a move is a Move or its move string, not {type(label).__name__}"
    if state.is_over:
        return f"the game is over ({state.result().ending}); no move is legal"
    moves = _moves_for(state, seat)
    if not moves:
        who = state.current_player
        now = "chance decides next" if who == CHANCE else f"it is P{who}'s decision"
        return f"P{seat} has no move now: {now}"
    labels = [m.label for m in moves]
    if label in labels:
        return f"{label!r} is legal now"
    return _why(label, labels, state, seat)


__all__ = ["MoveRefused", "Prompt", "explain", "parse_move", "prompt", "render", "render_view", "ansi"]
