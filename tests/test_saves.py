"""Saved states and replays (docs/saves.md).

- ``Game.restore`` refuses every tampered save with ``SaveError`` (a JSON
  path and a reason), or — when the edit gives a state that could be real —
  restores it, and it plays without any exception but rulelang's own.  The
  corpus of tampered saves is made systematically from real saves of every
  ruleset in rulesets/ and tests/conformance/, in both chance modes; its
  counts are printed by

      .venv/bin/python -m pytest tests/test_saves.py -k corpus -s

  (``RULELANG_LONG=1``: more base saves, every mutation of each).
- A restored state plays exactly like the original; an authenticated save
  refuses any change, a wrong key and a missing MAC; a replay gives the
  state again and only legal play; games and states pickle and copy.
"""

from __future__ import annotations

import copy
import itertools
import json
import multiprocessing
import os
import pickle
import random
import sys

import jsonschema
import pytest

import rulelang
from rulelang import CHANCE, Limits, SaveError
from rulelang.engine import ops as O
from rulelang.engine import saves
from rulelang.engine.saves import checks, quick, shapes
from helpers import ROOT, shipped

PATHS = sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "tests" / "conformance").glob("*.rules"))
IDS = [p.name for p in PATHS]
LONG = bool(os.environ.get("RULELANG_LONG"))
GAMES = {p.name: shipped(p.name) for p in PATHS}
KEY = b"the server's secret"


def pick(st, rng):
    moves = st.legal_moves()
    if st.current_player == CHANCE:
        return rng.choices(moves, weights=[float(m.probability) for m in moves])[0]
    return rng.choice(moves)


def play(st, rng, moves):
    for _ in range(moves):
        if st.is_over:
            break
        st.apply(pick(st, rng))
    return st


def states_of(game, chance, seed, stops):
    """Clones of one random game's state after each number of moves in
    ``stops`` (and at its end)."""
    rng = random.Random(seed)
    n = game.min_players + seed % (game.max_players - game.min_players + 1)
    st = game.new_game(players=n, seed=seed, chance=chance, log=seed % 2 == 0)
    out, made = [], 0
    for stop in stops:
        while made < stop and not st.is_over:
            st.apply(pick(st, rng))
            made += 1
        out.append(st.clone())
        if st.is_over:
            return out
    play(st, rng, 100_000)
    out.append(st)
    return out


def mid_game(name="features.rules", chance="sample", seed=5, moves=25, players=None):
    game = GAMES[name]
    st = game.new_game(players=players or game.min_players, seed=seed, chance=chance)
    return play(st, random.Random(seed), moves)


def refused(game, text, path=None, word=None, **kw):
    """Restoring ``text`` raises SaveError (at ``path``, with ``word`` in the reason)."""
    with pytest.raises(SaveError) as e:
        game.restore(text, **kw)
    if path is not None:
        assert e.value.path == path, e.value
    if word is not None:
        assert word in e.value.reason, e.value
    assert str(e.value) == f"{e.value.path}: {e.value.reason}"
    return e.value


def plays_on(st, seed=0, moves=8):
    """A restored state can be looked at and played; only rulelang's own
    errors may come out."""
    rng = random.Random(seed)
    try:
        for seat in list(range(st.players)) + [None]:
            st.view(seat)
        st.result()
        for _ in range(moves):
            if st.is_over:
                break
            st.apply(pick(st, rng))
        st.result()
        st.to_json()
    except rulelang.Error:
        pass


# ------------------------------------------------------------ the compiler's record


@pytest.mark.parametrize("name", IDS)
def test_every_local_of_every_code_has_its_kinds(name):
    """The compiler records what each local may hold, and the loops and ops
    a work local belongs to are where it says."""
    prog = GAMES[name].prog
    classes = {"each-player": O.ForEachOp, "each-card": O.ForEachCardOp,
               "each-piece": O.ForEachPieceOp, "repeat": O.CounterOp, "pool-work": O.PoolOp,
               "roll-off": O.RollOffOp}
    for code in range(len(prog.codes)):
        kinds = prog.local_kinds[code]
        assert len(kinds) >= prog.nlocals[code]
        for slot, found in enumerate(kinds[:prog.nlocals[code]]):
            assert found, (prog.code_names[code], slot)
            for kind in found:
                assert kind[0] in rulelang.engine.kinds.LOCAL_KINDS
                if kind[0] in classes:
                    assert type(prog.codes[code][kind[1]]) is classes[kind[0]]


# ------------------------------------------------------------ genuine saves


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("name", IDS)
def test_a_restored_state_plays_exactly_like_the_original(name, chance):
    """Random games, saved and restored again and again: each restored
    state equals the state it was saved from (history too), and the game
    goes on from the restored state move for move as the untouched one."""
    game = GAMES[name]
    for seed in range(2 if not LONG else 6):
        rng = random.Random(seed)
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        ref = game.new_game(players=n, seed=seed, chance=chance, log=seed % 2 == 0)
        cur = ref.clone()
        step = 0
        while True:
            if step % 3 == 0 or ref.is_over:
                text = cur.to_json()
                cur = game.restore(text)
                assert cur == ref and cur.history == ref.history
                assert cur.to_json() == text
            if ref.is_over or step > 1500:
                break
            label = pick(ref, rng).label
            ref.apply(label)
            cur.apply(label)
            assert cur == ref, f"{name} {chance} seed {seed}: differs after move {step}"
            step += 1
        assert [e.to_dict() for e in cur.log] == [e.to_dict() for e in ref.log]
        assert cur.result() == ref.result()


