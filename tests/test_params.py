"""Parameters (``param NAME DEFAULT from LOW to HIGH "title"``): constants
whose values are picked when a game is made, usable wherever a constant
is; a game made for other values is the rule file compiled with them."""

from __future__ import annotations

import json
import pickle
import re
from fractions import Fraction

import pytest

import rulelang
from rulelang import RulesetCheckError, SaveError
from rulelang.ir import serialize
from helpers import ROOT

RACE = '''game "Race"
players 2..3
param target 10 from 2 to 40 "Points to win"
param step 1 from 1 to 5
const double = target * 2
per player { score 0 max target }
turn { phase go {
    score += step
    if score * 2 >= double: end game "reached"
} }
score { score }
'''


def race():
    return rulelang.loads(RACE, "race.rules")


def test_a_game_describes_its_parameters():
    g = race()
    assert g.params == {
        "target": {"value": 10, "default": 10, "low": 2, "high": 40, "title": "Points to win"},
        "step": {"value": 1, "default": 1, "low": 1, "high": 5, "title": None}}
    assert g.new_game(seed=1).game is g       # no parameters given: the game itself


def test_a_parameter_is_a_constant_everywhere_it_is_used():
    """The target, the constant worked out from it and the stat bound made
    from that all follow the value picked: each seat scores 'step' a turn,
    and the game ends when a score reaches 'target'."""
    s = race().new_game(seed=1)
    assert s.is_over and s.stat("score", 0) == 10          # ten turns of 1
    s = race().new_game(seed=1, params={"target": 6, "step": 3})
    assert s.is_over and [s.stat("score", p) for p in (0, 1)] == [6, 3]
    assert s.game.params["target"]["value"] == 6 and s.game.params["target"]["default"] == 10
    assert s.game.prog.consts["double"] == 12
    assert s.game.prog.bounds["score"] == (None, 6)


def test_games_made_for_the_same_values_are_one():
    g = race()
    assert g.with_params({"target": 6}) is g.with_params({"target": 6})
    assert g.with_params({"target": 6}).with_params({"step": 2}) is \
        g.with_params({"target": 6, "step": 2})
    assert g.with_params({"target": 10}) is g                 # its own default
    assert g.with_params({"target": 6}).base is g


@pytest.mark.parametrize("given, message", [
    ({"tarqet": 6}, "unknown parameter 'tarqet'; parameters: target, step"),
    ({"target": 41}, "parameter 'target' goes from 2 to 40, not 41"),
    ({"target": 1}, "parameter 'target' goes from 2 to 40, not 1"),
    ({"target": True}, "parameter 'target' is a whole number, not True"),
    ({"target": "6"}, "parameter 'target' is a whole number, not '6'"),
])
def test_a_value_the_game_cannot_take_is_refused(given, message):
    with pytest.raises(ValueError) as e:
        race().new_game(params=given)
    assert str(e.value) == message


def test_values_the_rules_cannot_take_are_a_check_error():
    """A parameter used as a stat's bound: a value that puts the stat's
    start outside it is found by the checker, with the line."""
    text = RACE.replace("per player { score 0 max target }", "per player { score 5 max step }")
    g = rulelang.loads(text.replace("param step 1", "param step 5"), "race.rules")
    with pytest.raises(RulesetCheckError, match="race.rules:6:.*starts at 5, outside its bounds"):
        g.with_params({"step": 2})


@pytest.mark.parametrize("line, message", [
    ("param target 50 from 2 to 40", "parameter 'target' is 50 when none is picked, outside its range 2 to 40"),
    ("param target 10 from 40 to 2", "parameter 'target' goes from 40 to 2: its lowest value is above its highest"),
    ("param target 10 from 2 to 99999999999999999", "the number 99999999999999999 is too large"),
])
def test_a_parameter_out_of_its_own_range_is_refused(line, message):
    with pytest.raises(rulelang.RulesetError, match=message):
        rulelang.loads(RACE.replace('param target 10 from 2 to 40 "Points to win"', line), "race.rules")


def test_a_parameter_cannot_be_changed_by_a_rule_or_named_twice():
    with pytest.raises(RulesetCheckError, match="'target' is a constant and cannot change"):
        rulelang.loads(RACE.replace("score += step", "target = 3"), "race.rules")
    with pytest.raises(RulesetCheckError, match="'step' is declared twice"):
        rulelang.loads(RACE.replace("const double", "const step = 2\nconst double"), "race.rules")


