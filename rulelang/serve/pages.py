"""The pages: the lobby, a game's page, and the table drawn from a seat's
view (``tables.seat_view``) — any ruleset, nothing written per game.

Everything a ruleset or a client supplies (titles, names, cards, labels,
log text) goes through ``esc`` (``html.escape``, quotes too) before it is
written into HTML: a ruleset is hostile input.  The JavaScript
(``static/table.js``) only fetches this HTML from the API, swaps it in,
and posts the move of a button.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from string import Template
from typing import Any, Dict, List, Optional, Tuple

from ..show import word

#: The most cells a stat's track is drawn with (a longer one is a number).
MOST_TRACK = 60
#: The most pieces of a set shown unfolded (more are folded until opened).
MOST_OPEN = 12
#: The widest and highest board drawn as a grid.
MOST_BOARD = 40


def esc(value: Any) -> str:
    """Any value in the ruleset's words as HTML text (attributes too); none
    is a dash."""
    return html.escape(word(value, none="–"), quote=True)


def _static(name: str) -> str:
    return resources.files("rulelang.serve").joinpath("static").joinpath(name).read_text(encoding="utf-8")


#: The files under /static/: name -> (media type, text).
STATIC: Dict[str, Tuple[str, str]] = {
    "style.css": ("text/css; charset=utf-8", _static("style.css")),
    "table.js": ("text/javascript; charset=utf-8", _static("table.js")),
    "lobby.js": ("text/javascript; charset=utf-8", _static("lobby.js")),
}

PAGE = Template("""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title><link rel="stylesheet" href="/static/style.css"></head>
<body$attrs>
<header><a href="/">rulelang</a> <span class="where">$title</span></header>
<main>$body</main>
<script src="/static/$script"></script>
</body></html>
""")


def _page(title: str, body: str, script: str, attrs: str = "") -> str:
    return PAGE.substitute(title=esc(title), body=body, script=script, attrs=attrs)


# -------------------------------------------------------------------- lobby

def lobby(rulesets: List[Dict[str, Any]], games: List[Dict[str, Any]]) -> str:
    parts = ['<p class="you"><label>Your name <input id="name" maxlength="40"></label></p>'
             '<p id="error" class="error" role="alert"></p>'
             '<section class="rulesets"><h1>New game</h1>']
    for r in rulesets:
        parts.append(_new_game_form(r))
    parts.append("</section>")
    parts.append(f'<section class="games">{games_list(games)}</section>')
    return _page("rulelang serve", "".join(parts), "lobby.js")


def games_list(games: List[Dict[str, Any]]) -> str:
    """The lobby's list of games being played (the lobby fetches it again
    every few seconds: ``/lobby/games``)."""
    parts = ["<h1>Games</h1>"]
    shown = [g for g in games if not g["over"]][-100:]
    if not shown:
        parts.append("<p>No game is being played.</p>")
    else:
        parts.append("<table><tr><th>game</th><th>ruleset</th><th>seats</th><th></th></tr>")
        for g in reversed(shown):
            seats = []
            for s in g["seats"]:
                if s["bot"]:
                    seats.append(f'<span class="seat bot">P{s["seat"]}: {esc(s["bot"])}</span>')
                elif s["taken"]:
                    seats.append(f'<span class="seat taken">P{s["seat"]}: {esc(s["name"] or "taken")}</span>')
                else:
                    seats.append(f'<button class="join" data-game="{esc(g["id"])}" '
                                 f'data-seat="{s["seat"]}">join as P{s["seat"]}</button>')
            parts.append(f'<tr><td><a href="/games/{esc(g["id"])}">{esc(g["id"])}</a></td>'
                         f'<td>{esc(g["title"])}</td><td>{" ".join(seats)}</td>'
                         f'<td><a href="/games/{esc(g["id"])}">watch</a></td></tr>')
        parts.append("</table>")
    return "".join(parts)


def _new_game_form(r: Dict[str, Any]) -> str:
    key = esc(r["key"])
    out = [f'<form class="new-game" data-ruleset="{key}"><h2>{esc(r["title"])}</h2>']
    counts = range(r["min_players"], r["max_players"] + 1)
    out.append('<label>Players <select name="players">' + "".join(
        f'<option value="{n}">{n}</option>' for n in counts) + "</select></label>")
    for name, choices in r["options"].items():
        out.append(f'<label>{esc(name)} <select data-option="{esc(name)}">'
                   '<option value="">(chosen in play)</option>'
                   + "".join(f'<option value="{esc(c)}">{esc(c)}</option>' for c in choices)
                   + "</select></label>")
    for name, p in r["params"].items():
        title = f' <span class="hint">({esc(p["title"])})</span>' if p["title"] else ""
        out.append(f'<label>{esc(name)}{title} <input type="number" data-param="{esc(name)}" '
                   f'value="{esc(p["value"])}" min="{esc(p["low"])}" max="{esc(p["high"])}"></label>')
    out.append('<span class="bots">Seats: ')
    for seat in range(r["max_players"]):
        out.append(f'<label class="seat-choice" data-seat="{seat}">P{seat} <select data-bot="{seat}">'
                   '<option value="">a person</option>'
                   + "".join(f'<option value="{esc(b)}">{esc(b)}</option>' for b in r["bots"])
                   + "</select></label>")
    out.append('</span><button type="submit">Create</button></form>')
    return "".join(out)


# -------------------------------------------------------------------- a game's page

def table_page(game: Dict[str, Any]) -> str:
    body = (f'<h1>{esc(game["title"])}</h1>'

            '<p id="error" class="error" role="alert"></p>'
            '<div id="table">Loading…</div>')
    return _page(game["title"], body, "table.js", f' data-game="{esc(game["id"])}"')


# -------------------------------------------------------------------- the table

def table_fragment(info: Dict[str, Any]) -> str:
    """A seat's view as HTML (``info``: ``tables.seat_view``)."""
    view = info["view"]
    seat: Optional[int] = info["seat"]
    game = info["game"]
    layout = info.get("layout", {})
    names = {s["seat"]: s["name"] or s["bot"] for s in game["seats"]}
    out = [f'<div class="table" data-version="{info["version"]}" '
           f'data-seat="{"" if seat is None else seat}" data-over="{"yes" if view["over"] else "no"}">']
    out.append(_status(info, names))
    if info.get("decision"):
        out.append(_decision(info["decision"]))
    out.append('<div class="columns"><div class="main">')
    out.append(_players(view, seat, names, layout))
    globals_ = view.get("globals", {})
    if globals_ or view.get("tracks"):
        out.append(_globals(view, layout))
    if view.get("piles"):
        out.append('<section class="shared"><h2>Table</h2>' + _piles(view["piles"]) + "</section>")
    boards = info.get("boards", {})
    for pset, pieces in view.get("pieces", {}).items():
        drawn = _board(pset, pieces, boards.get(pset), view.get("pieces", {}), layout.get("holds", {})) \
            if pset in boards else None
        out.append(drawn if drawn is not None else _piece_table(pset, pieces))
    out.append('</div><div class="side">')
    out.append(_log(info))
    out.append("</div></div></div>")
    return "".join(out)