def test_restore_takes_bytes_and_str():
    st = mid_game()
    game = st.game
    assert game.restore(st.to_json().encode()) == st
    assert game.restore(bytearray(st.to_json().encode())) == st


# ------------------------------------------------------------ representative refusals


def doc_of(st):
    return json.loads(st.to_json())


def text_of(doc):
    return json.dumps(doc)


def test_each_kind_of_fault_is_named_with_its_place():
    """Representative tampered saves: the path and a word of the reason."""
    st = mid_game("features.rules", moves=30, players=2)
    game = st.game
    base = doc_of(st)

    def bad(edit, path, word):
        d = copy.deepcopy(base)
        edit(d)
        refused(game, text_of(d), path, word)

    bad(lambda d: d.pop("stack"), "$", "needs the key \"stack\"")
    bad(lambda d: d.update(players="2"), "$.players", "whole number")
    bad(lambda d: d.update(players=True), "$.players", "whole number")
    bad(lambda d: d.update(players=3), "$.v", "3 players")
    bad(lambda d: d.update(players=9), "$.players", "1 to 3 players")
    bad(lambda d: d.update(extra=1), "$.extra", "unknown key")
    bad(lambda d: d.update(format="rulelang-state/1"), "$.format", "reads rulelang-state/2")
    bad(lambda d: d.update(format="nope"), "$.format", "not a rulelang")
    bad(lambda d: d.update(ruleset="0" * 16), "$.ruleset", "another ruleset")
    bad(lambda d: d["piles"][0].append(999), "$.piles[0][" + str(len(base["piles"][0])) + "]",
        "does not exist")
    hand = next(i for i, p in enumerate(base["piles"]) if p)
    bad(lambda d: d["piles"][hand].append(d["piles"][hand][0]),
        f"$.piles[{hand}][{len(base['piles'][hand])}]", "too many")
    bad(lambda d: d["piles"][hand].pop(), "$.piles", "missing")
    bad(lambda d: d["piles"].pop(), "$.piles", "shared piles")
    bad(lambda d: d["v"].append(0), "$.v", "values")
    bad(lambda d: d["g"].pop(), "$.g", "global stats")
    bad(lambda d: d["stack"][0].__setitem__(0, 999), "$.stack[0][0]", "does not exist")
    bad(lambda d: d["stack"][-1].__setitem__(1, 10_000), f"$.stack[{len(base['stack']) - 1}][1]",
        "past its end")
    bad(lambda d: d["stack"][-1].append(None), f"$.stack[{len(base['stack']) - 1}]", "locals")
    bad(lambda d: d.update(over="I win"), "$.over", "not an ending")
    bad(lambda d: d.update(over="the storm"), "$.stack", "over has no frames")
    bad(lambda d: d.update(waiting=0), "$.waiting", "waits for a decision")
    bad(lambda d: d.update(skips=["nap"]), "$.skips[0]", "not a phase")
    bad(lambda d: d.update(test=[1, 2]), "$.test[0]", "true or false")
    bad(lambda d: d.update(options={"start": "poor"}), "$.options.start", "no choice")
    bad(lambda d: d.update(options={"nope": None}), "$.options.nope", "no option")
    bad(lambda d: d.update(seed=-1), "$.seed", "whole number from 0")
    bad(lambda d: d["log"].append({"round": 1}), f"$.log[{len(base['log'])}]", "needs the key")
    bad(lambda d: d["history"].append(7), f"$.history[{len(base['history'])}]", "string")
    # A stat of the wrong kind, out of its bounds, a word it cannot hold.
    K = game.prog.K
    luck = game.prog.pslot["luck"]
    bad(lambda d: d["v"].__setitem__(luck, 99), f"$.v[{luck}]", "from 0 to 6")
    mood = game.prog.pslot["mood"]
    bad(lambda d: d["v"].__setitem__(K + mood, "furious"), f"$.v[{K + mood}]", "calm")
    hurt = game.prog.pslot["hurt"]
    bad(lambda d: d["v"].__setitem__(hurt, 1), f"$.v[{hurt}]", "true or false")


def test_another_seats_turn_is_refused():
    """Moving on another seat's turn: the actor must be the player of the
    frame that waits, and the turn's player the player the turn runs for."""
    st = mid_game("northpole.rules", moves=20, players=3)
    while st.current_player == CHANCE:
        play(st, random.Random(1), 1)
    assert not st.is_over and st.actor is not None
    d = doc_of(st)
    d["actor"] = (d["actor"] + 1) % 3
    refused(st.game, text_of(d), "$.actor", "player of the top frame")
    d = doc_of(st)
    d["turn_player"] = (d["turn_player"] + 1) % 3
    e = refused(st.game, text_of(d))
    assert "turn" in e.reason


def test_ending_the_game_by_editing_it_is_refused():
    """A declared ending whose condition does not hold cannot be written in."""
    st = mid_game("features.rules", moves=20, players=2)
    d = doc_of(st)
    d.update(over="the storm", stack=[], waiting=0, actor=None, rerolling=False)
    refused(st.game, text_of(d), "$.over", "condition does not hold")


