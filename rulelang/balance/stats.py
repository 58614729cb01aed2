"""The figures of a balance report, kept as counts that add up exactly.

A ``Tally`` holds whole numbers only (counts, sums, histograms as
``{value: games}``), so two tallies of disjoint seed ranges merge by adding
(``Tally.merge``) and the merged figures are the same whatever the order
and however the seeds were split among workers.  Win shares (a win shared
by k winners is 1/k of a win) are counted in units of ``1 / lcm(1..n)``
so that they stay whole too.  ``figures`` turns a tally into the report's
numbers (rates, Wilson intervals, percentiles).
"""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import attrs

#: z for a 95% interval.
Z95 = 1.959963984540054


def units(players: int) -> int:
    """A win's units: divisible by every number of winners up to ``players``."""
    out = 1
    for k in range(2, players + 1):
        out = out * k // math.gcd(out, k)
    return out


def _add(into: Dict[Any, int], other: Mapping[Any, int]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


@attrs.define
class Tally:
    """Counts over a set of finished (or stopped) games; see the module."""

    players: int
    games: int = 0
    #: win units of each seat (``units(players)`` a whole win)
    win_units: List[int] = attrs.Factory(list)
    #: games each seat won outright, and those it shared
    sole: List[int] = attrs.Factory(list)
    shared: List[int] = attrs.Factory(list)
    #: games nobody won
    nobody: int = 0
    #: games with more than one winner
    shared_games: int = 0
    #: win units of the player of each game's first turn (the first
    #: decision's turn: choices in setup belong to no turn)
    first_units: int = 0
    #: seat -> {score: games}
    scores: List[Dict[int, int]] = attrs.Factory(list)
    endings: Dict[str, int] = attrs.Factory(dict)
    #: {moves made: games} (decisions and, in explicit mode, chance outcomes)
    length: Dict[int, int] = attrs.Factory(dict)
    #: {decisions: games}, {rounds: games}
    decisions: Dict[int, int] = attrs.Factory(dict)
    rounds: Dict[int, int] = attrs.Factory(dict)
    #: {legal moves at a decision: decisions}
    branching: Dict[int, int] = attrs.Factory(dict)
    #: {changes of the sole leader: games} (more than one player, a score)
    lead_changes: Dict[int, int] = attrs.Factory(dict)
    #: {percent of the game's decisions after which the sole winner led
    #: for good: games} (games with a sole winner)
    decided_at: Dict[int, int] = attrs.Factory(dict)
    #: "option = choice" -> [seat-games that took it, their win units]
    options: Dict[str, List[int]] = attrs.Factory(dict)
    #: "kind name (line N)" -> times it fired (every part of the rule file, 0s too)
    firing: Dict[str, int] = attrs.Factory(dict)
    #: whether the firing counts were kept
    firing_counted: bool = False
    #: card name -> times a copy left its deck (every card of the decks, 0s
    #: too; kept with the firing counts: ``cards.CardWatch``)
    cards: Dict[str, int] = attrs.Factory(dict)
    #: a move's label with its numbers as '#' -> times chosen
    move_kinds: Dict[str, int] = attrs.Factory(dict)
    #: games stopped at the move limit, and games a rule error ended
    unfinished: int = 0
    errors: List[str] = attrs.Factory(list)

    def __attrs_post_init__(self) -> None:
        n = self.players
        for name in ("win_units", "sole", "shared"):
            if not getattr(self, name):
                setattr(self, name, [0] * n)
        if not self.scores:
            self.scores = [{} for _ in range(n)]

    def merge(self, other: Tally) -> Tally:
        """Add ``other``'s games to this tally (and return it)."""
        if other.players != self.players:
            raise ValueError("tallies of different numbers of players do not merge")
        self.games += other.games
        for name in ("win_units", "sole", "shared"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs)])
        self.nobody += other.nobody
        self.shared_games += other.shared_games
        self.first_units += other.first_units
        for a, b in zip(self.scores, other.scores):
            _add(a, b)
        for name in ("endings", "length", "decisions", "rounds", "branching", "lead_changes",
                     "decided_at", "firing", "move_kinds", "cards"):
            _add(getattr(self, name), getattr(other, name))
        for key, (taken, won) in other.options.items():
            mine = self.options.setdefault(key, [0, 0])
            mine[0] += taken
            mine[1] += won
        self.firing_counted = self.firing_counted or other.firing_counted
        self.unfinished += other.unfinished
        self.errors.extend(other.errors)
        return self

    def to_dict(self) -> Dict[str, Any]:
        """As plain JSON data (histogram keys as strings)."""
        d = attrs.asdict(self)
        for k, v in d.items():
            if isinstance(v, dict):
                d[k] = {str(a): b for a, b in sorted(v.items(), key=lambda kv: _order(kv[0]))}
        d["scores"] = [{str(a): b for a, b in sorted(s.items())} for s in self.scores]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Tally:
        t = cls(players=d["players"])
        for k, v in d.items():
            if k in ("length", "decisions", "rounds", "branching", "lead_changes", "decided_at"):
                v = {int(a): b for a, b in v.items()}
            elif k == "scores":
                v = [{int(a): b for a, b in s.items()} for s in v]
            elif k == "options":
                v = {a: list(b) for a, b in v.items()}
            setattr(t, k, v)
        return t


