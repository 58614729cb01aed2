"""The terminal player (rulelang/play): what a decision says, the state as
words, what changed, the commands, and every screen of every shipped
ruleset within 100×40.  Dice are forced through the explicit chance mode
where an outcome matters."""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import sys

import pytest

from rulelang.players import SPECS

import rulelang
from rulelang.cli import main
from rulelang.play import render, terminal
from rulelang.play.decision import describe
from rulelang.play.render import Layout
from helpers import RULESETS, ROOT, shipped

NP = str(ROOT / "rulesets" / "northpole.rules")
ENDURANCE = str(ROOT / "rulesets" / "endurance.rules")


def np_reroll_state(event_roll: int) -> rulelang.State:
    """North Pole, 2 players, both Robert Peary (Hoax 2, so a reroll is
    offered), P0 winning the roll-off, P0's event die forced to
    ``event_roll``: the state waits for P0's keep-or-reroll answer."""
    state = shipped("northpole.rules").new_game(players=2, seed=1, chance="explicit")
    for label in ("Robert Peary", "Robert Peary", "roll 10", "roll 1", f"roll {event_roll}"):
        state.apply(label)
    assert state.current_player == 0
    return state


def test_a_reroll_says_what_the_die_means_and_the_odds_of_its_test():
    """NP-EVT-01, NP-EVT-07, NP-TST-01, NP-HOX-01: the event die shows 6
    (Lost Supplies, a test of Will); before the answer the player is told
    what keeping the 6 gives, the chance the Will test passes (faces 1..Will
    of a d10), and every row a new roll may give."""
    state = np_reroll_state(6)
    moves = state.legal_moves()
    view = state.view(0)
    d = describe(state, 0, moves, view, Layout(state.game))
    will = state.stat("will", 0)
    assert d.title == "keep or reroll the 6 rolled for events"
    assert d.labels == ("keep 6", "reroll 6")
    assert d.notes[0] == (f"→ Lost Supplies; test of will ({will}): d10 <= {will}, "
                          f"passes {10 * will}%")
    assert d.notes[1] == "→ a new d10 on events"
    table = " ".join(d.context)
    assert "1 Blizzard" in table and f"6 Lost Supplies (will {10 * will}%)" in table


def test_a_test_roll_offered_for_a_reroll_says_whether_it_passes():
    """NP-TST-01/02, NP-HOX-01: a Will test rolled 9 against Will 5 fails
    if kept; a reroll passes 5 times in 10."""
    state = np_reroll_state(6)
    state.apply("keep 6")
    state.apply("roll 9")            # the Will test of Lost Supplies
    will = state.stat("will", 0)
    d = describe(state, 0, state.legal_moves(), state.view(0), Layout(state.game))
    assert d.title == "keep or reroll the 9 rolled for test of will"
    assert d.notes[0] == (f"→ {'passes' if 9 <= will else 'fails'} (9 <= {will} is "
                          f"{'yes' if 9 <= will else 'no'})")
    assert d.notes[1] == f"→ passes {10 * will}% of the time"


def test_a_choice_is_titled_by_the_rule_file_before_it_is_made():
    """The prompt says who decides and what (the choice's own title), not
    only a list: NP's setup option 'Create your expedition'."""
    state = shipped("northpole.rules").new_game(players=2, seed=1)
    d = describe(state, 0, state.legal_moves(), state.view(0), Layout(state.game))
    assert d.seat == 0 and d.title == "Create your expedition"
    lines = render.plain(render.option_lines(d.labels))
    assert " 1. Robert Peary" in lines and " 7. random" in lines
    state = shipped("endurance.rules").new_game(seed=1)
    d = describe(state, 0, state.legal_moves(), state.view(0), Layout(state.game))
    assert d.title == "Put the man in a Group"          # (endurance.rules: choose one "…")
    # a choice of cards (NP-TRV-02: 'choose up to 2 cards from hand as redraw "discard"')
    state = shipped("northpole.rules").new_game(players=2, seed=1)
    rng = random.Random(1)
    while not state.legal_moves()[0].label.startswith("discard "):
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player
    d = describe(state, seat, state.legal_moves(), state.view(seat), Layout(state.game))
    assert d.title == ("discard again (Hoax)" if d.labels[0].startswith("discard again") else "discard")