def test_a_program_counter_where_nothing_waits_is_refused():
    st = mid_game("features.rules", moves=20, players=2)
    d = doc_of(st)
    top = len(d["stack"]) - 1
    ops = st.game.prog.codes[d["stack"][top][0]]
    quiet = [k for k, op in enumerate(ops) if not isinstance(op, saves.DECISION_OPS + saves.CHANCE_OPS)]
    assert quiet
    d["stack"][top][1] = quiet[0]
    e = refused(st.game, text_of(d))
    assert e.path.startswith(f"$.stack[{top}]") or e.path == "$.actor", e


def test_a_state_of_another_ruleset_is_refused_at_its_fingerprint():
    st = mid_game("features.rules")
    for name, game in GAMES.items():
        if name != "features.rules":
            refused(game, st.to_json(), "$.ruleset", "another ruleset")


@pytest.mark.parametrize("text, path, word", [
    ("", "$", "not valid JSON"),
    ("[1, 2]", "$", "JSON object"),
    ("{\"format\": \"rulelang-state/2\", \"format\": 1}", "$", "given twice"),
    ("{\"format\": NaN}", "$.format", "NaN"),
    ("{\"format\": 1.5}", "$.format", "fraction"),
    ("[" * 100_000 + "]" * 100_000, "$", "nested too deeply"),
    ("\ufeff{}", "$", "not valid JSON"),
])
def test_malformed_json_is_refused(text, path, word):
    refused(GAMES["features.rules"], text, path, word)


def test_inputs_that_are_not_json_text_are_refused():
    game = GAMES["features.rules"]
    refused(game, b"\xff\xfe{}", "$", "not UTF-8")
    refused(game, "\ud800", "$", "Unicode")
    for junk in (None, 7, {"format": saves.FORMAT}, ["x"]):
        refused(game, junk, "$", "JSON text")


def test_huge_deep_and_wide_documents_stop_at_their_limits():
    """Bytes, values (a document made of one label many times over),
    nesting inside a value, numbers of thousands of digits, fractions."""
    st = mid_game("features.rules")
    game = st.game
    d = doc_of(st)
    refused(game, " " * game.limits.max_save_bytes + st.to_json(), "$", "max_save_bytes")
    small = rulelang.load(ROOT / "tests" / "conformance" / "features.rules",
                          limits=Limits(max_save_bytes=1000))
    refused(small, st.to_json(), "$", "max_save_bytes")
    wide = copy.deepcopy(d)
    wide["history"] = ["x"] * (game.limits.max_nodes + 1)
    refused(game, text_of(wide), "$", "max_nodes")
    deep = copy.deepcopy(d)
    nested = 0
    for _ in range(game.limits.max_nesting + 5):
        nested = [nested]
    deep["log"].append({"round": 0, "player": None, "kind": "x", "text": "x", "value": nested})
    refused(game, text_of(deep), None, "max_nesting")
    text = st.to_json()
    seed = str(d["seed"])
    refused(game, text.replace(f'"seed":{seed}', '"seed":' + "9" * 5000), "$", "digits")
    refused(game, text.replace(f'"seed":{seed}', '"seed":' + "9" * 30), "$.seed", "from 0 to")
    if hasattr(sys, "set_int_max_str_digits"):       # without Python's own limit: the reader's
        before = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            refused(game, text.replace(f'"seed":{seed}', '"seed":' + "9" * 50_000), "$.seed", "digits")
        finally:
            sys.set_int_max_str_digits(before)
    refused(game, text.replace(f'"seed":{seed}', '"seed":1e3'), "$.seed", "fraction")
    refused(game, text.replace(f'"seed":{seed}', '"seed":Infinity'), "$.seed", "Infinity")
    odd = copy.deepcopy(d)
    odd["history"].append(["x"])
    refused(game, text_of(odd), f"$.history[{len(d['history'])}]", "string")


def test_a_move_label_longer_than_one_text_saves_and_restores():
    """A label names its choice's prompt and a card whose name may be as
    long as a text may (``max_text``): the save keeps it whole, and a log
    line naming the card twice is cut at ``max_text``."""
    name = "b" * 9_999
    src = (f'game "G"\nplayers 1\ndeck d {{ "{name}1"  "{name}2" }}\npile p\n'
           f'setup {{ move all from d to p }}\n'
           f'turn {{ phase a {{ choose one card from p as c "Pick"\n log "{{c}} {{c}}"\n'
           f'end game "x" }} }}\n')
    game = rulelang.loads(src)
    st = game.new_game(seed=1)
    move = st.legal_moves()[0]
    assert len(move.label) > game.limits.max_text
    st.apply(move)
    assert max(len(e.text) for e in st.log) == game.limits.max_text
    assert game.restore(st.to_json()) == st and game.replay(st.to_replay()) == st


# ------------------------------------------------------------ the corpus of tampered saves

WRONG = {"null": None, "true": True, "int": 3, "negative": -5, "string": "x", "list": [],
         "object": {}, "float": 1.5, "huge": 10 ** 30}
