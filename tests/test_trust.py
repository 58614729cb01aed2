"""The trust boundary for rulesets (``rulelang.trust``, ``rulelang.ir.shape``,
``rulelang.documents``): nothing a ruleset document or a hand-built IR
holds ever runs as code, and every malformed document is refused with its
place, fast.

The injection tests put Python payloads into every text of the IR (every
string-typed field of every node kind the rulesets use), load the result
in each of the two ways an untrusted IR arrives (a JSON document, a
hand-built IR), and watch every piece of source Python compiles
(``sys.addaudithook``'s "compile" event) while the game loads and plays:
the payload's marker must never appear in any of it.
Each payload is either refused (a ``RulesetError``) or ends up as data.
The counts are printed (``-s``) for the record; RULELANG_LONG=1 tries
every occurrence (each with one payload, in turn) instead of a sample,
and RULELANG_EVERY_PAYLOAD=1 every payload at every occurrence.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time

import attrs
import jsonschema
import pytest
import yaml

import rulelang
from rulelang import Limits, RulesetError, RulesetSyntaxError, documents, ir, trust
from rulelang.api import parse_and_check
from rulelang.engine import codegen, compile_ruleset
from rulelang.ir import schema, serialize, shape
from helpers import ROOT

SOURCES = sorted((ROOT / "rulesets").glob("*.rules")) + \
    sorted((ROOT / "tests" / "conformance").glob("*.rules"))
LONG = bool(os.environ.get("RULELANG_LONG"))
#: Every payload at every place (an hour's run, by hand): RULELANG_EVERY_PAYLOAD=1.
EVERY_PAYLOAD = bool(os.environ.get("RULELANG_EVERY_PAYLOAD"))

MARK = "PWNED7Q"
#: Python that would run if pasted into generated code as source.
PAYLOADS = [
    f"__import__('os').system('echo {MARK}')",
    f"+ ({MARK} := 1) +",
    f"1) or ({MARK} := 1) or (1",
    f"x'] ; {MARK} = 1 ; #",
    f"== (lambda: {MARK})() ==",
    f"{MARK}",
    f"min({MARK})",
    f"\n{MARK} = 1\n",
    f"'''{MARK}'''",
]


# ------------------------------------------------------------ the watch


class _Compiled:
    """Every source text compiled while active (a process-wide audit hook
    that does nothing while inactive)."""

    active = False
    seen: list = []
    installed = False

    @classmethod
    def hook(cls, event, args):
        if cls.active and event == "compile" and args:
            src = args[0]
            if isinstance(src, bytes):
                src = src.decode("utf-8", "replace")
            if isinstance(src, str):
                cls.seen.append(src)

    def __enter__(self):
        if not _Compiled.installed:
            sys.addaudithook(_Compiled.hook)
            _Compiled.installed = True
        _Compiled.seen = []
        _Compiled.active = True
        return self

    def __exit__(self, *exc):
        _Compiled.active = False

    @staticmethod
    def with_mark():
        return [s for s in _Compiled.seen if MARK in s]


def test_the_watch_sees_generated_code():
    """The watch works: the source the engine generates is seen (so a
    payload pasted into it would be)."""
    with _Compiled():
        game = rulelang.loads('game "G"\nplayers 1..1\nper player { x 1 }\n'
                              'turn { phase p { x = x * 3 + 1; end game "done" } }\n')
        game.new_game(seed=1)
    assert any("st.v[" in s for s in _Compiled.seen)


# ------------------------------------------------------------ helpers


def _data(path):
    rs = parse_and_check(path.read_text(encoding="utf-8"), str(path))
    return json.loads(serialize.dumps(rs, "json"))


DATA = {p.stem: _data(p) for p in SOURCES}


def text_places(data):
    """(container, key, (kind, field)) for every text in a document: the
    string values of every node field (not the 'kind' tags)."""
    out = []
    stack = [(data, "Ruleset")]
    while stack:
        node, kind = stack.pop()
        if isinstance(node, dict):
            kind = node.get("kind", kind)
            for key, value in node.items():
                if key in ("kind", "format"):
                    continue
                if isinstance(value, str):
                    out.append((node, key, (kind, key)))
                elif isinstance(value, list):
                    for i, item in enumerate(value):
                        if isinstance(item, str):
                            out.append((value, i, (kind, key)))
                        else:
                            stack.append((item, kind))
                else:
                    stack.append((value, kind))
        elif isinstance(node, list):
            stack.extend((x, kind) for x in node)
    return out


def play(game, moves=40, seed=3):
    """A few random moves in both chance modes; only RulesetError may come out."""
    for chance in ("sample", "explicit"):
        try:
            state = game.new_game(players=game.min_players, seed=seed, chance=chance)
            rng = random.Random(seed)
            for _ in range(moves):
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_moves()))
            state.view(None)
            state.result()
        except RulesetError:
            pass


def sample(places, rng, per_field=2):
    """Every place (long run), or a few of each (kind, field)."""
    if LONG:
        return places
    by_field = {}
    for place in places:
        by_field.setdefault(place[2], []).append(place)
    return [p for group in by_field.values() for p in rng.sample(group, min(per_field, len(group)))]



COUNTS = {"tried": 0, "refused": 0, "data": 0, "fields": set()}

#: Documents small enough for two payloads at each kind of text in
#: ``make test`` (the four games take one each; test-long takes every place).
SMALL_DOCUMENTS = {"cards", "features", "hidden", "pieces", "scales", "small"}


# ------------------------------------------------------------ injection


@pytest.mark.parametrize("name", sorted(DATA))
def test_payloads_in_every_text_of_a_document_never_run(name):
    """A JSON document with a payload in any text: refused, or loaded and
    played with the payload only as data (never in compiled source)."""
    data = copy.deepcopy(DATA[name])
    rng = random.Random(name)
    places = sample(text_places(data), rng, per_field=2 if name in SMALL_DOCUMENTS else 1)
    assert places
    tried = refused = 0
    with _Compiled():
        for n, (holder, key, field) in enumerate(places):
            old = holder[key]
            payloads = PAYLOADS if EVERY_PAYLOAD else [PAYLOADS[n % len(PAYLOADS)]]
            for payload in payloads:
                holder[key] = payload
                tried += 1
                COUNTS["fields"].add(field)
                try:
                    game = rulelang.api.game_of(trust.admit_data(data, f"{name}.json"))
                except RulesetError:
                    refused += 1
                    continue
                finally:
                    holder[key] = old
                play(game, moves=15)
                assert not _Compiled.with_mark(), (field, payload)
    COUNTS["tried"] += tried
    COUNTS["refused"] += refused
    COUNTS["data"] += tried - refused
    print(f"\n{name}: {tried} payloads in {len({p[2] for p in places})} kinds of text: "
          f"{refused} refused, {tried - refused} loaded as data")


def test_payloads_in_a_hand_built_ir_never_run():
    """An IR an embedder built (here: structured without any check, a
    payload in each kind of text) goes through the same boundary when it
    is compiled: refused, or the payload only as data."""
    data = copy.deepcopy(DATA["features"])
    rng = random.Random(5)
    places = sample(text_places(data), rng)
    refused = 0
    with _Compiled():
        for n, (holder, key, field) in enumerate(places):
            old = holder[key]
            holder[key] = PAYLOADS[n % len(PAYLOADS)]
            body = {k: v for k, v in data.items() if k not in ("format", "origin")}
            try:
                rs = serialize.CONVERTER.structure(body, ir.Ruleset)    # no shape check
            finally:
                holder[key] = old
            try:
                game = rulelang.api.game_of(rs)
            except RulesetError:
                refused += 1
                continue
            play(game, moves=10)
            assert not _Compiled.with_mark(), field
    print(f"\nhand-built: {len(places)} payloads, {refused} refused")
    assert refused > 0


@pytest.mark.parametrize("field", ["BinOp.op", "Compare.op", "CallFn.func", "TestDef.op",
                                   "Assign.op"])
def test_the_code_generator_refuses_what_the_boundary_would(field, monkeypatch):
    """Behind the boundary, the code generator is a second wall: with the
    boundary switched off, an operator or function that is not in its
    fixed tables is refused, not written into the source."""
    kind, name = field.split(".")
    data = copy.deepcopy(DATA["northpole"])
    holders = [(h, k) for h, k, f in text_places(data) if f == (kind, name)]
    assert holders, field
    holder, key = holders[0]
    holder[key] = PAYLOADS[1]
    body = {k: v for k, v in data.items() if k not in ("format", "origin")}
    rs = serialize.CONVERTER.structure(body, ir.Ruleset)
    monkeypatch.setattr(trust, "admit", lambda rs, limits=None: rs)
    with _Compiled():
        try:
            game = rulelang.api.game_of(rs)
            play(game, moves=200)
        except RulesetError as e:
            if "refused to write" not in str(e):
                # Something else stopped it first; the source must still be clean.
                pass
        except (KeyError, AttributeError, TypeError, ValueError):
            pass      # the unchecked IR broke the compiler elsewhere: not code
        assert not _Compiled.with_mark()


def test_every_operator_and_function_goes_through_a_table():
    """The tables hold exactly the IR's words (so nothing the schema allows
    is refused, and nothing else is written)."""
    enums = {}
    for cls, fname in [(ir.BinOp, "op"), (ir.Compare, "op"), (ir.TestDef, "op")]:
        enums.update({v: v for v in attrs.fields_dict(cls)[fname].metadata["enum"]
                      if v not in ("/", "%")})     # / and % are calls of _div and _mod
    for op in enums:
        assert codegen.operator(op) == op
    for fn in attrs.fields_dict(ir.CallFn)["func"].metadata["enum"]:
        assert codegen.function(fn) == fn
    for bad in PAYLOADS + [None, 1, "+=", "**", "//", "not"]:
        with pytest.raises(RulesetError, match="refused to write"):
            codegen.operator(bad)
        with pytest.raises(RulesetError, match="refused to write"):
            codegen.function(bad)
    for bad in ["1", 1.5, True, None, "1); x"]:
        with pytest.raises(RulesetError, match="refused to write"):
            codegen.number(bad)


# ------------------------------------------------------------ exact types


def _doc(**changes):
    doc = copy.deepcopy(DATA["northpole"])
    doc.update(changes)
    return doc


@pytest.mark.parametrize("change, words", [
    ({"min_players": "1"}, "$.min_players: '1' is not a whole number"),
    ({"min_players": 1.5}, "$.min_players: the number 1.5 is not a whole number"),
    ({"min_players": True}, "$.min_players: true is not a whole number"),
    ({"min_players": 2.0}, "not a whole number"),
    ({"max_players": 2**60}, "is larger than"),
    ({"title": 7}, "$.title: 7 is not a text"),
    ({"title": 'a "quoted" name'}, "has a double quote or a line break"),
    ({"title": "x" * 20_000}, "longer than 10000"),
    ({"winner": "sideways"}, "$.winner: 'sideways' is not one of 'highest', 'lowest'"),
    ({"stats": {"men": 5}}, "$.stats: a mapping is not a list"),
    ({"colour": "red"}, "unknown field 'colour'"),
])
def test_exact_types_are_required(change, words):
    """The loader takes no string, float or bool for a number, no number
    for a text, no word outside its list (cattrs alone would turn "1",
    1.5 and true into 1)."""
    with pytest.raises(RulesetSyntaxError) as info:
        trust.admit_data(_doc(**change), "doc.json")
    assert any(words in d.message for d in info.value.diagnostics), info.value.format()


def test_a_name_must_be_a_name():
    doc = copy.deepcopy(DATA["northpole"])
    doc["stats"][0]["name"] = "not a name!"
    with pytest.raises(RulesetSyntaxError, match=r"\$\.stats\[0\]\.name: 'not a name!' is not a name"):
        trust.admit_data(doc, "doc.json")


def test_a_kind_of_the_wrong_union_is_refused():
    doc = copy.deepcopy(DATA["northpole"])
    doc["score"][0]["points"] = {"kind": "EndTurn"}
    with pytest.raises(RulesetSyntaxError, match=r"\$\.score\[0\]\.points: a EndTurn cannot stand here"):
        trust.admit_data(doc, "doc.json")


def _track_and_words(doc):
    tracks = [s for s in doc["stats"] if s.get("spaces")]
    words = [s for s in doc["stats"] if s.get("values") and not s.get("spaces")]
    return (tracks or [None])[0], (words or [None])[0]


@pytest.mark.parametrize("edit, words", [
    (lambda track, enum: track["values"].__setitem__(0, "elsewhere"), "the names of its spaces"),
    (lambda track, enum: track["values"].reverse(), "the names of its spaces"),
    (lambda track, enum: enum.__setitem__("initial", {"kind": "Name", "name": "elsewhere"}),
     "must start at one of its words"),
    (lambda track, enum: enum.__setitem__("initial", {"kind": "Num", "value": 3}),
     "must start at one of its words"),
    (lambda track, enum: enum.__setitem__("values", []), "an empty list of words"),
    (lambda track, enum: enum.__setitem__("max", {"kind": "Num", "value": 3}), "cannot have a min or max"),
])
def test_what_the_syntax_always_gives_a_document_must_too(edit, words):
    """A track's values are its spaces' names and a stat of words starts at
    one of them: the syntax makes them so, a document is checked for it (a
    word that names nothing reached the compiler as a KeyError)."""
    doc = copy.deepcopy(DATA["endurance"] if "spaces" in words else SMALL)
    edit(*_track_and_words(doc))
    with pytest.raises(RulesetError) as info:
        rulelang.api.game_of(trust.admit_data(doc, "doc.json"))
    assert words in info.value.format(), info.value.format()


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _refused_fast(path, words, limits=None):
    t0 = time.perf_counter()
    with pytest.raises(RulesetError) as info:
        rulelang.load(path, limits=limits)
    seconds = time.perf_counter() - t0
    assert seconds < 20, f"took {seconds:.1f}s"      # a hang guard, not a speed goal
    assert words in info.value.format(), info.value.format()
    assert info.value.line >= 1 and info.value.column >= 1
    return info.value


def test_a_five_thousand_digit_integer_in_json(tmp_path):
    text = json.dumps(_doc()).replace('"min_players": 2', '"min_players": ' + "9" * 5000)
    err = _refused_fast(_write(tmp_path, "big.json", text), "a number of 5000 digits")
    assert "$.min_players" in err.message and len(err.message) < 200


def test_a_five_thousand_digit_integer_in_yaml(tmp_path):
    text = yaml.safe_dump(_doc()).replace("min_players: 2", "min_players: " + "9" * 5000)
    _refused_fast(_write(tmp_path, "big.yaml", text), "a number of 5000 digits is too large")


@pytest.mark.parametrize("form", ["json", "yaml"])
@pytest.mark.parametrize("depth", [300, 5000, 200_000])
def test_deep_nesting_is_refused_with_a_message(tmp_path, form, depth):
    """Nesting far past the limit, in either form: a plain message, never
    'maximum recursion depth exceeded'."""
    doc = _doc()
    text = json.dumps(doc)
    deep = "[" * depth + "]" * depth
    text = text.replace('"setup": [', '"setup": [' + deep + ",", 1)
    path = _write(tmp_path, f"deep.{form}", text)
    # Past what the readers follow: "nested"; within it, the shape check
    # refuses the lists where a statement must stand.
    err = _refused_fast(path, "nested" if depth > 1000 else "$.setup[0]: a list is not a node")
    assert "recursion" not in err.format()


def test_yaml_aliases_are_refused_before_they_expand(tmp_path):
    """A few hundred bytes of anchors and aliases would expand to a billion
    values; the reader refuses the first alias."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    text = "\n".join(lines) + "\nformat: rulelang-ir/1\n"
    err = _refused_fast(_write(tmp_path, "laughs.yaml", text), "anchors (&a0) are not allowed")
    assert err.line == 1
    text = "\n".join(line.replace(f"&a{i} ", "") for i, line in enumerate(lines)) + "\n"
    err = _refused_fast(_write(tmp_path, "laughs2.yaml", text), "aliases (*a0) are not allowed")


