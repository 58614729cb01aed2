"""The checker's tables and reports, under its three parts (expressions,
statements, declarations), which ``checker.Checker`` stacks on it."""

from __future__ import annotations

import itertools
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple, TypeVar, Union

from .. import ir
from ..errors import Diagnostic, source_line
from ..limits import DEFAULT, Limits
from . import resolve
from .types import ANY, BOOL, CARD, NUM, PLAYER, TEXT, Scope, reserved_words

#: The default limits on what a ruleset may declare (hostile or mistaken
#: input); ``check(rs, limits)`` takes others (see ``rulelang.limits``).
MAX_PLAYERS = DEFAULT.max_players
MAX_DIE_SIDES = DEFAULT.max_die_sides
MAX_DICE = DEFAULT.max_dice
MAX_POOL_OUTCOMES = DEFAULT.max_pool_outcomes   # dice x sides: the outcomes listed at a chance node
MAX_CARDS = DEFAULT.max_cards

#: The names "did you mean" compares, in all, for one check: the
#: suggestions stop once this many have been looked at, so a file of
#: thousands of unknown names is checked in linear time (each still reported).
SUGGESTION_BUDGET = 100_000

#: A field of a piece set: (its type, whether it is a state value, the state
#: value's declaration or None for an attribute).
Field = Tuple[str, bool, Optional[ir.Stat]]

D = TypeVar("D")