def _order(key: Any) -> Tuple[int, Any]:
    return (0, key) if isinstance(key, int) else (1, str(key))


def merged(tallies: Iterable[Tally], players: int) -> Tally:
    out = Tally(players)
    for t in tallies:
        out.merge(t)
    return out


# ------------------------------------------------------------------ figures

def wilson(successes: float, n: int, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` of ``n``)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # (the interval holds p; rounding must not put p a hair outside it)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def percentile(hist: Mapping[int, int], q: float) -> Optional[float]:
    """The ``q`` quantile (0..1) of a histogram, nearest rank."""
    total = sum(hist.values())
    if not total:
        return None
    rank = max(1, math.ceil(q * total))
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return float(value)
    return float(max(hist))


def mean(hist: Mapping[int, int]) -> Optional[float]:
    total = sum(hist.values())
    return sum(v * k for v, k in hist.items()) / total if total else None


def spread(hist: Mapping[int, int]) -> Dict[str, Any]:
    """Mean, median, 10th and 90th percentiles, least and most."""
    if not hist:
        return {"mean": None, "median": None, "p10": None, "p90": None, "min": None, "max": None}
    return {"mean": mean(hist), "median": percentile(hist, 0.5), "p10": percentile(hist, 0.1),
            "p90": percentile(hist, 0.9), "min": min(hist), "max": max(hist)}


def figures(t: Tally, ranked: bool, scored: bool, seats: Sequence[str]) -> Dict[str, Any]:
    """Every figure of the report, from the counts (``ranked``: the games
    have winners to count; ``scored``: the ruleset has a score)."""
    n, u, g = t.players, units(t.players), t.games
    out: Dict[str, Any] = {"games": g, "players": n, "ranked": ranked, "scored": scored}
    if ranked and g:
        seats_out = []
        for s in range(n):
            rate = t.win_units[s] / u / g
            lo, hi = wilson(t.win_units[s] / u, g)
            seats_out.append({"seat": s, "player": seats[s], "wins": t.win_units[s] / u,
                              "win_rate": rate, "ci95": [lo, hi], "sole": t.sole[s],
                              "shared": t.shared[s]})
        out["seats"] = seats_out
        out["nobody_won"] = t.nobody
        out["shared_wins"] = t.shared_games
        if n > 1:
            rate = t.first_units / u / g
            lo, hi = wilson(t.first_units / u, g)
            out["first_player"] = {"win_rate": rate, "ci95": [lo, hi], "fair": 1 / n,
                                   "advantage": rate - 1 / n,
                                   "advantage_ci95": [lo - 1 / n, hi - 1 / n]}
    if scored:
        out["scores"] = [dict(spread(t.scores[s]), seat=s,
                              histogram={str(k): v for k, v in sorted(t.scores[s].items())})
                         for s in range(n)]
    out["endings"] = {e: {"games": k, "share": k / g if g else 0.0}
                      for e, k in sorted(t.endings.items(), key=lambda kv: (-kv[1], kv[0]))}
    out["length"] = dict(spread(t.length), histogram={str(k): v for k, v in sorted(t.length.items())})
    out["decisions"] = spread(t.decisions)
    out["rounds"] = spread(t.rounds)
    decided = sum(t.branching.values())
    out["branching"] = {"mean": mean(t.branching), "median": percentile(t.branching, 0.5),
                        "p90": percentile(t.branching, 0.9), "max": max(t.branching, default=None),
                        "forced_share": t.branching.get(1, 0) / decided if decided else None}
    if t.lead_changes:
        out["lead_changes"] = spread(t.lead_changes)
    if t.decided_at:
        out["decided_at"] = dict(spread(t.decided_at),
                                 histogram={str(k): v for k, v in sorted(t.decided_at.items())})
    if ranked and t.options:
        out["options"] = {key: {"taken": taken, "win_rate": won / u / taken,
                                "ci95": list(wilson(won / u, taken))}
                          for key, (taken, won) in sorted(t.options.items())}
    elif t.options:
        out["options"] = {key: {"taken": taken} for key, (taken, _) in sorted(t.options.items())}
    out["firing_counted"] = t.firing_counted
    out["firing"] = dict(sorted(t.firing.items(), key=lambda kv: (-kv[1], kv[0])))
    out["never_fired"] = sorted(k for k, v in t.firing.items() if v == 0)
    out["cards"] = dict(sorted(t.cards.items(), key=lambda kv: (-kv[1], kv[0])))
    out["cards_never_drawn"] = sorted(k for k, v in t.cards.items() if v == 0)
    out["move_kinds"] = dict(sorted(t.move_kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    out["unfinished"] = t.unfinished
    out["errors"] = list(t.errors)
    return out
