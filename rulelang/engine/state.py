"""State: one game in progress, and the move API on it (``legal_moves``,
``apply``, ``view``, ``to_json`` ...), the same for every ruleset.

A ``State`` is plain data (lists of ints and strings, a stack of frames, a
64-bit generator counter), so cloning, comparing and saving it are cheap
and exact.  All game logic lives in the compiled program (``program``,
``ops``); this module runs it until the next decision or chance node.  The
``Game`` that makes states is ``game.Game`` (which imports this module).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import IllegalMoveError, RulesetError, RulesetRuntimeError
from ..limits import Limits
from .kinds import Frame
from .moves import LogEntry, Move, Result
from .ops import (CODE, PC, WAIT_CHANCE, WAIT_NONE, Policy, PureFault, RuleFault, _At,
                  fault, logged)
from .program import Program
from .visibility import SeenBy, Sight, stat_key, unshow

if TYPE_CHECKING:
    from .saves.document import Key
    from .saves.shapes import Gm


def _saves() -> Any:
    """``engine.saves``, imported when first needed: most programs never
    save, and the import is a part of the time ``import rulelang`` takes."""
    from . import saves
    return saves


#: ``State.current_player`` at a chance node.
CHANCE = -1

#: ``legal_moves`` / ``apply`` without ``player``: the embedding program's own call.
_ANYONE: Any = object()

#: What ``State._legal`` works out once per position: the moves, an index
#: of their labels (made when first asked) and the op that listed them
#: (``Any``: ``ops.base.Op`` does not declare the ``resume`` of an op that waits).
Legal = Tuple[List[Move], Optional[Dict[str, Move]], Any]



#: What a playout's seed is mixed with (``State.playouts``), so that it is
#: no seed a game is likely to have been given.
_FRESH = 0x9E3779B97F4A7C15


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
                 "limits", "logging", "_moves", "chance_record", "steps", "hist", "shown",
                 "offer", "policy", "block", "_base")

    #: The ``game.Game`` that made it (``Any`` to mypy: game.py imports this module).
    game: Gm
    prog: Program
    #: The number of players.
    n: int
    explicit: bool
    seed: int
    #: The generator's counter (``ops.rand_below``).
    rng: int
    #: The per-player stats (``n`` blocks of ``prog.K``), then the globals
    #: and every piece's state values.
    v: List[Any]
    g: List[Any]
    #: The card ids of every pile: the shared ones, then each per-player
    #: pile's block of one per seat.
    piles: List[List[int]]
    nshared: int
    stack: List[Frame]
    #: ``WAIT_NONE``, ``WAIT_CHANCE`` or ``WAIT_DECISION``.
    waiting: int
    actor: Optional[int]
    rerolling: bool
    turn_player: Optional[int]
    round: int
    order_pos: int
    #: The phases to skip this turn, by name.
    skips: Tuple[str, ...]
    #: The last test's (passed, margin), or None.
    test: Optional[Tuple[Any, ...]]
    #: The ending, once the game is over.
    over: Optional[str]
    options: Optional[Dict[str, Any]]
    #: The log, newest first: ``(entry, rest, size)`` (``ops.logged``), or
    #: ``(entry, rest)`` in a restored log; None when empty.
    log_tail: Optional[Tuple[Any, ...]]
    limits: Limits
    logging: bool
    _moves: Optional[Legal]
    #: (the frame of the op waiting now, what it offers: the values of its
    #: moves, as its ``choices``), set as it starts waiting so the moves are
    #: not worked out twice; None when not known.  Anything that changes
    #: the state from outside the rules (as for ``_moves``) sets it to None.
    offer: Optional[Tuple[Frame, Sequence[Any]]]
    #: None for the move API: the moves of a decision are made as the rules
    #: reach it (``legal_moves`` asks for them next).  In ``Game.playouts``
    #: the chooser that picks among an op's values: the rules pick where
    #: they decide and go on without waiting, and make no moves.
    policy: Optional[Policy]
    #: The block of numbers the generator made last, ``(seed, number,
    #: its eight numbers)`` (``ops.random_block``): a memo, not part of
    #: the game (not compared or saved), shared by clones.
    block: Tuple[Any, int, Tuple[int, ...]]
    chance_record: Optional[List[str]]
    #: The work done since this move began (``Limits.max_steps``).
    steps: int
    hist: Optional[Tuple[Any, ...]]
    #: The hidden and secret stats whose values are revealed now (a stat's
    #: key: ``visibility.stat_key``), in order; a change hides one again.
    shown: Tuple[int, ...]
    #: Where a failed ``apply`` rebuilds this state from (``_rebuild``):
    #: (a state never changed again, or for a new game the (limits,
    #: logging) it was made with; the ``hist`` then); None after a change
    #: from outside the rules (``_changed``): the next ``apply`` takes one.
    _base: Optional[Tuple[Union["State", Tuple[Limits, bool]], Optional[Tuple[Any, ...]]]]

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

    @property
    def decision(self) -> Optional[str]:
        """What is being decided now, in the rule file's words: the title of
        the choice (``choose one "Act"`` → ``Act``), or for a roll that may
        be rerolled ``keep or reroll the roll for WHY``; None at a chance
        node and once the game is over.  (Public: every seat may know what
        another is deciding, if not what it decides.)"""
        if self.over is not None or self.waiting == WAIT_CHANCE:
            return None
        fr = self.stack[-1]
        op = self.prog.codes[fr[CODE]][fr[PC]]
        if self.rerolling:
            return f"keep or reroll the roll for {getattr(op, 'why', 'a roll')}"
        prompt = getattr(op, "prompt", None)
        return prompt if isinstance(prompt, str) and prompt else "choose"

    def legal_moves(self, player: Any = _ANYONE) -> List[Move]:
        """Every legal move now (chance outcomes included).  With
        ``player=seat``: that seat's moves, none unless it is its decision
        (what a server gives a seat; see ``visibility``)."""
        if player is not _ANYONE:
            return Sight(self, player).moves()
        if self.over is not None:
            return []
        return list((self._moves or self._legal())[0])

    def _legal(self) -> Legal:
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
                raise fault(self, op, e) from e
            cached = self._moves = (moves, None, op)
        return cached

    def apply(self, move: Union[Move, str], player: Any = _ANYONE) -> State:
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
        # One of the moves listed here, found at its place (a ``Move``'s
        # fields are read by place): the object itself, no other.
        try:
            found = move if moves[move[4]] is move else None   # type: ignore[index]
        except Exception:       # (a label, or not a move: ``_find`` says which)
            found = None
        if found is None:
            found = self._find(move, moves, by_label, op)
        if self._base is None:
            self._base = (self.clone(), self.hist)
        record = self.chance_record
        recorded = 0 if record is None else len(record)
        self._moves = self.offer = None
        self.steps = 0          # (a move's work begins with its resume)
        try:
            if op.resume(self, self.stack[-1], found[3]):
                self._run(self.steps)       # (with what the resume counted: a row pushed)
            if self.over is None and self._moves is None:
                # The next decision's moves, now: a rule that cannot list
                # them (past Limits.max_choices, say) fails this apply.
                self._legal()
        except BaseException as e:
            self._rebuild()
            if record is not None:
                del record[recorded:]
            if isinstance(e, RulesetError) or not isinstance(e, Exception):
                raise
            raise fault(self, op, e) from e
        self.hist = (found[0], self.hist)
        return self

    def _find(self, move: Union[Move, str], moves: List[Move],
              by_label: Optional[Dict[str, Move]], op: Any) -> Move:
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

    #: What a move may change (the rest is fixed for the game): what
    #: ``_rebuild`` puts back.
    _CHANGING = ("rng", "v", "g", "piles", "stack", "waiting", "actor", "rerolling",
                 "turn_player", "round", "order_pos", "skips", "test", "over", "log_tail",
                 "_moves", "steps", "hist", "shown", "offer", "block")

    def _rebuild(self) -> None:
        """This state again exactly as it was before the ``apply`` that
        failed: made again from ``_base`` by the moves made since (the
        engine is deterministic), which costs a failure time in proportion
        to the moves since, where a copy taken before every move would cost
        every move (a failure is rare: a ruleset's fault, a limit, Ctrl-C)."""
        assert self._base is not None       # (``apply`` takes one before it changes anything)
        start, since = self._base
        if isinstance(start, State):
            st = start.clone()
        else:                   # a new game's (limits, logging): made again so
            st = self.game.new_game(self.n, self.seed, "explicit" if self.explicit else "sample",
                                    self.options, start[0], start[1])
        st._base = self._base
        labels = []
        h = self.hist
        while h is not since and h is not None:
            labels.append(h[0])
            h = h[1]
        for label in reversed(labels):
            st.apply(label)
        hist = self.hist
        for name in self._CHANGING:
            setattr(self, name, getattr(st, name))
        self.hist = hist
        # The next failure starts here, not from further back.
        self._base = (st.clone(), hist)

    def _changed(self) -> None:
        """Note a change made from outside the rules (a test's, a tool's, a
        restored save's): the moves worked out before no longer hold, and a
        failed ``apply`` cannot rebuild from before it."""
        self._moves = self.offer = self._base = None

    def playouts(self, n: int, seed: int = 0) -> List[Result]:
        """The results of ``n`` games played on from here to their end,
        every decision picked uniformly at random (as ``Game.playouts``);
        this state is left as it was.  Game ``i`` draws its dice and cards
        afresh from ``seed + i``, never from this state's seed (which would
        tell the real game's draws to come); a chance node (explicit mode)
        is taken by its odds, and every game goes on in sample mode.  The
        games see everything this state holds: for one seat's look-ahead,
        play them from a game that seat cannot tell from this one."""
        if type(n) is not int or n < 0:
            raise ValueError(f"n must be a whole number of games, not {n!r}")
        results: List[Result] = []
        chooser = Policy(seed)
        for i in range(n):
            if self.over is not None:
                results.append(self.result())
                continue
            st = self.clone()
            chooser.restart(seed + i)
            st._reseed(chooser.x ^ _FRESH)      # (the chooser's start, mixed: not a game's seed)
            st.explicit = st.logging = False
            while st.waiting == WAIT_CHANCE and st.over is None:
                from fractions import Fraction      # (a load imports none: see ops.chance)
                st._take_chance(Fraction(chooser.below(1 << 32), 1 << 32))
            st._play_out(chooser)
            results.append(st.result())
        return results

    def _reseed(self, seed: int) -> None:
        """A generator of its own from ``seed`` (its seed and counter): a
        search's clone draws afresh (no public call)."""
        self.seed, self.rng = seed & ((1 << 64) - 1), 0

    def _take_chance(self, point: Any) -> None:
        """The chance outcome that ``point`` (uniform in [0, 1)) falls on,
        the outcomes laid end to end by their probabilities."""
        for move in self.legal_moves():
            point -= move.probability or 0
            if point < 0:
                break
        self.apply(move)

    def _play_out(self, chooser: Policy) -> None:
        """Play on with ``chooser`` picking each decision: in the rules
        where they decide (``State.policy``, ``Runner.decide``), here where
        a decision is left to its op (or was waiting as this began); until
        the game ends, the chooser has no pick left (``Policy.end``) or the
        game waits at a chance node (explicit mode).  The moves it makes are
        not put in the history: a playout's state is the searcher's own."""
        codes = self.prog.codes
        self.policy = chooser
        try:
            while self.over is None and chooser.x != chooser.end and self.waiting != WAIT_CHANCE:
                fr = self.stack[-1]
                op: Any = codes[fr[CODE]][fr[PC]]     # one that waits (``Op`` declares no resume)
                try:
                    values = op.choices(self, fr)
                    pick = values[chooser.below(len(values))]
                    self.steps = 0        # (as ``apply``)
                    go = op.resume(self, fr, pick)
                except RulesetError:
                    raise
                except Exception as e:
                    raise fault(self, op, e) from e
                if go:
                    self._run(self.steps)
        finally:
            self.policy = None

    def result(self) -> Result:
        prog = self.prog
        scores: List[int] = prog.scores(self)
        if self.over is None:
            return Result(tuple(scores), (), self.over)
        # Only those the winner's 'where' holds for may win (all, without
        # one); the best score among them wins, and nobody when none may.
        where = prog.winner_where
        rivals = [seat for seat in range(self.n) if where is None or where(self, [None, 0, seat])]
        if not rivals:
            return Result(tuple(scores), (), self.over)
        pick = max if prog.rs.winner == "highest" else min
        best = pick(scores[seat] for seat in rivals)
        return Result(tuple(scores), tuple(s for s in rivals if scores[s] == best), self.over)

    def clone(self) -> State:
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
        c.offer = None              # (its frames are copies)
        c.policy = None             # (a clone is played through the move API)
        c.block = self.block
        c.chance_record = None
        c.steps = 0
        c.hist = self.hist
        c.shown = self.shown
        c._base = self._base        # (never changed: shared)
        return c

    __copy__ = clone

    def __deepcopy__(self, memo: Dict[int, Any]) -> State:
        return self.clone()

    def _key(self) -> Tuple[Any, ...]:
        return (self.n, self.explicit, self.seed, self.rng, self.v, self.g, self.piles,
                self.stack, self.waiting, self.actor, self.rerolling, self.turn_player,
                self.round, self.order_pos, self.skips, self.test, self.over, self.shown)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game.fingerprint == other.game.fingerprint and self._key() == other._key()

    def __hash__(self) -> int:
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
        out: List[str] = []
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
        out: List[LogEntry] = []
        node = self.log_tail
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def stat(self, name: str, player: Optional[int] = None) -> Any:
        """The value of a stat: a player's (``player`` given) or a global."""
        prog = self.prog
        if player is not None:
            if name not in prog.pslot:
                raise KeyError(f"no per-player stat {name!r}")
            return self.v[player * prog.K + prog.pslot[name]]
        if name not in prog.gslot:
            raise KeyError(f"no global stat {name!r}")
        return self.g[prog.gslot[name]]

    def set_stat(self, name: str, value: Any, player: Optional[int] = None) -> None:
        """Set a stat directly (for tests and tools; no triggers run)."""
        prog = self.prog
        self._changed()
        if player is not None:
            self.v[player * prog.K + prog.pslot[name]] = value
        else:
            self.g[prog.gslot[name]] = value
        if self.shown:      # a revealed value that changes is hidden again
            unshow(self, stat_key(prog, name, player, self.n))

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

    def set_piece(self, pieces: str, name: str, field: str, value: Any) -> None:
        """Set a piece's state value directly (for tests and tools)."""
        prog = self.prog
        i = prog.piece_names[pieces].index(name)
        k = prog.piece_slot[pieces][field]
        self._changed()
        self.g[prog.piece_base[pieces] + i * prog.piece_K[pieces] + k] = value

    def pile(self, name: str, player: Optional[int] = None) -> List[str]:
        """The card names in a pile (a deck lists its cards in no order)."""
        return [self.prog.card_names[c] for c in self.piles[self._pile_index(name, player)]]

    def set_pile(self, name: str, cards: Sequence[str], player: Optional[int] = None) -> None:
        """Put exactly these cards in a pile (for tests and tools)."""
        ids: List[int] = []
        for card in cards:
            if card not in self.prog.card_by_name:
                raise KeyError(f"no card named {card!r}")
            ids.append(self.prog.card_by_name[card])
        self._changed()
        self.piles[self._pile_index(name, player)][:] = ids

    def _pile_index(self, name: str, player: Optional[int]) -> int:
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

    def to_json(self, key: Optional[Key] = None) -> str:
        """The whole state as JSON text (``docs/saves.md``), for
        ``Game.restore``.  With ``key`` (bytes or str, the embedder's
        secret) the save carries an HMAC-SHA256 of its canonical form, and
        ``Game.restore(text, key=key)`` refuses it if anything was changed."""
        d = self._plain(include_log=True)
        if key is not None:
            d["mac"] = _saves().mac_of(d, key)
        return json.dumps(d, separators=(",", ":"))

    def to_replay(self, *, seed: bool = True, key: Optional[Key] = None) -> str:
        """The game as its setup (players, seed, chance mode, options) and
        the labels of its moves (``history``), as JSON text for
        ``Game.replay``.  ``seed=False`` leaves the seed out (for a client:
        the server keeps it and gives it to ``Game.replay``); with ``key``
        the replay carries an HMAC-SHA256 like ``to_json``'s."""
        return json.dumps(_saves().replay_doc(self, seed, key), separators=(",", ":"))

    def __reduce__(self) -> Tuple[Any, ...]:
        # A pickle is trusted input (it can run code anyway): the state
        # comes back from its plain form without the checks of ``restore``.
        return (_saves().state_from_plain, (self.game, self._plain(include_log=True), self.limits))

    def _plain(self, include_log: bool = False) -> Dict[str, Any]:
        """The state as plain data; with ``include_log`` also its history
        and log (what ``to_json`` saves)."""
        d: Dict[str, Any] = {
            "format": _saves().FORMAT, "ruleset": self.game.fingerprint, "players": self.n,
            "chance": "explicit" if self.explicit else "sample", "seed": self.seed,
            "rng": self.rng, "v": self.v, "g": self.g, "piles": self.piles,
            "stack": self.stack, "waiting": self.waiting, "actor": self.actor,
            "rerolling": self.rerolling, "turn_player": self.turn_player, "round": self.round,
            "order_pos": self.order_pos, "skips": list(self.skips),
            "test": list(self.test) if self.test is not None else None, "over": self.over,
            "options": self.options, "logging": self.logging,
        }
        params = _saves().params_of(self.game)
        if params is not None:
            d["params"] = params
        if self.shown:
            d["shown"] = list(self.shown)
        if include_log:
            d["history"] = self.history
            d["log"] = [e.to_dict() for e in self.log]
        return d

    def __repr__(self) -> str:
        who = self.current_player
        return (f"<State {self.prog.rs.title!r} players={self.n} round={self.round} "
                f"to_move={'chance' if who == CHANCE else who} over={self.over!r}>")

    # ------------------------------------------------------- machine hooks

    def note(self, player: Optional[int], kind: str, text: str, value: Any,
             public: Optional[str] = None, seen_by: SeenBy = None,
             public_value: Any = None) -> None:
        """Log an entry; ``seen_by`` (see ``LogEntry``) when not everyone
        may read it in full, with ``public`` and ``public_value`` for the rest."""
        if self.logging:
            most = self.limits.max_text     # (a card's name in a line, say: cut as log lines are)
            if len(text) > most:
                text = text[:most - 1] + "…"
            if public is not None and len(public) > most:
                public = public[:most - 1] + "…"
            self.log_tail = logged(self, LogEntry(self.round, player, kind, text, value, public,
                                                  seen_by, public_value))

    def wait(self, kind: int, actor: Optional[int], offer: Optional[Tuple[Frame, Sequence[Any]]] = None
             ) -> None:
        self.waiting = kind
        self.actor = actor
        self.offer = offer

    def clear_wait(self) -> None:
        self.waiting = WAIT_NONE

    def push(self, frame: Frame) -> None:
        self.stack.append(frame)
        if len(self.stack) > self.limits.max_depth:
            name = self.prog.code_names[frame[CODE]]
            pos = self.prog.code_pos[frame[CODE]]       # (the rule's own line)
            raise RulesetRuntimeError.at(
                self.prog.filename, pos.line if pos else 1, pos.column if pos else 1,
                f"rules call each other more than {self.limits.max_depth} levels deep "
                f"(endless recursion?) while starting {name}", self.prog.source)

    def end_turn(self) -> None:
        main = self.prog.main_code
        stack = self.stack
        while len(stack) > 1 and stack[-1][CODE] != main:
            stack.pop()

    def finish(self, ending: str) -> None:
        self.over = ending
        self.stack.clear()
        self.waiting = WAIT_NONE
        self.actor = None
        self.note(None, "end", f"the game ends: {ending}", ending)

    def preset_option(self, name: str, seat: int) -> Any:
        if not self.options or name not in self.options:
            return None
        value = self.options[name]
        if isinstance(value, list):
            return value[seat] if seat < len(value) else None
        return value

    def _run(self, steps: int = 0) -> None:
        """Run the rules until a decision, a chance node or the end: each
        frame's code is one generated function (``codegen``), called until
        it waits (False) or the stack changes (True).  ``steps``: the work
        already done in this move (``Limits.max_steps``); it is left in
        ``self.steps`` when the run stops."""
        prog = self.prog
        runners = prog.runners
        stack = self.stack
        self.steps = steps
        fr: Optional[Frame] = None
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
