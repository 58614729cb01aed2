"""Rulesets as data: IR ⇄ JSON/YAML round trips, the published schema,
and `rulelang validate` on broken documents."""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import typing

import attrs
import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang import ir
from rulelang.api import parse_and_check
from rulelang.cli import main
from rulelang.ir import schema, serialize
from rulelang.validate import validate_document
from helpers import ROOT, RULESETS



def compiled(path):
    return parse_and_check(path.read_text(encoding="utf-8"), str(path))


# ------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_round_trip(path, fmt):
    """.rules → IR → JSON/YAML text → IR gives an equal IR."""
    rs = compiled(path)
    text = serialize.dumps(rs, fmt)
    data = json.loads(text) if fmt == "json" else yaml.safe_load(text)
    assert serialize.from_data(data) == rs


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_three_forms_play_identically(path, tmp_path):
    """The .rules, .json and .yaml forms of one ruleset give the same game
    for the same seed and moves."""
    rs = compiled(path)
    (tmp_path / "r.json").write_text(serialize.dumps(rs, "json"))
    (tmp_path / "r.yaml").write_text(serialize.dumps(rs, "yaml"))
    games = [rulelang.load(p) for p in (path, tmp_path / "r.json", tmp_path / "r.yaml")]
    assert len({g.fingerprint for g in games}) == 1
    n = games[0].max_players
    states = [g.new_game(players=n, seed=21) for g in games]
    rng = random.Random(21)
    while not states[0].is_over:
        label = rng.choice(states[0].legal_moves()).label
        for s in states:
            s.apply(label)
    assert states[1] == states[0] and states[2] == states[0]
    assert len({tuple(e.text for e in s.log) for s in states}) == 1


def test_positions_survive_and_refer_to_the_rule_file():
    """Positions are kept in the data form and name the rule file they
    came from, so a runtime error in a compiled ruleset still points at it."""
    path = RULESETS[0]
    data = serialize.to_data(compiled(path))
    assert data["origin"] == str(path)
    back = serialize.from_data(json.loads(json.dumps(data)), "x.json")
    assert back.filename == str(path)
    assert back.stats[0].pos == compiled(path).stats[0].pos is not None


# -------------------------------------------------------- property: round trip

_FIRST = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"


def _leaf(t, meta):
    """A strategy for a scalar field, within what its metadata allows (the
    IR's shape: ``rulelang.ir.shape``)."""
    if t is int:
        return st.integers(meta.get("minimum", -10**6), 10**6)
    if t is str:
        if "enum" in meta:
            return st.sampled_from(meta["enum"])
        if meta.get("string") == "name":
            return st.builds(lambda a, b: a + b, st.sampled_from(_FIRST),
                             st.text(_FIRST + "0123456789", max_size=8))
        return st.text(st.characters(blacklist_characters='"\n'), max_size=8)
    if t is bool:
        return st.booleans()
    return None


_cache: dict = {}


def strategy(t, meta=None):
    """A Hypothesis strategy for any IR type of the IR's shape, built from
    the attrs classes and their field metadata."""
    meta = meta or {}
    leaf = _leaf(t, meta)
    if leaf is not None:
        return leaf
    if t is ir.Pos:
        return st.builds(ir.Pos, st.integers(1, 10**4), st.integers(0, 500))
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Union:
        return st.one_of([st.deferred(lambda a=a: strategy(a, meta)) for a in args])
    if origin is tuple:
        return st.lists(st.deferred(lambda: strategy(args[0], meta)),
                        min_size=meta.get("minItems", 0), max_size=2).map(tuple)
    if t is type(None):
        return st.none()
    if t not in _cache:
        hints = typing.get_type_hints(t)
        fields = {f.name: st.deferred(lambda h=hints[f.name], m=dict(f.metadata): strategy(h, m))
                  for f in attrs.fields(t)
                  if not (t is ir.Ruleset and f.name in ("filename", "source"))}
        _cache[t] = st.builds(t, **fields)
    return _cache[t]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategy(ir.Ruleset))
def test_any_ir_round_trips(rs):
    """Whatever IR the converter accepts comes back equal (positions too)."""
    data = json.loads(json.dumps(serialize.to_data(rs)))
    back = serialize.from_data(data)
    assert back == rs
    assert [s.pos for s in back.stats] == [s.pos for s in rs.stats]


# ------------------------------------------------------------------ the schema


def test_committed_schema_is_current():
    """schema/ruleset.schema.json is what the IR classes generate now
    (regenerate with: python -m rulelang.ir.schema > schema/ruleset.schema.json)."""
    assert json.loads(schema.SCHEMA_PATH.read_text()) == schema.build_schema()