def test_labels_are_taken_by_number_any_case_and_unique_prefix():
    state = shipped("northpole.rules").new_game(players=2, seed=1)
    moves = state.legal_moves()
    pick = terminal.pick
    assert pick(moves, "2")[0].label == "Frederick Cook"
    assert pick(moves, "ROBERT PEARY")[0].label == "Robert Peary"
    assert pick(moves, "ern")[0].label == "Ernest Shackleton"
    move, why = pick(moves, "robert")
    assert move is None and "begins 2 moves (Robert Peary, Robert Falcon Scott)" in why
    move, why = pick(moves, "8")
    assert move is None and "type its number (1 to 7)" in why
    assert pick(moves, "zebra")[0] is None


def test_changes_are_told_as_sentences():
    """Every value of the seat's view that a move changes is one sentence:
    a stat with its difference, a pile's cards in and out."""
    before = {("P0", "food"): 6, ("P0", "heading_back"): False, ("", "hand", "pile"): ["Ice", "Trek"],
              ("P1", "hand", "pile"): {"size": 5}, ("crew", "Wild", "side", "piece"): "fresh"}
    after = {("P0", "food"): 4, ("P0", "heading_back"): True, ("", "hand", "pile"): ["Trek", "Trek"],
             ("P1", "hand", "pile"): {"size": 3}, ("crew", "Wild", "side", "piece"): "demoralized"}
    assert render.changes(before, after) == [
        "P0 food 6 → 4 (-2)", "P0 heading_back no → yes", "hand: +Trek, −Ice (now 2)",
        "P1 hand: 5 → 3 cards", "Wild (crew): side fresh → demoralized"]
    assert render.changes(before, before) == []


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_state_is_words_within_100_columns(path):
    """Every shipped ruleset, after 40 random moves: no Python spelling
    (True, False, None) and no line wider than 100."""
    game = shipped(path.name)
    state = game.new_game(players=game.min_players, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player if state.current_player not in (None, rulelang.CHANCE) else 0
    text = render.plain(render.state_lines(state.view(seat), Layout(game)))
    assert not re.search(r"\b(True|False|None)\b", text), text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_tracks_are_drawn_with_every_seat_on_them():
    """A stat with both bounds (NP's position, 0 to the Pole) is one track
    line with each seat's marker at its space."""
    state = shipped("northpole.rules").new_game(players=3, seed=1)
    view = state.view(0)
    for seat, where in enumerate((3, 0, 7)):
        view["players"][seat]["stats"]["position"] = where
    lines = render.plain(render.state_lines(view, Layout(state.game))).splitlines()
    track = next(line for line in lines if line.strip().startswith("position"))
    cells = track.split("position", 1)[1].split()
    assert cells[:10] == ["0", "1", "·", "·", "0", "·", "·", "·", "2", "·"]
    assert "P0 3 P1 0 P2 7" in track


def play_with(monkeypatch, argv, answers):
    """Run ``rulelang play`` with these lines typed; (exit code, output)."""
    out = io.StringIO()
    lines = iter(answers)

    def typed(prompt=""):
        out.write(prompt + "\n")
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None
    monkeypatch.setattr("builtins.input", typed)
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["play"] + argv)
    return code, out.getvalue()


def test_a_screen_says_who_decides_what_and_the_seed(monkeypatch):
    """The seed at the start and at the end; the decision's title and the
    numbered options; a move's result in the next screen's 'what happened'."""
    code, out = play_with(monkeypatch, [NP, "--seed", "2", "--seat", "1=random"], ["1", "quit"])
    assert code == 0
    assert out.startswith("Racing to the North Pole — 2 players (P0 you, P1 bot), seed 2\n")
    assert "P0 decides: Create your expedition" in out and " 1. Robert Peary" in out
    assert "— what happened —" in out and "P0 · Create your expedition: Robert Peary" in out
    assert out.rstrip().endswith("seed 2")