def _who(seat: Optional[int], names: Dict[int, Optional[str]]) -> str:
    if seat is None:
        return "nobody"
    name = names.get(seat)
    return f"P{seat}" + (f" ({esc(name)})" if name else "")


def _status(info: Dict[str, Any], names: Dict[int, Optional[str]]) -> str:
    view, seat = info["view"], info["seat"]
    you = "You are a spectator." if seat is None else f"You are {_who(seat, names)}."
    parts = [f'<section class="status"><p>{you} Round {esc(view["round"])}.']
    result = info.get("result")
    if result is not None:
        winners = ", ".join(_who(w, names) for w in result["winners"]) or "nobody"
        scores = ", ".join(f"{_who(i, names)}: {esc(s)}" for i, s in enumerate(result["scores"]))
        parts.append(f' <strong class="over">The game is over: {esc(result["ending"])}.</strong>'
                     f' Winner: {winners}. Scores: {scores}.')
    else:
        who = view.get("current_player")
        if isinstance(who, int) and who == seat:
            parts.append(' <strong class="yours">Your decision.</strong>')
        elif isinstance(who, int) and info["game"].get("thinking") == who:
            parts.append(f' <strong class="thinking">{_who(who, names)} is thinking…</strong>')
        elif isinstance(who, int):
            parts.append(f" Waiting for {_who(who, names)}.")
    parts.append("</p>")
    free = [s["seat"] for s in info["game"]["seats"] if not s["taken"]]
    if seat is None and free and result is None:
        parts.append('<p class="free">Free seats: ' + "".join(
            f'<button class="join" data-seat="{s}">join as P{s}</button>' for s in free) + "</p>")
    parts.append("</section>")
    return "".join(parts)