@pytest.mark.parametrize("text, words", [
    ("title: !!python/object/apply:os.system ['echo hi']\n", "tag"),
    ("title: !!binary aGVsbG8=\n", "tag"),
    ("x: &a 1\ny: *a\n", "anchors (&a) are not allowed"),
])
def test_yaml_tags_and_anchors_are_refused(tmp_path, text, words):
    _refused_fast(_write(tmp_path, "t.yaml", text), words)


def test_a_key_given_twice_is_refused(tmp_path):
    text = json.dumps(_doc())
    text = '{"title": "Twice",' + text[1:]
    _refused_fast(_write(tmp_path, "twice.json", text), "given twice")


def test_nan_is_refused(tmp_path):
    text = json.dumps(_doc()).replace('"min_players": 2', '"min_players": NaN')
    _refused_fast(_write(tmp_path, "nan.json", text), "NaN (not a number a document holds)")


def test_the_node_budget(tmp_path):
    """A document with more values than Limits.max_nodes is refused (the
    byte limit alone would let a dense document through)."""
    path = _write(tmp_path, "np.json", json.dumps(_doc()))
    rulelang.load(path)
    err = _refused_fast(path, "Limits.max_nodes", limits=Limits(max_nodes=500))
    assert "more than 500 values" in err.message
    _refused_fast(_write(tmp_path, "np.yaml", yaml.safe_dump(_doc())), "Limits.max_nodes",
                  limits=Limits(max_nodes=500))


