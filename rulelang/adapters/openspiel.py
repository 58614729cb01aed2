"""Any ruleset as an OpenSpiel game: ``register(path_or_game)`` registers it
with ``pyspiel.register_game``, and ``pyspiel.load_game(name)`` then gives
a game that OpenSpiel's algorithms (MCTS, CFR, its test suite) play
unchanged.

How the ruleset is mapped (docs/adapters.md says it for users):

- Chance is explicit: the state is a rulelang game in ``chance="explicit"``
  mode, so every die and every draw is a chance node whose outcomes carry
  the engine's exact probabilities (as floats).
- Actions are stable numbers made from the moves' labels
  (``common.number_moves``); ``action_to_string`` gives the label.
- The information state of a seat is what it was told (a digest of its
  log, its latest events) and what it sees (``State.view``); its
  observation is what it sees.  Neither reads anything the seat may not.
  The tensors: the view as a vector (``encode``), and for an information
  state also the bag of events the seat was told (``Seen.told``; lossy).
- Rewards come at the end, from who won (``common.returns``).  A game
  that reaches ``max_game_length`` moves (the ruleset's
  ``Limits.max_history``, the longest game a replay may hold, unless
  given) ends there with 0 for everyone (with ``reward="score"``: the
  scores so far).
- A state is serialized as our save (``State.to_json``) and restored by
  ``Game.restore``, which checks it as any untrusted save.
- The game's parameters are ``players`` and the ruleset's own ``param``s:
  ``pyspiel.load_game("rulelang_pig(players=3,target=100)")``.
"""

from __future__ import annotations


import os
import re
from typing import Any, Dict, List, Optional, Tuple, Union

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,unused-ignore]
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError("rulelang.adapters.openspiel needs OpenSpiel: pip install 'rulelang[adapters]' "
                      "(its wheels need Python 3.11 or later)") from e

from ..api import load
from ..engine import CHANCE, Game, Move, State
from .encode import FEATURES, encode
from .common import (ACTIONS, Seen, canonical, check_reward, has_chance, has_hidden,
                     information_text, number_moves, rewards)

_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


class _Entry:
    """One registered ruleset and the settings it was registered with."""

    __slots__ = ("name", "game", "zero_sum", "size", "max_length", "chance", "hidden",
                 "game_type", "reward", "utility")

    def __init__(self, name: str, game: Game, zero_sum: bool, size: int, max_length: int,
                 reward: str = "win", utility: Tuple[float, float] = (-1.0, 1.0)) -> None:
        self.name = name
        self.game = game
        self.zero_sum = zero_sum
        self.reward = reward
        self.utility = utility
        self.size = size
        self.max_length = max_length
        self.chance = has_chance(game)
        self.hidden = has_hidden(game)
        self.game_type: Any = None

    def same(self, other: _Entry) -> bool:
        return (self.game.fingerprint, self.zero_sum, self.size, self.max_length, self.reward,
                self.utility) == (other.game.fingerprint, other.zero_sum, other.size,
                                  other.max_length, other.reward, other.utility)


#: The games this process registered, by name (OpenSpiel cannot forget one).
_REGISTERED: Dict[str, _Entry] = {}


def default_name(game: Game) -> str:
    """``rulelang_`` and the game's title in lower case, words joined by ``_``."""
    words = re.findall(r"[a-z0-9]+", game.title.lower())
    return ("rulelang_" + "_".join(words))[:64] if words else "rulelang_game"


