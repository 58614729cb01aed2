"""Game: a loaded, checked and compiled ruleset, and what makes its states
(``new_game``), plays whole games fast (``playouts``), restores saves and
replays (``restore``, ``replay``) and pickles it.

Apart from ``State`` (``state``), which only reads the game that made it
(its fingerprint): this module imports ``state``, never the other way round.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, Union

from .. import ir, trust
from ..syntax.tables import sha256
from ..limits import DEFAULT as DEFAULT_LIMITS, Limits
from . import codegen
from .moves import LogEntry, Result
from .ops import NO_BLOCK, WAIT_CHANCE, WAIT_NONE, Policy
from .state import State, _saves
from .program import Program, compile_ruleset

if TYPE_CHECKING:
    from .saves.document import Key


#: The most games one game keeps made for other values of its parameters.
MOST_PARAM_SETS = 32

#: The most first positions one game keeps (``Game._first_positions``).
MOST_FIRST_POSITIONS = 64

_M64 = (1 << 64) - 1

#: The chance ops that, waiting in explicit mode, have changed nothing
#: (or only what running again leaves as it is): ``Game._keep_before_chance``.
_RUN_AGAIN = ("RollOp", "DrawOp", "PoolOp", "PickPieceOp")


def _frozen(options: Mapping[str, Any]) -> Tuple[Any, ...]:
    """Options as a key: (name, value) sorted, a list of values as a tuple."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))