def _decision(decision: Dict[str, Any]) -> str:
    title = decision.get("title") or "Your move"
    buttons = "".join(f'<button class="move" data-move="{esc(m)}">{esc(m)}</button>'
                      for m in decision["moves"])
    return (f'<section class="decision"><h2>{esc(title)}</h2>'
            f'<div class="moves">{buttons}</div></section>')


def _value(name: str, value: Any, bounds: Dict[str, List[int]], scale: Any = None) -> str:
    """A stat: drawn as a track when its bounds are known and near, else its value."""
    extra = ""
    if isinstance(scale, dict) and scale:
        extra = ' <span class="scale">(' + ", ".join(
            f"{esc(k)} {esc(v)}" for k, v in scale.items()) + ")</span>"
    b = bounds.get(name)
    if b is not None and type(value) is int and b[1] - b[0] < MOST_TRACK and b[0] <= value <= b[1]:
        cells = "".join(f'<span class="cell{" here" if v == value else ""}" title="{v}"></span>'
                        for v in range(b[0], b[1] + 1))
        return (f'<div class="stat track-stat"><span class="name">{esc(name)}</span> '
                f'<span class="value">{esc(value)}</span>{extra}'
                f'<span class="track" aria-hidden="true">{cells}</span></div>')
    return (f'<div class="stat"><span class="name">{esc(name)}</span> '
            f'<span class="value">{esc(value)}</span>{extra}</div>')


def _players(view: Dict[str, Any], seat: Optional[int], names: Dict[int, Optional[str]],
             layout: Dict[str, Any]) -> str:
    bounds = layout.get("bounds", {})
    out = ['<section class="players">']
    for p in view["players"]:
        s = p["seat"]
        marks = []
        if s == view.get("current_player"):
            marks.append("to-move")
        if s == seat:
            marks.append("you")
        out.append(f'<div class="player {" ".join(marks)}"><h2>{_who(s, names)}'
                   f'{" — you" if s == seat else ""}</h2>')
        scales = p.get("scales", {})
        out.append("".join(_value(k, v, bounds, scales.get(k)) for k, v in p["stats"].items()))
        if p.get("hidden"):
            out.append('<div class="hidden-stats">hidden: ' + ", ".join(esc(h) for h in p["hidden"])
                       + "</div>")
        if p["piles"]:
            out.append(_piles(p["piles"]))
        out.append("</div>")
    out.append("</section>")
    return "".join(out)


def _globals(view: Dict[str, Any], layout: Dict[str, Any]) -> str:
    bounds = layout.get("bounds", {})
    scales = view.get("scales", {})
    out = ['<section class="globals"><h2>Game</h2>']
    spaces = layout.get("tracks", {})
    for name, where in view.get("tracks", {}).items():
        here = where.get("space")
        data = ", ".join(f"{esc(k)} {esc(v)}" for k, v in where.items() if k != "space")
        cells = "".join(f'<span class="space{" here" if sp == here else ""}">{esc(sp)}</span>'
                        for sp in spaces.get(name, [here]))
        out.append(f'<div class="named-track"><span class="name">{esc(name)}</span> '
                   f'<span class="spaces">{cells}</span> <span class="scale">{data}</span></div>')
    for k, v in view.get("globals", {}).items():
        if k not in view.get("tracks", {}):         # (a track is drawn above)
            out.append(_value(k, v, bounds, scales.get(k)))
    if view.get("secret"):
        out.append('<div class="hidden-stats">secret: ' + ", ".join(esc(h) for h in view["secret"])
                   + "</div>")
    out.append("</section>")
    return "".join(out)


def _piles(piles: Dict[str, Any]) -> str:
    out = ['<div class="piles">']
    for name, cards in piles.items():
        if isinstance(cards, dict):
            n = cards.get("size", 0)
            out.append(f'<div class="pile"><span class="name">{esc(name)}</span> '
                       f'<span class="facedown">{esc(n)} card{"" if n == 1 else "s"}</span></div>')
        else:
            chips = "".join(f'<span class="card">{esc(c)}</span>' for c in cards) or \
                '<span class="empty">empty</span>'
            out.append(f'<div class="pile"><span class="name">{esc(name)}</span> {chips}</div>')
    out.append("</div>")
    return "".join(out)


def _fields(pieces: List[Dict[str, Any]]) -> List[str]:
    fields: List[str] = []
    for p in pieces:
        for k in p:
            if k not in fields and k not in ("name", "hidden"):
                fields.append(k)
    return fields