def test_problems_point_at_their_line(tmp_path):
    doc = _doc()
    doc["decks"][0]["cards"][3]["count"] = "ten"
    text = json.dumps(doc, indent=1)
    err = _refused_fast(_write(tmp_path, "bad.json", text), "is not a whole number")
    assert '"count": "ten"' in text.splitlines()[err.line - 1]


# ------------------------------------------------------------ agreement


@pytest.mark.parametrize("name", sorted(DATA))
def test_every_checked_ruleset_has_the_shape(name):
    """What our parser and checker make always has the IR's shape, so a
    compiled ruleset always loads back (tests/test_data.py validates the
    same documents against the published schema)."""
    assert shape.problems(DATA[name]) == []


def _mutations(doc, rng, n):
    """Small random edits of a document: a value replaced by another of
    another JSON type, a key dropped or added, an item removed."""
    junk = [None, True, 0, -1, 1.5, "x", "", "not a name", 'q"uote', [], {}, {"kind": "Num"},
            2**60, "Num", "+"]
    places = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                places.append((node, k))
                stack.append(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                places.append((node, i))
                stack.append(v)
    for _ in range(n):
        mutated = copy.deepcopy(doc)
        holder, key = rng.choice(places)
        # The same place in the copy.
        path = _path_to(doc, holder, key)
        target = mutated
        for p in path[:-1]:
            target = target[p]
        last = path[-1]
        roll = rng.random()
        if roll < 0.7:
            target[last] = rng.choice(junk)
        elif roll < 0.85 and isinstance(target, dict):
            del target[last]
        elif isinstance(target, dict):
            target["extra_" + str(rng.randrange(9))] = 1
        else:
            del target[last]
        yield mutated


def _path_to(root, holder, key):
    stack = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node is holder:
            return path + (key,)
        if isinstance(node, dict):
            stack.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(node))
    raise KeyError(key)


