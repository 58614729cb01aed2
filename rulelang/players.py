"""Players that choose moves by themselves, for any ruleset: ``random``,
``greedy`` and ``mcts`` (``rulelang simulate --seat 0=mcts:200``, and any
tool that wants an opponent).

    from rulelang.players import player
    bot = player("mcts:500", seed=7)        # or "random", "greedy", "mcts:2s"
    state.apply(bot.choose(state))

A player chooses for the seat whose decision it is in ``state`` and never
changes ``state``: it thinks on clones.  With a seed it is deterministic
(``mcts:2s`` apart: a time budget depends on the machine).

What a player may know.  In sample mode a state carries its generator, so a
clone would roll the very dice and draw the very cards the real game is
going to: a player that looked ahead on a plain clone would read the
future.  Every clone a player looks ahead on is first *determinized* for
its seat (``determinize``): its generator reseeded from the player's own;
the cards of the hidden piles the seat may not see (the others' hands, a
pile face down) dealt again at random with the decks, each card only among
the places of cards from its own starting deck (a deck by itself is left:
its draws are at random, and the new generator decides them); and the
stats and piece values the seat may not see put back to their declared
starting values.  What the seat sees is kept, so two states that look the
same to the seat give the same choice.

That is the rough way: a hidden stat that the rules set from a hidden
card (the rank of a card in hand, another seat's secret bid) goes back to
its starting value, so the player would think the others hold nothing.
The searching players first draw whole games the seat cannot tell from
the real one (``rulelang.engine.resample``: the game played again, what
the seat could not see drawn again and the rules left to work out the
rest), a few per decision (``Beliefs``), and fall back on the rough way
only where such a draw is too costly (hidden things shown only many steps
later: the search behind it gives up past its budget).
"""

from __future__ import annotations

import math
import random
import re
import time
from typing import Any, Dict, List, Optional, Sequence

from .engine import CHANCE, Move, State
from .errors import RulesetError
from .engine.ops import Policy
from .engine.resample import resample, trajectory
from .engine.visibility import seen_by_pile, sees, unseen_piece_values

__all__ = ["Player", "RandomPlayer", "GreedyPlayer", "MctsPlayer", "player", "determinize",
           "rewards", "heuristics", "SPECS"]

#: The specs ``player`` takes, for messages.
SPECS = ("random, greedy, mcts, mcts:N (N playouts a decision), mcts:Ns (N seconds a decision) "
         "or greedy:N (following up to N of its own decisions in a row)")

#: The playouts a decision of ``mcts`` without a budget.
DEFAULT_PLAYOUTS = 200
#: A playout longer than this many decisions is stopped and counts as no win.
PLAYOUT_MOVES = 3000
#: In a ruleset with a ``heuristic``, a playout is cut after this many
#: decisions and weighed by it (``MctsPlayer._weighed``).
CUT_AFTER = 40
#: UCT's exploration constant (rewards are scaled to [0, 1]).
EXPLORATION = 1.0


class Player:
    """Chooses the move of the seat that must decide in a state."""

    name: str = "player"

    def choose(self, state: State) -> Move:
        """A legal move for ``state.current_player``; ``state`` unchanged."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _legal(state: State) -> List[Move]:
    if state.is_over:
        raise ValueError("the game is over: there is no move to choose")
    if state.current_player == CHANCE:
        raise ValueError("a chance outcome is due: a player chooses only decisions")
    return state.legal_moves()


class RandomPlayer(Player):
    """Any legal move, uniformly."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(_legal(state))


# ------------------------------------------------------------- what a seat knows

