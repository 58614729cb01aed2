"""The balance report as text for the terminal."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

#: Rows of the longer lists printed (the JSON has them all).
MOST_ROWS = 12

_BARS = " ▁▂▃▄▅▆▇█"


def pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def num(x: Optional[float]) -> str:
    if x is None:
        return "-"
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


def interval(ci: Sequence[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def bins(hist: Mapping[str, int], most: int = 24) -> List[tuple[int, int, int]]:
    """(low, high, games) of at most ``most`` equal bins over a histogram
    keyed by whole numbers (as strings)."""
    values = {int(k): v for k, v in hist.items()}
    if not values:
        return []
    lo, hi = min(values), max(values)
    width = max(1, -(-(hi - lo + 1) // most))
    out = []
    for start in range(lo, hi + 1, width):
        out.append((start, start + width - 1,
                    sum(v for k, v in values.items() if start <= k < start + width)))
    return out


def sparkline(hist: Mapping[str, int]) -> str:
    """A histogram in one line of block characters, with its range."""
    b = bins(hist)
    if not b:
        return ""
    top = max(k for _, _, k in b) or 1
    bars = "".join(_BARS[min(8, -(-8 * k // top))] for _, _, k in b)
    return f"{b[0][0]} |{bars}| {b[-1][1]}"


def format_report(f: Mapping[str, Any], header: Sequence[str]) -> str:
    """Every figure of ``figures`` in a readable summary."""
    lines = list(header)
    seats: List[Dict[str, Any]] = f.get("seats", [])
    g = f["games"]
    if f["ranked"] and seats:
        lines.append("Wins (95% Wilson interval):")
        for s in seats:
            lines.append(f"  P{s['seat']} {s['player']:<10} {pct(s['win_rate']):>6}  "
                         f"{interval(s['ci95']):<14} sole {s['sole']}, shared {s['shared']}")
        extra = []
        if f.get("nobody_won"):
            extra.append(f"nobody won {pct(f['nobody_won'] / g)}")
        if f.get("shared_wins"):
            extra.append(f"shared wins {pct(f['shared_wins'] / g)}")
        if extra:
            lines.append("  " + ", ".join(extra))
        fp = f.get("first_player")
        if fp:
            adv = fp["advantage_ci95"]
            lines.append(f"  first player wins {pct(fp['win_rate'])} {interval(fp['ci95'])} "
                         f"(fair {pct(fp['fair'])}): advantage {100 * fp['advantage']:+.1f} points "
                         f"[{100 * adv[0]:+.1f}, {100 * adv[1]:+.1f}]")
            if len({s["player"] for s in seats}) > 1:
                lines.append("  (the seats have different players: seat and skill are mixed here)")
    else:
        lines.append("No wins counted: " + (
            "a game played alone, with no 'winner ... where' nor --won ENDING: its outcomes are "
            "its endings and scores" if f["players"] == 1 else
            "the ruleset has no score: its outcomes are its endings"))
    if f["scored"]:
        lines.append("Scores:            mean  median   p10   p90   min   max   distribution")
        for sc in f["scores"]:
            lines.append(f"  P{sc['seat']:<14} {num(sc['mean']):>6} {num(sc['median']):>7} "
                         f"{num(sc['p10']):>5} {num(sc['p90']):>5} {num(sc['min']):>5} "
                         f"{num(sc['max']):>5}   {sparkline(sc['histogram'])}")
    else:
        for seat in range(f["players"]):
            lines.append(f"  P{seat}: no score")
    lines.append("Endings:")
    for ending, e in f["endings"].items():
        lines.append(f"  {pct(e['share']):>6}  {ending} ({e['games']})")
    ln = f["length"]
    lines.append(f"Length (moves):    mean {num(ln['mean'])}, median {num(ln['median'])}, "
                 f"p10 {num(ln['p10'])}, p90 {num(ln['p90'])}   {sparkline(ln['histogram'])}")
    d, r = f["decisions"], f["rounds"]
    lines.append(f"Decisions a game:  mean {num(d['mean'])}, median {num(d['median'])}, "
                 f"p10 {num(d['p10'])}, p90 {num(d['p90'])};  rounds: mean {num(r['mean'])}, "
                 f"median {num(r['median'])}")
    b = f["branching"]
    lines.append(f"Branching:         mean {num(b['mean'])} legal moves a decision, median "
                 f"{num(b['median'])}, p90 {num(b['p90'])}, most {num(b['max'])}; forced (one "
                 f"legal move) {pct(b['forced_share'])}")
    if "lead_changes" in f:
        lc = f["lead_changes"]
        lines.append(f"Lead changes:      mean {num(lc['mean'])}, median {num(lc['median'])}, "
                     f"p90 {num(lc['p90'])}")
    if "decided_at" in f:
        da = f["decided_at"]
        lines.append(f"Decisiveness:      the winner led for good from {num(da['median'])}% of "
                     f"the game on (median; p10 {num(da['p10'])}%, p90 {num(da['p90'])}%)")
    if f.get("options"):
        lines.append("Setup options:" + ("  (seat-games, win rate, 95% interval)" if f["ranked"] else ""))
        for key, o in f["options"].items():
            tail = f"  {pct(o['win_rate']):>6} {interval(o['ci95'])}" if "win_rate" in o else ""
            lines.append(f"  {key:<40} {o['taken']:>6}{tail}")
    kinds = f["move_kinds"]
    if kinds:
        total = sum(kinds.values())
        lines.append(f"Moves chosen ({len(kinds)} kinds; numbers as #):")
        for k, v in list(kinds.items())[:MOST_ROWS]:
            lines.append(f"  {pct(v / total):>6}  {k} ({v})")
        if len(kinds) > MOST_ROWS:
            lines.append(f"  … {len(kinds) - MOST_ROWS} more kinds (--json has them all)")
    firing = f["firing"]
    if f.get("firing_counted") and not firing:
        lines.append("Rules fired: the rule file has no rule, table or choice to count")
    if firing:
        never = f["never_fired"]
        lines.append(f"Rules fired: {len(firing) - len(never)} of {len(firing)} parts fired; most often:")
        lines += _counted(firing, never, "Never fired", g)
    cards = f.get("cards") or {}
    if cards:
        unseen = f["cards_never_drawn"]
        lines.append(f"Cards drawn: {len(cards) - len(unseen)} of {len(cards)} cards were drawn "
                     f"(each draw of a copy); most often:")
        lines += _counted(cards, unseen, "Never drawn", g)
    if f["unfinished"]:
        lines.append(f"Stopped at the move limit: {f['unfinished']} games")
    if f["errors"]:
        lines.append(f"Games a rule error ended ({len(f['errors'])}, not counted):")
        for e in f["errors"][:5]:
            lines.append(f"  {e}")
    return "\n".join(lines)


def _counted(counts: Dict[str, Any], never: List[str], title: str, games: int) -> List[str]:
    """The most frequent of ``counts`` a game, then those that never came."""
    out = [f"  {v / games:>9.2f} a game  {k}" for k, v in [kv for kv in counts.items() if kv[1]][:MOST_ROWS]]
    if never:
        out.append(f"{title} ({len(never)}):")
        out += [f"  {k}" for k in never]
    return out
