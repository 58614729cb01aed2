"""Game and State: the move API, the same for every ruleset.

A ``State`` is plain data (lists of ints and strings, a stack of frames, a
64-bit generator counter), so cloning, comparing and saving it are cheap
and exact.  All game logic lives in the compiled program (``program``,
``ops``); this module runs it until the next decision or chance node.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence

import attrs

from ..errors import IllegalMoveError, RulesetError, RulesetRuntimeError
from ..limits import DEFAULT as DEFAULT_LIMITS, Limits
from . import saves as _saves
from .program import Program
from .ops import (CODE, PC, WAIT_CHANCE, WAIT_NONE, Policy, PureFault, RuleFault, _At, fault,
                  logged, rand_below)
from .visibility import Sight, sees

#: ``State.current_player`` at a chance node.
CHANCE = -1

#: ``legal_moves`` / ``apply`` without ``player``: the embedding program's own call.
_ANYONE = object()


class Move:
    """One legal decision (or chance outcome).  ``label`` is unique among
    the moves legal at that point; ``probability`` is set at chance nodes.
    Two moves are equal when label, player and probability are.  A move is
    immutable: the engine keeps and shares the moves it hands out (a plain
    slotted class: a move list is made at every decision, so it is kept
    cheap)."""

    __slots__ = ("label", "player", "probability", "value", "_at")

    def __init__(self, label: str, player: Optional[int], probability: Optional[Fraction] = None,
                 value: Any = None):
        _set = object.__setattr__
        _set(self, "label", label)
        _set(self, "player", player)
        _set(self, "probability", probability)
        _set(self, "value", value)
        _set(self, "_at", -1)   # its place in the list of legal moves it was made for

    def __setattr__(self, name, value):
        raise AttributeError(f"a Move cannot be changed (its {name!r} is fixed)")

    def __delattr__(self, name):
        raise AttributeError(f"a Move cannot be changed (its {name!r} is fixed)")

    def __reduce__(self):
        return (Move, (self.label, self.player, self.probability, self.value))

    @staticmethod
    def _list(found, player):
        """Moves for an op's list of (label, probability, value), each
        knowing its place (so ``apply`` finds it at once)."""
        out = []
        for i, (label, prob, value) in enumerate(found):
            m = _new_move(Move)
            _set_label(m, label)
            _set_player(m, player)
            _set_probability(m, prob)
            _set_value(m, value)
            _set_at(m, i)
            out.append(m)
        return out

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return (self.label, self.player, self.probability) == \
            (other.label, other.player, other.probability)

    def __hash__(self):
        return hash((self.label, self.player, self.probability))

    def __repr__(self):
        return f"Move(label={self.label!r}, player={self.player!r}, probability={self.probability!r})"

    def to_dict(self) -> Dict[str, Any]:
        d = {"label": self.label, "player": self.player}
        if self.probability is not None:
            d["probability"] = str(self.probability)
        value = self.value
        if isinstance(value, tuple):
            value = list(value)
        d["value"] = value
        return d

    def __str__(self):
        return self.label


#: What ``Move._list`` makes a move with: the slots' own setters (a move is
#: made at every decision, and ``__setattr__`` refuses every change).
_new_move = object.__new__
_set_label, _set_player, _set_probability, _set_value, _set_at = (
    Move.__dict__[name].__set__ for name in Move.__slots__)


@attrs.frozen
class Result:
    scores: tuple
    winners: tuple
    ending: Optional[str]


@attrs.frozen
class LogEntry:
    """One thing that happened.  ``text`` is for people, the rest for
    programs.

    ``seen_by`` says who may read the entry in full: None (everyone), a
    tuple of seats, or ``()`` (nobody: a card drawn into a deck or a shared
    hidden pile).  Everyone else gets its public form: ``public`` for the
    text and ``public_value`` for the value (``for_seat``).  ``State.log``
    holds the entries in full (for the embedding program);
    ``State.log_for(seat)`` gives a seat its own."""

    round: int
    player: Optional[int]
    kind: str
    text: str
    value: Any = None
    #: The text for those not in ``seen_by`` (when it is not None).
    public: Optional[str] = None
    seen_by: Optional[tuple] = None
    #: The value for those not in ``seen_by``.
    public_value: Any = None

    def for_seat(self, seat: Optional[int]) -> "LogEntry":
        """The entry as ``seat`` (None: a spectator) may read it: itself, or
        its public form (``text`` and ``value`` replaced by ``public`` and
        ``public_value``), whose ``to_dict()`` is all that seat may see."""
        if sees(self.seen_by, seat):
            return self
        return attrs.evolve(self, text=self.public if self.public is not None else f"({self.kind})",
                            value=self.public_value)

    def text_for(self, viewer: Optional[int]) -> str:
        """The text as ``viewer`` may read it (None: a spectator)."""
        return self.for_seat(viewer).text

    def to_dict(self):
        v = self.value
        d = {"round": self.round, "player": self.player, "kind": self.kind,
             "text": self.text, "value": list(v) if isinstance(v, tuple) else v}
        if self.seen_by is not None:
            pv = self.public_value
            d["seen_by"] = list(self.seen_by)
            d["public"] = self.public
            d["public_value"] = list(pv) if isinstance(pv, tuple) else pv
        return d

    @classmethod
    def from_dict(cls, d) -> "LogEntry":
        """The entry ``to_dict`` gave.  An entry with a ``public`` text but
        no ``seen_by`` (saved before ``seen_by`` existed) is read by nobody
        in full."""
        v = d.get("value")
        if type(v) is list:
            v = tuple(v)
        if "public" not in d:       # read by everyone (most entries)
            return cls(d["round"], d["player"], d["kind"], d["text"], v)
        public, seen_by, pv = d["public"], d.get("seen_by"), d.get("public_value")
        if seen_by is None:
            seen_by = () if public is not None else None
        return cls(d["round"], d["player"], d["kind"], d["text"], v, public,
                   tuple(seen_by) if seen_by is not None else None,
                   tuple(pv) if type(pv) is list else pv)


class State:
    """One game in progress.

    ``chance_record`` is None, or a list to which every chance outcome
    settled in sample mode is appended as the label explicit mode offers
    for it ("roll 4", "draw Trek"), so that a sampled game can be replayed
    move for move in explicit mode (``rulelang.testing`` does).  It is not
    part of the game: not compared, cloned or saved.

    ``hist`` holds the labels of the moves made (``history``), newest
    first, as a linked tuple ``(label, rest)`` that clones share; it ends in
    None, or in a 1-tuple ``(labels,)`` of the moves before (a restored
    state's, kept as one tuple)."""

    __slots__ = ("game", "prog", "n", "explicit", "seed", "rng", "v", "g", "piles",
                 "nshared", "stack", "waiting", "actor", "rerolling", "turn_player",
                 "round", "order_pos", "skips", "test", "over", "options", "log_tail",
                 "limits", "logging", "_moves", "chance_record", "steps", "hist")

    # ------------------------------------------------------------ public API

    @property
    def players(self) -> int:
        return self.n

    @property
    def current_player(self) -> Optional[int]:
        if self.over is not None:
            return None
        if self.waiting == WAIT_CHANCE:
            return CHANCE
        return self.actor

    @property
    def is_over(self) -> bool:
        return self.over is not None

    @property
    def is_chance_node(self) -> bool:
        return self.over is None and self.waiting == WAIT_CHANCE

    def legal_moves(self, player=_ANYONE) -> List[Move]:
        """Every legal move now (chance outcomes included).  With
        ``player=seat``: that seat's moves, none unless it is its decision
        (what a server gives a seat; see ``visibility``)."""
        if player is not _ANYONE:
            return Sight(self, player).moves()
        if self.over is not None:
            return []
        return list((self._moves or self._legal())[0])

    def _legal(self):
        """(moves, {label: move} or None, the op) at this point, computed
        once per position (the labels' index when first asked)."""
        cached = self._moves
        if cached is None:
            fr = self.stack[-1]
            op = self.prog.codes[fr[CODE]][fr[PC]]
            player = None if self.waiting == WAIT_CHANCE else self.actor
            try:
                moves = op.move_list(self, fr, player, Move._list)
            except RulesetError:
                raise
            except Exception as e:  # a fault inside a rule, reported with its place
                raise _fault(self, op, e) from e
            cached = self._moves = (moves, None, op)
        return cached

    def apply(self, move, player=_ANYONE) -> "State":
        """Make a move (a ``Move`` or its label).  An illegal move raises
        ``IllegalMoveError`` and changes nothing; so does any other failure
        (a ``RulesetRuntimeError`` from a rule): the state is then exactly
        as it was before the call.  Returns the state.

        ``player=seat`` makes the move for that seat only (a server passes
        the seat of the client that sent it): refused with
        ``IllegalMoveError`` unless it is that seat's decision (a chance
        outcome is no seat's), and the message then names only whose turn
        it is; the message for a move the seat may not make lists only that
        seat's own legal moves.  A seat that does not exist (or a bool, or
        not an int) raises ``ValueError``."""
        if player is not _ANYONE:
            refused = Sight(self, player).refusal(move)
            if refused is not None:
                raise IllegalMoveError(refused, move)
        if self.over is not None:
            raise IllegalMoveError(f"the game is over ({self.over}); no move is legal", move)
        moves, by_label, op = self._moves or self._legal()
        found = None
        if type(move) is Move:
            i = move._at
            if 0 <= i < len(moves) and moves[i] is move:
                found = move
        if found is None:
            found = self._find(move, moves, by_label, op)
        before = self._snapshot()
        record = self.chance_record
        recorded = 0 if record is None else len(record)
        self._moves = None
        try:
            go = op.resume(self, self.stack[-1], found.value)
            if go:
                self._run()
            if self.over is None:
                # The next decision's moves, now: a rule that cannot list
                # them (past Limits.max_choices, say) fails this apply.
                self._legal()
        except BaseException as e:
            self._back_to(before)
            if record is not None:
                del record[recorded:]
            if isinstance(e, RulesetError) or not isinstance(e, Exception):
                raise
            raise _fault(self, op, e) from e
        self.hist = (found.label, self.hist)
        return self

    def _find(self, move, moves, by_label, op):
        """The legal move that ``move`` (a label, or a ``Move`` made
        elsewhere) names; compared by value, so a move whose fields do not
        match a legal one is refused."""
        label = move.label if isinstance(move, Move) else move
        if not isinstance(label, str):
            raise IllegalMoveError(f"a move is a Move or its label (a string), not {label!r}",
                                   move)
        if by_label is None:
            by_label = {m.label: m for m in moves}
            self._moves = (moves, by_label, op)
        found = by_label.get(label)
        if found is None:
            shown = ", ".join(repr(m.label) for m in moves[:12]) + (", …" if len(moves) > 12 else "")
            raise IllegalMoveError(f"{label!r} is not a legal move now; legal moves: {shown}", move)
        if isinstance(move, Move) and (move.player, move.probability, move.value) != \
                (found.player, found.probability, found.value):
            raise IllegalMoveError(f"{label!r} does not match the legal move of that label "
                                   f"(its player, probability or value differ)", move)
        return found

    #: What a move may change (the rest is fixed for the game), in the
    #: order ``_snapshot`` holds it.
    _CHANGING = ("rng", "v", "g", "piles", "stack", "waiting", "actor", "rerolling",
                 "turn_player", "round", "order_pos", "skips", "test", "over", "log_tail",
                 "_moves", "steps", "hist")

    def _snapshot(self) -> tuple:
        """What ``_back_to`` needs to undo a failed ``apply``: the values of
        ``_CHANGING``, its lists copied (cheaper than a clone: a move is
        made at every step)."""
        return (self.rng, self.v[:], self.g[:], list(map(list.copy, self.piles)),
                list(map(list.copy, self.stack)), self.waiting, self.actor, self.rerolling,
                self.turn_player, self.round, self.order_pos, self.skips, self.test, self.over,
                self.log_tail, self._moves, self.steps, self.hist)

    def _back_to(self, snapshot: tuple) -> None:
        """This state again exactly as it was when ``snapshot`` was taken."""
        (self.rng, self.v, self.g, self.piles, self.stack, self.waiting, self.actor,
         self.rerolling, self.turn_player, self.round, self.order_pos, self.skips, self.test,
         self.over, self.log_tail, self._moves, self.steps, self.hist) = snapshot

    def result(self) -> Result:
        prog = self.prog
        scores = []
        for seat in range(self.n):
            probe = [None, 0, seat]
            total = 0
            for points, cond in prog.score_items:
                if cond is None or cond(self, probe):
                    total += points(self, probe)
            scores.append(total)
        if not scores:
            return Result((), (), self.over)
        best = max(scores) if prog.rs.winner == "highest" else min(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best) if self.over else ()
        return Result(tuple(scores), winners, self.over)

    def clone(self) -> "State":
        c = State.__new__(State)
        c.game = self.game
        c.prog = self.prog
        c.n = self.n
        c.explicit = self.explicit
        c.seed = self.seed
        c.rng = self.rng
        c.v = self.v[:]
        c.g = self.g[:]
        c.piles = list(map(list.copy, self.piles))     # (faster than a comprehension)
        c.nshared = self.nshared
        c.stack = list(map(list.copy, self.stack))
        c.waiting = self.waiting
        c.actor = self.actor
        c.rerolling = self.rerolling
        c.turn_player = self.turn_player
        c.round = self.round
        c.order_pos = self.order_pos
        c.skips = self.skips
        c.test = self.test
        c.over = self.over
        c.options = self.options
        c.log_tail = self.log_tail
        c.limits = self.limits
        c.logging = self.logging
        c._moves = self._moves      # immutable once made: a clone shares it
        c.chance_record = None
        c.steps = 0
        c.hist = self.hist
        return c

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    def _key(self):
        return (self.n, self.explicit, self.seed, self.rng, self.v, self.g, self.piles,
                self.stack, self.waiting, self.actor, self.rerolling, self.turn_player,
                self.round, self.order_pos, self.skips, self.test, self.over)

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self.game.fingerprint == other.game.fingerprint and self._key() == other._key()

    def __hash__(self):
        return hash(json.dumps(self._plain(), sort_keys=True))

    def log_for(self, player: Optional[int]) -> List[LogEntry]:
        """The log as ``player`` (None: a spectator) may read it: each entry
        in full or in its public form (``LogEntry.for_seat``).  A seat that
        does not exist raises ``ValueError``."""
        return Sight(self, player).log()

    @property
    def history(self) -> List[str]:
        """The label of every move made since ``new_game`` (in explicit mode
        the chance outcomes too), oldest first: with the game's setup, what
        ``to_replay`` saves.  Not part of ``==``.  Values set directly
        (``set_stat``, ``set_pile``, ``set_piece``) are not moves and are not
        in it."""
        out = []
        node = self.hist
        while node is not None:
            if len(node) == 1:
                return [*node[0], *reversed(out)]
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    @property
    def log(self) -> List[LogEntry]:
        """Every entry in full: for the embedding program (a seat gets
        ``log_for(seat)``)."""
        out = []
        node = self.log_tail
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def stat(self, name: str, player: Optional[int] = None):
        """The value of a stat: a player's (``player`` given) or a global."""
        prog = self.prog
        if player is not None:
            if name not in prog.pslot:
                raise KeyError(f"no per-player stat {name!r}")
            return self.v[player * prog.K + prog.pslot[name]]
        if name not in prog.gslot:
            raise KeyError(f"no global stat {name!r}")
        return self.g[prog.gslot[name]]

    def set_stat(self, name: str, value, player: Optional[int] = None) -> None:
        """Set a stat directly (for tests and tools; no triggers run)."""
        prog = self.prog
        self._moves = None
        if player is not None:
            self.v[player * prog.K + prog.pslot[name]] = value
        else:
            self.g[prog.gslot[name]] = value

    def piece(self, pieces: str, name: str) -> Dict[str, Any]:
        """A piece's fixed attributes and state values, by name."""
        prog = self.prog
        if pieces not in prog.piece_sets:
            raise KeyError(f"no piece set named {pieces!r}")
        names = prog.piece_names[pieces]
        if name not in names:
            raise KeyError(f"no piece {name!r} in {pieces!r}")
        i = names.index(name)
        out = {attr: values[i] for attr, values in prog.piece_attr[pieces].items()}
        base, K = prog.piece_base[pieces], prog.piece_K[pieces]
        for field, k in prog.piece_slot[pieces].items():
            out[field] = self.g[base + i * K + k]
        return out

    def set_piece(self, pieces: str, name: str, field: str, value) -> None:
        """Set a piece's state value directly (for tests and tools)."""
        prog = self.prog
        i = prog.piece_names[pieces].index(name)
        k = prog.piece_slot[pieces][field]
        self._moves = None
        self.g[prog.piece_base[pieces] + i * prog.piece_K[pieces] + k] = value

    def pile(self, name: str, player: Optional[int] = None) -> List[str]:
        """The card names in a pile (a deck lists its cards in no order)."""
        return [self.prog.card_names[c] for c in self.piles[self._pile_index(name, player)]]

    def set_pile(self, name: str, cards: Sequence[str], player: Optional[int] = None) -> None:
        """Put exactly these cards in a pile (for tests and tools)."""
        ids = []
        for card in cards:
            if card not in self.prog.card_by_name:
                raise KeyError(f"no card named {card!r}")
            ids.append(self.prog.card_by_name[card])
        self._moves = None
        self.piles[self._pile_index(name, player)][:] = ids

    def _pile_index(self, name, player):
        prog = self.prog
        if name in prog.pile_index:
            return prog.pile_index[name]
        if name in prog.player_pile_index:
            if player is None:
                raise KeyError(f"pile {name!r} belongs to each player: give the player")
            return self.nshared + prog.player_pile_index[name] * self.n + player
        raise KeyError(f"no pile named {name!r}")

    def view(self, player: Optional[int]) -> Dict[str, Any]:
        """What ``player`` may see (None: a spectator): every stat, the
        public piles, sizes only for decks and for others' hidden piles,
        and its legal moves' labels when it is its decision
        (``visibility.Sight``).  A seat that does not exist (or a bool, or
        not an int) raises ``ValueError``."""
        return Sight(self, player).view()

    def to_json(self, key=None) -> str:
        """The whole state as JSON text (``docs/saves.md``), for
        ``Game.restore``.  With ``key`` (bytes or str, the embedder's
        secret) the save carries an HMAC-SHA256 of its canonical form, and
        ``Game.restore(text, key=key)`` refuses it if anything was changed."""
        d = self._plain(include_log=True)
        if key is not None:
            d["mac"] = _saves.mac_of(d, key)
        return json.dumps(d, separators=(",", ":"))

    def to_replay(self, *, seed: bool = True, key=None) -> str:
        """The game as its setup (players, seed, chance mode, options) and
        the labels of its moves (``history``), as JSON text for
        ``Game.replay``.  ``seed=False`` leaves the seed out (for a client:
        the server keeps it and gives it to ``Game.replay``); with ``key``
        the replay carries an HMAC-SHA256 like ``to_json``'s."""
        return json.dumps(_saves.replay_doc(self, seed, key), separators=(",", ":"))

    def __reduce__(self):
        # A pickle is trusted input (it can run code anyway): the state
        # comes back from its plain form without the checks of ``restore``.
        return (_saves.state_from_plain, (self.game, self._plain(include_log=True), self.limits))

    def _plain(self, include_log=False):
        """The state as plain data; with ``include_log`` also its history
        and log (what ``to_json`` saves)."""
        d = {
            "format": _saves.FORMAT, "ruleset": self.game.fingerprint, "players": self.n,
            "chance": "explicit" if self.explicit else "sample", "seed": self.seed,
            "rng": self.rng, "v": self.v, "g": self.g, "piles": self.piles,
            "stack": self.stack, "waiting": self.waiting, "actor": self.actor,
            "rerolling": self.rerolling, "turn_player": self.turn_player, "round": self.round,
            "order_pos": self.order_pos, "skips": list(self.skips),
            "test": list(self.test) if self.test is not None else None, "over": self.over,
            "options": self.options, "logging": self.logging,
        }
        if include_log:
            d["history"] = self.history
            d["log"] = [e.to_dict() for e in self.log]
        return d

    def __repr__(self):
        who = self.current_player
        return (f"<State {self.prog.rs.title!r} players={self.n} round={self.round} "
                f"to_move={'chance' if who == CHANCE else who} over={self.over!r}>")

    # ------------------------------------------------------- machine hooks

    def note(self, player, kind, text, value, public=None, seen_by=None, public_value=None):
        """Log an entry; ``seen_by`` (see ``LogEntry``) when not everyone
        may read it in full, with ``public`` and ``public_value`` for the rest."""
        if self.logging:
            self.log_tail = logged(self, LogEntry(self.round, player, kind, text, value, public,
                                                  seen_by, public_value))

    def wait(self, kind, actor):
        self.waiting = kind
        self.actor = actor
        self.steps = 0      # the work of this move ends here (the next begins with its resume)

    def clear_wait(self):
        self.waiting = WAIT_NONE

    def push(self, frame):
        self.stack.append(frame)
        if len(self.stack) > self.limits.max_depth:
            name = self.prog.code_names[frame[CODE]]
            raise RulesetRuntimeError.at(
                self.prog.filename, 1, 1,
                f"rules call each other more than {self.limits.max_depth} levels deep "
                f"(endless recursion?) while starting {name}", self.prog.source)

    def end_turn(self):
        main = self.prog.main_code
        stack = self.stack
        while len(stack) > 1 and stack[-1][CODE] != main:
            stack.pop()

    def finish(self, ending):
        self.over = ending
        self.stack.clear()
        self.waiting = WAIT_NONE
        self.actor = None
        self.note(None, "end", f"the game ends: {ending}", ending)

    def preset_option(self, name, seat):
        if not self.options or name not in self.options:
            return None
        value = self.options[name]
        if isinstance(value, list):
            return value[seat] if seat < len(value) else None
        return value

    def _run(self):
        """Run the rules until a decision, a chance node or the end: each
        frame's code is one generated function (``codegen``), called until
        it waits (False) or the stack changes (True)."""
        prog = self.prog
        runners = prog.runners
        stack = self.stack
        self.steps = 0
        fr = None
        try:
            while stack:
                fr = stack[-1]
                run = runners[fr[0]]
                if run is None:
                    run = prog.runner(fr[0])
                if not run(self, fr):
                    return
            if self.over is None:
                self.finish("no more turns")
        except PureFault as e:
            raise fault(self, _At(e.where), e.error) from e.error
        except RuleFault as e:      # a limit reached by the machine itself (the log's)
            raise fault(self, _At(("the game", None)), e) from e


def _fault(st, op, e):
    """The ``RulesetRuntimeError`` for exception ``e`` raised inside ``op``."""
    return fault(st, op, e)


class Game:
    """A loaded, checked and compiled ruleset: makes and restores states."""

    #: The classes of what a game makes (``saves`` builds restored states
    #: through these, so it does not import this module).
    state_class = State
    log_entry_class = LogEntry

    def __init__(self, prog: Program, limits: Optional[Limits] = None):
        self.prog = prog
        self.ruleset = prog.rs
        #: The limits new and restored games get unless ``new_game`` is
        #: given others (``rulelang.load(..., limits=...)`` sets them).
        self.limits = limits or DEFAULT_LIMITS
        self.fingerprint = hashlib.sha256(repr(prog.rs).encode()).hexdigest()[:16]

    @property
    def title(self) -> str:
        return self.ruleset.title

    @property
    def min_players(self) -> int:
        return self.ruleset.min_players

    @property
    def max_players(self) -> int:
        return self.ruleset.max_players

    @property
    def options(self) -> Dict[str, List[str]]:
        """Setup options and their choices (for ``new_game(options=...)``)."""
        return {o.name: [c.label for c in o.choices] for o in self.ruleset.options}

    def __repr__(self):
        return f"<Game {self.title!r} players {self.min_players}..{self.max_players}>"

    def __reduce__(self):
        # Pickled as its ruleset and limits; compiled again when loaded.
        return (_saves.unpickle_game, (self.fingerprint, self.ruleset, self.limits, type(self)))

    def __copy__(self):
        return self     # a game does not change: a copy is the game itself

    def __deepcopy__(self, memo):
        return self

    def new_game(self, players: Optional[int] = None, seed: Optional[int] = None,
                 chance: str = "sample", options: Optional[Dict[str, Any]] = None,
                 limits: Optional[Limits] = None, log: bool = True) -> State:
        """A new game.  ``chance`` is "sample" (dice and draws resolved from
        the seeded generator held in the state) or "explicit" (every die and
        draw is a chance node whose moves carry exact probabilities).
        ``limits`` default to the game's (``Game.limits``)."""
        st = self._new_state(players, seed, chance, options, limits, log)
        st._run()
        if st.over is None:
            st._legal()     # a first decision whose moves cannot be listed fails here
        return st

    def _new_state(self, players, seed, chance, options, limits, log) -> State:
        """The state before setup has run (``new_game`` runs it)."""
        prog = self.prog
        n = self.min_players if players is None else players
        if not isinstance(n, int) or not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} "
                             f"players, not {players!r}")
        if chance not in ("sample", "explicit"):
            raise ValueError(f"chance must be 'sample' or 'explicit', not {chance!r}")
        if options:
            known = self.options
            for name, value in options.items():
                if name not in known:
                    raise ValueError(f"unknown option {name!r}; options: {', '.join(known) or 'none'}")
                values = value if isinstance(value, list) else [value]
                for v in values:
                    if v is not None and v not in known[name]:
                        raise ValueError(f"option {name!r} has no choice {v!r}; "
                                         f"choices: {', '.join(known[name])}")
        if seed is None:
            import secrets
            seed = secrets.randbits(63)
        st = State.__new__(State)
        st.game = self
        st.prog = prog
        st.n = n
        st.explicit = chance == "explicit"
        st.seed = int(seed) & ((1 << 64) - 1)
        st.rng = 0
        st.limits = limits or self.limits
        st.logging = log
        st.chance_record = None
        st.steps = 0
        st.log_tail = None
        st.hist = None
        K = prog.K
        st.v = [0] * (n * K)
        st.g = [None] * len(prog.global_stats)
        st.turn_player = None
        st.round = 0
        st.test = None
        probe_fr = [None, 0, 0]
        for k, init in enumerate(prog.global_init):
            st.g[k] = init(st, probe_fr)
        st.g.extend(prog.piece_init)   # each piece's state values
        for seat in range(n):
            probe = [None, 0, seat]
            for k, init in enumerate(prog.player_init):
                st.v[seat * K + k] = init(st, probe)
        st.nshared = len(prog.shared_piles)
        st.piles = [list(prog.deck_contents.get(name, ())) for name in prog.shared_piles]
        st.piles += [[] for _ in range(len(prog.player_piles) * n)]
        st.stack = [[prog.main_code, 0, 0] + [None] * prog.nlocals[prog.main_code]]
        st.waiting = WAIT_NONE
        st.actor = None
        st.rerolling = False
        st.order_pos = -1
        st.skips = ()
        st.over = None
        st.options = dict(options) if options else None
        st.round = 0
        st._moves = None
        return st

    def playouts(self, n: int, seed: int = 0, players: Optional[int] = None,
                 policy: str = "random", options: Optional[Dict[str, Any]] = None,
                 limits: Optional[Limits] = None) -> List[Result]:
        """The results of ``n`` whole games (seeds ``seed``, ``seed + 1`` …),
        every decision picked uniformly at random: what a simulation or a
        Monte Carlo search needs, made without building a move list or a
        label at each decision.  Game ``i`` is the game that
        ``new_game(players, seed + i)`` plays when the same decisions are
        applied through the normal API."""
        if policy != "random":
            raise ValueError(f"policy must be 'random', not {policy!r}")
        codes = self.prog.codes
        results = []
        for i in range(n):
            st = self.new_game(players=players, seed=seed + i, options=options, limits=limits,
                               log=False)
            chooser = Policy(seed + i)
            while st.over is None:
                fr = st.stack[-1]
                op = codes[fr[0]][fr[1]]
                try:
                    values = op.choices(st, fr)
                    pick = values[rand_below(chooser, len(values))]
                    go = op.resume(st, fr, pick)
                except RulesetError:
                    raise
                except Exception as e:
                    raise _fault(st, op, e) from e
                if go:
                    st._run()
            results.append(st.result())
        return results

    def restore(self, text, *, key=None) -> State:
        """The state saved in ``text`` (``State.to_json()``; str or bytes).
        The save is untrusted: it is read within ``Limits.max_save_bytes``,
        ``max_nodes`` and ``max_nesting``, checked against the declared
        shape (``schema/state.schema.json``) and against this game (every
        value of its kind, every card where it can be, every frame where
        its code waits or calls), and the state is tried (legal moves,
        views, result).  Anything wrong raises ``rulelang.SaveError``
        naming the place (``$.piles[3][7]``) and the reason.  With ``key``
        a save whose MAC is missing or wrong is refused (``to_json(key=)``).
        The state gets the game's limits."""
        return _saves.restore(self, text, key)

    def replay(self, text, *, seed: Optional[int] = None, key=None) -> State:
        """The game a replay (``State.to_replay()``) describes: made with
        ``new_game`` and played again move by move, so it can only be a game
        of legal moves.  A move that is not legal is refused with
        ``SaveError`` at ``$.moves[i]``.  ``seed``: the game's seed, when the
        replay leaves it out (or must agree with it); ``key`` as for
        ``restore``."""
        return _saves.replay(self, text, seed, key)



#: The format of ``State.to_json()`` (kept here too for those who import it).
FORMAT = _saves.FORMAT