def determinize(state: State, seat: Optional[int], rng: random.Random) -> State:
    """A clone of ``state`` made only from what ``seat`` may see (see the
    module's documentation): a new generator, the unseen cards dealt again
    into the unseen piles, unseen values at their starting values."""
    c = state.clone()
    c._reseed(rng.getrandbits(63))
    prog = c.prog
    unseen = [i for i, by in enumerate(seen_by_pile(c)) if not sees(by, seat)]
    if unseen:
        # Each card goes back among the places of the cards of its own
        # deck (the deck that held it at the start), so a card never moves
        # to a pile that no card of its deck is in (the rules, public,
        # tell which deck fed which pile).
        # A deck alone needs nothing: its draws are at random, and the
        # new generator decides them.  Only a group holding a card in a
        # hidden pile (a hand, a pile face down) is dealt again.
        origin = _origins(c)
        decks = prog.deck_names
        places: Dict[Any, List[Any]] = {}
        hidden: set[Any] = set()
        for i in unseen:
            deck = i < c.nshared and prog.shared_piles[i] in decks
            for j, card in enumerate(c.piles[i]):
                group = origin.get(card)
                places.setdefault(group, []).append((i, j))
                if not deck:
                    hidden.add(group)
        piles = {i: c.piles[i][:] for i in unseen}
        for group in sorted(hidden, key=str):
            spots = places[group]
            cards = sorted(piles[i][j] for i, j in spots)
            rng.shuffle(cards)
            for (i, j), card in zip(spots, cards):
                piles[i][j] = card
        for i in unseen:
            c.piles[i] = piles[i]
    start = _starting(c)
    K = prog.K
    for owner in range(c.n):
        for k, sight in prog.player_sight:
            key = owner * K + k
            if key not in c.shown and (sight == "secret" or owner != seat):
                c.v[key] = start[0][key]
    for i, s in enumerate(prog.global_stats[:prog.own_globals]):
        if s.sight is not None and -1 - i not in c.shown:
            c.g[i] = start[1][i]
    if prog.piece_sight:
        for at_g, _, _, _ in unseen_piece_values(c, seat):
            c.g[at_g] = start[1][at_g]
    c._changed()
    return c


_STARTS: Dict[Any, Any] = {}
_ORIGINS: Dict[int, Any] = {}


def _origins(state: State) -> Dict[int, str]:
    """Each card's deck at the start of a game (from the rules)."""
    prog = state.prog
    found = _ORIGINS.get(id(prog))
    if found is None or found[0] is not prog:
        table = {card: name for name, cards in prog.deck_contents.items() for card in cards}
        found = _ORIGINS[id(prog)] = (prog, table)
    return found[1]


def _starting(state: State) -> Any:
    """The stats' and pieces' declared starting values (before setup runs)
    for this game and number of players: public, as the rules are."""
    key = (id(state.game), state.n)
    found = _STARTS.get(key)
    if found is None or found[0] is not state.game:
        fresh = state.game._new_state(state.n, 0, "sample", None, None, False)
        found = _STARTS[key] = (state.game, (fresh.v[:], fresh.g[:]))
    return found[1]


# ------------------------------------------------------------------ outcomes

class Beliefs:
    """Games ``seat`` cannot tell from ``state``, for one decision: up to
    ``POOL`` drawn by ``resample`` (the first time one cannot be drawn,
    within its budget, none more are tried), each handed out as a clone in
    sample mode with a generator of its own; without them, the rough way
    (``determinize``).  A game with nothing hidden from the seat needs no
    draw: a clone with a new generator is then the same thing."""

    POOL = 8

    def __init__(self, state: State, seat: int, draws: bool = True) -> None:
        self.state, self.seat = state, seat
        self.pool: List[State] = []
        self.steps: Optional[List[Any]] = None     # (``trajectory``: once)
        self.rough = not draws or not _hides(state, seat)
        self.missed = False     # whether a draw was tried and could not be made

    def draw(self, rng: random.Random) -> State:
        if not self.rough and len(self.pool) < self.POOL:
            if self.steps is None:
                self.steps = trajectory(self.state)
            got = None if self.steps is None else \
                resample(self.state, self.seat, rng, self.steps)
            if got is None:
                self.rough = not self.pool
                self.missed = True
            else:
                got.explicit = False        # (its own dice and draws from here on)
                got.logging = False
                got.log_tail = None
                self.pool.append(got)
        if not self.pool:
            return determinize(self.state, self.seat, rng)
        c = rng.choice(self.pool).clone()
        c._reseed(rng.getrandbits(63))
        c._changed()
        return c


def _hides(state: State, seat: int) -> bool:
    """Whether the rules may hide anything from ``seat``: a pile it may
    not see, a stat or a piece's value kept from it, a secret choice."""
    prog = state.prog
    if any(not sees(by, seat) for by in seen_by_pile(state)):
        return True
    if prog.player_sight or prog.piece_sight:
        return True
    if any(s.sight is not None for s in prog.global_stats[:prog.own_globals]):
        return True
    return any(getattr(op, "secret", False) for code in prog.codes for op in code)


