"""A ruleset's words never drive the terminal: every command that prints a
hostile ruleset's title, card names, choices, log texts or endings (and a
hostile file name) prints its escape sequences, bells, carriage returns
and bidirectional overrides as escapes (rulelang.show.terminal); what
writes JSON or YAML writes the same data with those characters escaped."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest
import yaml

import rulelang
from rulelang.cli import main
from rulelang.ir import serialize
from rulelang.show import terminal

#: What a hostile word carries: a clear-screen sequence, a bell, a
#: bidirectional override and a C1 control-sequence introducer.
NASTY = "\x1b[2J\x07\u202e\x9b"
#: How it must be shown.
SHOWN = "\\x1b[2J\\x07\\u202e\\x9b"
#: Anything a terminal acts on rather than shows (the line break aside).
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

SOURCE = f'''game "Hostile{NASTY}"
players 2
param reach 3 from 1 to 5 "reach{NASTY}"
per player {{ tally 0 }}
deck things {{ "card{NASTY}" x2 }}
pile hand per player, hidden

setup {{
    for each player {{ draw 1 from things to hand }}
}}

turn {{
    phase act {{
        choose one "title{NASTY}" {{
            "go{NASTY}": tally += 1
            "stop": tally += 2
        }}
        log "said{NASTY}"
    }}
}}

end "enough{NASTY}" when any players where tally >= reach
'''


def _with_cr(data):
    """The document ``data`` with a carriage return in every hostile word (a
    rule file cannot hold one inside a text: it ends the line there)."""
    if isinstance(data, str):
        return data.replace("\x07", "\x07\r")
    if isinstance(data, list):
        return [_with_cr(x) for x in data]
    if isinstance(data, dict):
        return {k: _with_cr(v) for k, v in data.items()}
    return data


@pytest.fixture(scope="module", params=["rules", "json"])
def hostile(request, tmp_path_factory):
    """The hostile ruleset as a rule file, or as a JSON document with
    carriage returns too; its file name is hostile as well."""
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / f"bad\x1b[2J.{request.param}"
    if request.param == "rules":
        path.write_text(SOURCE, encoding="utf-8")
    else:
        data = _with_cr(serialize.to_data(rulelang.loads(SOURCE, "bad.rules").ruleset))
        path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def run(monkeypatch, capsys, argv, typed=()):
    """``rulelang ARGV`` in this process, with these lines typed; (exit code, all it printed)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{t}\n" for t in typed)))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("argv, typed, said", [
    (["check"], (), "bad\\x1b[2J."),
    (["validate"], (), "bad\\x1b[2J."),
    (["play", "--auto", "--seed", "1"], (), "Hostile" + SHOWN),
    (["play", "--seed", "1"], ("1", "log", "1", "quit"), "title" + SHOWN),
    (["simulate", "--games", "4", "--seed", "1"], (), "enough" + SHOWN),
    (["odds"], (), "Hostile" + SHOWN),
    (["coverage", "--games", "3", "--seed", "1"], (), "bad\\x1b[2J."),
    (["conformance", "--games", "2", "--fresh-games", "0"], (), "Hostile" + SHOWN),
    (["dump", "--python"], (), "# ---- "),
])
def test_no_command_sends_a_rulesets_control_characters(monkeypatch, capsys, hostile, argv, typed,
                                                        said):
    code, printed = run(monkeypatch, capsys, argv + [hostile], typed)
    assert code == 0, printed
    assert not RAW.findall(printed), sorted(set(RAW.findall(printed)))
    assert said.replace(SHOWN, shown(hostile)) in printed


def shown(hostile):
    """How the hostile words are shown (a JSON document's with a carriage return)."""
    return SHOWN.replace("\\x07", "\\x07\\x0d") if hostile.endswith(".json") else SHOWN


def test_the_annotated_rule_file_is_shown_escaped(monkeypatch, capsys, hostile):
    if not hostile.endswith(".rules"):
        pytest.skip("only a rule file has a source to annotate")
    code, printed = run(monkeypatch, capsys, ["coverage", "--games", "3", "--annotate", hostile])
    assert code == 0 and not RAW.findall(printed)
    assert f'| game "Hostile{SHOWN}"' in printed