def test_a_save_and_a_replay_say_the_values_of_the_parameters():
    """A save or replay of a game made for other values gives them, so any
    game of the rule file restores or replays it as the game made for
    them; one of the rule file's own values gives none."""
    g = race()
    s = g.new_game(seed=2, params={"target": 30}, players=3)
    saved = json.loads(s.to_json())
    assert saved["params"] == {"target": 30, "step": 1}
    for game in (g, s.game, g.with_params({"step": 3})):
        again = game.restore(s.to_json())
        assert again == s and again.game is s.game
        assert game.replay(s.to_replay()) == s
    plain = g.new_game(seed=2)
    assert "params" not in json.loads(plain.to_json())
    assert g.with_params({"target": 30}).restore(plain.to_json()).game is g


@pytest.mark.parametrize("params, where, message", [
    ({"target": 99}, "$.params", "parameter 'target' goes from 2 to 40, not 99"),
    ({"size": 3}, "$.params", "unknown parameter 'size'"),
    ({"target": "30"}, "$.params.target", "expected a whole number"),
])
def test_a_save_whose_parameters_the_game_cannot_take_is_refused(params, where, message):
    s = race().new_game(seed=2, params={"target": 30})
    doc = json.loads(s.to_json())
    doc["params"] = params
    with pytest.raises(SaveError) as e:
        race().restore(json.dumps(doc))
    assert e.value.path == where and message in str(e.value)


def test_a_game_for_other_values_pickles_as_its_base_and_values():
    g = race().with_params({"step": 4})
    again = pickle.loads(pickle.dumps(g))
    assert again.params["step"] == {"value": 4, "default": 1, "low": 1, "high": 5, "title": None}
    assert again.fingerprint == g.fingerprint


def test_playouts_take_parameters():
    g = race()
    assert [r.scores for r in g.playouts(2, seed=0, params={"target": 4, "step": 2})] == \
        [(4, 2), (4, 2)]


def test_parameters_are_part_of_the_ir_and_its_schema():
    """A parameter goes through the JSON form and back, and the published
    schema describes it."""
    rs = race().ruleset
    data = serialize.to_data(rs)
    assert data["params"][0] == {"kind": "GameParam", "name": "target", "default": 10, "low": 2, "high": 40,
                                 "title": "Points to win", "pos": [3, 1]}
    assert serialize.from_data(json.loads(json.dumps(data))) == rs
    schema = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert "params" in schema["properties"]


def test_the_command_line_gives_parameters_values(tmp_path, capsys):
    from rulelang.cli import main
    path = tmp_path / "race.rules"
    path.write_text(RACE, encoding="utf-8")
    run = ["simulate", str(path), "--games", "3"]
    assert main(run + ["--param", "target=4", "--param", "step=2"]) == 0
    out = capsys.readouterr().out      # (the Scores table: P0's mean and median are 4)
    assert re.search(r"^  P0 +4 +4 ", out, re.M), out
    assert main(run + ["--param", "target=99"]) == 1
    assert capsys.readouterr().err.strip() == "error: parameter 'target' goes from 2 to 40, not 99"
    assert main(run + ["--param", "target"]) == 1
    assert capsys.readouterr().err.strip() == "error: --param takes NAME=NUMBER, not 'target'"


COUNTED = '''game "Counts"
players 2
param wolves 3 from 1 to 9 "Wolves in the deck"
const sheep = 4
deck herd { Wolf x(wolves): bite 1  Sheep x(sheep)  "Lamb {n}" for n from 1 to 2 x(sheep) }
pile field
turn { phase a { draw 1 from herd to field  if size of herd is 0: end game "x" } }
score { size of field }
'''


def test_a_card_count_may_be_a_parameter_or_a_constant():
    game = rulelang.loads(COUNTED)
    state = game.new_game(players=2, seed=0, chance="explicit")
    odds = {m.label: m.probability for m in state.legal_moves()}
    assert odds["draw Wolf"] == Fraction(3, 15) and odds["draw Lamb 2"] == Fraction(4, 15)
    more = game.with_params({"wolves": 7}).new_game(players=2, seed=0)
    assert more.pile("herd").count("Wolf") + more.pile("field").count("Wolf") == 7


@pytest.mark.parametrize("count, message", [
    ("x(nope)", "'nope' in x(nope) is not a constant or parameter"),
    ("x(worked)", "needs a constant that is a number"),
])
def test_a_card_count_names_a_number_constant(count, message):
    src = COUNTED.replace("Sheep x(sheep)", f"Sheep {count}").replace(
        "const sheep = 4", "const sheep = 4\nconst worked = sheep + 1")
    with pytest.raises(rulelang.RulesetCheckError, match=re.escape(message)):
        rulelang.loads(src)


