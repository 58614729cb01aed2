"""The one trust boundary for rulesets.

A ruleset reaches the compiler only through ``admit``.  What our own
parser made in this process (``syntax.made_here``) is checked by the
static checker; every other IR — a JSON or YAML document, an IR an
embedding program built or changed — is first taken back to
plain data and held to the IR's exact shape (``ir.shape``: types, words of
fixed lists, names, texts, bounds, counts, nesting), then structured
afresh and checked.  Only then is it compiled, and the compiler builds
generated code from slot numbers, whole numbers and words mapped through
fixed tables, never from a text of the IR (``engine.codegen``).

An admitted ruleset is remembered (by identity, with the limits it was
checked under), so a ruleset is admitted once however often it is
compiled.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Dict, Optional, Tuple

import attrs

from . import ir
from .check import Checker, Resolved
from .errors import RulesetCheckError, RulesetSyntaxError
from .limits import DEFAULT, Limits
from .syntax import made_here

# id(ruleset) -> (a weak reference to it, the limits it was checked under,
# what the checker worked out about it: which holds no reference to the
# ruleset, so the entry goes when the ruleset does)
_admitted: Dict[int, Tuple["weakref.ref[ir.Ruleset]", Limits, Resolved]] = {}


def _forget(key: int) -> Callable[[object], None]:
    def forget(_ref: object) -> None:
        if _admitted is not None:       # (None while the interpreter shuts down)
            _admitted.pop(key, None)
    return forget


def _remember(rs: ir.Ruleset, limits: Limits, resolved: Resolved) -> ir.Ruleset:
    key = id(rs)
    _admitted[key] = (weakref.ref(rs, _forget(key)), limits, resolved)
    return rs


def resolution(rs: ir.Ruleset, limits: Optional[Limits] = None) -> Resolved:
    """What the checker worked out about the admitted ruleset ``rs`` (what
    each of its names means: ``check.resolve.Resolved``), for the compiler."""
    found = _admitted.get(id(rs))
    if found is None or found[0]() is not rs or found[1] != (limits or DEFAULT):
        raise ValueError("only an admitted ruleset has a resolution (trust.admit)")
    return found[2]


def is_admitted(rs: Any, limits: Optional[Limits] = None) -> bool:
    """Whether ``rs`` itself passed ``admit`` under ``limits``."""
    found = _admitted.get(id(rs))
    return found is not None and found[0]() is rs and found[1] == (limits or DEFAULT)


def checked(rs: ir.Ruleset, limits: Optional[Limits] = None) -> ir.Ruleset:
    """``rs`` after the static checker found nothing wrong with it (raises
    ``RulesetCheckError`` listing every problem).  Only for an IR whose
    shape is known (our parser's, or one ``from_data`` structured)."""
    limits = limits or DEFAULT
    checker = Checker(rs, limits)
    errors = checker.run()
    if errors:
        raise RulesetCheckError(errors)
    return _remember(rs, limits, checker.resolved())


def admit(rs: Any, limits: Optional[Limits] = None) -> ir.Ruleset:
    """The ruleset to compile for ``rs``: ``rs`` itself if it is already
    admitted or our parser made it (then checked), else a fresh copy made
    from its data once that data has the IR's shape and passes the checker.
    Raises ``RulesetError`` with every problem found."""
    limits = limits or DEFAULT
    if isinstance(rs, ir.Ruleset) and is_admitted(rs, limits):
        return rs
    if type(rs) is ir.Ruleset and made_here(rs):
        return checked(rs, limits)
    filename = getattr(rs, "filename", "<ruleset>")
    if type(filename) is not str:
        filename = "<ruleset>"
    source = getattr(rs, "source", "")
    from .ir import serialize       # (here: what our parser made never needs it)
    try:
        data = serialize.to_data(rs)
    except Exception as e:  # noqa: BLE001 - whatever it is, it is not a ruleset
        raise RulesetSyntaxError.at(filename, 1, 1, f"not a ruleset ({type(e).__name__})") from None
    data.pop("origin", None)
    return admit_data(data, filename, limits, source=source if type(source) is str else "")


def admit_data(data: Any, filename: str, limits: Optional[Limits] = None, *,
               text: str = "", source: str = "") -> ir.Ruleset:
    """A checked ruleset from plain data: its shape, then the checker.
    ``text`` is the document the data was read from (to place problems at
    their lines); ``source`` the rule file the positions refer to."""
    from . import documents
    from .ir import serialize
    limits = limits or DEFAULT
    locate = documents.locator(text) if text else None
    try:
        rs = serialize.from_data(data, filename, limits)
    except RulesetSyntaxError:
        if locate is None:
            raise
        rs = serialize.from_data(data, filename, limits, locate=locate, source=text)
    if source:
        rs = attrs.evolve(rs, source=source)
    return checked(rs, limits)


def read_document(text: str, filename: str, limits: Optional[Limits] = None,
                  form: str = "json") -> ir.Ruleset:
    """A checked ruleset from the text of a JSON or YAML document."""
    from . import documents
    data = documents.read(text, filename, limits, form)
    return admit_data(data, filename, limits, text=text)