def rewards(state: State, won: Optional[str] = None) -> List[float]:
    """What a finished (or stopped) game is worth to each seat: a share of
    the win (1 / number of winners) for a winner, 0 otherwise.  Alone:
    1 for the ending ``won`` when one is named, else a win when the
    ruleset's ``winner ... where`` says so, else the score itself (a search
    scales it).  A game not over is worth nothing to anyone."""
    n = state.n
    if not state.is_over:
        return [0.0] * n
    r = state.result()
    if n == 1:
        if won is not None:
            return [1.0 if r.ending == won else 0.0]
        if state.prog.winner_where is None:
            return [float(r.scores[0])]
    share = 1.0 / len(r.winners) if r.winners else 0.0
    return [share if s in r.winners else 0.0 for s in range(n)]


def heuristics(state: State) -> Optional[List[int]]:
    """Each seat's heuristic in ``state`` (any state, over or not): the
    sum of the ruleset's ``heuristic`` lines whose condition holds for that
    seat; None when the ruleset declares no heuristic."""
    items = state.prog.heuristic_items
    if not items:
        return None
    out: List[int] = []
    for seat in range(state.n):
        probe = [None, 0, seat]         # a seat's frame, as the score is asked (State.result)
        out.append(sum(points(state, probe) for points, cond in items
                       if cond is None or cond(state, probe)))
    return out


def _sample_chance(state: State, rng: random.Random) -> None:
    """An explicit chance outcome, by its probability (one draw of
    ``rng.random``, as ``rng.choices`` makes)."""
    state._take_chance(rng.random())


# ------------------------------------------------------------------ greedy

class GreedyPlayer(Player):
    """One step ahead: the move whose outcome (on a few determinized
    clones) is worth most to the seat: a win first and a loss last, then
    the seat's heuristic (the ruleset's ``heuristic`` block, else its
    score) less the best other seat's (alone: its own).  ``use_heuristic``
    false: the score even where a heuristic is declared (to measure what
    the heuristic is worth).

    ``depth`` above 1 (``greedy:2``): where the seat's move leads straight
    to another decision of its own (which card, after "Throw away a card"),
    the move is worth the best of what follows, up to ``depth`` decisions
    in a row: one step of one decision cannot tell a move that only opens a
    choice from one that does nothing."""

    def __init__(self, seed: Optional[int] = None, samples: int = 3,
                 won: Optional[str] = None, use_heuristic: bool = True, depth: int = 1) -> None:
        self.name = "greedy" if depth == 1 else f"greedy:{depth}"
        self.rng = random.Random(seed)
        self.samples = samples
        self.won = won
        self.use_heuristic = use_heuristic
        self.depth = depth

    def value(self, state: State, seat: int) -> float:
        if state.is_over and (state.n > 1 or self.won or state.prog.winner_where is not None):
            # A game decided: a share of the win is worth more than going
            # on, and no win (a loss) less than anything not yet decided.
            win = rewards(state, self.won)[seat]
            bonus = 1e6 * win if win > 0 else -1e6
        else:
            bonus = 0.0
        marks = heuristics(state) if self.use_heuristic else None
        if marks is None:
            marks = list(state.result().scores)
        rest = max((s for i, s in enumerate(marks) if i != seat), default=0)
        return bonus + marks[seat] - (rest if len(marks) > 1 else 0)

    def _ahead(self, state: State, seat: int, more: int) -> float:
        """``state``'s value to ``seat``, or while ``seat`` decides next (and
        ``more`` decisions may be followed) the best value its moves lead to."""
        if more <= 0 or state.is_over or state.current_player != seat:
            return self.value(state, seat)
        best = -math.inf
        for m in state.legal_moves():
            c = state.clone()
            try:
                c.apply(m.label)
                while c.is_chance_node:
                    _sample_chance(c, self.rng)
            except RulesetError:
                continue
            best = max(best, self._ahead(c, seat, more - 1))
        return best if best > -math.inf else self.value(state, seat)

    def choose(self, state: State) -> Move:
        moves = _legal(state)
        if len(moves) == 1:
            return moves[0]
        seat = state.current_player
        assert seat is not None
        best: List[Move] = []
        top = -math.inf
        for m in moves:
            total = 0.0
            for _ in range(self.samples):
                c = determinize(state, seat, self.rng)
                try:
                    c.apply(m.label)
                    while c.is_chance_node:
                        _sample_chance(c, self.rng)
                except RulesetError:
                    continue        # (a clone the rules cannot go on from: see MctsPlayer)
                total += self._ahead(c, seat, self.depth - 1)
            if total > top:
                top, best = total, [m]
            elif total == top:
                best.append(m)
        return self.rng.choice(best)