class CheckerBase:
    """What the checker knows of a ruleset as it reads it (the tables its
    declarations fill), and how it reports."""

    def __init__(self, rs: ir.Ruleset, limits: Limits = DEFAULT):
        self.rs = rs
        #: What every bare name means (the one lookup order, shared with the compiler).
        self.names = resolve.Names(rs)
        self.limits = limits
        self.diags: List[Diagnostic] = []
        self.warnings: List[Diagnostic] = []
        #: (line, column, message) of each fault and warning said: one met
        #: again (a card or piece made from a pattern repeats its
        #: declaration's fault) is said once
        self.said: Set[Tuple[int, int, str]] = set()
        self.stat_types: Dict[str, str] = {}
        self.stats: Dict[str, ir.Stat] = {}
        self.track_props: Dict[str, Dict[str, str]] = {}   # track -> what its spaces print
        #: id(stat) -> (the stat or piece value, what its scale prints: name -> type)
        self.scales: Dict[int, Tuple[ir.Stat, Dict[str, str]]] = {}
        #: Each 'X of S' that reads a stat's scale: id(node) -> (node, the stat).
        self.scale_reads: Dict[int, Tuple[ir.FieldOf, ir.Stat]] = {}
        self.consts: Dict[str, ir.Const] = {}
        self.piles: Dict[str, Union[ir.Deck, ir.Pile]] = {}
        self.decks: Dict[str, ir.Deck] = {}
        self.tables: Dict[str, ir.Table] = {}
        self.rules: Dict[str, ir.Rule] = {}
        self.options: Dict[str, ir.Option] = {}
        self.phases: Dict[str, ir.Phase] = {}
        self.cards: Set[str] = set()
        self.props: Dict[str, Set[str]] = {}   # card property -> the kinds of its values
        self.enum_values: Dict[str, str] = {}  # a word of a stat of words -> that stat
        self.used_rules: Set[str] = set()
        #: rule -> None when it only works out a value (``purity``), else why not
        self.pure: Dict[str, Optional[str]] = {}
        self.used_tables: Set[str] = set()
        self.used_options: Set[str] = set()
        self.reserved = reserved_words()
        #: Piece sets, and for each its fields by name.
        self.piece_sets: Dict[str, ir.PieceSet] = {}
        self.piece_fields: Dict[str, Dict[str, Field]] = {}
        #: board -> the directions of its links, and the pairs of them its rows run along
        self.board_directions: Dict[str, Set[str]] = {}
        #: board -> the directions in which some space has two links or more
        self.board_branching: Dict[str, FrozenSet[str]] = {}
        self.board_axes: Dict[str, Tuple[Tuple[str, str], ...]] = {}
        #: Decks that some statement draws from.
        self.drawn: Set[str] = set()
        #: Names "did you mean" may still look at (``nearest``).
        self.suggestions_left = SUGGESTION_BUDGET
        #: The last suggestion ``nearest`` made: (its text, (name, meant)).
        self.suggested: Optional[Tuple[str, Tuple[str, str]]] = None
        #: What each bare name read as a value means: id(node) -> (node, binding).
        self.bindings: Dict[int, Tuple[ir.Name, resolve.Binding]] = {}
        #: The type of each expression checked: id(node) -> (node, type).
        self.types: Dict[int, Tuple[ir.Expr, str]] = {}
        #: Each log line's parts, its placeholders as the nodes checked:
        #: id(log) -> (log, parts).
        self.log_parts: Dict[int, Tuple[ir.Log, Tuple[Union[str, ir.Name, ir.Attr], ...]]] = {}
        #: Locals of the body being checked that hold what not everyone may
        #: see (made from a hidden or secret stat, or chosen secretly):
        #: name -> what it was made from (``hidden_read``).
        self.hidden_locals: Dict[str, str] = {}
        #: What makes the statements being checked secret (inside an option
        #: of a secret 'choose one'), or None.
        self.secret_choice: Optional[str] = None
        #: The stats revealed earlier in the body being checked: read as public.
        self.revealed: Set[str] = set()
        #: Actors that are not seats, by name; each one's stats and piles by name.
        self.actors: Dict[str, ir.Actor] = {}
        self.actor_stats: Dict[str, Dict[str, ir.Stat]] = {}
        self.actor_piles: Dict[str, Dict[str, ir.Pile]] = {}

    def hidden_read(self, e: object, scope: Optional[Scope] = None) -> Optional[str]:
        """The first thing ``e`` reads that not everyone may see: a hidden or
        secret stat (``'cup', which is hidden``), piece value (read in
        ``scope``) or a local made from one; None when everyone may see all
        it reads."""
        for node in ir.walk(e):
            piece = self.piece_value(node, scope) if scope is not None else None
            if piece is not None:
                if piece.sight is not None and not (
                        isinstance(node, ir.Attr) and f"{node.obj}.{node.name}" in self.revealed):
                    return f"'{piece.name}', which is {piece.sight}"
                continue
            if isinstance(node, ir.Name):
                if node.name in self.hidden_locals:
                    return self.hidden_locals[node.name]
                stat = self.stats.get(node.name)
            elif isinstance(node, ir.Attr):
                if node.obj in self.actors:
                    stat = self.actor_stats.get(node.obj, {}).get(node.name)
                else:
                    stat = self.stats.get(node.name)
            else:
                continue
            if stat is not None and stat.sight is not None and stat.scope != "piece" \
                    and stat.name not in self.revealed:
                return f"'{stat.name}', which is {stat.sight}"
        return None

    def piece_value(self, node: object, scope: Scope) -> Optional[ir.Stat]:
        """The declaration of the piece's state value ``node`` reads in
        ``scope`` (``p.rank`` of a piece local, or a bare ``rank`` in a
        condition about pieces), or None."""
        if isinstance(node, ir.Attr):
            kind = str(scope.locals.get(node.obj, ""))
            sets = [kind[len("piece:"):]] if kind.startswith("piece:") else []
        elif isinstance(node, ir.Name) and node.name not in scope.locals:
            sets = list(scope.pieces)
        else:
            return None
        for pset in reversed(sets):
            field = self.piece_fields.get(pset, {}).get(node.name)
            if field is not None:
                return field[2] if field[1] else None
        return None

    # ------------------------------------------------------------- reports

    def error(self, node: object, message: str) -> None:
        pos = getattr(node, "pos", None) or ir.Pos(1, 1)
        suggested = self.suggested
        if suggested is not None and suggested[0] in message:
            self.suggested = None   # (one made and not yet said waits for the error that says it)
        else:
            suggested = None
        said = (pos.line, pos.column, message)
        if said in self.said:
            return
        self.said.add(said)
        self.diags.append(Diagnostic(self.rs.filename, *said, source_line(self.rs.source, pos.line),
                                     suggested[1] if suggested is not None else None))

    def warn(self, node: object, message: str) -> None:
        pos = getattr(node, "pos", None) or ir.Pos(1, 1)
        said = (pos.line, pos.column, "warning: " + message)
        if said in self.said:
            return
        self.said.add(said)
        self.warnings.append(Diagnostic(self.rs.filename, *said, source_line(self.rs.source, pos.line)))

    def nearest(self, name: str, *candidates: Iterable[str]) -> str:
        """" — did you mean 'X'?" for the closest of the names in the
        ``candidates`` collections, or "".  Past ``SUGGESTION_BUDGET`` names
        looked at in all, no more suggestions (nor the lists they need)."""
        if self.suggestions_left <= 0:
            return ""
        known = list(itertools.chain.from_iterable(candidates))
        self.suggestions_left -= len(known) + 1
        import difflib      # (here: a file without a misspelling never needs it)
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        if not close:
            return ""
        text = f" — did you mean '{close[0]}'?"
        self.suggested = (text, (name, close[0]))     # (for the error that says it: ``error``)
        return text

    def _declare(self, table: Dict[str, D], kind: str, node: D, name: str) -> bool:
        if name in table:
            first = getattr(table[name], "pos", None)
            where = f" (first declared on line {first.line})" if first else ""
            self.error(node, f"{kind} '{name}' is declared twice{where}")
            return False
        table[name] = node
        return True

    # ------------------------------------------------------------- shared checks

    def name_ok(self, node: object, name: str, what: str) -> None:
        if name in self.reserved:
            self.error(node, f"'{name}' is a word of the language and cannot name {what}")

    def check_die(self, node: object, sides: int) -> None:
        if sides < 2:
            self.error(node, f"a die needs at least 2 sides, not d{sides}")
        elif sides > self.limits.max_die_sides:
            self.error(node, f"d{sides} has more than {self.limits.max_die_sides} sides")

    def piece_of(self, node: object, name: str) -> Optional[Dict[str, Field]]:
        """The fields of piece set ``name``, reporting it if unknown."""
        if name not in self.piece_sets:
            self.error(node, f"there is no piece set '{name}'{self.nearest(name, self.piece_sets)}")
            return None
        return self.piece_fields[name]

    def param_type(self, param: ir.Param, report: bool = False) -> str:
        if param.type == "number":
            return NUM
        if param.type == "player":
            return PLAYER
        if param.type == "card":
            return CARD
        if param.type == "word":
            return TEXT
        if param.type == "yes/no":
            return BOOL
        if param.type in self.piece_sets:
            return f"piece:{param.type}"
        if report:
            self.error(param, f"a parameter is a number, yes/no, a player, a card, a word or a "
                              f"piece of a set, not '{param.type}'{self.nearest(param.type, self.piece_sets, ('player', 'number', 'card', 'word', 'yes/no'))}")
        return ANY
