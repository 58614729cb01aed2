"""Per-card counts in the balance report (issue 16: "how often each ...
card ... fired"): every draw of a copy, by the card's name, setup's deals
and cards shuffled back and drawn again included; the cards never drawn
listed; in the terminal report, --json and --html; merging exactly."""

from __future__ import annotations

import importlib.util
import json

import rulelang
from rulelang.balance import Setup, Tally, play_range
from rulelang.cli import main
from helpers import ROOT

#: Two cards a turn from a deck of three, refilled from the discards: each
#: game (three turns, one player) draws 1 in setup and 2 a turn, so 7 draws,
#: and every card is shuffled back and drawn again.  'Joker' is in a deck
#: nothing draws from; 'Blank' is moved, never drawn.
DECKS = '''game "Decks"
players 1
global { turns 0 }
deck main refills from discard { Ace  King  Queen }
deck spare { Joker  Blank }
pile hand
pile discard
pile table
setup { draw 1 from main to hand  move card Blank from spare to table }
turn { phase p {
    choose one "Go" { "Draw": draw 2 from main to hand }
    move all from hand to discard
    turns += 1
} }
end "done" when turns is 3
'''


def _game(tmp_path):
    path = tmp_path / "decks.rules"
    path.write_text(DECKS, encoding="utf-8")
    return path, rulelang.load(path)


def test_every_draw_is_counted_by_name(tmp_path):
    _, game = _game(tmp_path)
    t = play_range(game, Setup(players=1, seats=("random",)), 0, 10)
    assert t.games == 10
    assert sum(t.cards.values()) == 10 * 7
    # Three cards, seven draws a game: each is drawn twice or three times.
    assert all(20 <= t.cards[c] <= 30 for c in ("Ace", "King", "Queen")), t.cards
    assert t.cards["Joker"] == 0 and t.cards["Blank"] == 0


def test_card_counts_merge_exactly_and_stay_off_without_firing(tmp_path):
    _, game = _game(tmp_path)
    setup = Setup(players=1, seats=("random",))
    whole = play_range(game, setup, 3, 9).to_dict()
    merged = Tally(1)
    for a, b in [(3, 5), (5, 12)]:
        merged.merge(play_range(game, setup, a, b - a))
    assert merged.to_dict()["cards"] == whole["cards"]
    assert Tally.from_dict(json.loads(json.dumps(whole))).to_dict() == whole
    quiet = play_range(game, Setup(players=1, seats=("random",), firing=False), 3, 9)
    assert quiet.cards == {}


def test_cards_in_the_report_json_and_html(tmp_path, capsys):
    path, _ = _game(tmp_path)
    out_json, page = tmp_path / "r.json", tmp_path / "r.html"
    argv = ["simulate", str(path), "--games", "4", "--json", str(out_json)]
    html = importlib.util.find_spec("matplotlib") is not None     # (the page needs it)
    if html:
        argv += ["--html", str(page)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Cards drawn: 3 of 5 cards were drawn" in out
    drawn = out.split("most often:\n")[-1].split("Never drawn")[0].splitlines()
    assert sorted(line.split("a game  ")[1] for line in drawn) == ["Ace", "King", "Queen"]
    assert out.split("Never drawn (2):\n")[1].splitlines()[:2] == ["  Blank", "  Joker"]
    f = json.loads(out_json.read_text())["figures"]
    assert sum(f["cards"].values()) == 4 * 7 and f["cards_never_drawn"] == ["Blank", "Joker"]
    if html:
        text = page.read_text(encoding="utf-8")
        assert "<h2>Cards drawn (5 cards" in text and "<h2>Never drawn (2)</h2>" in text
        assert "<td>Queen</td>" in text


def test_a_shipped_deck_game_counts_every_card():
    """Endurance: 40 Action cards, 15 Events, 5 set aside, 18 Lifeboat
    cards; setup alone draws 32 (15 + 15 + 2 from the main deck) and 3 Events."""
    game = rulelang.load(ROOT / "rulesets" / "endurance.rules")
    t = play_range(game, Setup(players=1, seats=("random",)), 0, 2)
    assert len(t.cards) == 67 and sum(t.cards.values()) >= 2 * 35
    assert sum(v for k, v in t.cards.items() if k[:2].isdigit()) >= 2 * 32
