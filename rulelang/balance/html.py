"""The balance report as one self-contained HTML page (plots embedded as
PNG data) and as PNG files: win rates with their intervals, game length,
scores, endings, setup options and how often each rule fired.  Needs
matplotlib (the ``report`` extra)."""

from __future__ import annotations

import base64
import html
import importlib
import io
import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Tuple

from ..errors import printable
from .text import bins

#: The most rule file parts drawn in the firing chart (the JSON has them all).
MOST_PARTS = 40


def _pyplot() -> Any:
    try:
        mpl: Any = importlib.import_module("matplotlib")
    except ImportError:
        raise ImportError("--html and --png need matplotlib: pip install 'rulelang[report]'") from None
    mpl.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def _hist_bars(ax: Any, hist: Mapping[str, int], label: str = "", alpha: float = 1.0) -> None:
    """A histogram keyed by whole numbers, in at most 40 equal bins."""
    b = bins(hist, 40)
    ax.bar([(lo + hi) / 2 for lo, hi, _ in b], [k for _, _, k in b],
           width=(b[0][1] - b[0][0] + 1) * 0.95 if b else 1.0, label=label, alpha=alpha,
           edgecolor="none")


def _literal(names: Iterable[str]) -> List[str]:
    """A ruleset's words as matplotlib draws them, letter for letter: a '$'
    would start mathematics (a lone one fails the whole report), a control
    character is written as an escape (as a terminal shows it; matplotlib
    has no glyph for it, and its warning would print it raw)."""
    return [printable(n).replace("$", r"\$") for n in names]


def _wins(plt: Any, f: Mapping[str, Any]) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    if f.get("seats"):
        seats = f["seats"]
        names = [f"P{s['seat']}\n{s['player']}" for s in seats]
        rates = [100 * s["win_rate"] for s in seats]
        err = [[max(0.0, 100 * (s["win_rate"] - s["ci95"][0])) for s in seats],
               [max(0.0, 100 * (s["ci95"][1] - s["win_rate"])) for s in seats]]
        ax.bar(names, rates, yerr=err, capsize=6, color="#4c78a8")
        if f["players"] > 1:
            ax.axhline(100 / f["players"], color="#999", linestyle="--", linewidth=1,
                       label="an even share")
            ax.legend(loc="upper right", fontsize=8)
        ax.set_ylabel("wins, % (95% interval)")
        ax.set_ylim(0, 100)
        ax.set_title("Win rate by seat")
    else:
        ends = f["endings"]
        ax.barh(_literal(ends)[::-1], [100 * e["share"] for e in ends.values()][::-1], color="#4c78a8")
        ax.set_xlabel("% of games")
        ax.set_title("Endings (no wins to count)")
    fig.tight_layout()
    return fig


def _endings(plt: Any, f: Mapping[str, Any]) -> Any:
    ends = f["endings"]
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.32 * len(ends)))
    ax.barh(_literal(ends)[::-1], [100 * e["share"] for e in ends.values()][::-1], color="#f58518")
    ax.set_xlabel("% of games")
    ax.set_xlim(0, 100)
    ax.set_title("Endings")
    fig.tight_layout()
    return fig


def _length(plt: Any, f: Mapping[str, Any]) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    _hist_bars(ax, f["length"]["histogram"])
    ln = f["length"]
    for q, style in (("median", "-"), ("p10", ":"), ("p90", ":")):
        if ln[q] is not None:
            ax.axvline(ln[q], color="#e45756", linestyle=style, linewidth=1)
    ax.set_xlabel("moves in a game (red: median, dotted: 10th and 90th percentiles)")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    return fig


def _scores(plt: Any, f: Mapping[str, Any]) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    many = len(f["scores"]) > 1
    for s in f["scores"]:
        _hist_bars(ax, s["histogram"], label=f"P{s['seat']}", alpha=0.55 if many else 1.0)
    if many:
        ax.legend(fontsize=8)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("Score distribution")
    fig.tight_layout()
    return fig


def _options(plt: Any, f: Mapping[str, Any]) -> Any:
    opts = f["options"]
    names = list(opts)
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.32 * len(names)))
    rates = [100 * o["win_rate"] for o in opts.values()]
    err = [[max(0.0, 100 * (o["win_rate"] - o["ci95"][0])) for o in opts.values()],
           [max(0.0, 100 * (o["ci95"][1] - o["win_rate"])) for o in opts.values()]]
    ax.barh(_literal(names)[::-1], rates[::-1], xerr=[err[0][::-1], err[1][::-1]], capsize=4, color="#72b7b2")
    ax.set_xlabel("wins of the seats that took it, % (95% interval)")
    ax.set_xlim(0, 100)
    ax.set_title("Setup options")
    fig.tight_layout()
    return fig


def _firing(plt: Any, f: Mapping[str, Any]) -> Any:
    firing = list(f["firing"].items())
    shown = firing[:MOST_PARTS]
    never = [k for k, v in firing if v == 0]
    shown += [(k, 0) for k in never if (k, 0) not in shown][:10]
    g = max(f["games"], 1)
    fig, ax = plt.subplots(figsize=(8, 0.9 + 0.24 * len(shown)))
    labels = [k if len(k) < 60 else k[:57] + "…" for k, _ in shown]
    values = [v / g for _, v in shown]
    colors = ["#e45756" if v == 0 else "#54a24b" for _, v in shown]
    ax.barh(_literal(labels)[::-1], values[::-1], color=colors[::-1])
    for tick, value in zip(ax.get_yticklabels(), values[::-1]):
        if value == 0:      # (a bar of nothing: the name says it in red)
            tick.set_color("#e45756")
    ax.set_xscale("symlog", linthresh=0.01)
    ax.margins(y=0.005)
    ax.tick_params(axis="y", labelsize=7)
    ax.set_xlabel("times a game (named in red: never fired)")
    more = len(firing) - len(shown)
    ax.set_title("Rules, rows and choices fired" + (f" (the {len(shown)} shown of {len(firing)})"
                                                   if more > 0 else ""))
    fig.tight_layout()
    return fig


