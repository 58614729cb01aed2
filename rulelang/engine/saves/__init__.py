"""Saved states and replays: their formats, their JSON Schema, and the one
boundary every save passes before it becomes a ``State``.

Two forms (``docs/saves.md``):

- the **full state** (``State.to_json()``, ``Game.restore(text)``): every
  value, pile, frame and the generator, for a server to keep.  With a key
  (``to_json(key=...)``) it carries an HMAC-SHA256 of its canonical form and
  ``restore(text, key=...)`` refuses it when the MAC is missing or wrong.
- the **replay** (``State.to_replay()``, ``Game.replay(text)``): the game's
  setup (players, seed, chance mode, options) and the labels of every move;
  restored by playing the moves again, so it can only give legal play.

A save is untrusted: ``restore`` reads it with bounds (bytes, values,
nesting, numbers), checks it against the declared shape (``STATE``, published
as ``schema/state.schema.json``, and ``REPLAY``; ``write_schemas`` writes
them) and then against the game (``Spec``: lengths, every value of its kind,
cards neither made nor lost, program counters where the code waits or
calls), and finally probes the state it built.  Anything wrong raises
``SaveError`` with the JSON path of the fault and the reason.

The package: ``shapes`` (the formats and their schema), ``document``
(reading a document within bounds, its head, the MAC), ``spec`` (what a
state of one game may hold), ``checks`` (a state held to that), ``quick``
(the same shape, values and piles tested in one function written per game,
the way through for a save that is right), and here ``restore``,
``replay`` and the state a checked document describes.
"""

from __future__ import annotations

import json
import weakref
from typing import Any, Callable, Dict, Iterable, Optional, ParamSpec, Tuple, TypeVar

from ... import ir
from ...errors import IllegalMoveError, RulesetError, SaveError
from ...limits import Limits
from .. import ops as O
from ..kinds import Prog, St
from ..program import compile_ruleset
from ..ops import NO_BLOCK, PC, WAIT_CHANCE
from .checks import (_check_piles, _check_rest, _check_stack, _check_values, _ending_holds,
                     _probe)
from .document import (Key, _check_options, _check_players, _head, _same_ruleset, _verify,
                       canonical, mac_of, read)
from .shapes import (ENGINE_ENDINGS, FORMAT, M64, PARAMS, REPLAY, REPLAY_FORMAT, SCHEMA_PATHS, STATE, Gm,
                     _Context, build_schema, json_path, schema_text, write_schemas, _err)
from .quick import quick_of
from .spec import CHANCE_OPS, DECISION_OPS, Spec, spec_of

