"""What the language server knows about one rule file: its problems, and
what each name in it means and where it is declared.

Nothing here speaks the protocol (``server`` does): ``analyse`` parses and
checks a text the way ``rulelang check`` does, then indexes it.  Names get
their meaning from the IR and from the checker's resolver (the binding it
recorded for each bare name it read: a card's property, a piece's field, a
local, a stat, a constant, a word); a name the resolver did not read (a
deck after ``draw from``, a rule after ``call``) means the declaration of
that name.  Places are 0-based lines and columns counted in characters;
the server converts them to the client's units.
"""

from __future__ import annotations

import bisect
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import attrs

from .. import ir
from ..check import Checker
from ..check.resolve import CARD, CONST, GLOBAL, LOCAL, PIECE, PLAYER, WORD
from ..errors import Diagnostic, RulesetError
from ..limits import DEFAULT
from ..syntax import parse
from ..words import KEYWORD, NAME, PLACEHOLDER, STRING, Token
from .model import Analysis, Occurrence, Outline, Place, Problem, Symbol
from .outline import make_outline

__all__ = ["Analysis", "Occurrence", "Outline", "Place", "Problem", "Symbol", "analyse"]



def analyse(text: str, filename: str = "<text>") -> Analysis:
    """Parse, check and index ``text``: never raises for a bad text."""
    a = Analysis(text, filename)
    try:
        rs = parse(text, filename)
    except RulesetError as e:
        a.problems = [_problem(a, d) for d in e.diagnostics]
        return a
    except RecursionError:
        a.problems = [Problem(Place(0, 0, 1), "the file is nested too deeply to read")]
        return a
    a.rs = rs
    checker = Checker(rs, DEFAULT)
    diagnostics: List[Diagnostic] = []
    try:
        errors = checker.run()
        diagnostics = [*errors, *checker.warnings]
        a.problems = [_problem(a, d) for d in errors]
        a.problems += [_problem(a, d, warning=True) for d in checker.warnings]
        a.resolved = checker.resolved()
    except Exception as e:  # noqa: BLE001 - the checker on a broken file: report, keep the rest
        a.problems.append(Problem(Place(0, 0, 1), f"the checker stopped: {type(e).__name__}: {e}"))
    indexer = _Indexer(a, rs)
    indexer.run()
    _with_fixes(a, diagnostics)
    return a


def _problem(a: Analysis, d: Diagnostic, warning: bool = False) -> Problem:
    line, column = max(d.line - 1, 0), max(d.column - 1, 0)
    t = a.token_at(line, column) if line < len(a.lines) else None
    if t is not None and t.line == line and t.column == column:
        place = Place(line, column, t.end_column)
    else:
        width = len(a.lines[line]) if line < len(a.lines) else 0
        place = Place(line, min(column, width), min(column, width) + 1)
    return Problem(place, d.message, warning)


def _with_fixes(a: Analysis, diagnostics: Sequence[Diagnostic]) -> None:
    """Each problem whose diagnostic carries the checker's "did you mean"
    (``Diagnostic.suggestion``) given its fix (``Problem.fix``): the
    misspelt name where it first stands at or after the problem's place
    (on its line or the next few), replaced by the name meant."""
    for i, (p, d) in enumerate(zip(a.problems, diagnostics)):
        if d.suggestion is None:
            continue
        wrong, meant = d.suggestion
        start = a.offset(p.place.line, p.place.start)
        k = bisect.bisect_left(a._starts, start)
        for t in a.tokens[k:k + 40]:
            if t.line > p.place.line + 3:
                break
            if t.kind in (NAME, KEYWORD) and t.text == wrong:
                a.problems[i] = attrs.evolve(p, fix=(Place(t.line, t.column, t.end_column), meant))
                break


# ---------------------------------------------------------------- the index

#: When a name is not read by the resolver, the declaration it means: the
#: kinds tried in this order.
_ORDER = ("rule", "stat", "param", "const", "deck", "pile", "pieces", "table", "option", "actor",
          "phase", "card", "piece", "property", "field", "word")