# ------------------------------------------------------------------ mcts

class _Node:
    """A decision reached by a line of move labels (open loop: the chance
    outcomes and the hidden cards differ from one playout to the next)."""

    __slots__ = ("who", "children", "visits", "avail", "total")

    def __init__(self, who: int) -> None:
        self.who = who              # the seat that chose the move leading here
        self.children: Dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0              # playouts in which its move was legal
        self.total = 0.0            # ``who``'s rewards summed


class MctsPlayer(Player):
    """Information-set Monte Carlo tree search (UCT): each playout starts
    from a clone determinized for the deciding seat (``determinize``), goes
    down the tree of move labels choosing by UCB among the moves legal in
    that clone (counted by availability), adds one node, plays at random to
    the end and adds each seat's reward to the moves that seat made.
    Chance outcomes are sampled (a fresh generator in sample mode, by
    probability in explicit mode).  The move most visited is chosen."""

    def __init__(self, playouts: Optional[int] = None, seconds: Optional[float] = None,
                 seed: Optional[int] = None, won: Optional[str] = None,
                 exploration: float = EXPLORATION) -> None:
        if playouts is None and seconds is None:
            playouts = DEFAULT_PLAYOUTS
        self.playouts = playouts
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.won = won
        self.exploration = exploration
        self.name = "mcts" + (f":{playouts}" if playouts is not None else f":{seconds:g}s")
        #: playouts lost to a rule error on a clone dealt again (see ``choose``)
        self.failed = 0
        #: decisions at which no game could be drawn for the seat (``Beliefs``)
        self.missed_draws = 0
        self._h_lo, self._h_hi = math.inf, -math.inf     # heuristic seen at cuts (``_weighed``)

    def choose(self, state: State) -> Move:
        moves = _legal(state)
        if len(moves) == 1:
            return moves[0]
        seat = state.current_player
        assert seat is not None
        root = _Node(seat)
        rng = self.rng
        # (a game whose draws failed twice is thought about the rough way:
        # in it the hidden things are shown too late for the search)
        beliefs = Beliefs(state, seat, draws=self.missed_draws < 2)
        self._h_lo, self._h_hi = math.inf, -math.inf    # (``_weighed``)
        lo, hi = math.inf, -math.inf
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.playouts is not None and done >= self.playouts:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            done += 1
            try:
                got = self._playout(beliefs, seat, root, rng, lo, hi)
            except RulesetError:
                # A clone dealt again that the rules cannot go on from (a
                # card a rule waits on, now elsewhere): this playout is lost.
                self.failed += 1
                continue
            for value in got:
                lo, hi = min(lo, value), max(hi, value)
        self.missed_draws += beliefs.missed
        if not root.children:
            return rng.choice(moves)
        return max(moves, key=lambda m: self._rank(root.children.get(m.label)))

    def _playout(self, beliefs: Beliefs, seat: int, root: _Node, rng: random.Random,
                 lo: float, hi: float) -> List[float]:
        """One playout from a game the seat cannot tell from the real one
        (``Beliefs``); each seat's reward (the tree is updated only once
        the playout ended without an error)."""
        st = beliefs.draw(rng)
        node = root
        path = [root]
        expanded = False
        while not st.is_over and not expanded:
            if st.is_chance_node:
                _sample_chance(st, rng)
                continue
            legal = st.legal_moves()
            actor = st.current_player
            assert actor is not None
            untried = [m for m in legal if m.label not in node.children]
            for m in legal:
                child = node.children.get(m.label)
                if child is not None:
                    child.avail += 1
            if untried:
                m = rng.choice(untried)
                child = node.children[m.label] = _Node(actor)
                child.avail = 1
                expanded = True
            else:
                m = self._select(node, legal, lo, hi)
                child = node.children[m.label]
            st.apply(m)
            node = child
            path.append(child)
        weighs = bool(st.prog.heuristic_items)
        # Random decisions, up to PLAYOUT_MOVES (CUT_AFTER with a heuristic),
        # picked where the rules decide (``State._play_out``: no move
        # lists); dice and cards drawn afresh.
        if st.explicit:
            st.explicit = False
            st._reseed(rng.getrandbits(63))
        while st.is_chance_node:        # (the one it waited at: by its odds)
            _sample_chance(st, rng)
        chooser = Policy(rng.getrandbits(63))
        chooser.stop_after(CUT_AFTER if weighs else PLAYOUT_MOVES)
        st._play_out(chooser)
        got = rewards(st, self.won) if st.is_over or not weighs else self._weighed(st)
        root.visits += 1
        for n in path[1:]:
            n.visits += 1
            n.total += got[n.who]
        return got

    def _weighed(self, st: State) -> List[float]:
        """What a playout cut short is worth to each seat, by the ruleset's
        heuristic: up to half a win, the seat's heuristic placed between
        the lowest and the highest any seat had at a cut in this search (so
        a loss, 0, is worse than any position still in play, and a win, 1,
        better)."""
        values = heuristics(st) or [0] * st.n
        self._h_lo = min(self._h_lo, *values)
        self._h_hi = max(self._h_hi, *values)
        span = self._h_hi - self._h_lo
        return [0.25 if span <= 0 else 0.5 * (v - self._h_lo) / span for v in values]

    @staticmethod
    def _rank(node: Optional[_Node]) -> Any:
        return (0, 0.0) if node is None else (node.visits, node.total / max(node.visits, 1))

    def _select(self, node: _Node, legal: Sequence[Move], lo: float, hi: float) -> Move:
        """UCB1 among the legal moves' children, mean rewards scaled to [0, 1]
        by the lowest and highest reward seen (a score alone can be any
        number); the first best in move order."""
        span = hi - lo if hi > lo else 1.0
        low = lo if hi > lo else 0.0
        best, top = legal[0], -math.inf
        c = self.exploration
        for m in legal:
            child = node.children[m.label]
            mean = (child.total / child.visits - low * 1.0) / span if child.visits else 0.0
            ucb = mean + c * math.sqrt(math.log(max(child.avail, 1)) / max(child.visits, 1))
            if ucb > top:
                best, top = m, ucb
        return best