def _piece_table(pset: str, pieces: List[Dict[str, Any]]) -> str:
    if not pieces:
        return ""
    fields = _fields(pieces)
    head = "".join(f"<th>{esc(f)}</th>" for f in fields)
    rows = []
    for p in pieces:
        cells = "".join(f'<td>{esc(p[f]) if f in p else "<i>hidden</i>"}</td>' for f in fields)
        rows.append(f"<tr><th>{esc(p.get('name'))}</th>{cells}</tr>")
    opened = " open" if len(pieces) <= MOST_OPEN else ""
    return (f'<section class="pieces"><details data-set="{esc(pset)}"{opened}>'
            f'<summary><h2>{esc(pset)} <small>({len(pieces)})</small></h2></summary>'
            f'<div class="scroll"><table><tr><th></th>{head}</tr>{"".join(rows)}</table></div>'
            f'</details></section>')


def _board(pset: str, spaces: List[Dict[str, Any]], kind: Optional[str],
           all_pieces: Dict[str, List[Dict[str, Any]]],
           holds: Dict[str, Dict[str, str]]) -> Optional[str]:
    """A board as a grid (or a hex map, rows shifted by half a cell), north
    at the top; each space shows its name, its values, and the pieces whose
    values name it.  None when the spaces are not laid out by x and y."""
    at: Dict[Tuple[int, int], Dict[str, Any]] = {}
    for sp in spaces:
        x, y = sp.get("x"), sp.get("y")
        if type(x) is not int or type(y) is not int or (x, y) in at:
            return None
        at[(x, y)] = sp
    if not at:
        return None
    xs = [x for x, _ in at]
    ys = [y for _, y in at]
    if max(xs) - min(xs) >= MOST_BOARD or max(ys) - min(ys) >= MOST_BOARD:
        return None
    names = {sp.get("name") for sp in spaces}
    here: Dict[Any, List[str]] = {}
    for other, pieces in all_pieces.items():
        if other == pset:
            continue
        fields = [f for f, target in holds.get(other, {}).items() if target == pset]
        for p in pieces:
            for k in fields:
                v = p.get(k)
                if isinstance(v, str) and v in names:
                    here.setdefault(v, []).append(str(p.get("name")))
    fields = [f for f in _fields(spaces) if f not in ("x", "y")]
    hexes = kind == "hex"
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        shift = (y - min(ys)) if hexes else 0   # a hex row lies half a space east of the one below
        cells = [f'<div class="gap" style="width:{shift * 3.5}em"></div>'] if shift else []
        for x in range(min(xs), max(xs) + 1):
            cell = at.get((x, y))
            if cell is None:
                cells.append('<div class="space none"></div>')
                continue
            values = "".join(f'<div class="v"><span class="k">{esc(f)}</span> {esc(cell[f])}</div>'
                             for f in fields if f in cell and cell[f] is not None and cell[f] is not False)
            hidden = '<div class="v"><i>hidden</i></div>' if cell.get("hidden") else ""
            occupants = "".join(f'<div class="occupant">{esc(n)}</div>'
                                for n in here.get(cell.get("name"), []))
            cells.append(f'<div class="space{" hex" if hexes else ""}"><div class="sname">'
                         f'{esc(cell.get("name"))}</div>{values}{hidden}{occupants}</div>')
        rows.append(f'<div class="row">{"".join(cells)}</div>')
    kind_text = "hex map" if hexes else "grid"
    return (f'<section class="board {kind_text.replace(" ", "-")}"><h2>{esc(pset)} '
            f'<small>({kind_text})</small></h2><div class="scroll">{"".join(rows)}</div></section>')


def _log(info: Dict[str, Any]) -> str:
    entries = info["log"]
    skipped = info["log_length"] - len(entries)
    items = []
    for e in reversed(entries):
        who = "" if e["player"] is None else f'<span class="p">P{esc(e["player"])}</span>'
        items.append(f'<li><span class="r">{esc(e["round"])}</span>{who}{esc(e["text"])}</li>')
    more = f'<p class="more">(and {skipped} earlier)</p>' if skipped > 0 else ""
    return f'<section class="log"><h2>Log <small>(newest first)</small></h2><ol>{"".join(items)}</ol>{more}</section>'


def as_json(value: Any) -> str:
    """JSON for an HTML attribute (escaped)."""
    return esc(json.dumps(value))