def test_schema_is_valid_2020_12():
    doc = json.loads(schema.SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$schema"].endswith("2020-12/schema") and doc["$id"] and doc["title"]


def test_schema_covers_every_node_kind():
    """Every IR class has a definition, with all its fields and no others."""
    doc = json.loads(schema.SCHEMA_PATH.read_text())
    for name, cls in serialize.NODE_CLASSES.items():
        if cls in (ir.Pos, ir.Ruleset):
            continue
        props = doc["$defs"][name]["properties"]
        assert set(props) == {"kind"} | {f.name for f in attrs.fields(cls)}, name
        assert doc["$defs"][name]["additionalProperties"] is False


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_compiled_rulesets_validate_with_jsonschema(path):
    """Every compiled ruleset validates against the committed schema with
    the plain jsonschema package."""
    doc = json.loads(schema.SCHEMA_PATH.read_text())
    data = json.loads(serialize.dumps(compiled(path), "json"))
    jsonschema.validate(data, doc, cls=jsonschema.Draft202012Validator)


# --------------------------------------------------------- broken documents

NP = ROOT / "rulesets" / "northpole.rules"


@functools.lru_cache(maxsize=None)
def _base_text():
    return serialize.dumps(compiled(NP), "json")


def base():
    return json.loads(_base_text())


def _table(doc, name):
    return next(t for t in doc["tables"] if t["name"] == name)


def _travel_phase(doc):
    return next(p for p in doc["turn"]["phases"] if p["name"] == "travel")


def mutate(fn):
    doc = base()
    fn(doc)
    return doc


#: Whether this is test-long (every broken document read as YAML too).
LONG = bool(os.environ.get("RULELANG_LONG"))

BROKEN = {
    # schema problems, with the path to the place
    "missing title": (lambda d: d.pop("title"), "$: 'title' is missing"),
    "missing format": (lambda d: d.pop("format"), "$: 'format' is missing"),
    "unknown version": (lambda d: d.update(format="rulelang-ir/99"),
                        "$.format: unknown format version 'rulelang-ir/99'"),
    "wrong type for title": (lambda d: d.update(title=7), "$.title: 7 is not of type 'string'"),
    "players as text": (lambda d: d.update(min_players="two"), "$.min_players: 'two' is not of type 'integer'"),
    "zero players": (lambda d: d.update(min_players=0), "$.min_players: 0 is less than the minimum of 1"),
    "unknown top-level field": (lambda d: d.update(colour="red"), "unknown field ('colour' was unexpected)"),
    "unknown field in a card": (lambda d: d["decks"][0]["cards"][2].update(shiny=True),
                                "$.decks[0].cards[2]: unknown field"),
    "negative card count": (lambda d: d["decks"][0]["cards"][5].update(count=-3),
                            "$.decks[0].cards[5].count: -3 is less than the minimum of 1"),
    "card count as text": (lambda d: d["decks"][0]["cards"][0].update(count="ten"),
                           "$.decks[0].cards[0].count: 'ten' is not of type 'integer'"),
    "deck with no cards": (lambda d: d["decks"][0].update(cards=[]), "$.decks[0].cards: [] should be non-empty"),
    "negative die size": (lambda d: _table(d, "events").update(sides=-6),
                          "$.tables[1].sides: -6 is less than the minimum of 2"),
    "one-sided test die": (lambda d: d["test"].update(sides=1), "$.test.sides: 1 is less than the minimum of 2"),
    "unknown node kind": (lambda d: _travel_phase(d)["body"][0].update(kind="Teleport"),
                          "$.turn.phases[1].body[0]: unknown node kind 'Teleport'"),
    "node without kind": (lambda d: _travel_phase(d)["body"][0].pop("kind"),
                          "$.turn.phases[1].body[0]"),
    "bad operator": (lambda d: d["score"][0].update(points={"kind": "BinOp", "op": "^", "left": {"kind": "Num", "value": 1},
                                                             "right": {"kind": "Num", "value": 2}}),
                     "$.score[0].points.op: '^' is not one of"),
    "bad scope": (lambda d: d["stats"][0].update(scope="team"), "$.stats[0].scope: 'team' is not one of"),
    "stats not a list": (lambda d: d.update(stats={"men": 5}), "$.stats: {'men': 5} is not of type 'array'"),
    "pos of three numbers": (lambda d: d["stats"][0].update(pos=[1, 2, 3]), "$.stats[0].pos"),
    "missing stat initial": (lambda d: d["stats"][1].pop("initial"), "$.stats[1]: 'initial' is missing"),
    "winner sideways": (lambda d: d.update(winner="sideways"), "$.winner: 'sideways' is not one of"),
    "roll of zero dice": (lambda d: _travel_phase(d)["body"].insert(0, {
        "kind": "Let", "name": "z", "value": {"kind": "Roll", "count": 0, "sides": 6}}),
        "$.turn.phases[1].body[0].value.count: 0 is less than the minimum of 1"),
    "expression where a statement goes": (lambda d: _travel_phase(d)["body"].insert(0, {"kind": "Num", "value": 3}),
                                          "$.turn.phases[1].body[0]: unknown node kind 'Num'"),
    # well-formed, but the checker finds the problem
    "dangling deck reference": (lambda d: _travel_phase(d)["body"][0]["source"].update(name="travle"),
                                "there is no deck or pile 'travle' — did you mean 'travel'?"),
    "dangling table": (lambda d: d["turn"]["phases"][0]["body"][0].update(table="event"),
                       "there is no table 'event' — did you mean 'events'?"),
    "dangling rule": (lambda d: d["turn"]["phases"][0]["body"][1]["then"][0].update(rule="morale"),
                      "there is no rule 'morale'"),
    "dangling stat": (lambda d: d["score"][0]["cond"].update(name="reached_pol"),
                      "unknown name 'reached_pol' — did you mean 'reached_pole'?"),
    "duplicate stat": (lambda d: d["stats"].append(copy.deepcopy(d["stats"][0])), "stat 'men' is declared twice"),
    "players reversed": (lambda d: d.update(min_players=5), "the most players is fewer than the fewest"),
    "table with a gap": (lambda d: _table(d, "casualties")["rows"].pop(), "has no row for a roll of 6"),
    "row outside the die": (lambda d: _table(d, "casualties")["rows"][0].update(low=0),
                            "$.tables[2].rows[0].low: 0 is less than the minimum of 1"),
    "type error": (lambda d: d["score"][0].update(points={"kind": "Bool", "value": True}),
                   "points must be a number, not a yes/no value"),
    "refill from nowhere": (lambda d: d["decks"][0].update(refill_from="trash"),
                            "refills from 'trash', which is not a pile"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_document_is_rejected_with_its_own_message(name, tmp_path):
    """Each broken document is rejected with a message naming the problem,
    as JSON and as YAML (in ``make test`` one in four as YAML too: reading
    the large document as YAML is most of the time; test-long reads all);
    nothing crashes."""
    fn, expected = BROKEN[name]
    doc = mutate(fn)
    both = LONG or sorted(BROKEN).index(name) % 4 == 0
    for fmt in ("json", "yaml") if both else ("json",):
        text = json.dumps(doc, indent=1) if fmt == "json" else yaml.safe_dump(doc, sort_keys=False)
        problems = validate_document(text, f"doc.{fmt}")
        assert problems, name
        messages = [p.message for p in problems]
        assert any(expected in m for m in messages), (name, messages)
        assert all(p.line >= 1 and p.column >= 1 for p in problems)


def test_schema_error_gives_the_document_line(tmp_path):
    """A schema error in a JSON document names the line it is on."""
    doc = base()
    doc["decks"][0]["cards"][5]["count"] = -3
    text = json.dumps(doc, indent=1)
    problem = validate_document(text, "doc.json")[0]
    line = text.splitlines()[problem.line - 1]
    assert '"count": -3' in line
    assert problem.message.startswith("$.decks[0].cards[5].count")


def test_checker_error_gives_the_document_line():
    """A checker error in a YAML document points at the node's own line."""
    doc = base()
    _travel_phase(doc)["body"][0]["source"]["name"] = "travle"
    text = yaml.safe_dump(doc, sort_keys=False)
    problem = validate_document(text, "doc.yaml")[0]
    assert "travle" in "\n".join(text.splitlines()[problem.line - 1: problem.line + 2])


@pytest.mark.parametrize("text, words", [
    ("{", "not valid YAML"),
    ("", "the document is empty"),
    ("[1, 2]", "is not of type 'object'"),
    ("title: [unclosed", "not valid YAML"),
])
def test_unreadable_documents(text, words):
    problems = validate_document(text, "doc.yaml")
    assert any(words in p.message for p in problems)


def test_validate_command(tmp_path, capsys):
    """`rulelang validate` exits 0 for valid files of every form, 1 with
    errors, and prints file:line:col: messages, never a traceback."""
    good_json, good_yaml, bad = tmp_path / "g.json", tmp_path / "g.yaml", tmp_path / "b.json"
    rs = compiled(NP)
    good_json.write_text(serialize.dumps(rs, "json"))
    good_yaml.write_text(serialize.dumps(rs, "yaml"))
    assert main(["validate", str(NP), str(good_json), str(good_yaml)]) == 0
    assert capsys.readouterr().out.count(": valid") == 3
    doc = base()
    doc["decks"][0]["cards"][5]["count"] = -3
    bad.write_text(json.dumps(doc, indent=1))
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "$.decks[0].cards[5].count" in err and "Traceback" not in err
    (tmp_path / "junk.yaml").write_text("{{{{")
    assert main(["validate", str(tmp_path / "junk.yaml"), str(tmp_path / "missing.json")]) == 1


def test_a_fault_under_a_union_is_reported_once():
    """A bad node where the schema allows any of many kinds (an expression)
    fails every alternative the same way: it is reported once, at its place."""
    doc = base()
    doc["score"][0]["points"] = "x"
    problems = validate_document(json.dumps(doc), "doc.json")
    assert [p.message for p in problems] == ["$.score[0].points: 'x' is not of type 'object'"]


def test_compile_to_yaml_by_extension(tmp_path):
    out = tmp_path / "np.yml"
    assert main(["compile", str(NP), "-o", str(out)]) == 0
    assert yaml.safe_load(out.read_text())["format"] == serialize.FORMAT


def test_no_node_field_is_called_kind():
    """'kind' is the tag of every node in the data form, so no IR class may
    have a field of that name."""
    for name, cls in serialize.NODE_CLASSES.items():
        assert "kind" not in {f.name for f in attrs.fields(cls)}, name