class _Indexer:
    """Fills an Analysis's definitions, hovers, regions, occurrences and
    outline from the IR of a text that parsed."""

    def __init__(self, a: Analysis, rs: ir.Ruleset):
        self.a = a
        self.rs = rs
        self.by_name: Dict[str, Dict[str, Symbol]] = {}
        #: (line, column) of a name token -> what the IR says it is there
        self.fixed: Dict[Tuple[int, int], Symbol] = {}

    def run(self) -> None:
        self.declarations()
        self.local_regions()
        self.named_by_ir()
        self.index()
        self.a.outline = make_outline(self.a, self.rs)

    # ------------------------------------------------------------ helpers

    def find(self, pos: Optional[ir.Pos], name: str, within: int = 60) -> Optional[Token]:
        """The token naming ``name`` (a name, or a quoted text) at or after ``pos``."""
        start = self.a.offset_of(pos)
        i = bisect.bisect_left(self.a._starts, start)
        quoted = f'"{name}"'
        for t in self.a.tokens[i:i + within]:
            if t.text == name or t.text == quoted:
                return t
        return None

    def define(self, symbol: Symbol, pos: Optional[ir.Pos], hover: str,
               name: Optional[str] = None) -> Optional[Place]:
        t = self.find(pos, name or symbol.name)
        if t is None:
            return None
        place = Place(t.line, t.column, t.end_column)
        self.fixed.setdefault((t.line, t.column), symbol)
        if symbol not in self.a.definitions:
            self.a.definitions[symbol] = place
            self.a.hovers[symbol] = hover
            self.by_name.setdefault(symbol.name, {}).setdefault(symbol.kind, symbol)
        return place

    # ------------------------------------------------------- declarations

    def declarations(self) -> None:
        rs = self.rs
        types: Mapping[str, str] = self.a.resolved.stat_types if self.a.resolved is not None else {}
        for s in rs.stats:
            self.stat(s, {"player": "a stat of each player", "turn": "a stat of each player, "
                          "set again at the start of each of their turns",
                          "global": "a stat of the whole game"}.get(s.scope, "a stat"), types)
        for actor in rs.actors:
            self.define(Symbol("actor", actor.name), actor.pos,
                        f"**actor** `{actor.name}`: takes part without a seat; its stats: "
                        + (", ".join(f"`{s.name}`" for s in actor.stats) or "none"))
            for s in actor.stats:
                self.stat(s, f"a stat of actor `{actor.name}`", types)
            for pile in actor.piles:
                self.pile(pile, f" of actor `{actor.name}`")
        for gp in rs.params:
            title = f": {gp.title}" if gp.title else ""
            self.define(Symbol("param", gp.name), gp.pos,
                        f"**parameter** `{gp.name}` = {gp.default} (from {gp.low} to {gp.high}, "
                        f"picked when a game is made){title}")
        for c in rs.consts:
            self.define(Symbol("const", c.name), c.pos,
                        f"**constant** `{c.name}`\n\n```rulelang\n{self.a.source_line(c.pos)}\n```")
        for d in rs.decks:
            self.deck(d)
        for p in rs.piles:
            self.pile(p, "")
        for ps in rs.pieces:
            self.pieces(ps)
        for t in rs.tables:
            self.define(Symbol("table", t.name), t.pos,
                        f"**table** `{t.name}`: rolled on with a d{t.sides}, {len(t.rows)} rows")
        for r in rs.rules:
            params = ", ".join(p.name if p.type == "number" else f"{p.name}: {p.type}"
                               for p in r.params)
            gives = f" gives {r.gives}" if r.gives else ""
            self.define(Symbol("rule", r.name), r.pos,
                        f"**rule** `{r.name}` ({params or 'no parameters'}){gives}\n\n"
                        f"```rulelang\nrule {r.name}" + (f" ({params})" if params else "")
                        + f"{gives}\n```")
        for o in rs.options:
            self.define(Symbol("option", o.name), o.pos,
                        f"**option** `{o.name}`: chosen at setup" + (f", \"{o.prompt}\"" if o.prompt
                                                                     else ""))
        if rs.turn is not None:
            for i, ph in enumerate(rs.turn.phases):
                self.define(Symbol("phase", ph.name), ph.pos,
                            f"**phase** `{ph.name}`: phase {i + 1} of {len(rs.turn.phases)} of a turn")
        if self.a.resolved is not None:
            for name, kind in self.a.resolved.card_props.items():
                self.by_name.setdefault(name, {}).setdefault("property", Symbol("property", name))
                self.a.hovers.setdefault(Symbol("property", name),
                                         f"**card property** `{name}` ({kind})")
            for word, stat in self.a.resolved.word_stats.items():
                self.by_name.setdefault(word, {}).setdefault("word", Symbol("word", word))
                self.a.hovers.setdefault(Symbol("word", word),
                                         f"**word**: a value of `{stat}`")

    def stat(self, s: ir.Stat, what: str, types: Mapping[str, str]) -> None:
        kind = types.get(s.name)
        facts = [f"starts at {_value(s.initial) or 'a value worked out at setup'}"]
        if s.values:
            facts = [f"one of {', '.join(s.values)}"]
        if s.spaces:
            facts.append("a track of " + ", ".join(sp.name for sp in s.spaces))
        if s.min is not None:
            facts.append(f"min {_value(s.min)}")
        if s.max is not None:
            facts.append(f"max {_value(s.max)}")
        if s.sight:
            facts.append(s.sight)
        if s.scale:
            facts.append("with a scale")
        typed = f" ({kind})" if kind else ""
        self.define(Symbol("stat", s.name), s.pos,
                            f"**stat** `{s.name}`{typed}: {what}; " + ", ".join(facts))
        for v in s.values or ():
            self.define(Symbol("word", v), s.pos, f"**word**: a value of `{s.name}`")
        for sp in s.spaces or ():
            for p in sp.props:
                self.printed_word(p, f"space `{sp.name}`")
            props = ", ".join(f"{p.name} {_value(p.value)}" for p in sp.props)
            self.define(Symbol("word", sp.name), sp.pos,
                        f"**space** `{sp.name}` of track `{s.name}`" + (f": {props}" if props else ""))

    def printed_word(self, p: "ir.Prop | ir.PieceProp", on: str) -> None:
        """A word printed on a component (``terrain jungle``), declared
        where it is first printed."""
        word = p.value.name if isinstance(p.value, ir.Name) else ""
        if word and not {"const", "param"} & set(self.by_name.get(word, {})):
            stat = self.a.resolved.word_stats.get(word) if self.a.resolved is not None else None
            self.define(Symbol("word", word), p.value.pos or p.pos,
                        f"**word** `{word}`, printed on {on}" + (f" (a value of `{stat}`)" if stat else ""))

    def deck(self, d: ir.Deck) -> None:
        count = sum(c.count for c in d.cards)
        extra = f", refilled from `{d.refill_from}`" if d.refill_from else ""
        own = " (each player has one of their own)" if d.per_player else ""
        self.define(Symbol("deck", d.name), d.pos,
                    f"**deck** `{d.name}`{own}: {count} cards of {len(d.cards)} kinds{extra}")
        for c in d.cards:
            props = ", ".join(f"{p.name} {_value(p.value)}" for p in c.props)
            copies = f"x({c.count_of})" if c.count_of else f"x{c.count}"
            self.define(Symbol("card", c.name), c.pos,
                        f"**card** \"{c.name}\" of deck `{d.name}`, {copies}"
                        + (f": {props}" if props else ""))
            for p in c.props:
                self.printed_word(p, f"card \"{c.name}\"")
                kind = self.a.resolved.card_props.get(p.name, "") if self.a.resolved else ""
                self.define(Symbol("property", p.name), p.pos,
                            f"**card property** `{p.name}`" + (f" ({kind})" if kind else ""))

    def pile(self, p: ir.Pile, owner: str) -> None:
        facts = [w for w, on in (("one per player", p.per_player), ("hidden", p.hidden)) if on]
        self.define(Symbol("pile", p.name), p.pos,
                    f"**pile** `{p.name}`{owner}" + (f": {', '.join(facts)}" if facts else ""))

    def pieces(self, ps: ir.PieceSet) -> None:
        board = " (a board)" if ps.links else ""
        fields = sorted({st.name for st in ps.state} | {p.name for pc in ps.pieces for p in pc.props})
        self.define(Symbol("pieces", ps.name), ps.pos,
                    f"**pieces** `{ps.name}`{board}: {len(ps.pieces)} pieces"
                    + (f"; fields {', '.join(fields)}" if fields else ""))
        for st in ps.state:
            self.define(Symbol("field", st.name, ps.name), st.pos,
                        f"**field** `{st.name}` of each piece of `{ps.name}` (changes in play), "
                        + (f"one of {', '.join(st.values)}" if st.values
                           else f"starts at {_value(st.initial)}"))
            for v in st.values or ():
                self.define(Symbol("word", v), st.pos,
                            f"**word**: a value of `{st.name}` of the pieces of `{ps.name}`")
        for pc in ps.pieces:
            props = ", ".join(f"{p.name} {_value(p.value)}" for p in pc.props)
            self.define(Symbol("piece", pc.name), pc.pos,
                        f"**piece** \"{pc.name}\" of `{ps.name}`" + (f": {props}" if props else ""))
            for p in pc.props:
                self.define(Symbol("field", p.name, ps.name), p.pos,
                            f"**field** `{p.name}` of the pieces of `{ps.name}`")
                self.printed_word(p, f"piece \"{pc.name}\" of `{ps.name}`")
        for name in sorted({p.name for pc in ps.pieces for p in pc.props}):
            # a field no line spells out (a grid's x and y): declared with the set
            self.define(Symbol("field", name, ps.name), ps.pos,
                        f"**field** `{name}` of the pieces of `{ps.name}` (made by its declaration)",
                        name=ps.name)

    # ------------------------------------------------------------- locals

    def local_regions(self) -> None:
        """The places locals live in (a rule, a phase, setup, a trigger, a
        table, an option…), and the locals each declares."""
        rs = self.rs
        places: List[Tuple[str, Optional[ir.Pos], object]] = []
        regions: List[Tuple[int, int, str]] = []
        places += [(f"rule {r.name}", r.pos, r) for r in rs.rules]
        if rs.turn is not None:
            places.append(("turn", rs.turn.pos, rs.turn))
            places += [(f"phase {ph.name}", ph.pos, ph) for ph in rs.turn.phases]
        places += [(f"table {t.name}", t.pos, t) for t in rs.tables]
        places += [(f"option {o.name}", o.pos, o) for o in rs.options]
        places += [(f"whenever {i}", t.pos, t) for i, t in enumerate(rs.triggers)]
        places += [(f"on draw {i}", t.pos, t) for i, t in enumerate(rs.draw_triggers)]
        places += [(f"end {i}", e.pos, e) for i, e in enumerate(rs.endings)]
        places += [(f"score {i}", s.pos, s) for i, s in enumerate(rs.score)]
        places += [(f"heuristic {i}", s.pos, s) for i, s in enumerate(rs.heuristic)]
        if rs.reroll is not None:
            places.append(("reroll", rs.reroll.pos, rs.reroll))
        if rs.setup:
            first = getattr(rs.setup[0], "pos", None)
            if first is not None:
                # setup's braces: the nearest 'setup' keyword before its first statement
                at = self.a.offset_of(first)
                i = bisect.bisect_left(self.a._starts, at)
                for t in reversed(self.a.tokens[:i]):
                    if t.text == "setup":
                        places.append(("setup", ir.Pos(t.line + 1, t.column + 1), rs.setup))
                        break
        for key, pos, node in places:
            if pos is None:
                continue
            start = self.a.offset_of(pos)
            end_line, end_col = self.a.block_end(start)
            regions.append((start, self.a.offset(end_line, end_col), key))
            found: Dict[str, Place] = {}
            for child in _walk(node):
                for name in _binds(child):
                    if name in found:
                        continue
                    tok = self.find(getattr(child, "pos", None) or pos, name, within=200)
                    if tok is not None:
                        found[name] = Place(tok.line, tok.column, tok.end_column)
                        symbol = Symbol("local", name, key)
                        self.a.definitions.setdefault(symbol, found[name])
                        self.a.hovers.setdefault(symbol, _local_hover(child, name, key))
            self.a.locals[key] = found
        self.a.set_regions(regions)

    def named_by_ir(self) -> None:
        """The names whose kind the IR node holding them says, where the
        same name could mean something else (``sum of food in hand``: a
        card property, though a stat may be called ``food`` too)."""
        fields = {ir.SumCards: (("prop", "property"),), ir.Call: (("rule", "rule"),),
                  ir.RuleValue: (("rule", "rule"),), ir.RollOn: (("table", "table"),),
                  ir.ChooseRow: (("table", "table"),), ir.PileRef: (("name", "pile"),),
                  ir.Skip: (("phase", "phase"),), ir.ChooseOption: (("option", "option"),)}
        for node in _walk(self.rs):
            for field, kind in fields.get(type(node), ()):
                name = getattr(node, field, None)
                pos = getattr(node, "pos", None)
                if isinstance(name, str) and pos is not None:
                    if name in self.a.locals.get(self.a.region_of(self.a.offset_of(pos)), {}):
                        continue        # cards a choice keeps ('as redraw'): a local
                    t = self.find(pos, name, within=20)
                    known = self.by_name.get(name, {})
                    if kind == "pile" and "pile" not in known and "deck" in known:
                        kind = "deck"       # a pile reference may name a deck
                    if t is not None:
                        self.fixed.setdefault((t.line, t.column), Symbol(kind, name))

    # -------------------------------------------------------------- index

    def index(self) -> None:
        a = self.a
        bindings: Dict[Tuple[int, int], str] = {}
        piece_sets: Dict[Tuple[int, int], str] = {}
        if a.resolved is not None and a.rs is not None:
            for node in _walk(a.rs):
                if isinstance(node, ir.Name) and node.pos is not None:
                    b = a.resolved.binding(node)
                    if b is not None:
                        bindings[(node.pos.line - 1, node.pos.column - 1)] = b.kind
                        if b.kind == PIECE:
                            piece_sets[(node.pos.line - 1, node.pos.column - 1)] = b.pieces
        for t in a.tokens:
            if t.kind == STRING:
                self.in_text(t)
                continue
            if t.kind not in (NAME, KEYWORD):
                continue
            key = a.region_of(t.offset)
            local = a.locals.get(key, {})
            if t.kind == KEYWORD and t.text not in local and (t.line, t.column) not in self.fixed:
                continue        # a keyword, unless it names something here ('deck cards')
            symbol = self.fixed.get((t.line, t.column)) or self.meaning(t, bindings.get((t.line, t.column)),
                                  piece_sets.get((t.line, t.column), ""), key)
            if symbol is not None:
                a.occurrences.append(Occurrence(Place(t.line, t.column, t.end_column), symbol, t))

    def in_text(self, t: Token) -> None:
        """A quoted text: a card's or piece's name, or a log line's placeholders."""
        inner = t.text[1:-1] if t.text.endswith('"') and len(t.text) > 1 else t.text[1:]
        for kind in ("card", "piece"):
            if kind in self.by_name.get(inner, {}):
                self.a.occurrences.append(Occurrence(Place(t.line, t.column, t.end_column),
                                                     Symbol(kind, inner), t, quoted=True))
                return
        key = self.a.region_of(t.offset)
        for m in PLACEHOLDER.finditer(t.text):
            name = m.group(1)
            sub = Token(NAME, name, t.offset + m.start(1), t.line, t.column + m.start(1))
            symbol = self.meaning(sub, None, "", key)
            if symbol is not None:
                self.a.occurrences.append(Occurrence(Place(sub.line, sub.column, sub.end_column),
                                                     symbol, sub))

    def meaning(self, t: Token, binding: Optional[str], pieces: str, key: str) -> Optional[Symbol]:
        """What the name token ``t`` means: the resolver's binding when it
        read it, a local of its place, else the declaration of that name."""
        name = t.text
        if binding == LOCAL or (binding is None and name in self.a.locals.get(key, {})):
            return Symbol("local", name, key)
        if binding == CARD:
            return Symbol("property", name)
        if binding == PIECE:
            return Symbol("field", name, pieces)
        if binding in (PLAYER, GLOBAL):
            return Symbol("stat", name)
        if binding == CONST:
            kinds = self.by_name.get(name, {})
            return kinds.get("param") or kinds.get("const") or Symbol("const", name)
        if binding == WORD:
            return Symbol("word", name)
        known = self.by_name.get(name)
        if not known:
            return None
        for kind in _ORDER:
            if kind in known:
                return known[kind]
        return None