SMALL = json.loads(serialize.dumps(parse_and_check(
    'game "Small"\nplayers 1..2\nper player { x 2 min 0 max 9\n side one of up, down }\n'
    'deck d refills from p { "A b" x2: v 1  C: v -2 }\npile p\npile h per player, hidden\n'
    'table t d6 { 1..3 Low: x -= 1  4..6 "High": x += roll d6 }\n'
    'rule r(n) { if n > 1 and not (x == 0) { x = min(x, n) } else { log "n {n}" } }\n'
    'turn { phase go { draw 1 from d to h; roll on t; r(2)\n'
    '  choose one "Pick" { "a": x += 1  "b": side = down }\n'
    '  if count of "A b" in h >= 1: end game "done" } }\n'
    'score { x\n 1 if side is up }\n', "small.rules"), "json"))


@pytest.mark.parametrize("name", ["small"] + (["cards", "features", "pieces"] if LONG else []))
def test_the_shape_check_agrees_with_the_published_schema(name):
    """On hundreds of random edits of documents, the engine's fast shape
    check and the published JSON Schema accept and refuse the same
    documents."""
    validator = jsonschema.Draft202012Validator(json.loads(schema.SCHEMA_PATH.read_text()))
    rng = random.Random(name)
    n = 1000 if LONG else 100
    disagree = []
    for doc in _mutations(SMALL if name == "small" else DATA[name], rng, n):
        fast = not shape.problems(doc)
        published = validator.is_valid(doc)
        if fast != published:
            disagree.append((fast, published, shape.problems(doc)[:1],
                             [e.message for e in validator.iter_errors(doc)][:1]))
    assert not disagree, disagree[:3]


