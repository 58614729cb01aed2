"""``rulelang simulate --workers N`` and ``rulelang.simulate``: the games
shared out over processes are the games of one process, in seed order, and
every printed figure but the speed is the same."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

import rulelang
from rulelang.cli import main
from rulelang.errors import RulesetRuntimeError
from rulelang.simulate import chunks, random_games
from helpers import ROOT

NP = str(ROOT / "rulesets" / "northpole.rules")
PIG = str(ROOT / "examples" / "pig.rules")
ENDURANCE = str(ROOT / "rulesets" / "endurance.rules")

#: A game whose sixth face of a die sends the rules into an endless loop:
#: some seeds end, some run into the work limit.
RUNAWAY = '''game "Runaway"
players 1..1
per player { x 0  y 0 }
turn { phase p {
    x = roll d6
    if x is 6 {
        while yes {
            y += 1
        }
    }
    end game "done"
} }
'''


def simulate(capsys, *argv):
    """(exit status, the printed lines without the speed line, stderr)."""
    status = main(["simulate", *argv])
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert status != 0 or "games/s" in lines[1]
    return status, lines[:1] + lines[2:], captured.err


def unscored(tmp_path):
    """Nim without its score block: a game that reports endings only."""
    text = (ROOT / "examples" / "nim.rules").read_text(encoding="utf-8")
    text = text.replace("score { if took_last then 1 else 0 }", "")
    path = tmp_path / "nim_unscored.rules"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("case", ["scored", "unscored", "solitaire"])
def test_two_workers_print_what_one_prints(case, capsys, tmp_path):
    """The same lines, the speed line apart: North Pole (scores and
    shared wins, whose shares are sums of fractions in seed order), Nim
    with no score, Endurance alone."""
    argv = {"scored": [NP, "--players", "3", "--games", "60", "--seed", "7"],
            "unscored": [unscored(tmp_path), "--games", "80"],
            "solitaire": [ENDURANCE, "--games", "24", "--seed", "3"]}[case]
    one = simulate(capsys, *argv, "--workers", "1")
    assert one[0] == 0 and one[2] == ""
    assert one == simulate(capsys, *argv, "--workers", "2")
    if case == "unscored":
        assert "  P0: no score" in one[1]
        assert any(line.startswith("No wins counted: the ruleset has no score") for line in one[1])
    elif case == "scored":
        assert one[1][2] == "Wins (95% Wilson interval):" and "Scores:" in one[1][8]
    else:       # alone, with no 'winner where': outcomes, not wins (never "wins 100%")
        assert one[1][2].startswith("No wins counted: a game played alone")
        assert "Scores:" in one[1][3] and "Wins" not in "\n".join(one[1])


def test_more_workers_than_games(capsys):
    one = simulate(capsys, PIG, "--games", "3", "--workers", "1")
    assert one[0] == 0 and "3 random games" in one[1][0]
    assert simulate(capsys, PIG, "--games", "3", "--workers", "8") == one
    assert simulate(capsys, PIG, "--games", "1", "--workers", "2") == \
        simulate(capsys, PIG, "--games", "1")


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_workers_must_be_at_least_one(workers, capsys):
    assert main(["simulate", PIG, "--games", "5", "--workers", workers]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == ("error: --workers is how many processes to play in, "
                                    f"at least 1, not {workers}")


def test_the_games_come_back_in_seed_order_from_other_processes():
    """Record for record, in order, as one process plays them; the workers
    are other processes, and none is left once the games are all in."""
    game = rulelang.load(NP)
    here = list(random_games(game, 3, 5, 70))
    assert len(here) == 70 and len(set(here)) > 50          # games that differ: order shows
    played = random_games(game, 3, 5, 70, workers=2)
    first = next(played)
    assert len(multiprocessing.active_children()) == 2
    assert [first, *played] == here
    assert multiprocessing.active_children() == []


def test_stopping_early_stops_the_workers():
    game = rulelang.load(PIG)
    with contextlib.closing(random_games(game, 2, 0, 500, workers=2)) as played:
        assert next(played) == next(random_games(game, 2, 0, 1))
    assert multiprocessing.active_children() == []


def test_a_worker_started_afresh_plays_the_same_games():
    """Where processes do not fork, a worker gets the game as ``Game``
    pickles (its ruleset and parameters) and compiles it again."""
    game = rulelang.load(PIG).with_params({"target": 30})
    here = list(random_games(game, 2, 0, 12))
    assert list(random_games(game, 2, 0, 12, workers=2, start_method="spawn")) == here


def test_the_first_error_in_seed_order_and_the_games_before_it(tmp_path, capsys):
    path = tmp_path / "runaway.rules"
    path.write_text(RUNAWAY, encoding="utf-8")
    game = rulelang.load(str(path))

    def until_error(workers):
        out = []
        with pytest.raises(RulesetRuntimeError) as info:
            for record in random_games(game, 1, 2, 40, workers=workers):
                out.append(record)
        return out, info.value.format()
    # (the seeds whose first roll is a 6, and so loop, found one game at a time)
    looping = []
    for seed in range(2, 42):
        with contextlib.suppress(RulesetRuntimeError):
            game.new_game(players=1, seed=seed)
            continue
        looping.append(seed)
    assert 2 <= len(looping) < 20 and looping[0] > 2
    one = until_error(1)
    assert len(one[0]) == looping[0] - 2        # the games before the first to loop
    assert until_error(2) == one
    status, lines, err = simulate(capsys, str(path), "--games", "40", "--seed", "2", "--workers", "2")
    # The report goes on past a game a rule error ends: the others are
    # counted, the failed ones listed by seed, and the status is 1.
    assert status == 1 and lines[0].startswith(f"Runaway: {40 - len(looping)} random games")
    assert f"Games a rule error ended ({len(looping)}, not counted):" in lines
    assert err.splitlines()[0] == f"rule error in seed {looping[0]}: {one[1].splitlines()[0]}"


def test_chunks_cover_the_seeds_once_in_order():
    for seed, games, workers in [(0, 1, 2), (5, 7, 3), (0, 2000, 2), (-4, 10_001, 4)]:
        parts = chunks(seed, games, workers)
        seeds = [s for first, n in parts for s in range(first, first + n)]
        assert seeds == list(range(seed, seed + games))
    assert len(chunks(0, 2000, 2)) >= 32


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_reports_the_games_finished_and_leaves_no_process():
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it):
    the figures of the games finished, exit 130, no traceback, and no
    process of the group left."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # (SIGINT as a terminal leaves it: a suite run in the background, as CI
    # may, has it ignored, and a process started with it ignored keeps it so)
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", ENDURANCE,
                             "--games", "1000000", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=ROOT, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2:        # the workers have started
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        time.sleep(1.0)                             # and played some games
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    if err:     # (a busy machine: no chunk of games came back within the second)
        assert err == "Endurance: interrupted before the first game ended\n" and out == ""
    else:
        assert "(interrupted: " in out and "games/s" in out
        played = int(out.split(": ", 1)[1].split(" random games")[0])
        assert 0 < played < 1000000
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)                      # nobody left in the group


def _children(pid):
    """The ids of the processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found