def test_hot_seat_shows_each_seat_its_own_hand_only(monkeypatch):
    """Two people at one terminal (NP's hands are hidden, NP-TRV-01): the
    seat deciding sees its own cards; the other's cards are never named,
    in the state or in what happened."""
    answers = ["1", "2"] + ["1"] * 12
    code, out = play_with(monkeypatch, [NP, "--seed", "3"], answers)
    assert code == 0
    assert "▶P1 (you)" in out, "P1 never decided"
    for screen in out.split("> \n"):
        mine = re.search(r"▶P(\d) \(you\)", screen)
        if not mine:
            continue
        other = 1 - int(mine.group(1))
        block = screen.split(f" P{other}   ", 1)
        if len(block) == 2:
            hand_line = [x for x in block[1].splitlines() if "hand:" in x][0]
            assert "(hidden)" in hand_line or "empty" in hand_line, screen
        assert not re.search(rf"P{other} · draws (?!a card)", screen), screen


def test_a_hidden_piece_value_is_said_to_be_hidden(monkeypatch, tmp_path):
    path = tmp_path / "tiles.rules"
    path.write_text('game "T"\nplayers 2\npieces tile { state { owner none  worth 3 hidden }\n'
                    '  Red\n}\nper player { pts 0 }\n'
                    'turn { phase a { may "Score" { pts += 1 }\n end game "x" } }\nscore { pts }\n',
                    encoding="utf-8")
    code, out = play_with(monkeypatch, [str(path), "--seed", "1"], ["1"])
    assert code == 0
    assert "tile (1), all owner none, worth (hidden):" in out and "P0 decides: Score" in out


def test_the_commands(monkeypatch, tmp_path):
    """help lists the commands; log shows what happened; a bad answer gets
    one line; save writes a game that --load goes on with, at the same
    decision, with the same seed."""
    save = tmp_path / "game.json"
    code, out = play_with(monkeypatch, [NP, "--seed", "4", "--seat", "1=random"],
                          ["HELP", "1", "log", "no such move", f"save {save}", "quit"])
    assert code == 0
    assert "undo            take back" in out and "save FILE" in out
    assert "  Create your expedition: Robert Peary\n" in out.split("P0> \n")[3]     # (the log)
    assert "'no such move' is not one of the moves" in out
    assert f"saved to {save}" in out
    saved = shipped("northpole.rules").restore(save.read_text())
    code, again = play_with(monkeypatch, [NP, "--load", str(save), "--seat", "1=random"], ["quit"])
    assert code == 0
    assert again.startswith("Racing to the North Pole — 2 players (P0 you, P1 bot), seed 4, loaded from")
    title = re.findall(r"P0 decides: .*", out)[-1]
    assert title in again
    assert saved.seed == 4


def test_undo_goes_back_to_the_last_decision(monkeypatch):
    """With the other seat a bot, undo takes back the last decision: the
    same question again, and the same answer gives the same game."""
    code, out = play_with(monkeypatch, [NP, "--seed", "6", "--seat", "1=random"],
                          ["1", "undo", "1", "quit"])
    assert code == 0
    titles = re.findall(r"P0 decides: .*", out)
    assert titles[0] == titles[2] == "P0 decides: Create your expedition"
    again = out.split("undone: back to P0's previous decision")[1].split("P0 decides")[0]
    assert "Racing to the North Pole · round 0\n" in again        # (the game as it was)
    assert "undone: back to P0's previous decision" in out
    code, first = play_with(monkeypatch, [NP, "--seed", "6", "--seat", "1=random"], ["undo", "quit"])
    assert "nothing to undo" in first


def test_seats_that_do_not_exist_or_players_unknown_are_one_line(capsys):
    for argv, line in [(["--seat", "2=random"], "error: --seat 2=random: the seats of this game are 0 to 1"),
                       (["--seat", "1=genius"], "error: --seat 1=genius: unknown player 'genius': "
                                                "a player is " + SPECS),
                       (["--seat", "x"], f"error: --seat takes K=PLAYER (a seat number, then {SPECS}), not 'x'"),
                       (["--players", "9"], "error: Racing to the North Pole is for 2 to 4 players, not 9")]:
        assert main(["play", NP] + argv) == 2
        captured = capsys.readouterr()
        assert captured.err.strip() == line and captured.out == ""
    assert main(["play", NP, "--load", "/nonexistent.json"]) == 1
    assert capsys.readouterr().err.strip() == "/nonexistent.json: cannot read: No such file or directory"