#: The JSON types each key of a saved state may have.
KEY_TYPES = {
    "format": {"string"}, "ruleset": {"string"}, "players": {"int", "negative"},
    "chance": {"string"}, "seed": {"int", "negative"}, "rng": {"int", "negative"},
    "v": {"list"}, "g": {"list"}, "piles": {"list"}, "stack": {"list"},
    "waiting": {"int", "negative"}, "actor": {"int", "negative", "null"},
    "rerolling": {"true"}, "turn_player": {"int", "negative", "null"},
    "round": {"int", "negative"}, "order_pos": {"int", "negative"}, "skips": {"list"},
    "test": {"null", "list"}, "over": {"null", "string"}, "options": {"null", "object"},
    "logging": {"true"}, "history": {"list"}, "log": {"list"},
}


def _bases(names=None):
    """(name, chance, state, every edit) of the real saves the corpus is
    made from: a few points of one game per ruleset and chance mode (more
    games and points with RULELANG_LONG).  One of them gets every kind of
    edit; the others those that depend on where the game is."""
    out = []
    stops = (2, 9, 30, 70) if not LONG else (1, 6, 25, 90, 150)
    for name, game in GAMES.items():
        if names is not None and name not in names:
            continue
        for chance in ("sample", "explicit"):
            for seed in ((0,) if not LONG else (0, 1)):
                for i, st in enumerate(states_of(game, chance, seed, stops)):
                    every = LONG or i == 2
                    if not every:
                        st.log_tail = None      # (a log is checked as data only: once is enough)
                    out.append((name, chance, st, every))
    return out


def _sample(items, k, rng):
    items = list(items)
    return items if LONG or len(items) <= k else rng.sample(items, k)