@pytest.mark.parametrize("fmt, load", [("json", json.loads), ("yaml", yaml.safe_load)])
def test_compiled_text_escapes_them_and_keeps_the_data(monkeypatch, capsys, hostile, fmt, load):
    code, printed = run(monkeypatch, capsys, ["compile", "--format", fmt, hostile])
    assert code == 0 and not RAW.findall(printed)
    assert load(printed)["title"].startswith(f"Hostile{NASTY[:5]}")
    assert load(printed) == serialize.to_data(rulelang.load(hostile).ruleset)


def test_compiled_text_of_a_plain_ruleset_keeps_its_letters():
    """Only a hostile ruleset is written in ASCII: accents stay as they are."""
    text = serialize.dumps(rulelang.loads('game "Café"\nplayers 1\nper player { x 0 }\n'
                                          'turn { phase p { end game "done" } }\n').ruleset)
    assert '"Café"' in text


def test_terminal_lays_out_tabs_and_escapes_the_rest():
    assert terminal("a\tb\nc\x1b[2J\r\u202e") == "a       b\nc\\x1b[2J\\x0d\\u202e"


def test_the_html_report_draws_a_rulesets_words_letter_for_letter(monkeypatch, capsys, tmp_path,
                                                                   recwarn):
    """A '$' in an ending would start mathematics in a plot (an unbalanced
    one failed the whole report); control characters are drawn as escapes
    (matplotlib warned of glyphs it lacks, the characters raw in the warning)."""
    pytest.importorskip("matplotlib")
    path = tmp_path / "dollars.rules"
    path.write_text(SOURCE.replace('end "enough', 'end "costs $x^{ and $ enough'), encoding="utf-8")
    page = tmp_path / "report.html"
    code, printed = run(monkeypatch, capsys, ["simulate", "--games", "2", "--seed", "1",
                                              "--html", str(page), str(path)])
    assert code == 0, printed
    assert not RAW.findall(printed)
    assert not [str(w.message) for w in recwarn if "Glyph" in str(w.message)]
    assert "costs $x^{ and $ enough" in page.read_text(encoding="utf-8")


def test_the_environments_ansi_render_is_safe_to_print():
    """``render_mode="ansi"`` is text for a terminal: a ruleset's control
    characters come escaped (``text.ansi``), where ``text.render`` (for a
    model's prompt, as data) keeps them."""
    from rulelang.adapters import text
    game = rulelang.loads(SOURCE, "bad.rules")
    state = game.new_game(players=2, seed=1)
    assert RAW.findall(text.render(state, 0))
    assert text.ansi(state, 0) == terminal(text.render(state, 0))
    assert not RAW.findall(text.ansi(state, 0)) and "Hostile" + SHOWN in text.ansi(state, 0)
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from rulelang.adapters import gymnasium, pettingzoo
    env = gymnasium.RulesEnv(game, players=2, render_mode="ansi")
    env.reset(seed=1)
    seen = pettingzoo.env(game, players=2, render_mode="ansi")
    seen.reset(seed=1)
    for shown_text in (env.render(), seen.render()):
        assert not RAW.findall(shown_text) and "Hostile" + SHOWN in shown_text


def test_the_example_agent_loop_prints_a_rulesets_words_escaped(capsys):
    """examples/model_agent.py prints each move and the result: a hostile
    ruleset's labels and ending reach the terminal as escapes."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "model_agent.py"
    spec = importlib.util.spec_from_file_location("model_agent_words", path)
    agent = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(agent)
    game = rulelang.loads(SOURCE, "hostile.rules")
    # The stand-in model names the first option the prompt lists (its
    # canonical string, hostile characters and all); a refusal is printed too.
    agent.play(game, 2, 1, lambda conversation: conversation[0].split("  1. ")[1].splitlines()[0]
               if len(conversation) > 1 else "no such move\x1b[2J")
    out = capsys.readouterr().out
    assert "go" + SHOWN in out and "enough" + SHOWN in out
    assert "no such move\\x1b[2J" in out
    assert not RAW.search(out)