def test_bad_saves_are_refused_in_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nonsense"}')
    assert main(["play", NP, "--load", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{bad}: not a save of this game: ")


def test_every_bot_comes_from_one_function():
    """_bot is where a spec becomes a player; the same seed plays the same."""
    state = shipped("northpole.rules").new_game(players=2, seed=1)
    a, b = terminal._bot("random", 9), terminal._bot("random", 9)
    assert [a(state).label for _ in range(5)] == [b(state).label for _ in range(5)]
    assert terminal._bot("mcts:20", 1)(state) in state.legal_moves()
    with pytest.raises(ValueError, match="unknown player 'wizard'"):
        terminal._bot("wizard", 1)


def screens_of(path, players, seed, decisions):
    """Play ``decisions`` random answers with every seat a person; each
    screen (what is printed before a prompt)."""
    game = shipped(path.name)
    rng = random.Random(seed)
    out = io.StringIO()
    screens = []

    def typed(prompt=""):
        screens.append(out.getvalue())
        out.seek(0)
        out.truncate()
        if len(screens) > decisions:
            raise EOFError
        n = max([int(x) for x in re.findall(r"(?:^|  )\s*(\d+)\. ", screens[-1], re.M)] or [1])
        return str(rng.randint(1, n))
    args = argparse.Namespace(load=None, players=players, seed=seed, seat=None, auto=False,
                              file=str(path), param=None)
    import builtins
    real = builtins.input
    builtins.input = typed
    try:
        assert terminal.play(game, args, out) == 0
    finally:
        builtins.input = real
    return screens[1:]


DECISIONS = 300 if os.environ.get("RULELANG_LONG") else 25


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_screen_fits_100_by_40(path):
    """Each decision's screen, prompt included, fits a 100×40 terminal,
    shows the decision's title and its options, and spells no value the
    Python way.  (Longer games under RULELANG_LONG.)"""
    game = shipped(path.name)
    players = max(game.min_players, min(2, game.max_players))
    screens = screens_of(path, players, 11, DECISIONS)
    assert screens
    for screen in screens:
        lines = screen.rstrip("\n").splitlines()
        assert len(lines) + 1 <= 40, screen
        assert max(len(line) for line in lines) <= 100, screen
        assert re.search(r"^P\d decides: \S", screen, re.M), screen
        assert " 1. " in screen
        assert not re.search(r"\b(True|False|None)\b", screen), screen


ROWS = '''game "Rows"
players 1
per player { nerve 4 min 0 max 10
             luck 5 min 0 max 10 }
test (stat): roll d6 <= stat
table dangers d6 {
    1..3 Cliff:  test nerve
    4..5 River:  test luck
    6    Rest:   luck += 1
}
turn { phase p { choose a row of dangers 1..6 } }
end "e" when round > 1
'''


def test_a_choice_of_rows_gives_each_tested_row_its_odds():
    """Picking a row of a table: each row that tests a stat shows the
    test's odds for the chooser (faces 1..stat of the test's d6)."""
    game = rulelang.loads(ROWS)
    state = game.new_game(seed=1)
    state.set_stat("nerve", 2, 0)
    d = describe(state, 0, state.legal_moves(), state.view(0), Layout(game))
    assert d.title == "choose on dangers"
    assert d.labels == ("Cliff", "River", "Rest")
    assert d.notes == {0: "test of nerve (2): d6 <= 2, passes 33%",
                       1: "test of luck (5): d6 <= 5, passes 83%"}
    lines = render.plain(render.option_lines(d.labels, d.notes)).splitlines()
    assert lines == [" 1. Cliff   test of nerve (2): d6 <= 2, passes 33%",
                     " 2. River   test of luck (5): d6 <= 5, passes 83%", " 3. Rest"]


def test_bots_in_every_seat_print_the_game_and_ctrl_c_prints_the_seed(monkeypatch):
    """--seat for every seat plays like --auto (the log, the result, the
    seed); Ctrl-C at a prompt stops with exit 130 and the seed."""
    code, out = play_with(monkeypatch, [NP, "--seed", "5", "--seat", "0=random", "--seat", "1=random"], [])
    assert code == 0 and "round 1: P" in out and "Game over: " in out and out.rstrip().endswith("seed 5")

    def interrupted(prompt=""):
        raise KeyboardInterrupt
    monkeypatch.setattr("builtins.input", interrupted)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["play", NP, "--seed", "8", "--seat", "1=random"]) == 130
    assert out.getvalue().rstrip().endswith("interrupted at round 0; seed 8")


def test_a_loaded_game_starts_with_its_latest_lines(monkeypatch, tmp_path):
    save = tmp_path / "g.json"
    play_with(monkeypatch, [NP, "--seed", "4", "--seat", "1=random"], ["1", f"save {save}", "quit"])
    code, out = play_with(monkeypatch, [NP, "--load", str(save), "--seat", "1=random"], ["quit"])
    state = shipped("northpole.rules").restore(save.read_text())
    last = state.log_for(0)[-1].text
    assert code == 0 and "— what happened —" in out and last in out


def test_undo_past_another_persons_decision_needs_their_agreement(monkeypatch):
    """Hot-seat, seed 0: P0 chooses, P1 makes five decisions, then P0 asks
    to undo: P1 is asked; 'n' keeps the game, 'yes' rewinds it to P0's
    first decision."""
    code, out = play_with(monkeypatch, [NP, "--seed", "0"],
                          ["1"] * 6 + ["undo", "n", "undo", "yes", "quit"])
    assert code == 0
    titles = re.findall(r"P\d decides: .*", out)
    assert [t[:2] for t in titles[:7]] == ["P0"] + ["P1"] * 5 + ["P0"]
    assert out.count("P1, P0 asks to take back a move") == 2
    assert "P1 does not agree: nothing undone" in out
    assert titles[7] == "P0 decides: Create your expedition"


def test_a_rule_files_words_cannot_drive_the_terminal(monkeypatch, tmp_path):
    """Escape sequences, bells and bidirectional overrides in a ruleset's
    title, prompts and endings are printed as escapes, never sent as is."""
    path = tmp_path / "esc.rules"
    path.write_text('game "T\x1b[31mX"\nplayers 1\nper player { pts 0 }\n'
                    'turn { phase a { may "S\x1b[2Jcore\x07\u202e" { pts += 1 }\n end game "x\x1b]0;owned\x07" } }\n'
                    'score { pts }\n', encoding="utf-8")
    for auto in ([], ["--auto"]):
        code, out = play_with(monkeypatch, [str(path), "--seed", "1"] + auto, ["1"])
        assert code == 0
        assert not re.search("[\\x00-\\x09\\x0b-\\x1f\\x7f\\u202e]", out)
        assert "T\\x1b[31mX" in out and "x\\x1b]0;owned\\x07" in out
    assert "P0 decides: S\\x1b[2Jcore\\x07\\u202e" in play_with(monkeypatch, [str(path)], ["1"])[1]


def test_a_loaded_game_in_explicit_chance_mode_rolls_its_own_dice(monkeypatch, tmp_path):
    """A save made in explicit chance mode (dice as moves) plays on: the
    terminal picks each outcome by its probability, and the person still
    gets the decisions."""
    state = np_reroll_state(6)
    save = tmp_path / "explicit.json"
    save.write_text(state.to_json(), encoding="utf-8")
    code, out = play_with(monkeypatch, [NP, "--load", str(save), "--seat", "1=random"],
                          ["keep", "1", "1", "quit"])
    assert code == 0
    assert "P0 decides: keep or reroll the 6 rolled for events" in out
    assert "P0 · events: Lost Supplies" in out and "P0 · test of will: rolled " in out
    assert len(re.findall(r"P0 decides: ", out)) >= 2