def tampered(name, chance, st, rng, every=True):
    """(class, clearly invalid, document) for the edits of one real save
    (None for an edit that changes nothing).  A clearly invalid one can
    only be refused; the others may happen to be a state that could be
    real (then it must restore and play).  ``every``: also the edits whose
    outcome does not depend on where the game is (each key dropped or of
    another type, another ruleset, huge and deep documents)."""
    game = st.game
    prog = game.prog
    base_text = st.to_json()
    base = json.loads(base_text)
    n = st.players

    def edit(f):
        d = json.loads(base_text)
        f(d)
        return d if d != base else None
    # Every key dropped.
    for key in base if every else ():
        yield "key dropped", True, edit(lambda d, key=key: d.pop(key))
    # Every value replaced by each wrong JSON type (at the top level).
    for key in base if every else ():
        for kind, value in WRONG.items():
            clear = kind not in KEY_TYPES[key]
            yield "top-level value of another type", clear, edit(lambda d, key=key, value=value: d.__setitem__(key, value))
    # Values inside: stats, piece values, locals, cards, log entries.
    places = [("v", i) for i in range(len(base["v"]))] + [("g", i) for i in range(len(base["g"]))]
    places += [("stack", i, j) for i, fr in enumerate(base["stack"]) for j in range(len(fr))]
    places += [("piles", i, j) for i, p in enumerate(base["piles"]) for j in range(len(p))]
    places += [("log", i, k) for i in range(max(0, len(base["log"]) - 3), len(base["log"]))
               for k in base["log"][i]]
    for place in _sample(places, 16, rng):
        for kind, value in WRONG.items():
            clear = kind in ("object", "float", "huge") or \
                ((place[0] == "piles" or (place[0] == "stack" and place[2] < 3)) and kind != "int") or \
                (place[0] == "log" and place[2] in ("kind", "text") and kind != "string") or \
                (place[0] == "log" and place[2] == "round" and kind != "int")

            def put(d, place=place, value=value):
                target = d
                for p in place[:-1]:
                    target = target[p]
                target[place[-1]] = value
            yield "inner value of another type", clear, edit(put)
    # Every index pushed out of range.
    ncards, ncodes = len(prog.card_names), len(prog.codes)
    for i, p in enumerate(base["piles"]):
        for j in _sample(range(len(p)), 3, rng):
            for bad in (ncards, ncards + 7, -1):
                yield "index out of range", True, edit(lambda d, i=i, j=j, bad=bad: d["piles"][i].__setitem__(j, bad))
    for i, fr in enumerate(base["stack"]):
        for slot, bad in ((0, ncodes), (0, -1), (1, len(prog.codes[fr[0]]) + 1), (1, -1), (2, n), (2, -1)):
            yield "index out of range", True, edit(lambda d, i=i, slot=slot, bad=bad: d["stack"][i].__setitem__(slot, bad))
        for s in range(3, len(fr)):
            kinds = prog.local_kinds[fr[0]][s - 3]
            if all(k[0] in ("seat", "card", "piece") for k in kinds):
                top = {"seat": n, "card": ncards,
                       "piece": max([len(prog.piece_names[k[1]]) for k in kinds if k[0] == "piece"] or [0])}
                bad = max(top[k[0]] for k in kinds)
                yield "index out of range", True, edit(lambda d, i=i, s=s, bad=bad: d["stack"][i].__setitem__(s, bad))
    for key, bad in (("actor", n), ("turn_player", n), ("order_pos", n), ("order_pos", -2),
                     ("waiting", 3), ("players", game.max_players + 1), ("players", 0),
                     ("seed", 2 ** 64), ("rng", -1), ("round", -1), ("skips", ["no such phase"]),
                     ("over", "no such ending"), ("options", {"no such option": None}),
                     ("chance", "maybe"), ("format", "rulelang-state/9"), ("ruleset", "f" * 16),
                     ("test", [True, 10 ** 20])):
        yield "index out of range", True, edit(lambda d, key=key, bad=bad: d.__setitem__(key, bad))
    # Lists lengthened and shortened.
    for key in ("v", "g", "piles", "stack"):
        yield "list lengthened or shortened", True, edit(lambda d, key=key: d[key].append(d[key][-1] if d[key] else 0))
        if base[key]:
            yield "list lengthened or shortened", True, edit(lambda d, key=key: d[key].pop())
    for i in range(len(base["stack"])):
        yield "list lengthened or shortened", True, edit(lambda d, i=i: d["stack"][i].append(None))
        yield "list lengthened or shortened", True, edit(lambda d, i=i: d["stack"][i].pop())
    for key in ("history", "log"):
        yield "history or log lengthened or shortened", False, edit(lambda d, key=key: d[key].append(d[key][-1] if d[key] else "x"))
        if base[key]:
            yield "history or log lengthened or shortened", False, edit(lambda d, key=key: d[key].pop())
    # Cards added, removed, duplicated.
    for i, p in enumerate(base["piles"]):
        if p:
            yield "card added, removed or duplicated", True, edit(lambda d, i=i: d["piles"][i].pop())
            yield "card added, removed or duplicated", True, edit(lambda d, i=i: d["piles"][i].append(d["piles"][i][0]))
            others = [j for j in range(len(base["piles"])) if j != i]
            if others:
                j = rng.choice(others)
                yield "card added, removed or duplicated", True, edit(lambda d, i=i, j=j: d["piles"][j].append(d["piles"][i][0]))
        yield "card added, removed or duplicated", True, edit(lambda d, i=i: d["piles"][i].append(0))
    # Cards moved between piles (every card still there once): may be real.
    for i, p in enumerate(base["piles"]):
        if p:
            j = rng.randrange(len(base["piles"]))
            yield "card moved to another pile", False, edit(lambda d, i=i, j=j: d["piles"][j].append(d["piles"][i].pop()))
    # Program counters moved to every other point.
    stack = base["stack"]
    for i, fr in enumerate(stack):
        code = prog.codes[fr[0]]
        spec = saves.spec_of(game)
        for pc in range(len(code) + 1):
            if pc == fr[1]:
                continue
            if i == len(stack) - 1:
                op = code[pc] if pc < len(code) else None
                waits = saves.CHANCE_OPS if base["waiting"] == 1 else saves.DECISION_OPS
                clear = not isinstance(op, waits) and not (base["rerolling"] and type(op) is O.RollOp)
            else:
                sites = spec.calls[fr[0]].get(pc, ())
                clear = not any(stack[i + 1][0] in s[0] for s in sites)
            yield "program counter moved", clear, edit(lambda d, i=i, pc=pc: d["stack"][i].__setitem__(1, pc))
    # Frames swapped, dropped, duplicated.
    for i in range(len(stack)):
        yield "frame dropped, duplicated or swapped", False, edit(lambda d, i=i: d["stack"].pop(i))
        yield "frame dropped, duplicated or swapped", False, edit(lambda d, i=i: d["stack"].insert(i, list(d["stack"][i])))
        if i + 1 < len(stack):
            yield "frame dropped, duplicated or swapped", False, edit(
                lambda d, i=i: d["stack"].__setitem__(slice(i, i + 2), [d["stack"][i + 1], d["stack"][i]]))
    # Another seat's turn.
    if n > 1 and base["over"] is None:
        if base["actor"] is not None:
            for seat in range(n):
                if seat != base["actor"]:
                    yield "another seat's turn", True, edit(lambda d, seat=seat: d.__setitem__("actor", seat))
        for seat in range(n):
            if seat != base["turn_player"]:
                yield "another seat's turn", True, edit(lambda d, seat=seat: d.__setitem__("turn_player", seat))
    # The game ended by editing "over" (the frames left as they are), and
    # ended with everything an end clears.
    endings = sorted(saves.spec_of(game).endings | saves.spec_of(game).end_game | set(saves.ENGINE_ENDINGS))
    for ending in endings:
        if base["over"] is None:
            yield "game ended by editing over", True, edit(lambda d, e=ending: d.__setitem__("over", e))
        yield "game ended with its frames cleared", False, edit(
            lambda d, e=ending: d.update(over=e, stack=[], waiting=0, actor=None, rerolling=False))
    if base["over"] is not None:
        yield "finished game reopened", True, edit(lambda d: d.__setitem__("over", None))
    # Another player count.
    for other in range(game.min_players, game.max_players + 1):
        if other != n:
            clear = prog.K > 0 or bool(prog.player_piles)
            yield "another player count", clear, edit(lambda d, other=other: d.__setitem__("players", other))
    if not every:
        return
    # Another ruleset's fingerprint and state.
    for other_name, other in GAMES.items():
        if other_name != name:
            yield "another ruleset's fingerprint", False, edit(lambda d, f=other.fingerprint: d.__setitem__("ruleset", f))
    # Huge, deep and repeated JSON.
    yield "huge, deep or repeated JSON", True, edit(lambda d: d["history"].extend(["x"] * (game.limits.max_nodes + 1)))
    yield "huge, deep or repeated JSON", True, edit(lambda d: d.__setitem__("seed", 10 ** 200))
    yield "huge, deep or repeated JSON", True, edit(lambda d: d["log"].append(
        {"round": 0, "player": None, "kind": "x", "text": "x", "value": json.loads("[" * 250 + "]" * 250)}))
    if base["v"]:
        yield "huge, deep or repeated JSON", True, edit(lambda d: d["v"].__setitem__(0, 10 ** 40))
    yield "huge, deep or repeated JSON", True, edit(lambda d: d["stack"].append(json.loads("[" * 300 + "]" * 300)))