__all__ = ["CHANCE_OPS", "DECISION_OPS", "ENGINE_ENDINGS", "FORMAT", "REPLAY_FORMAT",
           "SCHEMA_PATHS", "Spec", "build_schema", "canonical", "json_path", "mac_of", "read",
           "replay", "replay_doc", "restore", "schema_text", "spec_of", "state_from_plain",
           "unpickle_game", "write_schemas"]


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _bounded(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn``, with a ``RecursionError`` (a document nested deeper than the
    interpreter can follow, under limits an embedder raised) as a refusal."""
    def run(*args: _P.args, **kw: _P.kwargs) -> _R:
        try:
            return fn(*args, **kw)
        except RecursionError:
            raise SaveError("$", "the document is nested too deeply to check") from None
    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


@_bounded
def restore(game: Gm, text: object, key: Optional[Key] = None) -> St:
    """``Game.restore``: the state in ``text``, checked (see the module)."""
    doc = read(text, game.limits, "save")
    if type(doc) is dict and doc.get("format") == FORMAT:
        # The game it was made in: the one made for the values it gives
        # its parameters (their shape checked first).
        if "params" in doc:
            PARAMS.check(doc["params"], ("params",), _Context(game.limits))
        game = _game_for(game, doc)
    # A document that is right passes the quick test (one generated
    # function, ``quick``); any other has the shape, its values and its
    # piles checked in full, which finds the fault and words it.
    right = type(doc) is dict and doc.get("format") == FORMAT and \
        quick_of(spec_of(game), game.limits)(doc)
    if not right:
        _head(doc, STATE, FORMAT, "saved state", game)
    _verify(doc, key, "save")
    _same_ruleset(doc, game, "save")
    n = _check_players(doc, game)
    _check_options(doc, game, n)
    spec = spec_of(game)
    if not right:
        _check_values(spec, doc, n)
        _check_piles(spec, doc, n)
    _check_rest(spec, doc, n)
    _check_stack(spec, doc, n)
    st = state_from_plain(game, doc)
    _ending_holds(spec, st)
    if st.over is None and st.waiting == WAIT_CHANCE:
        fr = st.stack[-1]
        op = spec.prog.codes[fr[0]][fr[PC]]
        if type(op) is O.DrawOp:
            try:
                src = st.piles[op.src(st, fr)]
            except Exception as e:
                raise _err(("stack", len(st.stack) - 1), f"the pile a draw waits on cannot be "
                                                         f"found ({type(e).__name__}: {e})") from None
            if not src:
                raise _err(("stack", len(st.stack) - 1, 1), "a draw waits for a card from an "
                                                            "empty deck (an empty deck is "
                                                            "refilled first)")
    _probe(st)
    return st


# ----------------------------------------------------------- the state


def _tuplify(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tuplify(i) for i in x)
    return x


def _linked(items: Iterable[Any]) -> Optional[Tuple[Any, Any]]:
    tail: Optional[Tuple[Any, Any]] = None
    for item in items:
        tail = (item, tail)
    return tail


def state_from_plain(game: Gm, d: Dict[str, Any], limits: Optional[Limits] = None) -> St:
    """The ``State`` a plain save ``d`` describes, as it is (no checks: for
    a document ``restore`` has checked, and for pickles)."""
    LogEntry = game.log_entry_class
    st = game.state_class.__new__(game.state_class)
    st.game = game
    st.prog = game.prog
    st.n = d["players"]
    st.explicit = d["chance"] == "explicit"
    st.seed = d["seed"]
    st.rng = d["rng"]
    st.v = [_tuplify(x) if type(x) is list else x for x in d["v"]]
    st.g = [_tuplify(x) if type(x) is list else x for x in d["g"]]
    st.piles = [list(p) for p in d["piles"]]
    st.nshared = len(game.prog.shared_piles)
    st.stack = [[_tuplify(x) if type(x) is list else x for x in f] for f in d["stack"]]
    st.waiting = d["waiting"]
    st.actor = d["actor"]
    st.rerolling = d["rerolling"]
    st.turn_player = d["turn_player"]
    st.round = d["round"]
    st.order_pos = d["order_pos"]
    st.skips = tuple(d["skips"])
    st.shown = tuple(d.get("shown", ()))
    st.test = tuple(d["test"]) if d["test"] is not None else None
    st.over = d["over"]
    options = d["options"]
    st.options = dict(options) if options else None
    st.limits = limits or game.limits
    st.logging = d["logging"]
    st.policy = None
    st.block = NO_BLOCK
    st._changed()
    st.chance_record = None
    st.steps = 0
    st.hist = (tuple(d["history"]),) if d["history"] else None    # (see State)
    st.log_tail = _linked(LogEntry.from_dict(e) for e in d["log"])
    return st


# ------------------------------------------------------------- replays


def replay_doc(st: St, seed: bool = True, key: Optional[Key] = None) -> Dict[str, Any]:
    """``State.to_replay``'s document."""
    doc: Dict[str, Any] = {
        "format": REPLAY_FORMAT, "ruleset": st.game.fingerprint, "players": st.n,
        "chance": "explicit" if st.explicit else "sample", "options": st.options,
        "logging": st.logging, "moves": st.history}
    params = params_of(st.game)
    if params is not None:
        doc["params"] = params
    if seed:
        doc["seed"] = st.seed
    if key is not None:
        doc["mac"] = mac_of(doc, key)
    return doc


def params_of(game: Gm) -> Optional[Dict[str, int]]:
    """What a save or replay of ``game``'s says of its parameters: the
    values of them all when the game was made for other values than its
    rule file's (``Game.with_params``), else None (nothing is written)."""
    if game.base is game:
        return None
    return {name: d["value"] for name, d in game.params.items()}


def _game_for(game: Gm, doc: Any) -> Gm:
    """The game a save or replay (its shape checked) was made in: ``game``
    made for the values of its parameters that it gives (the game of the
    rule file's own values when it gives none)."""
    given = doc.get("params") if isinstance(doc, dict) else None
    if given is None:
        return game.base
    try:
        return game.base.with_params(given)
    except ValueError as e:
        raise SaveError("$.params", str(e)) from None
    except RulesetError as e:
        raise SaveError("$.params", f"the rules cannot take these values: {e}") from None


@_bounded
def replay(game: Gm, text: object, seed: Optional[int] = None,
           key: Optional[Key] = None) -> St:
    """``Game.replay``: the game the replay in ``text`` describes, made with
    ``new_game`` and played move by move."""
    doc = read(text, game.limits, "replay")
    _head(doc, REPLAY, REPLAY_FORMAT, "replay", game)
    game = _game_for(game, doc)
    _verify(doc, key, "replay")
    _same_ruleset(doc, game, "replay")
    n = _check_players(doc, game)
    _check_options(doc, game, n)
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"a seed is a whole number, not {seed!r}")
        seed &= M64
        if "seed" in doc and doc["seed"] != seed:
            raise SaveError("$.seed", "the replay's seed is not the seed of this game")
    elif "seed" not in doc:
        raise SaveError("$", "the replay has no seed: give the game's (Game.replay(text, seed=...))")
    else:
        seed = doc["seed"]
    moves = doc["moves"]
    if len(moves) > game.limits.max_history:
        raise SaveError("$.moves", f"more than {game.limits.max_history} moves (Limits.max_history)")
    try:
        st = game.new_game(players=n, seed=seed, chance=doc["chance"], options=doc["options"],
                           log=doc.get("logging", True))
    except RulesetError as e:
        raise SaveError("$", f"the game cannot be set up: {e.message}") from e
    for i, label in enumerate(moves):
        if st.over is not None:
            raise _err(("moves", i), f"the game is over ({st.over}) after move {i}: no move is legal")
        try:
            st.apply(label)
        except IllegalMoveError:
            raise _err(("moves", i), f"{json.dumps(label)} is not a legal move at this point "
                                     f"of the game") from None
        except RulesetError as e:
            raise _err(("moves", i), f"the move {json.dumps(label)} fails: {e.message}") from e
    return st


# ------------------------------------------------------------- pickles

_unpickled: weakref.WeakValueDictionary[Tuple[str, Limits], Any] = weakref.WeakValueDictionary()


def unpickle_game(fingerprint: str, rs: ir.Ruleset, limits: Limits,
                  game_class: Callable[[Prog, Limits], Gm]) -> Gm:
    """A pickled ``Game``: compiled again from its ruleset (once per
    process for each ruleset and limits; admitted at the trust boundary
    again, as any ruleset from outside)."""
    key = (fingerprint, limits)
    game = _unpickled.get(key)
    if game is None:
        game = _unpickled[key] = game_class(compile_ruleset(rs, limits), limits)
    return game
