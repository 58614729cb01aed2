"""rulelang play in a real terminal: a 100×40 tmux pane (a tmux server of
its own, on its own socket), keys sent with send-keys, the screen read
with capture-pane.  Skipped when tmux is not installed (.ci/run installs
it); one short game in ``make test``, whole games under RULELANG_LONG."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from helpers import ROOT

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install -y tmux)")

LONG = bool(os.environ.get("RULELANG_LONG"))


class Pane:
    """``rulelang play ARGS`` in a detached 100×40 tmux pane."""

    def __init__(self, *args: str) -> None:
        self.socket = f"rulelang-test-{uuid.uuid4().hex[:8]}"
        command = " ".join([sys.executable, "-m", "rulelang", "play", *args])
        # (the pane stays after rulelang ends, so its last screen can be read)
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  f"cd {ROOT} && {command}; echo EXIT $?; sleep 60")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=30,
                              env=dict(os.environ, TERM="xterm-256color"))
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def wait_for(self, text: str, seconds: float = 60) -> str:
        """The screen once ``text`` is on it (its last line, for a prompt)."""
        end = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never appeared; the screen:\n{screen}")
            time.sleep(0.1)

    def send(self, keys: str) -> None:
        self.tmux("send-keys", "-t", "play", "-l", keys)
        self.tmux("send-keys", "-t", "play", "Enter")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def pane_factory():
    panes = []

    def make(*args: str) -> Pane:
        pane = Pane(*args)
        panes.append(pane)
        return pane
    yield make
    for pane in panes:
        pane.close()


def prompt_screen(pane: Pane, seat: int = 0) -> str:
    """The screen when the prompt of ``seat`` is its last line."""
    end = time.monotonic() + 60
    while True:
        screen = pane.screen()
        lines = screen.rstrip().splitlines()
        if lines and lines[-1].startswith(f"P{seat}>") or "EXIT " in screen:
            return screen
        if time.monotonic() > end:
            raise AssertionError(f"no prompt; the screen:\n{screen}")
        time.sleep(0.1)


def test_a_north_pole_turn_in_tmux(pane_factory):
    """The first screen: the title, the decision and its options, the state;
    after a move, what it did; quit prints the seed."""
    pane = pane_factory("rulesets/northpole.rules", "--players", "2", "--seat", "1=random",
                        "--seed", "7")
    first = prompt_screen(pane)
    assert "Racing to the North Pole — 2 players (P0 you, P1 bot), seed 7" in first
    assert "P0 decides: Create your expedition" in first
    assert " 1. Robert Peary" in first and " 7. random" in first
    assert "▶P0 (you) men 5  dogs 7  food 10" in first
    assert "hand: 0 cards (hidden)" in first          # P1's hand, as P0 sees it
    pane.send("robert p")                             # (a unique prefix, any case)
    second = pane.wait_for("— what happened —")
    second = prompt_screen(pane)
    assert "P0 · Create your expedition: Robert Peary" in second
    assert "P0 hoax 0 → 2 (+2)" in second             # what the expedition changed
    assert "P0 decides: " in second
    assert all(len(line) <= 100 for line in second.splitlines())
    pane.send("quit")
    last = pane.wait_for("EXIT 0")
    assert "seed 7" in last


def test_hot_seat_hands_the_screen_over_blank(pane_factory):
    """Two people at one keyboard (NP's hands are hidden, NP-TRV-01): when
    the other seat is to decide, the screen is cleared and waits for it;
    its screen then shows it as 'you' and the other's hand as hidden."""
    pane = pane_factory("rulesets/northpole.rules", "--players", "2", "--seed", "3")
    assert "P0 decides: Create your expedition" in prompt_screen(pane)
    pane.send("1")
    handover = pane.wait_for("Pass the keyboard to P1")
    assert [line for line in handover.splitlines() if line.strip()] == [
        "Pass the keyboard to P1. P1, press Enter when no one else can see the screen."]
    pane.send("")
    screen = prompt_screen(pane, 1)
    assert "▶P1 (you)" in screen and "P1 decides: Create your expedition" in screen
    p0 = screen.split(" P0       ", 1)[1].split(" P1 ", 1)[0] if " P0       " in screen else ""
    assert "hand: 0 cards (hidden)" in p0 or "hand: empty" in p0 or not p0


@pytest.mark.skipif(not LONG, reason="whole games in tmux: RULELANG_LONG=1 (make test-long)")
@pytest.mark.parametrize("ruleset,players", [("northpole", 2), ("endurance", 1)])
def test_a_whole_game_in_tmux(pane_factory, ruleset, players):
    """Answering 1 at every decision until the game ends (at most 400): every
    screen shows a decision with its options; the end shows the result and
    the seed."""
    args = [f"rulesets/{ruleset}.rules", "--players", str(players), "--seed", "3"]
    if players > 1:
        args += ["--seat", "1=random"]
    pane = pane_factory(*args)
    for _ in range(400):
        screen = prompt_screen(pane)
        if "EXIT " in screen:
            break
        assert "P0 decides: " in screen and " 1. " in screen, screen
        before = screen
        pane.send("1")
        end = time.monotonic() + 60
        while pane.screen() == before and time.monotonic() < end:
            time.sleep(0.05)
    else:
        pane.send("quit")
    last = pane.wait_for("EXIT 0", 120)
    assert "seed 3" in last
