"""The kinds of value a local of a frame may hold (checked in a restored
state against what the compiler recorded), and the names the engine's
annotations give the machine's plain data."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Protocol, Tuple

from ..ir import Pos

#: What a local of a frame may hold.  The compiler records, for each local
#: of each code, the kinds of value the code puts there
#: (``Program.local_kinds``); a restored state is checked against them
#: (``saves.py``).  A kind is a tuple whose first item says what it is:
#:
#: ``("value",)``                 anything a rule works out: a number, yes/no,
#:                                none, a word, a tuple of numbers (dice, cards)
#: ``("seat",)``                  none or a seat
#: ``("card",)``                  none or a card id
#: ``("cards",)``                 none or a tuple of card ids
#: ``("piece", SET)``             none or the index of a piece of SET
#: ``("roll", N, S)``             none or the sum of N dice of S sides
#: ``("dice", S)``                none or the faces of a pool of S-sided dice
#: ``("count",)``                 none or a whole number (cards still to draw)
#: ``("probe",)``                 always none (no longer made: room for a
#:                                question's temporary in 0.2.0)
#:
#: and the work of a loop or an op, none except while the frame is inside
#: the loop that starts at ``PC`` (or waits at the op at ``PC``):
#:
#: ``("each-player", PC)``        (passes made, first seat): ``ForEachOp``
#: ``("each-card", PC)``          (the cards, passes made): ``ForEachCardOp``
#: ``("each-piece", PC)``         passes made: ``ForEachPieceOp``
#: ``("repeat", PC)``             passes left: ``CounterOp``
#: ``("pool-work", PC, S)``       (faces rolled, dice left): ``PoolOp``
#: ``("roll-off", PC, S)``        (contenders, their rolls): ``RollOffOp``
LOCAL_KINDS = ("value", "seat", "card", "cards", "piece", "roll", "dice", "count", "probe",
               "each-player", "each-card", "each-piece", "repeat", "pool-work", "roll-off")
VALUE, SEAT, CARD, CARDS, COUNT = ("value",), ("seat",), ("card",), ("cards",), ("count",)

#: A kind of local (above): its name, then what it depends on.
Kind = Tuple[Any, ...]

#: A frame of the machine: ``[code id, pc, player, local0, local1, ...]``
#: (the layout in ``ops.base``), a plain list so a state clones cheaply.
Frame = List[Any]

#: A running game's state (``state.State``).  ``Any`` to mypy: state.py
#: imports the whole engine, so the modules before it cannot import it back
#: (not even for annotations: tests/test_layout.py counts those too).
St = Any

#: A compiled program (``program.Program``): ``Any`` to mypy for the same
#: reason (program.py imports the stages that build its parts).
Prog = Any

#: What compiles one code (``lower.Ctx``): ``Any`` to mypy, as lower.py
#: imports the modules that use it (``source``, ``statements``).
Lowering = Any

#: What writes a code's generated function (``codegen.Runner``), as an op's
#: ``emit(r, k)`` sees it: ``Any`` to mypy, as codegen imports the ops.
Writer = Any

#: Where an op or a statement is, for error messages: (rule name, its place
#: in the rule file, or None).
Where = Tuple[str, Optional[Pos]]

#: A function of generated code (``codegen``, ``runtime.compiled``):
#: ``fn(st, fr)`` -> its value.
Fn = Callable[[St, Frame], Any]


class Compiled(Protocol):
    """A function of expression source (``runtime.compiled``): ``fn(st, fr)``
    -> its value; ``src`` is the source, for generated code to inline."""

    src: str

    def __call__(self, st: St, fr: Frame) -> Any: ...


class Keeper(Protocol):
    """What keeps a value in its place's bounds (``runtime.keeper``):
    ``keep(x)`` -> x within them; ``bounds`` are the ints it keeps as they are."""

    bounds: Tuple[int, int]

    def __call__(self, x: Any) -> Any: ...


#: A low or high bound of a place: none for no bound.
Bound = Optional[int]