def test_admitted_rulesets_are_remembered():
    """A ruleset is admitted once: compiling it again does not check it
    again; an IR rebuilt from it (attrs.evolve) is admitted afresh."""
    rs = parse_and_check(SOURCES[0].read_text(encoding="utf-8"), str(SOURCES[0]))
    assert trust.is_admitted(rs)
    assert trust.admit(rs) is rs
    changed = attrs.evolve(rs, title="Another")
    assert not trust.is_admitted(changed)
    again = trust.admit(changed)
    assert again == changed and again is not changed and trust.is_admitted(again)
    assert compile_ruleset(again).rs is again


def test_limits_of_the_admission_are_the_callers():
    path = ROOT / "rulesets" / "northpole.rules"
    rs = parse_and_check(path.read_text(encoding="utf-8"), str(path))
    strict = Limits(max_players=2)
    with pytest.raises(RulesetError, match="at most 2 players"):
        trust.admit(rs, strict)


def test_documents_read_only_json_values():
    data = documents.read('{"a": [1, "x", true, null, 1.5]}', "d.json")
    assert data["a"][:4] == [1, "x", True, None] and isinstance(data["a"][4], documents.Odd)
    data = documents.read("a: [1, x, true, null]\n", "d.yaml", form="yaml")
    assert data == {"a": [1, "x", True, None]}


def test_an_admitted_ruleset_is_not_kept_alive_by_what_was_worked_out_about_it():
    """trust remembers what it admitted (and the checker's resolution of it)
    only while the ruleset lives: nothing it keeps refers back to it."""
    import gc
    import weakref as _weakref

    from rulelang import trust as _trust
    game = rulelang.loads('game "G"\nplayers 1..2\nper player { x 0 }\nturn { phase p { x += 1 } }\n'
                          'end "done" when round > 3\nscore { x }\n', "g.rules")
    ref = _weakref.ref(game.ruleset)
    assert _trust.is_admitted(game.ruleset, game.prog.limits)
    del game
    gc.collect()
    assert ref() is None