def _foreign(name, chance, st):
    """The save, restored into every other game: refused at $.ruleset."""
    for other_name, other in GAMES.items():
        if other_name != name:
            yield "another ruleset's state", True, other, st.to_json()


def _garbled(st, rng, count=40):
    """The save's text with a few characters changed, dropped or put in."""
    text = st.to_json()
    for _ in range(count if not LONG else 10 * count):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            what = rng.random()
            if what < 0.4:
                chars[i] = rng.choice('0123456789-[]{},:"ntfe. x')
            elif what < 0.7:
                del chars[i]
            else:
                chars.insert(i, rng.choice('0123456789[]{},:"'))
        yield "text garbled", False, st.game, "".join(chars)


def quick_verdict(game, text, doc=None):
    """What restore's quick test (``saves.quick``) says of the document in
    ``text`` (or of ``doc``, the data it was written from): None when
    restore does not ask it (not a document of the format), True or False;
    and "lenient" when it passes a document that the full checks of the
    shape, the values and the piles refuse (it may only be stricter than
    they are)."""
    if doc is None:
        try:
            doc = saves.read(text, game.limits)
        except SaveError:
            return None
    if type(doc) is not dict or doc.get("format") != saves.FORMAT:
        return None
    spec = saves.spec_of(game)
    if not quick.quick_of(spec, game.limits)(doc):
        return False
    try:
        cx = shapes._Context(game.limits)
        if not saves.STATE.ok(doc, cx):        # (as restore's full checks: document._head)
            saves.STATE.check(doc, (), cx)
        checks._check_values(spec, doc, doc["players"])
        checks._check_piles(spec, doc, doc["players"])
    except SaveError:
        return "lenient"
    return True


def run_corpus(names=None, seed=0):
    """{class: [tried, refused, accepted]}, [clearly invalid tried, refused],
    the first clearly invalid edits that were not refused (of the rulesets
    ``names``; all when None), and the first faults of the quick test: a
    tampered save it passed that the full checks refuse, a genuine save it
    did not pass."""
    rng = random.Random(seed)
    counts = {}
    clear_counts = [0, 0]
    missed = []
    quick_faults = []
    for name, chance, st, every in _bases(names):
        if quick_verdict(st.game, st.to_json()) is not True and len(quick_faults) < 5:
            quick_faults.append(("a genuine save not passed", name, chance, st.to_json()[:300]))
        # (One at a time: RULELANG_LONG makes many, some of them huge.)
        cases = itertools.chain(
            ((cls, clear, st.game, text_of(d), d)
             for cls, clear, d in tampered(name, chance, st, rng, every) if d is not None),
            (case + (None,) for case in (_foreign(name, chance, st) if every else ())),
            (case + (None,) for case in (_garbled(st, rng) if every else ())))
        for cls, clear, game, text, doc in cases:
            c = counts.setdefault(cls, [0, 0, 0])
            c[0] += 1
            if clear:
                clear_counts[0] += 1
            if quick_verdict(game, text, doc) == "lenient" and len(quick_faults) < 5:
                quick_faults.append((cls, name, chance, text[:300]))
            try:
                restored = game.restore(text)
            except SaveError:
                c[1] += 1
                if clear:
                    clear_counts[1] += 1
                continue
            c[2] += 1
            if clear and len(missed) < 5:
                missed.append((cls, name, chance, text[:300]))
            plays_on(restored, seed=c[0])
    return counts, clear_counts, missed, quick_faults


def format_counts(counts, clear_counts):
    lines = [f"{'class':45} {'tried':>7} {'refused':>8} {'accepted':>9}"]
    total = [0, 0, 0]
    for cls, (tried, no, yes) in counts.items():
        lines.append(f"{cls:45} {tried:7} {no:8} {yes:9}")
        total = [total[0] + tried, total[1] + no, total[2] + yes]
    lines.append(f"{'all':45} {total[0]:7} {total[1]:8} {total[2]:9}")
    lines.append(f"clearly invalid: {clear_counts[0]} tried, {clear_counts[1]} refused")
    return "\n".join(lines)


@pytest.mark.parametrize("name", IDS)
def test_corpus_of_tampered_saves(name):
    """Every tampered save of the ruleset's real saves is refused with
    SaveError or restores to a state that plays; every clearly invalid one
    is refused; restore's quick test passes none that the full checks
    refuse, and passes the genuine saves.  (All rulesets' counts together: python tests/test_saves.py.)"""
    counts, clear_counts, missed, quick_faults = run_corpus([name])
    print(f"\n{name}:\n" + format_counts(counts, clear_counts))
    assert not missed, missed
    assert not quick_faults, quick_faults
    assert clear_counts[0] == clear_counts[1] > 500
    assert sum(c[0] for c in counts.values()) > 1000


# ------------------------------------------------------------ authenticated saves