class Game:
    """A loaded, checked and compiled ruleset: makes and restores states."""

    #: The classes of what a game makes (``saves`` builds restored states
    #: through these, so it does not import this module).
    state_class = State
    log_entry_class = LogEntry

    def __init__(self, prog: Program, limits: Optional[Limits] = None) -> None:
        self.prog = prog
        self.ruleset = prog.rs
        #: The limits new and restored games get unless ``new_game`` is
        #: given others (``rulelang.load(..., limits=...)`` sets them).
        self.limits = limits or DEFAULT_LIMITS
        #: The game as its rule file gives it; ``self`` unless this one was
        #: made for other values of its parameters (``with_params``).
        self.base: Game = self
        #: (name, value)... -> this game with those parameters (``with_params``)
        self._with: Dict[Tuple[Tuple[str, int], ...], Game] = {}
        #: Whether every stat starts at a value that reads nothing (no
        #: state, no seat): then the starting values are made once for each
        #: number of players (``_starting_values``) and copied.
        self._fixed_start = all(
            isinstance(getattr(init, "src", None), str) and not codegen.reads_state(init.src)
            for init in (*prog.player_init, *prog.global_init))
        self._starting_values: Dict[int, Tuple[List[Any], List[Any]]] = {}
        #: (players, chance, options, limits, log) -> a game as it stands at
        #: its first decision, when nothing random came before it (then every
        #: seed gives the same): ``new_game`` hands out clones of it.
        self._first_positions: Dict[Tuple[Any, ...], State] = {}
        #: the same key -> the position at the first chance, in explicit
        #: mode, of a game with chance before its first decision
        #: (``_keep_before_chance``): sample-mode games start from a clone.
        self._before_chance: Dict[Tuple[Any, ...], State] = {}
        #: False for a game whose running is watched (``testing.coverage``
        #: counts what its rules run): every new game then runs its setup.
        self.keeps_first_positions = True

    @functools.cached_property
    def fingerprint(self) -> str:
        """16 hex digits that name the ruleset (a save or a replay says
        which it belongs to): made when first asked (hashing the whole IR
        is a part of the time a load takes)."""
        return str(sha256(repr(self.prog.rs).encode()).hexdigest()[:16])

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
    def players_text(self) -> str:
        """The players this game is for, in words, naming the parameters
        that set them (``2 to 4 players (the parameter 'most' sets the most)``)."""
        rs = self.ruleset
        text = f"{rs.min_players} to {rs.max_players} players"
        named = [f"'{p}' sets the {end}" for p, end in ((rs.min_players_of, "fewest"),
                                                       (rs.max_players_of, "most")) if p]
        return f"{text} (the parameter {' and '.join(named)})" if named else text

    @property
    def options(self) -> Dict[str, List[str]]:
        """Setup options and their choices (for ``new_game(options=...)``)."""
        return {o.name: [c.label for c in o.choices] for o in self.ruleset.options}

    @property
    def params(self) -> Dict[str, Dict[str, Any]]:
        """Each parameter (``param`` in the rule file): its ``value`` in this
        game, its ``default``, the ``low`` and ``high`` it may be given, and
        its ``title`` (or None)."""
        given = {p.name: p.default for p in self.ruleset.params}
        return {p.name: {"value": given[p.name], "default": p.default, "low": p.low,
                         "high": p.high, "title": p.title}
                for p in self.base.ruleset.params}

    def with_params(self, params: Mapping[str, Any]) -> Game:
        """This game with some parameters given other values: its rule file
        with those values as the parameters' defaults, checked and compiled
        once for each set of values (a parameter is a constant everywhere
        it is used).  Raises ``ValueError`` for a parameter the game does
        not have or a value outside its range, and ``RulesetCheckError``
        when the rules cannot take the values (a stat that would start
        outside its bounds, say)."""
        base = self.base
        declared = {p.name: p for p in base.ruleset.params}
        values = {name: d["value"] for name, d in self.params.items()}
        for name, value in params.items():
            p = declared.get(name)
            if p is None:
                raise ValueError(f"unknown parameter {name!r}; parameters: "
                                 f"{', '.join(declared) or 'none'}")
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"parameter {name!r} is a whole number, not {value!r}")
            if not p.low <= value <= p.high:
                raise ValueError(f"parameter {name!r} goes from {p.low} to {p.high}, "
                                 f"not {value}")
            values[name] = value
        key = tuple(sorted((n, v) for n, v in values.items() if v != declared[n].default))
        if not key:
            return base
        found = base._with.get(key)
        if found is None:
            rs = ir.with_values(base.ruleset, values)
            prog = base.prog
            rs = trust.checked(rs, prog.limits)
            found = type(base)(compile_ruleset(rs, prog.limits), base.limits)
            found.base = base
            if len(base._with) >= MOST_PARAM_SETS:
                base._with.pop(next(iter(base._with)))
            base._with[key] = found
        return found

    def __repr__(self) -> str:
        return f"<Game {self.title!r} players {self.min_players}..{self.max_players}>"

    def __reduce__(self) -> Tuple[Any, ...]:
        # Pickled as its ruleset and limits; compiled again when loaded (a
        # game made for other parameters as its base game and their values).
        if self.base is not self:
            values = {name: d["value"] for name, d in self.params.items()}
            return (_with_params, (self.base, values))
        return (_saves().unpickle_game, (self.fingerprint, self.ruleset, self.limits, type(self)))

    def __copy__(self) -> Game:
        return self     # a game does not change: a copy is the game itself

    def __deepcopy__(self, memo: Dict[int, Any]) -> Game:
        return self

    def new_game(self, players: Optional[int] = None, seed: Optional[int] = None,
                 chance: str = "sample", options: Optional[Dict[str, Any]] = None,
                 limits: Optional[Limits] = None, log: bool = True,
                 params: Optional[Mapping[str, Any]] = None) -> State:
        """A new game.  ``chance`` is "sample" (dice and draws resolved from
        the seeded generator held in the state) or "explicit" (every die and
        draw is a chance node whose moves carry exact probabilities).
        ``limits`` default to the game's (``Game.limits``).  ``params``
        gives parameters other values (``with_params``): the state's
        ``game`` is then the game made for them."""
        if params:
            return self.with_params(params).new_game(players, seed, chance, options, limits, log)
        return self._start(players, seed, chance, options, limits, log, None)

    def _start(self, players: Optional[int], seed: Optional[int], chance: str,
               options: Optional[Dict[str, Any]], limits: Optional[Limits], log: bool,
               policy: Optional[Policy]) -> State:
        """``new_game``; with ``policy`` (``Game.playouts``) the state has
        it as its chooser (``State.policy``), from its first decision where
        the game is made from the position before its first chance (which
        then plays on without waiting), else from the decision after it."""
        key: Optional[Tuple[Any, ...]] = None
        if seed is not None and type(seed) is int and self.keeps_first_positions:
            try:
                key = (players, chance, _frozen(options) if options else None, limits, log)
                known = self._first_positions.get(key)
            except TypeError:      # (an option's value that is not hashable: checked below)
                key = known = None
            if known is not None:
                st = known.clone()
                st.seed = seed & _M64
                st._base = known._base
                st.policy = policy
                return st
            before = self._before_chance.get(key) if key is not None and chance == "sample" else None
            if before is not None:
                # Made as sample mode makes it from here on: the chance op
                # the position waits at runs again, now drawing from the seed.
                st = before.clone()
                st.explicit = False
                st.seed = seed & _M64
                st.waiting = WAIT_NONE
                st._changed()
                st.policy = policy
                st._run(before.steps)
                if st.over is None and policy is None:
                    st._legal()
                st._base = ((st.limits, log), None)
                return st
        st = self._new_state(players, seed, chance, options, limits, log)
        st._run()
        if st.over is None:
            st._legal()     # a first decision whose moves cannot be listed fails here
        st._base = ((st.limits, log), None)     # (how to make it again: ``State._rebuild``)
        if key is not None and st.over is None and len(self._first_positions) < MOST_FIRST_POSITIONS:
            if st.rng == 0 and st.waiting != WAIT_CHANCE:
                self._first_positions[key] = st.clone()
            elif chance == "sample":
                self._keep_before_chance(key, players, options, limits, log)
        st.policy = policy
        return st

    def _keep_before_chance(self, key: Tuple[Any, ...], players: Optional[int],
                            options: Optional[Dict[str, Any]], limits: Optional[Limits],
                            log: bool) -> None:
        """Keep the position of a game as it reaches its first chance: the
        same for every seed (nothing has read the seed yet), found in
        explicit mode, which stops there.  Only where that chance's op,
        run again in sample mode, does nothing twice: a die, a draw, a
        pool, a piece picked (a roll-off has already counted its die)."""
        st = self._new_state(players, 0, "explicit", options, limits, log)
        st._run()
        if st.over is None and st.waiting == WAIT_CHANCE:
            fr = st.stack[-1]
            if type(self.prog.codes[fr[0]][fr[1]]).__name__ in _RUN_AGAIN:
                self._before_chance[key] = st

    def _new_state(self, players: Optional[int], seed: Optional[int], chance: str,
                   options: Optional[Dict[str, Any]], limits: Optional[Limits],
                   log: bool) -> State:
        """The state before setup has run (``new_game`` runs it)."""
        prog = self.prog
        n = self.min_players if players is None else players
        if not isinstance(n, int) or not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.title} is for {self.players_text}, not {players!r}")
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
        st.policy = None
        st.block = NO_BLOCK
        st.steps = 0
        st.log_tail = None
        st.hist = None
        st.turn_player = None
        st.round = 0
        st.test = None
        made = self._starting_values.get(n)
        if made is not None:        # (the same for every game of n players)
            st.v, st.g = made[0][:], made[1][:]
        else:
            K = prog.K
            st.v = [0] * (n * K)
            st.g = [None] * len(prog.global_stats)
            probe_fr = [None, 0, 0]
            for k, init in enumerate(prog.global_init):
                st.g[k] = init(st, probe_fr)
            st.g.extend(prog.piece_init)   # each piece's state values
            for seat in range(n):
                probe = [None, 0, seat]
                for k, init in enumerate(prog.player_init):
                    st.v[seat * K + k] = init(st, probe)
            if self._fixed_start:
                self._starting_values[n] = (st.v[:], st.g[:])
        st.nshared = len(prog.shared_piles)
        st.piles = [list(prog.deck_contents.get(name, ())) for name in prog.shared_piles]
        st.piles += [list(prog.deck_contents.get(name, ())) for name in prog.player_piles
                     for _ in range(n)]
        st.stack = [[prog.main_code, 0, 0] + [None] * prog.nlocals[prog.main_code]]
        st.waiting = WAIT_NONE
        st.actor = None
        st.rerolling = False
        st.order_pos = -1
        st.skips = ()
        st.shown = ()
        st.over = None
        st.options = dict(options) if options else None
        st.round = 0
        st._changed()
        return st

    def playouts(self, n: int, seed: int = 0, players: Optional[int] = None,
                 policy: str = "random", options: Optional[Dict[str, Any]] = None,
                 limits: Optional[Limits] = None,
                 params: Optional[Mapping[str, Any]] = None) -> List[Result]:
        """The results of ``n`` whole games (seeds ``seed``, ``seed + 1`` …),
        every decision picked uniformly at random: what a simulation or a
        Monte Carlo search needs, made without building a move list or a
        label at each decision.  Game ``i`` is the game that
        ``new_game(players, seed + i)`` plays when the same decisions are
        applied through the normal API."""
        if policy != "random":
            raise ValueError(f"policy must be 'random', not {policy!r}")
        if params:
            return self.with_params(params).playouts(n, seed, players, policy, options, limits)
        chooser = Policy(seed)
        start = self._start
        results: List[Result] = []
        for i in range(n):
            # The rules pick with the chooser where they decide (``Runner.decide``)
            # and go on; a first decision made before the game had the
            # chooser, and any the generated code leaves to its op, are
            # picked by ``State._play_out``.
            chooser.restart(seed + i)
            st = start(players, seed + i, "sample", options, limits, False, chooser)
            st._play_out(chooser)
            results.append(st.result())
        return results

    def restore(self, text: Union[str, bytes], *, key: Optional[Key] = None) -> State:
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
        return _saves().restore(self, text, key)

    def replay(self, text: Union[str, bytes], *, seed: Optional[int] = None,
               key: Optional[Key] = None) -> State:
        """The game a replay (``State.to_replay()``) describes: made with
        ``new_game`` and played again move by move, so it can only be a game
        of legal moves.  A move that is not legal is refused with
        ``SaveError`` at ``$.moves[i]``.  ``seed``: the game's seed, when the
        replay leaves it out (or must agree with it); ``key`` as for
        ``restore``."""
        return _saves().replay(self, text, seed, key)


def _with_params(base: Game, values: Dict[str, int]) -> Game:
    """A pickled game made for other values of its parameters, loaded."""
    return base.with_params(values)