# ------------------------------------------------------------------ specs

_GREEDY = re.compile(r"greedy:(\d+)")
#: The most decisions in a row ``greedy:N`` follows (each multiplies its work).
MOST_DEPTH = 4
_MCTS = re.compile(r"mcts(?::(?:(\d+)|(\d+(?:\.\d+)?)s))?")


class OutOfRange(ValueError):
    """A spec that names a bot, with a number it cannot take (``mcts:0``):
    ``kind`` is the bot (``mcts``, ``greedy``), ``reason`` what is wrong,
    without the spec (for a server to say to a client)."""

    def __init__(self, kind: str, reason: str, spec: str) -> None:
        super().__init__(f"{reason}, not {spec!r}")
        self.kind, self.reason = kind, reason


def player(spec: str, seed: Optional[int] = None, won: Optional[str] = None) -> Player:
    """The player a spec names: ``random``, ``greedy``, ``greedy:2``
    (following two of its own decisions in a row), ``mcts`` (200 playouts
    a decision), ``mcts:500`` (500 playouts) or ``mcts:2s`` (two seconds a
    decision).  ``won``: the ending that counts as a win for a
    game played alone.  Raises ValueError for any other spec
    (``OutOfRange``, a ValueError, for a bot's number it cannot take)."""
    text = spec.strip().lower() if isinstance(spec, str) else ""
    if text == "random":
        return RandomPlayer(seed)
    if text == "greedy":
        return GreedyPlayer(seed, won=won)
    g = _GREEDY.fullmatch(text)
    if g is not None:
        depth = int(g.group(1))
        if not 1 <= depth <= MOST_DEPTH:
            raise OutOfRange("greedy", f"greedy follows 1 to {MOST_DEPTH} decisions in a row", spec)
        return GreedyPlayer(seed, won=won, depth=depth)
    m = _MCTS.fullmatch(text)
    if m is not None:
        if m.group(1) is not None:
            n = int(m.group(1))
            if n < 1:
                raise OutOfRange("mcts", "mcts needs at least 1 playout a decision", spec)
            return MctsPlayer(playouts=n, seed=seed, won=won)
        if m.group(2) is not None:
            s = float(m.group(2))
            if s <= 0:
                raise OutOfRange("mcts", "mcts needs some time a decision", spec)
            return MctsPlayer(seconds=s, seed=seed, won=won)
        return MctsPlayer(seed=seed, won=won)
    raise ValueError(f"unknown player {spec!r}: a player is {SPECS}")