def test_an_authenticated_save_restores_with_its_key():
    st = mid_game()
    text = st.to_json(key=KEY)
    assert json.loads(text)["mac"]
    assert st.game.restore(text, key=KEY) == st
    assert st.game.restore(text, key=KEY.decode()) == st     # a str key is its UTF-8
    assert st.game.restore(text) == st                       # no key: the MAC is not asked for


def test_any_change_to_an_authenticated_save_is_refused():
    """Edits that would pass every other check (a die's counter, a card
    moved, a stat inside its bounds) are refused for their MAC."""
    st = mid_game("features.rules", moves=30, players=2)
    base = json.loads(st.to_json(key=KEY))
    luck = st.game.prog.pslot["luck"]
    edits = [lambda d: d.__setitem__("rng", d["rng"] + 1),
             lambda d: d["v"].__setitem__(luck, (d["v"][luck] + 1) % 6),
             lambda d: d["history"].append("x"),
             lambda d: d["log"].pop(),
             lambda d: d.__setitem__("seed", d["seed"] ^ 1)]
    for edit in edits:
        d = copy.deepcopy(base)
        edit(d)
        refused(st.game, text_of(d), "$.mac", "does not match", key=KEY)
        if edit is not edits[0]:
            continue
        assert st.game.restore(text_of({k: v for k, v in d.items() if k != "mac"}))  # unkeyed: valid


def test_a_wrong_key_or_no_mac_is_refused():
    st = mid_game()
    refused(st.game, st.to_json(key=KEY), "$.mac", "another key", key=b"another key")
    refused(st.game, st.to_json(), "$", "no MAC", key=KEY)
    d = doc_of(st)
    d["mac"] = "0" * 64
    refused(st.game, text_of(d), "$.mac", "does not match", key=KEY)
    d["mac"] = "not hex"
    refused(st.game, text_of(d), "$.mac", "HMAC", key=KEY)


def test_a_mac_does_not_depend_on_key_order_or_spacing():
    st = mid_game()
    d = json.loads(st.to_json(key=KEY))
    shuffled = dict(reversed(list(d.items())))
    assert st.game.restore(json.dumps(shuffled, indent=3), key=KEY) == st


# ------------------------------------------------------------ replays


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("name", IDS)
def test_a_replay_gives_the_state_again(name, chance):
    game = GAMES[name]
    for st in states_of(game, chance, 3, (5, 40)):
        again = game.replay(st.to_replay())
        assert again == st and again.history == st.history
        assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]
        restored = game.restore(st.to_json())
        assert game.replay(restored.to_replay()) == st      # a restored state keeps its history


def test_an_illegal_move_is_refused_at_its_place():
    st = mid_game("northpole.rules", moves=30, players=2)
    d = json.loads(st.to_replay())
    d["moves"][7] = "take every card"
    e = pytest.raises(SaveError, st.game.replay, json.dumps(d)).value
    assert e.path == "$.moves[7]" and "not a legal move" in e.reason
    d["moves"] = d["moves"][:3] + ["\x00"]
    assert pytest.raises(SaveError, st.game.replay, json.dumps(d)).value.path == "$.moves[3]"


def test_moves_after_the_end_are_refused():
    st = mid_game("features.rules", moves=100_000)
    assert st.is_over
    d = json.loads(st.to_replay())
    d["moves"].append(d["moves"][-1])
    e = pytest.raises(SaveError, st.game.replay, json.dumps(d)).value
    assert e.path == f"$.moves[{len(d['moves']) - 1}]" and "over" in e.reason


def test_a_forged_move_list_gives_only_legal_play():
    """Move lists made of labels that were legal somewhere in some game:
    each is refused at its first illegal move, or is a game whose every
    move was legal when it was made."""
    game = GAMES["features.rules"]
    labels = set()
    for seed in range(4):
        labels.update(st for st in mid_game("features.rules", seed=seed, moves=60).history)
    labels = sorted(labels)
    rng = random.Random(0)
    accepted = 0
    for trial in range(60):
        moves = []
        st = game.new_game(players=2, seed=trial)
        for _ in range(rng.randint(1, 40)):
            if not st.is_over and rng.random() < 0.7:
                moves.append(rng.choice(st.legal_moves()).label)
                st.apply(moves[-1])
            else:
                moves.append(rng.choice(labels))
                break
        text = json.dumps({"format": saves.REPLAY_FORMAT, "ruleset": game.fingerprint,
                           "players": 2, "seed": trial, "chance": "sample", "options": None,
                           "moves": moves})
        try:
            again = game.replay(text)
        except SaveError as e:
            assert e.path.startswith("$.moves[")
            i = int(e.path[len("$.moves["):-1])
            check = game.new_game(players=2, seed=trial)
            for label in moves[:i]:
                check.apply(label)
            assert moves[i] not in {m.label for m in check.legal_moves()}
            continue
        accepted += 1
        check = game.new_game(players=2, seed=trial)
        for label in moves:
            assert label in {m.label for m in check.legal_moves()}
            check.apply(label)
        assert again == check
    assert 0 < accepted < 60


