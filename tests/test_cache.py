"""The opt-in cache of checked rulesets (``rulelang.cache``): a warm load
is the same game as a cold one, and a cache that is stale, broken, missing
or unwritable never changes what loads."""

from __future__ import annotations

import json
import pathlib

import pytest

import rulelang
from rulelang import cache
from helpers import ROOT, RULESETS



GAME = 'game "{}"\nplayers 1..1\nper player {{ x 1 }}\nturn {{ phase go {{ {} += 1 }} }}\n'


def entries(folder):
    return sorted(pathlib.Path(folder).glob("*.json"))


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_a_warm_load_is_the_same_game(path, tmp_path):
    cold = rulelang.load(path)
    first = rulelang.load(path, cache=tmp_path)
    assert len(entries(tmp_path)) == 1
    warm = rulelang.load(path, cache=tmp_path)
    assert warm.ruleset == cold.ruleset and warm.fingerprint == cold.fingerprint
    assert warm.ruleset.source == cold.ruleset.source
    assert warm.ruleset.filename == str(path)
    players = warm.min_players
    assert warm.playouts(5, seed=11, players=players) == cold.playouts(5, seed=11, players=players)
    # A state saved from the warm game restores in the cold one.
    st = warm.new_game(players=players, seed=4)
    assert cold.restore(st.to_json()) == st
    assert first.fingerprint == cold.fingerprint


def test_entries_are_plain_data_keyed_on_text_and_limits(tmp_path):
    src = (ROOT / "rulesets" / "northpole.rules").read_text(encoding="utf-8")
    target = tmp_path / "np.rules"
    target.write_text(src, encoding="utf-8")
    rulelang.load(target, cache=tmp_path / "c")
    (entry,) = entries(tmp_path / "c")
    data = json.loads(entry.read_text(encoding="utf-8"))
    assert data["format"] == rulelang.serialize.FORMAT      # the IR as data, no code
    # Other limits, or other text, are other entries.
    rulelang.load(target, limits=rulelang.Limits(max_steps=1234), cache=tmp_path / "c")
    assert len(entries(tmp_path / "c")) == 2
    target.write_text(src + "\n# a comment\n", encoding="utf-8")
    rulelang.load(target, cache=tmp_path / "c")
    assert len(entries(tmp_path / "c")) == 3


def test_a_broken_entry_is_made_again(tmp_path):
    path = ROOT / "rulesets" / "northpole.rules"
    rulelang.load(path, cache=tmp_path)
    (entry,) = entries(tmp_path)
    entry.write_text('{"format": "rulelang-ir/1", "title": 5', encoding="utf-8")
    game = rulelang.load(path, cache=tmp_path)
    assert game.ruleset == rulelang.load(path).ruleset
    assert json.loads(entry.read_text(encoding="utf-8"))["format"] == rulelang.serialize.FORMAT


def test_an_edited_file_is_never_read_from_an_old_entry(tmp_path):
    target = tmp_path / "g.rules"
    target.write_text(GAME.format("A", "x"), encoding="utf-8")
    assert rulelang.load(target, cache=tmp_path / "c").ruleset.title == "A"
    target.write_text(GAME.format("B", "x"), encoding="utf-8")
    assert rulelang.load(target, cache=tmp_path / "c").ruleset.title == "B"


def test_errors_are_reported_as_without_a_cache(tmp_path):
    target = tmp_path / "bad.rules"
    target.write_text(GAME.format("Bad", "y"), encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as cold:
        rulelang.load(target)
    with pytest.raises(rulelang.RulesetError) as warm:
        rulelang.load(target, cache=tmp_path / "c")
    assert str(warm.value) == str(cold.value)
    assert entries(tmp_path / "c") == []          # only checked rulesets are kept


def test_an_unwritable_cache_is_skipped(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    game = rulelang.load(ROOT / "rulesets" / "northpole.rules", cache=blocker / "sub")
    assert game.title == rulelang.load(ROOT / "rulesets" / "northpole.rules").title


def test_the_cache_is_opt_in(monkeypatch, tmp_path):
    monkeypatch.delenv("RULELANG_CACHE", raising=False)
    assert cache.directory(None) is None and cache.directory(False) is None
    monkeypatch.setenv("RULELANG_CACHE", str(tmp_path))
    assert cache.directory(None) == tmp_path
    rulelang.load(ROOT / "rulesets" / "northpole.rules")
    assert len(entries(tmp_path)) == 1
    assert cache.directory(False) is None
    monkeypatch.setenv("RULELANG_CACHE", "off")
    assert cache.directory(None) is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("RULELANG_CACHE", "1")
    assert cache.directory(None) == tmp_path / "xdg" / "rulelang"
    assert cache.directory(True) == tmp_path / "xdg" / "rulelang"