def register(path_or_game: Union[str, "os.PathLike[str]", Game], name: Optional[str] = None, *,
             zero_sum: bool = False, num_actions: int = ACTIONS,
             max_game_length: Optional[int] = None, reward: str = "win",
             utility_range: Optional[Tuple[float, float]] = None) -> str:
    """Register a ruleset (a path or a loaded ``Game``) as an OpenSpiel
    game and return its name, for ``pyspiel.load_game``.

    ``name``: the short name (lower-case letters, digits, ``_``), by
    default ``rulelang_`` and the title.  ``zero_sum``: the winners share
    1 and the others -1 (the default: a winner 1, the others -1; see
    ``common.returns``).  ``num_actions``: the size of the action space.
    ``max_game_length``: the moves after which a game is stopped (by
    default the game's ``Limits.max_history``).  ``reward="score"``: each
    seat's return is its score, which must lie in ``utility_range``
    (low, high), required then (OpenSpiel declares it).  Registering the same game
    with the same settings again returns the name; a name already used
    otherwise raises ``ValueError``."""
    game = path_or_game if isinstance(path_or_game, Game) else load(path_or_game)
    name = default_name(game) if name is None else name
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"an OpenSpiel game's name is lower-case letters, digits and '_' "
                         f"(at most 64, a letter first), not {name!r}")
    if isinstance(num_actions, bool) or not isinstance(num_actions, int) or \
            not 2 <= num_actions <= 1 << 30:
        raise ValueError(f"num_actions must be a whole number from 2 to 2**30, not {num_actions!r}")
    length = game.limits.max_history if max_game_length is None else max_game_length
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"max_game_length must be a whole number of at least 1, not {length!r}")
    if zero_sum and game.max_players < 2:
        raise ValueError(f"{game.title} is a solitaire game: it cannot be zero-sum")
    check_reward(reward, zero_sum)
    utility = (-1.0, 1.0)
    if reward == "score":
        if utility_range is None:
            raise ValueError("reward='score' needs utility_range=(lowest, highest score)")
        low, high = (float(x) for x in utility_range)
        if not low < high:
            raise ValueError(f"utility_range must be (low, high) with low < high, not {utility_range!r}")
        utility = (low, high)
    elif utility_range is not None:
        raise ValueError("utility_range is for reward='score' (a win is 1, a loss -1)")
    entry = _Entry(name, game, zero_sum, num_actions, length, reward, utility)
    known = _REGISTERED.get(name)
    if known is not None:
        if known.same(entry):
            return name
        raise ValueError(f"the OpenSpiel game {name!r} is already registered for another "
                         f"ruleset or other settings; give another name")
    if name in pyspiel.registered_names():
        raise ValueError(f"OpenSpiel already has a game named {name!r}; give another name")
    entry.game_type = _game_type(entry)
    # A class of its own, not a closure: OpenSpiel keeps the maker until the
    # process ends, and frees it after Python has stopped; a class (which
    # refers to itself) is never freed there, where a closure would crash.
    maker = type(f"RulesGame_{name}", (RulesGame,), {"_entry": entry})
    pyspiel.register_game(entry.game_type, maker)
    _REGISTERED[name] = entry
    return name


def _default_players(game: Game) -> int:
    """Two players where the game allows it (a solo mode is asked for with
    ``players=1``), else its fewest."""
    return min(max(2, game.min_players), game.max_players)


def _game_type(entry: _Entry) -> Any:
    game = entry.game
    spec: Dict[str, Any] = {"players": _default_players(game)}
    for pname, p in game.params.items():
        if pname == "players":
            raise ValueError(f"{game.title} has a parameter named 'players', which OpenSpiel's "
                             f"number of players takes")
        spec[pname] = p["default"]
    T = pyspiel.GameType
    return T(short_name=entry.name, long_name=f"{game.title} (rulelang)",
             dynamics=T.Dynamics.SEQUENTIAL,
             chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if entry.chance else T.ChanceMode.DETERMINISTIC,
             information=(T.Information.IMPERFECT_INFORMATION if entry.hidden
                          else T.Information.PERFECT_INFORMATION),
             utility=T.Utility.ZERO_SUM if entry.zero_sum else T.Utility.GENERAL_SUM,
             reward_model=T.RewardModel.TERMINAL,
             max_num_players=game.max_players, min_num_players=game.min_players,
             provides_information_state_string=True, provides_information_state_tensor=True,
             provides_observation_string=True, provides_observation_tensor=True,
             parameter_specification=spec)