def test_a_replay_without_its_seed_takes_the_servers():
    st = mid_game("northpole.rules", moves=30, players=2)
    text = st.to_replay(seed=False)
    assert "seed" not in json.loads(text)
    assert st.game.replay(text, seed=st.seed) == st
    refused_replay = pytest.raises(SaveError, st.game.replay, text).value
    assert refused_replay.path == "$" and "no seed" in refused_replay.reason
    e = pytest.raises(SaveError, st.game.replay, st.to_replay(), seed=st.seed + 1).value
    assert e.path == "$.seed"


def test_a_replay_from_before_the_generator_changed_is_refused():
    """A rulelang-replay/1 replay was dealt by the generator before
    BLAKE2b's: its seed would deal other dice and cards now, so it is
    refused at $.format, naming the format read, not played wrong."""
    st = mid_game("northpole.rules", moves=30, players=2)
    d = json.loads(st.to_replay())
    assert d["format"] == "rulelang-replay/2"
    d["format"] = "rulelang-replay/1"
    e = pytest.raises(SaveError, st.game.replay, json.dumps(d)).value
    assert e.path == "$.format" and "reads rulelang-replay/2" in e.reason


def test_a_replay_is_bounded_and_can_be_authenticated():
    st = mid_game("features.rules", moves=30)
    game = st.game
    d = json.loads(st.to_replay())
    d["moves"] = ["x"] * (game.limits.max_history + 1)
    assert pytest.raises(SaveError, game.replay, json.dumps(d)).value.path == "$.moves"
    text = st.to_replay(key=KEY)
    assert game.replay(text, key=KEY) == st
    forged = json.loads(text)
    forged["seed"] += 1
    assert pytest.raises(SaveError, game.replay, json.dumps(forged), key=KEY).value.path == "$.mac"
    for key, value, path in (("players", 7, "$.players"), ("chance", "both", "$.chance"),
                             ("options", {"x": "y"}, "$.options.x"), ("ruleset", "0" * 16, "$.ruleset"),
                             ("format", "rulelang-state/2", "$.format")):
        bad = dict(d, moves=[], **{key: value})
        assert pytest.raises(SaveError, game.replay, json.dumps(bad)).value.path == path


def test_history_is_shared_by_clones_and_not_part_of_equality():
    st = mid_game()
    twin = st.clone()
    assert twin.hist is st.hist and twin.history == st.history
    fresh = st.game.restore(st.to_json())
    fresh.hist = None
    assert fresh == st and fresh.history == []


def test_a_failed_move_is_not_in_the_history():
    st = mid_game()
    before = st.history
    with pytest.raises(rulelang.IllegalMoveError):
        st.apply("no such move")
    assert st.history == before


# ------------------------------------------------------------ the schema


def test_committed_schemas_are_current():
    """schema/state.schema.json and replay.schema.json are what the save
    shapes generate now (regenerate with:
    python -c "import rulelang.engine.saves as s; s.write_schemas()")."""
    for which, path in saves.SCHEMA_PATHS.items():
        assert json.loads(path.read_text()) == saves.build_schema(which), which


def test_saves_validate_against_the_published_schema():
    validator = jsonschema.Draft202012Validator(json.loads(saves.SCHEMA_PATHS["state"].read_text()))
    replays = jsonschema.Draft202012Validator(json.loads(saves.SCHEMA_PATHS["replay"].read_text()))
    jsonschema.Draft202012Validator.check_schema(validator.schema)
    for name in IDS:
        for chance in ("sample", "explicit"):
            for st in states_of(GAMES[name], chance, 1, (10,)):
                validator.validate(json.loads(st.to_json(key=KEY)))
                replays.validate(json.loads(st.to_replay()))
    d = doc_of(mid_game())
    d["players"] = "2"
    assert not validator.is_valid(d)


# ------------------------------------------------------------ pickle and copy


def _play_on(args):
    """In a worker process: unpickle a game and a state, play on with a
    seeded picker, return the result and the final save."""
    game_bytes, state_bytes, seed = args
    game = pickle.loads(game_bytes)
    st = pickle.loads(state_bytes)
    assert st.game.fingerprint == game.fingerprint
    play(st, random.Random(seed), 100_000)
    return st.result(), st.to_json(), game.new_game(players=st.players, seed=seed).to_json()


def test_games_and_states_pickle_and_play_on_in_another_process():
    st = mid_game("northpole.rules", moves=35, players=3)
    game = st.game
    game_bytes, state_bytes = pickle.dumps(game), pickle.dumps(st)
    here = pickle.loads(state_bytes)
    assert here == st and here.history == st.history and here.limits == st.limits
    assert [e.to_dict() for e in here.log] == [e.to_dict() for e in st.log]
    mine = play(st.clone(), random.Random(9), 100_000)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        result, final, fresh = pool.map(_play_on, [(game_bytes, state_bytes, 9)])[0]
    assert result == mine.result()
    assert final == mine.to_json()
    assert fresh == game.new_game(players=3, seed=9).to_json()


def test_copy_and_deepcopy():
    st = mid_game()
    game = st.game
    assert copy.copy(game) is game and copy.deepcopy(game) is game
    for twin in (copy.copy(st), copy.deepcopy(st), pickle.loads(pickle.dumps(st))):
        assert twin == st and twin is not st
        play(twin, random.Random(1), 5)
        assert mid_game() == st          # the original did not move
    assert pickle.loads(pickle.dumps(game)).fingerprint == game.fingerprint


if __name__ == "__main__":
    print(format_counts(*run_corpus()[:2]))