def _value(e: object) -> str:
    """A literal or bound as written; "" for an expression."""
    if isinstance(e, ir.Num):
        return str(e.value)
    if isinstance(e, ir.Bool):
        return "yes" if e.value else "no"
    if isinstance(e, ir.NoneLit):
        return "none"
    if isinstance(e, ir.Name):
        return e.name
    return ""


def _walk(node: object) -> Iterable[object]:
    """Every node under ``node`` (itself first), without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):        # a body: its statements
            stack.extend(reversed(n))
            continue
        yield n
        stack.extend(reversed(ir.child_list(n)))


def _binds(node: object) -> Tuple[str, ...]:
    """The local names a node declares: a rule's parameters, a 'let', a
    loop's or a choice's variable."""
    if isinstance(node, ir.Let):
        return (node.name,)
    if isinstance(node, ir.Rule):
        return tuple(p.name for p in node.params)
    var = getattr(node, "var", None)
    return (var,) if isinstance(var, str) else ()


def _local_hover(node: object, name: str, key: str) -> str:
    if isinstance(node, ir.Rule):
        for p in node.params:
            if p.name == name:
                return f"**parameter** `{name}` of {key} ({p.type})"
    if isinstance(node, ir.Let):
        return f"**local** `{name}` of {key} (let)"
    return f"**local** `{name}` of {key}: the {type(node).__name__} statement's variable"