class RulesGame(pyspiel.Game):  # type: ignore[misc]
    """A registered ruleset with its parameters (``players`` and the
    ruleset's own).  ``register`` makes a subclass for each ruleset, with
    its ``_entry``."""

    _entry: _Entry

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = params or {}
        entry = self._entry
        base = entry.game
        values = {p: int(params[p]) for p in base.params if p in params}
        self.rules = base.with_params(values) if values else base
        self.entry = entry
        players = int(params.get("players", _default_players(base)))
        if not self.rules.min_players <= players <= self.rules.max_players:
            raise ValueError(f"{self.rules.title} is for {self.rules.players_text}, not {players}")
        self.players = players
        info = pyspiel.GameInfo(
            num_distinct_actions=entry.size,
            max_chance_outcomes=entry.size if entry.chance else 0,
            num_players=players, min_utility=entry.utility[0], max_utility=entry.utility[1],
            utility_sum=0.0 if entry.zero_sum else None,
            max_game_length=entry.max_length)
        full = {"players": players, **{p: d["value"] for p, d in self.rules.params.items()}}
        super().__init__(entry.game_type, info, full)

    def new_initial_state(self) -> RulesState:
        return RulesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        public = iig_obs_type is not None and \
            iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        if recall and public:
            raise ValueError("a public-only information state is not supported; ask for the "
                             "public observation (perfect_recall=False)")
        return _Observer(recall, public)


#: The initial state of each game (its fingerprint, its players) and what
#: each seat was told in it, to clone.
_STARTS: Dict[Tuple[str, int], Tuple[State, Seen]] = {}


class _Held:
    """The rulelang state behind an OpenSpiel state, with what the adapter
    keeps beside it.  Made lazily: OpenSpiel makes a fresh initial state
    for every clone and every restore, then overwrites it.  Pickled (which
    is how OpenSpiel serializes a Python state's attributes) as our save."""

    __slots__ = ("entry", "name", "game", "players", "_state", "seen", "moves", "numbered", "looks")

    def __init__(self, entry: _Entry, game: Game, players: int) -> None:
        self.entry = entry
        self.name = entry.name
        self.game = game
        self.players = players
        self._state: Optional[State] = None
        self.seen = Seen(players)
        #: Moves made (chance outcomes included), for ``max_game_length``.
        self.moves = 0
        #: The legal moves by number, once asked at this position.
        self.numbered: Optional[Dict[int, Move]] = None
        #: What the seats were shown at this position (``look``).
        self.looks: Dict[Tuple[str, Optional[int]], Any] = {}

    @property
    def state(self) -> State:
        st = self._state
        if st is None:
            key = (self.game.fingerprint, self.players)
            start = _STARTS.get(key)
            if start is None:   # (OpenSpiel asks for initial states often: made once, cloned)
                first = self.game.new_game(players=self.players, seed=0, chance="explicit")
                seen = Seen(self.players)
                seen.update(first)
                start = _STARTS[key] = (first, seen)
            st = self._state = start[0].clone()
            self.seen = start[1].copy()
        return st

    def __deepcopy__(self, memo: Dict[int, Any]) -> _Held:
        other = _Held.__new__(_Held)
        other.entry, other.name, other.game, other.players = \
            self.entry, self.name, self.game, self.players
        st = self.state
        other._state = st.clone()
        other.seen = self.seen.copy()
        other.moves = self.moves
        other.numbered = self.numbered
        other.looks = dict(self.looks)
        return other

    def look(self, kind: str, seat: Optional[int]) -> Any:
        """What ``seat`` is shown at this position, made once however often
        OpenSpiel asks (it asks each seat's strings and tensors at each step):
        ``view`` (the dict), ``text`` (its JSON), ``info`` (the information
        state string), ``vector`` (``encode``)."""
        key = (kind, seat)
        found = self.looks.get(key)
        if found is None:
            st = self.state
            if kind == "view":
                found = st.view(seat)
            elif kind == "text":
                found = canonical(self.look("view", seat))
            elif kind == "info":
                assert seat is not None
                found = information_text(st, self.seen, seat, self.look("text", seat))
            else:
                found = encode(self.look("view", seat))
            self.looks[key] = found
        return found

    def __reduce__(self) -> Tuple[Any, ...]:
        values = {p: d["value"] for p, d in self.game.params.items()}
        return (_restore_held, (self.name, values, self.players, self.state.to_json()))