PAWNS = '''game "Pawns"
players 2..most
param most 4 from 2 to 6 "Most players"
param pawns 3 from 1 to 5 "Pawns each"
param low 1 from 1 to 3
const top = 3
pieces pawn {
    state { home yes }
    "Pawn {n}" for n from 1 to pawns: number n
}
deck cards { "Card {n}" for n from low to top x2 }
per player { pts 0 }
turn { phase go { for each pawn as p where p.home { pts += p.number } } }
end "once" when round > 1
score { pts }
'''


def test_a_generated_range_may_end_at_a_parameter_or_a_constant():
    """``for n from 1 to pawns``: the game has the components of the
    parameter's value, no more; a constant end is just its number."""
    game = rulelang.loads(PAWNS)
    assert game.prog.piece_names["pawn"] == ["Pawn 1", "Pawn 2", "Pawn 3"]
    assert game.prog.deck_contents["cards"] == [0, 0, 1, 1, 2, 2]
    five = game.with_params({"pawns": 5, "low": 3})
    assert five.prog.piece_names["pawn"] == [f"Pawn {n}" for n in range(1, 6)]
    assert [five.prog.card_names[c] for c in five.prog.deck_contents["cards"]] == ["Card 3"] * 2
    state = five.new_game(players=2, seed=1)
    assert [state.stat("pts", p) for p in (0, 1)] == [15, 15]     # 1 + 2 + 3 + 4 + 5 each
    assert game.with_params({"pawns": 1}).new_game(players=2, seed=1).stat("pts", 0) == 1


def test_the_ir_lists_every_component_with_the_values_it_is_in_the_game_for():
    """The IR stays a flat list (the widest values' components), each past
    the narrowest saying when it is present; JSON keeps it."""
    rs = rulelang.loads(PAWNS).ruleset
    pawns = rs.pieces[0].pieces
    assert [p.name for p in pawns] == [f"Pawn {n}" for n in range(1, 6)]
    assert pawns[0].present == () and pawns[4].present == (rulelang.ir.Presence("pawns", at_least=5),)
    assert [c.present for c in rs.decks[0].cards] == [
        (rulelang.ir.Presence("low", at_most=1),), (rulelang.ir.Presence("low", at_most=2),), ()]
    data = serialize.to_data(rs)
    assert serialize.from_data(json.loads(json.dumps(data))) == rs


def test_a_save_of_a_game_with_fewer_components_restores_it():
    game = rulelang.loads(PAWNS)
    state = game.new_game(players=2, seed=3, params={"pawns": 2})
    again = game.restore(state.to_json())
    assert again == state and again.game.prog.piece_names["pawn"] == ["Pawn 1", "Pawn 2"]


def test_the_player_range_may_end_at_a_parameter():
    game = rulelang.loads(PAWNS)
    assert (game.min_players, game.max_players) == (2, 4)
    with pytest.raises(ValueError, match=re.escape(
            "Pawns is for 2 to 4 players (the parameter 'most' sets the most), not 6")):
        game.new_game(players=6)
    six = game.new_game(players=6, params={"most": 6})
    assert six.players == 6 and six.game.max_players == 6
    fixed = rulelang.loads(PAWNS.replace("players 2..most", "players top"))
    assert (fixed.min_players, fixed.max_players, fixed.ruleset.max_players_of) == (3, 3, None)


@pytest.mark.parametrize("old, new, message", [
    ("to pawns", "to nope", "p.rules:9:32:"),
    ("to pawns", "to nope", "'nope' is not a parameter or a constant that is a number"),
    ("players 2..most", "players 2..nope", "p.rules:2:12:"),
    ("players 2..most", "players 2..nope", "'players' needs numbers"),
])
def test_a_range_end_that_is_no_number_is_refused_where_it_is_written(old, new, message):
    with pytest.raises(rulelang.RulesetSyntaxError, match=re.escape(message)):
        rulelang.loads(PAWNS.replace(old, new), "p.rules")


def test_a_document_whose_components_name_no_parameter_is_refused():
    """A JSON ruleset is checked as a rule file is: a ``present`` naming no
    parameter, or a player range that does not follow its parameter."""
    rs = rulelang.loads(PAWNS).ruleset
    data = serialize.to_data(rs)
    data["pieces"][0]["pieces"][1]["present"][0]["param"] = "ghost"
    with pytest.raises(RulesetCheckError, match="'ghost', which is not a parameter"):
        rulelang.trust.checked(serialize.from_data(data))
    data = serialize.to_data(rs)
    data["max_players"] = 5
    with pytest.raises(RulesetCheckError, match="'most' is not a parameter whose value is 5"):
        rulelang.trust.checked(serialize.from_data(data))
