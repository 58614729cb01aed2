"""What a seat may see of the values the compiled code reads: the part of
the compiler (``lower.Ctx``) that works out, for a log line, a roll or a
'reveal', whose eyes a card, a hidden stat or a hidden piece value is for
(``visibility`` decides it at run time from what this writes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Set, Tuple, Union

from .. import ir
from .kinds import Prog
from .ops import PLAYER


class Seen:
    """Mixed into ``lower.Ctx``, whose locals it reads."""

    if TYPE_CHECKING:
        prog: Prog
        locals: Dict[str, int]
        piece_locals: Dict[str, str]
        card_locals: Set[str]
        chosen_locals: Set[str]
        card_from: Dict[str, List[str]]

        def player_of(self, name: str) -> str: ...
        def pile_src(self, ref: ir.PileRef) -> str: ...

    def stat_sight(self, t: ir.Expr) -> Optional[Tuple[str, str, str]]:
        """(source of its key in ``State.shown``, source of its owner, its
        sight) when ``t`` names a hidden or secret stat, else None."""
        prog = self.prog
        if isinstance(t, ir.Name):
            if t.name in self.locals:
                return None
        elif isinstance(t, ir.Attr):
            if t.obj in prog.actor_names and t.obj not in self.locals:
                name = f"{t.obj}.{t.name}"
                decl = prog.stat_decl[name]
                return (str(-1 - prog.gslot[name]), "None", decl.sight) if decl.sight else None
            if t.obj in self.piece_locals:
                return self.piece_sight(self.piece_locals[t.obj], f"fr[{self.locals[t.obj]}]", t.name)
            if t.obj in self.card_locals or (t.obj not in self.locals and t.obj not in prog.gslot):
                return None
        else:
            return None
        decl = prog.stat_decl.get(t.name)
        if decl is None or decl.sight is None or decl.scope == "piece":
            return None
        if decl.scope == "global":
            return str(-1 - prog.gslot[t.name]), "None", decl.sight
        who = self.player_of(t.obj) if isinstance(t, ir.Attr) else f"fr[{PLAYER}]"
        return f"{who} * {prog.K} + {prog.pslot[t.name]}", who, decl.sight

    def piece_sight(self, pset: str, x: str, field: str) -> Optional[Tuple[str, str, str]]:
        """``stat_sight`` of field ``field`` of the piece of ``pset`` whose
        index is the value of source ``x``: its owner is the player its
        'owner' value holds."""
        prog = self.prog
        k = prog.piece_slot[pset].get(field)
        decl = None if k is None else prog.piece_sets[pset].state[k]
        if decl is None or decl.sight is None:
            return None
        at = f"{prog.piece_base[pset]} + {x} * {prog.piece_K[pset]}"
        owner = prog.piece_slot[pset].get("owner")
        who = f"st.g[{at} + {owner}]" if owner is not None and decl.sight == "hidden" else "None"
        return f"-1 - ({at} + {k})", who, decl.sight

    def pile_seen(self, ref: ir.PileRef) -> List[str]:
        """[source of who may see the cards of pile ``ref``], or [] for a
        pile everyone sees."""
        if not self.prog.may_hide(ref):
            return []
        return [f"_pile_seen_by(st, {self.pile_src(ref)})"]

    def seen_sources(self, e: ir.Expr) -> List[str]:
        """Who may see the cards expression ``e`` reads (a card local, its
        properties, chosen cards, ``count of``/``sum of`` a pile, a 'let'
        made from those): fns (st, fr) -> seen_by; [] when everyone may."""
        out: List[str] = []
        for node in ir.walk(e):
            if isinstance(node, (ir.CountCards, ir.SumCards)):
                out += self.pile_seen(node.pile)
                continue
            if isinstance(node, ir.Name):
                name = node.name
            elif isinstance(node, ir.Attr):
                name = node.obj
            else:
                continue
            if name in self.card_from:
                out += self.card_from[name]
            elif name in self.card_locals or name in self.chosen_locals:
                out.append("_NOBODY")
            else:
                hidden = self.stat_sight(node)
                if hidden is not None:
                    key, owner, sight = hidden
                    out.append(f"_stat_seen_by(st, {key}, {owner}, {sight!r})")
        return out

    def let_seen(self, s: ir.Let) -> None:
        """A 'let' made from cards is seen as they are (``seen_sources``)."""
        found = self.seen_sources(s.value)
        if found or s.name in self.card_from:
            self.card_from[s.name] = self.card_from.get(s.name, []) + found

    def masked(self, part: Union[ir.Name, ir.Attr]) -> str:
        """What a log placeholder reads as for those who may not see it."""
        if isinstance(part, ir.Name) and part.name in self.card_locals:
            return "a card"
        if isinstance(part, ir.Name) and part.name in self.chosen_locals:
            return "some cards"
        return "(hidden)"