def _restore_held(name: str, values: Dict[str, int], players: int, text: str) -> _Held:
    """A serialized state back: the game found by its registered name, the
    save checked by ``Game.restore``."""
    entry = _REGISTERED.get(name)
    if entry is None:
        raise ValueError(f"no rulelang game named {name!r} is registered in this process")
    game = entry.game.with_params(values) if values else entry.game
    held = _Held(entry, game, players)
    st = held._state = game.restore(text)
    if st.players != players:
        raise ValueError(f"the save is a game of {st.players} players, not {players}")
    held.seen.update(st)
    held.moves = len(st.history)
    return held


class RulesState(pyspiel.State):  # type: ignore[misc]
    """One game in progress, as OpenSpiel sees it."""

    def __init__(self, game: RulesGame) -> None:
        super().__init__(game)
        # The one attribute: OpenSpiel copies (clone) and pickles (serialize)
        # a Python state's attributes, and this one pickles as our save.
        self._held = _Held(game.entry, game.rules, game.players)

    # -- what OpenSpiel asks

    def current_player(self) -> int:
        st = self._held.state
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        who = st.current_player
        if who == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        assert who is not None
        return who

    def _numbered(self) -> Dict[int, Move]:
        held = self._held
        if held.numbered is None:
            held.numbered = number_moves(held.state.legal_moves(), held.entry.size)
        return held.numbered

    def _legal_actions(self, player: int) -> List[int]:
        if self._over():
            return []
        return list(self._numbered())

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return [(a, float(m.probability)) for a, m in self._numbered().items()
                if m.probability is not None]

    def _apply_action(self, action: int) -> None:
        move = self._numbered().get(action)
        if move is None:
            raise ValueError(f"action {action} is not legal now")
        held = self._held
        held.state.apply(move)
        held.numbered = None
        held.looks = {}
        held.moves += 1
        held.seen.update(held.state)

    def _action_to_string(self, player: int, action: int) -> str:
        move = self._numbered().get(action)
        return move.label if move is not None else f"(action {action}: not legal here)"

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> List[float]:
        st = self._held.state
        e = self._held.entry
        if not st.is_over and (e.reward == "win" or not self._over()):
            return [0.0] * st.players      # (a game stopped at max_game_length too, for "win")
        out = rewards(st.result(), st.players, e.reward, e.zero_sum)
        low, high = e.utility
        for seat, r in enumerate(out):
            if not low <= r <= high:
                raise ValueError(f"P{seat}'s score {r:g} is outside the utility_range "
                                 f"({low:g}, {high:g}) {e.name} was registered with")
        return out

    def __str__(self) -> str:
        held = self._held
        return "\n".join(str(held.look("text", seat)) for seat in range(held.players))

    # -- for the adapters and tests

    @property
    def rules_state(self) -> State:
        """The rulelang state underneath (the embedding program's: it sees
        everything; give a seat only ``view``/``log_for``)."""
        return self._held.state

    def _over(self) -> bool:
        held = self._held
        return held.state.is_over or held.moves >= held.entry.max_length


class _Observer:
    """OpenSpiel's observer interface.  Strings as the module says; the
    tensors are the view as a vector (``encode``: ``view``) and, for an
    information state, the bag of events the seat was told (``told``,
    ``Seen.told``): lossy where the string is exact."""

    def __init__(self, perfect_recall: bool, public_only: bool) -> None:
        self.perfect_recall = perfect_recall
        self.public_only = public_only
        size = FEATURES + (Seen.TOLD if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: Dict[str, Any] = {"view": self.tensor[:FEATURES]}
        if perfect_recall:
            self.dict["told"] = self.tensor[FEATURES:]

    def set_from(self, state: RulesState, player: int) -> None:
        held = state._held
        self.dict["view"][:] = held.look("vector", None if self.public_only else player)
        if self.perfect_recall:
            told = self.dict["told"]
            told.fill(0)
            for place, n in held.seen.told[player].items():
                told[place] = n

    def string_from(self, state: RulesState, player: int) -> str:
        held = state._held
        if self.public_only:
            return str(held.look("text", None))
        if self.perfect_recall:
            return str(held.look("info", player))
        return str(held.look("text", player))


def registered() -> Dict[str, Game]:
    """The games registered by this process, by name."""
    return {name: e.game for name, e in _REGISTERED.items()}


__all__ = ["RulesGame", "RulesState", "default_name", "register", "registered"]


