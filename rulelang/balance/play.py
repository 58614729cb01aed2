"""Playing the games of a balance report: a range of seeds into a ``Tally``.

Game ``seed`` is ``game.new_game(players, seed=seed, log=False)``, each
seat played by ``rulelang.players.player(spec, seed=seed * 1000003 + seat)``:
a game depends on its seed and the seats' specs only (a time budget,
``mcts:2s``, apart), so any split of the seeds gives the same tally.

Per-rule firing counts come from ``rulelang.testing.coverage``: each game is
played a second time, in step, on the counted copy of the game (the players
think on the plain game, so their look-ahead is never counted).
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Tuple

import attrs

from ..engine import Game
from ..errors import RulesetError
from ..players import player
from .cards import CardWatch, card_names
from .stats import Tally, units

if TYPE_CHECKING:
    from ..testing.coverage import Coverage

#: A game longer than this many moves is stopped (unless the ruleset says
#: ``# conformance: max-moves N``).
DEFAULT_MAX_MOVES = 10_000

_NUMBER = re.compile(r"\d+")


@attrs.frozen
class Setup:
    """What a run plays: the number of players, each seat's player spec,
    the ending that is a win alone (or None), the move limit, and whether
    to count the rules that fire."""

    players: int
    seats: Tuple[str, ...]
    won: Optional[str] = None
    max_moves: int = DEFAULT_MAX_MOVES
    firing: bool = True


def is_ranked(game: Game, setup: Setup) -> bool:
    """Whether the games have winners worth counting: several players and a
    score, a ``winner ... where``, or an ending named as the win.  Alone
    and without those, the best score is always the player's own, and with
    no score every seat ties: such games report outcomes, not wins."""
    rs = game.ruleset
    return (bool(rs.score) and setup.players > 1) or rs.winner_where is not None or \
        setup.won is not None


def _option_sets(game: Game) -> Dict[FrozenSet[str], str]:
    """The labels of each setup option's choices -> its name: a decision
    offering exactly those is that option being chosen."""
    return {frozenset(choices): name for name, choices in game.options.items() if choices}


def play_range(game: Game, setup: Setup, first: int, count: int,
               into: Optional[Tally] = None) -> Tally:
    """The tally of the games of seeds ``first`` .. ``first + count - 1``
    (added to ``into`` when given: a Ctrl-C part way then leaves it with
    the games that ended, and the firing counts of the one cut short)."""
    tally = Tally(setup.players) if into is None else into
    counted = _counter(game)[1] if setup.firing else None
    if setup.firing:
        for name in card_names(game):
            tally.cards.setdefault(name, 0)
    ranked = is_ranked(game, setup)
    options = _option_sets(game)
    try:
        for seed in range(first, first + count):
            try:
                _play_one(game, setup, seed, tally, counted, ranked, options)
            except RulesetError as e:
                tally.errors.append(f"seed {seed}: {e.format().splitlines()[0]}")
    finally:
        if counted is not None:
            tally.firing_counted = True
            seen = _counter(game)[2]
            for part in counted.report().parts:
                if part.count is not None:
                    place = f"(line {part.line})"
                    key = part.name if part.name.endswith(place) else f"{part.name} {place}"
                    tally.firing[key] = tally.firing.get(key, 0) + part.count - seen.get(key, 0)
                    seen[key] = part.count
    return tally


#: game -> (the game, its counted copy, the counts already handed out): one
#: counted copy a process (compiling one takes longer than a small chunk).
_COUNTED: Dict[int, Tuple[Game, "Coverage", Dict[str, int]]] = {}


def _counter(game: Game) -> Tuple[Game, "Coverage", Dict[str, int]]:
    found = _COUNTED.get(id(game))
    if found is None or found[0] is not game:
        from ..testing.coverage import Coverage
        if len(_COUNTED) >= 8:
            _COUNTED.clear()
        found = _COUNTED[id(game)] = (game, Coverage(game), {})
    return found


def _play_one(game: Game, setup: Setup, seed: int, tally: Tally, counted: Optional[Coverage],
              ranked: bool, options: Dict[FrozenSet[str], str]) -> None:
    n = setup.players
    st = game.new_game(players=n, seed=seed, log=False)
    twin = counted.new_game(players=n, seed=seed) if counted is not None else None
    watch = CardWatch(game, n, seed) if counted is not None else None
    bots = [player(spec, seed=seed * 1000003 + s, won=setup.won) for s, spec in enumerate(setup.seats)]
    rng = random.Random(seed ^ 0xC4A7CE)
    track = n > 1 and bool(game.ruleset.score)
    low = game.ruleset.winner == "lowest"
    first: Optional[int] = None
    taken: List[Tuple[int, str, str]] = []
    leaders: List[Optional[int]] = []
    made = decisions = changes = 0
    last: Optional[int] = None
    branching: Dict[int, int] = {}      # (added to the tally once the game is over)
    kinds: Dict[str, int] = {}
    while not st.is_over:
        if made >= setup.max_moves:
            tally.unfinished += 1
            break
        if st.is_chance_node:
            legal = st.legal_moves()
            move = rng.choices(legal, weights=[float(m.probability or 0) for m in legal])[0]
        else:
            legal = st.legal_moves()
            seat = st.current_player
            assert seat is not None
            if first is None:       # the first turn's player (setup's choices are not a turn)
                first = st.turn_player
            branching[len(legal)] = branching.get(len(legal), 0) + 1
            decisions += 1
            move = bots[seat].choose(st)
            name = options.get(frozenset(m.label for m in legal))
            if name is not None:
                taken.append((seat, name, move.label))
            kind = _NUMBER.sub("#", move.label)
            kinds[kind] = kinds.get(kind, 0) + 1
        st.apply(move)
        if twin is not None:
            twin.apply(move.label)
        if watch is not None:
            watch.apply(move.label)
        made += 1
        if track and not st.is_chance_node:
            scores = st.result().scores
            best = min(scores) if low else max(scores)
            leader = scores.index(best) if scores.count(best) == 1 else None
            if leader is not None and leader != last:
                changes += last is not None
                last = leader
            leaders.append(leader)
    result = st.result()
    if watch is not None:
        watch.count(tally.cards)
    tally.games += 1
    for b, k in branching.items():
        tally.branching[b] = tally.branching.get(b, 0) + k
    for kind, k in kinds.items():
        tally.move_kinds[kind] = tally.move_kinds.get(kind, 0) + k
    for d, k in ((tally.length, made), (tally.decisions, decisions), (tally.rounds, st.round)):
        d[k] = d.get(k, 0) + 1
    if st.is_over:
        ending = str(result.ending)
    else:
        ending = "(stopped at the move limit)"
    tally.endings[ending] = tally.endings.get(ending, 0) + 1
    for s in range(n):
        sc = tally.scores[s]
        sc[result.scores[s]] = sc.get(result.scores[s], 0) + 1
    if track:
        tally.lead_changes[changes] = tally.lead_changes.get(changes, 0) + 1
    winners = result.winners
    if n == 1 and setup.won is not None:
        winners = (0,) if result.ending == setup.won else ()
    if not ranked:
        winners = ()
    u = units(n)
    share = u // len(winners) if winners else 0
    if ranked:
        if not winners:
            tally.nobody += 1
        elif len(winners) > 1:
            tally.shared_games += 1
        for w in winners:
            tally.win_units[w] += share
            if len(winners) == 1:
                tally.sole[w] += 1
            else:
                tally.shared[w] += 1
        if first is not None and first in winners:
            tally.first_units += share
        if len(winners) == 1 and leaders:
            w = winners[0]
            behind = max((i for i, who in enumerate(leaders) if who != w), default=-1)
            pct = round(100 * (behind + 1) / len(leaders))
            tally.decided_at[pct] = tally.decided_at.get(pct, 0) + 1
    for seat, name, label in taken:
        key = f"{name} = {label}"
        entry = tally.options.setdefault(key, [0, 0])
        entry[0] += 1
        entry[1] += share if seat in winners else 0
