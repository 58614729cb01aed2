"""The command line: check, compile, play (interactive and --auto), simulate."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys


from rulelang.ir import serialize
from rulelang.cli import main
from helpers import ROOT

NP = str(ROOT / "rulesets" / "northpole.rules")
BROKEN = str(ROOT / "tests" / "checker_cases" / "names.rules")


def test_check_clean_file(capsys):
    """check prints 'ok' for a sound ruleset and exits 0."""
    assert main(["check", NP]) == 0
    assert capsys.readouterr().out.strip() == f"{NP}: ok"


def test_check_reports_every_error_with_caret(capsys):
    """check prints each problem as file:line:col: message, the source line
    and a caret, and exits 1."""
    assert main(["check", BROKEN, NP]) == 1
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert f"{BROKEN}:12:8: unknown name 'mne' — did you mean 'men'?" in err
    i = err.index(f"{BROKEN}:12:8: unknown name 'mne' — did you mean 'men'?")
    assert err[i + 1].strip().startswith("1: mne -= 1")
    assert err[i + 2] == "    " + " " * 7 + "^"
    assert f"{BROKEN}: 7 errors" in err
    assert f"{NP}: ok" in captured.out


def test_check_missing_file(capsys):
    """A file that cannot be read is an error, not a traceback."""
    assert main(["check", "/nonexistent/x.rules"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_compile_writes_json_that_loads_back(tmp_path, capsys):
    """compile -o writes the IR as JSON with a format version; it reads back
    to the same IR and checks clean."""
    out = tmp_path / "np.json"
    assert main(["compile", NP, "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["format"] == serialize.FORMAT
    assert data["title"] == "Racing to the North Pole"
    from rulelang.api import parse_and_check
    assert serialize.from_data(data) == parse_and_check(pathlib.Path(NP).read_text())
    assert main(["check", str(out)]) == 0


def test_play_auto_prints_the_log_and_result(capsys):
    """play --auto plays every seat randomly, prints the log and the result."""
    assert main(["play", NP, "--players", "3", "--seed", "4", "--auto"]) == 0
    out = capsys.readouterr().out
    assert "round 1: P" in out and "event phase" in out
    assert "Game over: every expedition is home or lost" in out
    assert "(winner)" in out


def test_simulate_summarises(capsys):
    """simulate reports games/s, average scores, win shares and endings."""
    assert main(["simulate", NP, "--games", "20", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "20 random games, 2 players" in out
    assert "100.0%  every expedition is home or lost (20)" in out


def test_python_dash_m():
    """python -m rulelang runs the same command line."""
    done = subprocess.run([sys.executable, "-m", "rulelang", "check", NP],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok")


PIG = str(ROOT / "examples" / "pig.rules")
ENDURANCE = str(ROOT / "rulesets" / "endurance.rules")


def test_simulate_refuses_what_it_cannot_do_in_one_line(capsys):
    """A player count outside the ruleset's range, no games or fewer: one
    line and exit code 2, no traceback; a seat that does not exist, too."""
    cases = [(["simulate", PIG, "--players", "5"], "error: Pig is for 2 to 4 players, not 5"),
             (["simulate", PIG, "--players", "0"], "error: Pig is for 2 to 4 players, not 0"),
             (["simulate", PIG, "--games", "0"], "error: --games is how many games to play, "
                                                 "at least 1, not 0"),
             (["simulate", PIG, "--games", "-5"], "error: --games is how many games to play, "
                                                  "at least 1, not -5"),
             (["play", PIG, "--seat", "3=random"], "error: --seat 3=random: the seats of this "
                                                   "game are 0 to 1")]
    for argv, line in cases:
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert captured.err.strip() == line and captured.out == ""


def test_simulate_does_not_call_a_lone_player_or_a_scoreless_game_a_winner(capsys, tmp_path):
    """Alone, the best score is always the player's own: a solitaire game
    reports its score and endings, not '100% wins'; a game with no score
    reports its endings only."""
    assert main(["simulate", ENDURANCE, "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "5 random games, 1 player," in out and "Wins (" not in out and "Scores:" in out
    assert "Endings:" in out
    nim = ROOT / "examples" / "nim.rules"
    text = nim.read_text(encoding="utf-8").replace("score { if took_last then 1 else 0 }", "")
    assert "score" not in text.split("end ")[-1]
    path = tmp_path / "nim_unscored.rules"
    path.write_text(text, encoding="utf-8")
    assert main(["simulate", str(path), "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "P0: no score" in out and "Wins (" not in out


def test_an_interrupted_simulation_reports_the_games_played(monkeypatch, capsys):
    """Ctrl-C part way: the figures for the games that ended, and exit 130."""
    from rulelang.engine import State
    real, made = State.apply, []

    def apply(self, move, *a, **k):
        made.append(1)
        if len(made) > 300:
            raise KeyboardInterrupt
        return real(self, move, *a, **k)
    monkeypatch.setattr(State, "apply", apply)
    assert main(["simulate", PIG, "--games", "1000"]) == 130
    out = capsys.readouterr().out
    assert "(interrupted: " in out and "not played)" in out and "games/s" in out
    played = int(out.split(": ", 1)[1].split(" random games")[0])
    assert 0 < played < 1000


def test_play_draws_a_board_as_rows(monkeypatch, capsys):
    """A grid board with one state value is drawn north at the top, the
    disc dropped in column a at the bottom left."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert main(["play", str(ROOT / "examples" / "connect_four.rules"), "--seed", "1",
                 "--seat", "1=random"]) == 0
    out = capsys.readouterr().out
    assert "  cells (disc):\n     6 . . . . . . .\n" in out
    assert "\n     1 0 " in out and "\n       a b c d e f g\n" in out


