"""Questions about pieces and spaces that the expression compiler
(``source.Source``) answers without a scan where it can (issue 20): the
parts of a 'where' that read only what never changes decided at compile
time, ``FIELD is VALUE`` on a printed field looked up in a table, and
``FIELD is VALUE`` on a state field read as one slice of the state.  Each
gives exactly what the plain loop over the pieces gives
(tests/test_indexed_queries.py)."""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Tuple

from .. import ir
from ..check import resolve
from . import codegen
from .kinds import Lowering


class PieceQueries:
    """The part of ``Source`` that decides how the pieces of a 'where' are
    looked at."""

    ctx: Lowering

    if TYPE_CHECKING:       # (``Source``'s own)
        def const(self, value: Any) -> str: ...
        def temp(self) -> str: ...
        def src(self, e: ir.Expr) -> str: ...
        def cond(self, e: ir.Expr) -> str: ...
        def piece_field(self, pset: str, x: str, field: str) -> str: ...
        def bounds(self, e: ir.Expr) -> Optional[Tuple[int, int]]: ...
        def attr_of(self, e: ir.Attr) -> str: ...

    def looked_at(self, pset: str, var: str, cond: Optional[ir.Expr],
                  loop: Optional[Sequence[ir.Stmt]] = None, resumed: bool = False
                  ) -> Tuple[str, str, Optional[Tuple[int, ...]]]:
        """(the pieces of ``pset`` to look at, `` if COND`` about the one in
        Python variable ``var``, and those pieces themselves when they are
        fixed), for a loop over the pieces that meet ``cond``.  The parts
        of an 'and' that read only what never changes (a space's ``y``, a
        value printed on a piece) are decided here, once: the loop goes over
        a constant tuple of the pieces that meet them (an index, not a scan:
        ``cells where y is 6 and disc is none`` looks at one row), and asks
        the rest of each.  A part ``FIELD is VALUE`` about a printed field
        is looked up in a table (``indexed``).  ``loop``: the body of the
        'for each' the pieces are for, which runs between the pieces;
        ``resumed``: that loop's pieces are asked for again at every pass
        (it waits), so they must be the same every time."""
        n = len(self.ctx.prog.piece_names[pset])
        if cond is None:
            return f"range({n})", "", None
        keep: Optional[Tuple[int, ...]] = None
        rest: List[ir.Expr] = []
        for part in conjuncts(cond):
            meet = self._fixed_among(pset, part)
            if meet is None:
                rest.append(part)
            else:
                met = set(meet)
                keep = meet if keep is None else tuple(i for i in keep if i in met)
        for part in rest:
            # (a part that mixes both, as 'each_round is not none and not
            # turned or discard is not none': the pieces it is surely no for)
            never = self._surely_not(pset, var, part, range(n) if keep is None else keep)
            if never:
                keep = tuple(i for i in (range(n) if keep is None else keep) if i not in never)
        for part in rest:
            # (the first part is asked of the first piece: a value of it that
            # fails fails the scan there too, so it may be one that can)
            asked = part is rest[0] and (keep is None and n > 0 or bool(keep))
            among = self.indexed(pset, var, part, keep, loop, asked) or \
                self.nearby(pset, var, part, keep, loop)
            if among is not None:
                fixed = None
                rest = [x for x in rest if x is not part]
                break
        else:
            flag = None if resumed else self.flag_column(pset, var, rest, keep, loop)
            if flag is not None:
                among, part = flag
                rest = [x for x in rest if x is not part]
                fixed = None
            elif keep is None:
                return f"range({n})", self.where(pset, var, cond), None
            else:
                among, fixed = self.const(keep), keep
        if not rest:
            return among, "", fixed
        self.ctx.piece_scope.append((pset, var))
        try:
            where = " if " + " and ".join(self.cond(part) for part in rest)
        finally:
            self.ctx.piece_scope.pop()
        return among, where, None

    def indexed(self, pset: str, var: str, part: ir.Expr, keep: Optional[Tuple[int, ...]],
                loop: Optional[Sequence[ir.Stmt]], asked: bool = False) -> Optional[str]:
        """The pieces that meet ``part`` looked up, not searched for, when
        ``part`` is ``FIELD is VALUE`` with FIELD printed on the piece in
        ``var`` and VALUE the same for every piece: a constant table from
        each value of FIELD to the pieces (of ``keep``, if given) that
        print it, asked once (``cells where x is col``: one column).  VALUE
        must be one that cannot fail (else a search that met no piece would
        fail where the scan did not), or ``asked``: the scan asks it of the
        first piece it looks at, and would fail there too.  In a loop with a ``loop`` body,
        VALUE may read neither the state nor a local the body changes: the
        scan asks it again for every piece, the table only as it starts."""
        if not isinstance(part, ir.Compare) or part.op != "==":
            return None
        prog = self.ctx.prog
        for field_side, value_side in ((part.left, part.right), (part.right, part.left)):
            field = self._printed_field(pset, var, field_side)
            if field is None or not (asked or self._cannot_fail(value_side)):
                continue
            self.ctx.piece_scope.append((pset, var))
            try:
                value = self.src(value_side)
            finally:
                self.ctx.piece_scope.pop()
            if re.search(rf"(?<![\w\]]){re.escape(var)}(?![\w\[])", value):
                continue        # (VALUE reads the piece looked at)
            if loop is None and ":=" in value:
                continue        # (Python allows no ':=' in a comprehension's iterable)
            if loop is not None:
                if re.search(r"\bst\b", value):
                    continue
                written = _written(loop)
                if any(isinstance(n, ir.Name) and n.name in written for n in ir.walk(value_side)):
                    continue
            table = prog.piece_attr[pset][field]
            try:
                index: Dict[Any, List[int]] = {}
                for i in (keep if keep is not None else range(len(table))):
                    index.setdefault(table[i], []).append(i)
            except TypeError:       # (a value that is no key)
                continue
            return f"{self.const({k: tuple(v) for k, v in index.items()})}.get({value}, ())"
        return None

    def flag_column(self, pset: str, var: str, rest: Sequence[ir.Expr],
                    keep: Optional[Tuple[int, ...]], loop: Optional[Sequence[ir.Stmt]] = None
                    ) -> Optional[Tuple[str, ir.Expr]]:
        """(the pieces to look at, the part it answers), when a part of the
        'and' is a yes/no state field of the piece looked at (``disc``,
        ``turned``): the pieces whose field says yes are picked out in C
        (``itertools.compress`` over that field's values, one slice of the
        state), and the rest asked only of them.  (Not ``not disc``: a
        field is yes for few pieces, so its 'not' leaves out too few to
        pay for picking them out.)  The field is read once,
        as the query starts: so in a 'for each' whose ``loop`` body runs
        between the pieces, only when that body cannot change the field of
        another piece (``_keeps_field``).  Only when every part before it
        can never fail (it is asked first now, so a piece it leaves out is
        never asked the others)."""
        for part in rest:
            field = self._state_field(pset, var, part)
            if field is not None and (loop is None or self._keeps_field(var, field, loop)):
                break
            if not self._never_fails(pset, var, part):
                return None
        else:
            return None
        prog = self.ctx.prog
        base, K = prog.piece_base[pset], prog.piece_K[pset]
        start = base + prog.piece_slot[pset][field]
        if keep is None:
            n = len(prog.piece_names[pset])
            step = "" if K == 1 else f":{K}"
            values, pieces = f"st.g[{start}:{start + (n - 1) * K + 1}{step}]", f"range({n})"
        elif len(keep) >= 2:
            values = f"{self.const(operator.itemgetter(*(start + i * K for i in keep)))}(st.g)"
            pieces = self.const(keep)
        else:
            return None
        return f"_compress({pieces}, {values})", part

    def _surely_not(self, pset: str, var: str, part: ir.Expr, pieces: Sequence[int]) -> Set[int]:
        """The pieces of ``pieces`` for which ``part``, an 'or', 'and' or
        'not' of parts, is no whatever the state holds: worked out from
        the parts that read only what never changes, the others taken as
        unknown (and only if each of those can never fail, as the scan
        would have asked it)."""
        if not isinstance(part, ir.Not) and not (isinstance(part, ir.BinOp)
                                                 and part.op in ("and", "or")):
            return set()
        everyone = set(pieces)
        known = self._yes_no(pset, var, part, everyone)
        return set() if known is None else known[1]

    def _yes_no(self, pset: str, var: str, e: ir.Expr, pieces: Set[int]
                ) -> Optional[Tuple[Set[int], Set[int]]]:
        """(the pieces for which ``e`` is surely yes, those for which it is
        surely no), or None when a part it is made of could fail."""
        if isinstance(e, ir.Not):
            inner = self._yes_no(pset, var, e.operand, pieces)
            return None if inner is None else (inner[1], inner[0])
        if isinstance(e, ir.BinOp) and e.op in ("and", "or"):
            left = self._yes_no(pset, var, e.left, pieces)
            right = self._yes_no(pset, var, e.right, pieces)
            if left is None or right is None:
                return None
            if e.op == "and":
                return left[0] & right[0], left[1] | right[1]
            return left[0] | right[0], left[1] & right[1]
        meet = self._fixed_among(pset, e)
        if meet is not None:
            yes = pieces.intersection(meet)
            return yes, pieces - yes
        if self._never_fails(pset, var, e):
            return set(), set()
        return None

    def _keeps_field(self, var: str, field: str, body: Sequence[ir.Stmt]) -> bool:
        """Whether statements ``body``, run for the piece in ``var`` (a
        loop's local), surely write ``field`` of no other piece: only
        assignments, 'let', 'if' and 'log', calling no rule, and none that
        sets ``field`` but on that piece (nor the loop's local itself)."""
        names = [n for n, k in self.ctx.locals.items() if f"fr[{k}]" == var]
        if len(names) != 1:
            return False
        mine = names[0]
        for s in body:
            for n in ir.walk(s):
                if isinstance(n, (ir.RuleValue, ir.CallFn)) or (
                        isinstance(n, _STATEMENTS) and not isinstance(n, _PLAIN)):
                    return False
                if isinstance(n, ir.Let) and n.name == mine:
                    return False
                if isinstance(n, ir.Assign):
                    t = n.target
                    if isinstance(t, ir.Name) and t.name in (field, mine):
                        return False
                    if isinstance(t, ir.Attr) and t.name == field and t.obj != mine:
                        return False
        return True

    def _state_field(self, pset: str, var: str, e: ir.Expr) -> Optional[str]:
        """The field ``e`` names, when it is a bare name of a state field
        (one that play changes) of the piece of ``pset`` in ``var``."""
        if not isinstance(e, ir.Name) or not self._of_the_piece(pset, var, e):
            return None
        return e.name if e.name in self.ctx.prog.piece_slot[pset] else None

    def _bound_with(self, pset: str, var: str, e: ir.Name) -> Any:
        """What bare name ``e`` means with the piece of ``pset`` in ``var``
        in scope (the binding, ``Ctx.bind``)."""
        ctx = self.ctx
        ctx.piece_scope.append((pset, var))
        try:
            return ctx.bind(e)
        finally:
            ctx.piece_scope.pop()

    def _of_the_piece(self, pset: str, var: str, e: ir.Name) -> bool:
        """Whether bare name ``e`` is a field of the piece in ``var``."""
        bound = self._bound_with(pset, var, e)
        # (the scope it names, counted with that piece pushed, as _bound_with had it)
        scopes = self.ctx.piece_scope + [(pset, var)]
        return bool(bound.kind == resolve.PIECE and scopes[bound.scope] == (pset, var))

    def _never_fails(self, pset: str, var: str, e: ir.Expr) -> bool:
        """Whether asking ``e`` of the piece in ``var`` can never fail: a
        field of the piece, 'not' of one, or ``is`` / ``is not`` between
        such fields, literals, constants and names."""
        if isinstance(e, ir.Not):
            return self._never_fails(pset, var, e.operand)
        if isinstance(e, ir.Compare):
            return e.op in ("==", "!=") and all(
                isinstance(x, (ir.Num, ir.Bool, ir.NoneLit, ir.ThisPlayer))
                or (isinstance(x, ir.Name) and self._plain_name(pset, var, x))
                for x in (e.left, e.right))
        return isinstance(e, ir.Name) and self._plain_name(pset, var, e)

    def _plain_name(self, pset: str, var: str, e: ir.Name) -> bool:
        """Whether bare name ``e`` is read without fail: a field of the
        piece looked at, a constant, a value of a word, or a local."""
        bound = self._bound_with(pset, var, e)
        return bound.kind in (resolve.PIECE, resolve.CONST, resolve.WORD, resolve.LOCAL)

    def nearby(self, pset: str, var: str, part: ir.Expr, keep: Optional[Tuple[int, ...]],
               loop: Optional[Sequence[ir.Stmt]]) -> Optional[str]:
        """The spaces that meet ``part`` looked up, not searched for, when
        ``part`` is ``(distance from S along …) is N`` from a space S held
        in a name (not the one looked at) to the one looked at: a constant
        table from each space to the spaces (of ``keep``, if given) at that
        distance, in board order (``points where (distance from h) is 1``:
        h's neighbours, not the whole board).  In a loop with a ``loop``
        body, not when the body sets S."""
        if not isinstance(part, ir.Compare) or part.op != "==":
            return None
        ctx = self.ctx
        for d, n in ((part.left, part.right), (part.right, part.left)):
            if not (isinstance(d, ir.Distance) and d.to is None and d.through is None
                    and isinstance(n, ir.Num) and type(n.value) is int
                    and ctx.piece_locals.get(d.start) == pset and d.start in ctx.locals):
                continue
            start = f"fr[{ctx.locals[d.start]}]"
            table = ctx.prog.distances(pset, d.along)
            if start == var or table is None or (loop is not None and d.start in _written(loop)):
                continue
            wanted = range(len(table)) if keep is None else keep
            near = [tuple(b for b in wanted if row[b] == n.value) for row in table]
            return f"({self.const(near)}[{start}] if {start} is not None else ())"
        return None

    def _printed_field(self, pset: str, var: str, e: ir.Expr) -> Optional[str]:
        """The field ``e`` names, when it is a value printed on the piece
        of ``pset`` in ``var`` (the same for the whole game): a bare name
        of the piece looked at, or ``h.FIELD`` with ``h`` in ``var``."""
        ctx, prog = self.ctx, self.ctx.prog
        if isinstance(e, ir.Name):
            mine = self._of_the_piece(pset, var, e)
        elif isinstance(e, ir.Attr):
            mine = ctx.piece_locals.get(e.obj) == pset and e.obj in ctx.locals \
                and f"fr[{ctx.locals[e.obj]}]" == var and ctx.track_table(e) is None
        else:
            return None
        if not mine or e.name in prog.piece_slot[pset] or e.name not in prog.piece_attr[pset]:
            return None
        return e.name

    def _constant(self, e: ir.Expr) -> bool:
        """Whether ``e`` is made of numbers and constants alone."""
        if isinstance(e, ir.Num):
            return True
        if isinstance(e, ir.Name):
            return self.ctx.bind(e).kind == resolve.CONST
        if isinstance(e, ir.BinOp):
            return self._constant(e.left) and self._constant(e.right)
        return False

    def _cannot_fail(self, e: ir.Expr) -> bool:
        """Whether working out ``e`` can never fault: a name, an attribute
        of a card, piece, space, actor or track (none when what it is of is
        none), a literal, or arithmetic on numbers and constants alone (a
        value that may be none would fail)."""
        if isinstance(e, (ir.Num, ir.Bool, ir.NoneLit, ir.ThisPlayer, ir.Name)):
            return True
        if isinstance(e, ir.Attr):      # (a player's stat of a seat that may be none fails)
            return self.attr_of(e) != "player"
        if isinstance(e, ir.BinOp) and e.op in ("+", "-", "*"):
            return self.bounds(e) is not None and self._constant(e)
        return False

    def piece_column(self, pset: str, var: str, cond: ir.Expr) -> Optional[Tuple[str, str]]:
        """(the list of every piece's value of a field, the value), when
        ``cond`` is ``FIELD is VALUE`` about the piece in ``var`` and VALUE
        does not depend on it: a count or a search is then one slice of
        the state (``st.g[a:b:K]``), no loop (as ``player_column``)."""
        if not isinstance(cond, ir.Compare) or cond.op != "==" or not isinstance(cond.left, ir.Name):
            return None
        prog = self.ctx.prog
        k = prog.piece_slot[pset].get(cond.left.name)
        if k is None:
            return None
        self.ctx.piece_scope.append((pset, var))
        try:
            left, value = self.src(cond.left), self.src(cond.right)
        finally:
            self.ctx.piece_scope.pop()
        base, K, n = prog.piece_base[pset], prog.piece_K[pset], len(prog.piece_names[pset])
        if left != f"st.g[{codegen.slot(var, K, base + k)}]" or re.search(rf"\b{var}\b", value):
            return None
        start = base + k
        step = "" if K == 1 else f":{K}"
        return f"st.g[{start}:{start + (n - 1) * K + 1}{step}]", value

    def _fixed_among(self, pset: str, part: ir.Expr) -> Optional[Tuple[int, ...]]:
        """The pieces of ``pset`` that meet ``part``, when ``part`` reads
        nothing that can change (no state, no frame, no variable of a loop
        around it; its source is tried on every piece here, and anything
        else is None, so it is asked at run time as before)."""
        var = self.temp()
        self.ctx.piece_scope.append((pset, var))
        try:
            src = self.cond(part)
        except Exception:       # (a part the compiler cannot write alone)
            return None
        finally:
            self.ctx.piece_scope.pop()
        if codegen.reads_state(src):
            return None
        n = len(self.ctx.prog.piece_names[pset])
        env = {k: v for k, v in self.ctx.prog.gen_env.items() if k not in ("st", "fr")}
        try:
            found = eval(compile(f"tuple({var} for {var} in range({n}) if {src})",
                                 "<rulelang fixed part>", "eval"), env)
        except Exception:       # (a free name, or a value it cannot compare: asked at run time)
            return None
        return found

    def where(self, pset: str, var: str, cond: Optional[ir.Expr]) -> str:
        """`` if COND`` about the piece of ``pset`` in Python variable
        ``var`` (nothing when there is no condition)."""
        if cond is None:
            return ""
        self.ctx.piece_scope.append((pset, var))
        try:
            return f" if {self.cond(cond)}"
        finally:
            self.ctx.piece_scope.pop()


#: Every kind of statement, and those a loop's body may hold for its
#: pieces' yes/no field to be read once, as it starts (``_keeps_field``).
_STATEMENTS: Tuple[type, ...] = tuple(ir.Stmt.__args__)  # type: ignore[attr-defined]
_PLAIN = (ir.Assign, ir.Let, ir.If, ir.Log)


def conjuncts(e: ir.Expr) -> List[ir.Expr]:
    """The parts of ``e`` joined by 'and' (``e`` alone when it is no 'and')."""
    if isinstance(e, ir.BinOp) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def _written(body: Sequence[ir.Stmt]) -> Set[str]:
    """The names of the locals that statements ``body`` set (a 'let', an
    assignment to a local, the variable of a loop or of a choice)."""
    out: Set[str] = set()
    for s in body:
        for n in ir.walk(s):
            if isinstance(n, ir.Let):
                out.add(n.name)
            elif isinstance(n, ir.Assign) and isinstance(n.target, ir.Name):
                out.add(n.target.name)
            else:
                var = getattr(n, "var", None)
                if isinstance(var, str) and var:
                    out.add(var)
    return out
