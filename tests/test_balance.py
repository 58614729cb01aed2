"""``rulelang simulate``'s balance report (``rulelang.balance``): counts that
merge exactly whatever the split, the figures that come of them, outcomes
rather than wins where a game has none to count, and one clear line for
every bad argument."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import rulelang
from rulelang.balance import Setup, Tally, figures, play_range, run, wilson
from rulelang.balance.stats import percentile, units
from rulelang.cli import main
from helpers import ROOT

NP = str(ROOT / "rulesets" / "northpole.rules")
ENDURANCE = str(ROOT / "rulesets" / "endurance.rules")
EXPEDITION = str(ROOT / "rulesets" / "expedition.rules")
PIG = str(ROOT / "examples" / "pig.rules")
NIM = str(ROOT / "examples" / "nim.rules")

#: A rule that can never be called and a choice nobody can take.
IDLE = '''game "Idle"
players 2
global { heap 5 }
per player { took 0 }
turn { phase p {
    choose one "Move" {
        "Take one" { heap -= 1; took += 1 }
        "Take none" if heap > 99 { }
    }
    if heap < 0 { never_called }
} }
rule never_called { heap = 0 }
end "empty" when heap is 0
score { took }
'''


def test_wilson_interval():
    # (the textbook values: 5 of 10 gives 0.2366..0.7634; 0 of 10, 0..0.2775)
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentiles_and_units():
    hist = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1}
    assert (percentile(hist, 0.1), percentile(hist, 0.5), percentile(hist, 0.9)) == (1.0, 5.0, 9.0)
    assert units(4) == 12 and units(1) == 1


def test_the_tally_is_the_same_for_any_split_and_any_number_of_workers():
    """Mixed players (greedy, random) on Pig: one range in one piece, in
    uneven pieces merged in another order, on two worker processes."""
    game = rulelang.load(PIG).with_params({"target": 30})
    setup = Setup(players=3, seats=("greedy", "random", "random"))
    whole = play_range(game, setup, 4, 30).to_dict()
    pieces = [play_range(game, setup, 4 + a, b - a) for a, b in [(0, 7), (7, 8), (8, 30)]]
    merged = Tally(3)
    for piece in reversed(pieces):
        merged.merge(piece)
    assert merged.to_dict() == whole
    assert run(game, setup, 4, 30, workers=2).tally.to_dict() == whole
    assert whole["games"] == 30 and whole["scores"] != [{}, {}, {}]
    assert Tally.from_dict(json.loads(json.dumps(whole))).to_dict() == whole


def test_firing_counts_and_options_merge_exactly():
    game = rulelang.load(NP)
    setup = Setup(players=3, seats=("random",) * 3)
    whole = play_range(game, setup, 0, 12)
    assert sum(whole.firing.values()) > 0 and whole.options
    halves = play_range(game, setup, 6, 6).merge(play_range(game, setup, 0, 6))
    assert halves.to_dict() == whole.to_dict()


def test_figures_of_a_known_tally():
    """Two seats, 10 games: seat 0 won 6, seat 1 won 3, one shared."""
    t = Tally(2, games=10, win_units=[13, 7], sole=[6, 3], shared=[1, 1], shared_games=1,
              first_units=13, length={10: 5, 20: 5}, branching={1: 3, 3: 1})
    f = figures(t, ranked=True, scored=False, seats=("mcts:9", "random"))
    assert f["seats"][0]["win_rate"] == 0.65 and f["seats"][1]["win_rate"] == 0.35
    assert f["seats"][0]["ci95"] == list(wilson(6.5, 10))
    assert f["first_player"]["advantage"] == pytest.approx(0.15)
    assert f["branching"]["forced_share"] == 0.75 and f["branching"]["mean"] == 1.5
    assert (f["length"]["median"], f["length"]["p90"]) == (10.0, 20.0)


def report(capsys, *argv):
    status = main(["simulate", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_game_alone_reports_outcomes_unless_told_what_a_win_is(capsys):
    status, out, _ = report(capsys, ENDURANCE, "--games", "6", "--no-firing")
    assert status == 0 and "No wins counted: a game played alone" in out and "100.0%  " not in \
        out.split("Endings:")[0]
    status, out, _ = report(capsys, ENDURANCE, "--games", "6", "--no-firing", "--won", "Mutiny")
    assert status == 0 and "a win is the ending 'Mutiny'" in out
    mutinies = int(out.split("  Mutiny (")[1].split(")")[0])
    wins = out.split("\n  P0 random ")[1].split("%")[0].strip()
    assert float(wins) == pytest.approx(100 * mutinies / 6, abs=0.05)


def test_a_game_without_a_score_has_no_wins(capsys, tmp_path):
    path = tmp_path / "nim.rules"
    path.write_text(open(NIM, encoding="utf-8").read().replace(
        "score { if took_last then 1 else 0 }", ""), encoding="utf-8")
    status, out, _ = report(capsys, str(path), "--games", "5")
    assert status == 0 and "No wins counted: the ruleset has no score" in out
    assert "50.0%" not in out


def test_rules_never_fired_and_json(capsys, tmp_path):
    rules = tmp_path / "idle.rules"
    rules.write_text(IDLE, encoding="utf-8")
    out_json = tmp_path / "r.json"
    status, out, _ = report(capsys, str(rules), "--games", "8", "--seed", "3", "--seat", "1=greedy",
                            "--json", str(out_json))
    assert status == 0
    never = out.split("Never fired (2):\n")[1].splitlines()
    assert never == ['  choice "Move" option "Take none" (line 8)', "  rule never_called (line 12)"]
    doc = json.loads(out_json.read_text())
    assert doc["seed"] == 3 and doc["seats"] == ["random", "greedy"]
    assert doc["command"].startswith("rulelang simulate ") and "--seat 1=greedy" in doc["command"]
    f = doc["figures"]
    assert f["firing"]['choice "Move" option "Take one" (line 7)'] == 8 * 5
    assert f["move_kinds"] == {"Take one": 40}
    assert f["games"] == 8 and sum(s["win_rate"] for s in f["seats"]) == pytest.approx(1.0)


def test_setup_options_win_rates(capsys, tmp_path):
    out_json = tmp_path / "np.json"
    status, _, _ = report(capsys, NP, "--games", "12", "--players", "3", "--json", str(out_json),
                          "--no-firing")
    f = json.loads(out_json.read_text())["figures"]
    assert status == 0
    taken = {k: o["taken"] for k, o in f["options"].items()}
    assert all(k.startswith("expedition = ") for k in taken) and sum(taken.values()) == 36
    wins = sum(o["win_rate"] * o["taken"] for o in f["options"].values())
    assert wins == pytest.approx(sum(s["wins"] for s in f["seats"]))


@pytest.mark.parametrize("argv, message", [
    ([PIG, "--seat", "0=smart"], "error: --seat 0=smart: unknown player 'smart': a player is "),
    ([PIG, "--seat", "5=random"], "error: --seat 5=random: there is no seat 5: "),
    ([PIG, "--seat", "x"], "error: --seat takes K=PLAYER"),
    ([PIG, "--players", "5"], "error: Pig is for 2 to 4 players, not 5"),
    ([PIG, "--games", "0"], "error: --games is how many games to play, at least 1, not 0"),
    ([PIG, "--games", "-5"], "error: --games is how many games to play, at least 1, not -5"),
    ([PIG, "--seat", "1=mcts:0"], "error: --seat 1=mcts:0: mcts needs at least 1 playout"),
    ([PIG, "--won", "x"], "error: --won names the winning ending of a game played alone"),
])
def test_bad_arguments_get_one_line_and_status_2(argv, message, capsys):
    status, out, err = report(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1, err


@pytest.mark.skipif(not os.environ.get("RULELANG_LONG"), reason="long run: waits for a timeout")
def test_an_unreachable_dask_scheduler_is_one_line():
    pytest.importorskip("distributed")
    proc = subprocess.run([sys.executable, "-m", "rulelang", "simulate", PIG, "--games", "2",
                           "--dask", "tcp://127.0.0.1:9"], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")
    assert proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.skipif(not os.environ.get("RULELANG_LONG"), reason="long run: a real LocalCluster")
def test_dask_gives_the_figures_of_local_workers():
    pytest.importorskip("distributed")
    game = rulelang.load(PIG).with_params({"target": 30})
    setup = Setup(players=2, seats=("mcts:10", "random"))
    here = run(game, setup, 0, 40, workers=1).tally.to_dict()
    assert run(game, setup, 0, 40, dask="local").tally.to_dict() == here


def test_html_and_png(capsys, tmp_path):
    """One page that loads nothing from elsewhere, its plots embedded; the
    same plots as files."""
    pytest.importorskip("matplotlib")
    page, folder = tmp_path / "r.html", tmp_path / "png"
    status, out, _ = report(capsys, NP, "--games", "6", "--players", "2", "--html", str(page),
                            "--png", str(folder))
    assert status == 0
    text = page.read_text(encoding="utf-8")
    assert text.count("src='data:image/png;base64,") == 6
    assert "http" not in text.replace("http-equiv", "") and "<script" not in text
    assert "Racing to the North Pole: balance report" in text and "expedition = " in text
    assert sorted(p.name for p in folder.iterdir()) == ["endings.png", "firing.png", "length.png",
                                                        "options.png", "scores.png", "wins.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in folder.iterdir())


def test_a_seat_that_never_wins_draws_its_error_bar(capsys, tmp_path):
    """0 wins of N: the interval starts at 0 exactly (rounding once put it
    a hair above the rate, and matplotlib refused a negative error bar)."""
    for n in (3, 7, 500, 2177):
        lo, hi = wilson(0, n)
        assert lo == 0.0 < hi
        lo, hi = wilson(n, n)
        assert lo < hi == 1.0
    pytest.importorskip("matplotlib")
    page = tmp_path / "e.html"
    status, _, err = report(capsys, ENDURANCE, "--games", "3", "--won", "Rescue", "--no-firing",
                            "--html", str(page))
    assert status == 0 and err == "" and page.exists()