def test_a_rule_files_control_characters_reach_no_terminal(tmp_path, capsys):
    """A hostile rule file's escape sequences and bells are printed as
    escapes by `check` (its message and its line), never sent as they are;
    the caret still points at the place."""
    bad = tmp_path / "bad.rules"
    bad.write_text('game "G\x1b]0;owned\x07"\nplayers 2\nper player { x 0 }\n'
                   'turn { phase p { x += y\x1b[2J } }\n', encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\\x1b[2J" in err
    line, caret = [ln for ln in err.splitlines() if "x += " in ln or ln.strip() == "^"][:2]
    assert line[caret.index("^"):].startswith("\\x1b[2J")     # (the character refused)


def _check_in_a_process(before: str, after: str) -> "list[str]":
    """The lines printed by a new process that runs ``before``, then
    ``rulelang check examples/nim.rules`` as the command does (``cli.main()``
    with ``sys.argv``), then ``after`` (``rc``: what the command returned)."""
    code = ("import gc, sys\n" + before + "from rulelang import cli\n"
            "sys.argv = ['rulelang', 'check', sys.argv[1]]\n"
            "rc = cli.main()\n" + after)
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "nim.rules")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def test_the_command_freezes_what_its_imports_made_and_the_library_does_not():
    """The command owns its process, so it moves what the imports made out
    of the cycle collector's sight (``gc.freeze``: no pass walks it again);
    ``import rulelang`` in someone else's program freezes nothing (their
    own garbage cycles must stay collectable)."""
    lines = _check_in_a_process("import rulelang\nprint(gc.get_freeze_count())\n",
                                "print(gc.get_freeze_count() > 0, rc)\n")
    assert (lines[0], lines[-1]) == ("0", "True 0"), lines


def test_a_command_imports_only_what_it_uses():
    """``rulelang check`` does not import what other commands need (the
    simulator and its process pool, the players, the exact odds, the IR as
    JSON): 17 ms of every command's start.  ``rulelang simulate`` still
    offers all its options."""
    lines = _check_in_a_process("", "print(rc, sorted(m for m in ('multiprocessing', 'fractions', "
                                    "'rulelang.balance', 'rulelang.players', 'rulelang.ir.serialize') "
                                    "if m in sys.modules))\n")
    assert lines[-1] == "0 []", lines
    helped = subprocess.run([sys.executable, "-m", "rulelang.cli", "simulate", "--help"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert "--workers" in helped.stdout and "--seat" in helped.stdout, helped.stdout + helped.stderr