def plots(doc: Mapping[str, Any]) -> List[Tuple[str, str, Any]]:
    """(file name, caption, figure) of every plot the report has."""
    plt = _pyplot()
    f = doc["figures"]
    makers: List[Tuple[str, str, Callable[[Any, Mapping[str, Any]], Any]]] = [
        ("wins.png", "Win rate by seat", _wins), ("endings.png", "Endings", _endings),
        ("length.png", "Game length", _length)]
    if f.get("scored"):
        makers.append(("scores.png", "Scores", _scores))
    if f.get("options") and f.get("ranked"):
        makers.append(("options.png", "Setup options", _options))
    if f.get("firing"):
        makers.append(("firing.png", "Rules fired", _firing))
    return [(name, caption, make(plt, f)) for name, caption, make in makers]


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    fig.clf()
    _pyplot().close(fig)
    return buf.getvalue()


#: The last report's plots as PNG data (--html and --png draw them once).
_drawn: List[Any] = [None, []]


def pngs(doc: Mapping[str, Any]) -> List[Tuple[str, str, bytes]]:
    """(file name, caption, PNG data) of every plot, drawn once per report."""
    if _drawn[0] is not doc:
        _drawn[:] = [doc, [(name, caption, _png(fig)) for name, caption, fig in plots(doc)]]
    return list(_drawn[1])


def write_pngs(folder: str, doc: Mapping[str, Any]) -> List[str]:
    """Each plot as a PNG file in ``folder`` (made if need be); their paths."""
    made = pngs(doc)
    os.makedirs(folder, exist_ok=True)
    out = []
    for name, _, data in made:
        path = os.path.join(folder, name)
        with open(path, "wb") as fh:
            fh.write(data)
        out.append(path)
    return out


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.92em; }
td, th { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
td:first-child, th:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 1em; font-size: 0.82em; overflow-x: auto; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.plots figure { margin: 0; } figcaption { font-size: 0.85em; color: #555; }
code { background: #f0f0f0; padding: 0 0.3em; }
"""


def _table(head: List[str], rows: List[List[Any]]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    return "".join(out) + "</table>"


def _p(x: Any) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def html_report(doc: Mapping[str, Any]) -> str:
    """The whole report as one HTML page: nothing it loads from elsewhere."""
    f: Dict[str, Any] = dict(doc["figures"])
    title = html.escape(str(doc["game"]))
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{title}: balance report"
             f"</title><style>{_STYLE}</style></head><body>",
             f"<h1>{title}: balance report</h1>",
             f"<p>{f['games']} games, {f['players']} player{'s' if f['players'] > 1 else ''}, "
             f"seeds from {doc['seed']}; seats: "
             + ", ".join(f"P{i} <code>{html.escape(s)}</code>" for i, s in enumerate(doc["seats"]))
             + (" (interrupted)" if doc.get("interrupted") else "") + "</p>",
             f"<p>To repeat: <code>{html.escape(str(doc['command']))}</code></p>"]
    if f.get("seats"):
        parts.append("<h2>Wins</h2>" + _table(
            ["seat", "player", "win rate", "95% interval", "sole", "shared"],
            [[f"P{s['seat']}", s["player"], _p(s["win_rate"]),
              f"{_p(s['ci95'][0])} – {_p(s['ci95'][1])}", s["sole"], s["shared"]]
             for s in f["seats"]]))
    parts.append("<div class='plots'>")
    for _, caption, png in pngs(doc):
        data = base64.b64encode(png).decode("ascii")
        parts.append(f"<figure><img alt='{html.escape(caption)}' "
                     f"src='data:image/png;base64,{data}'></figure>")
    parts.append("</div>")
    parts.append("<h2>Endings</h2>" + _table(["ending", "games", "share"], [
        [e, v["games"], _p(v["share"])] for e, v in f["endings"].items()]))
    if f.get("never_fired"):
        parts.append(f"<h2>Never fired ({len(f['never_fired'])})</h2><ul>"
                     + "".join(f"<li>{html.escape(k)}</li>" for k in f["never_fired"]) + "</ul>")
    if f.get("cards"):
        g = max(f["games"], 1)
        parts.append(f"<h2>Cards drawn ({len(f['cards'])} cards; a draw is a copy leaving its deck)</h2>"
                     + _table(["card", "a game", "in all"],
                              [[k, f"{v / g:.2f}", v] for k, v in f["cards"].items()]))
    if f.get("cards_never_drawn"):
        parts.append(f"<h2>Never drawn ({len(f['cards_never_drawn'])})</h2><ul>"
                     + "".join(f"<li>{html.escape(k)}</li>" for k in f["cards_never_drawn"]) + "</ul>")
    parts.append("<h2>Every figure</h2><pre>" + html.escape(str(doc.get("text", ""))) + "</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
