"""``rulelang lsp`` end to end: a client speaking LSP to the server over its
stdin and stdout (``lsp_client``), one test per feature, on the shipped
rulesets and examples.  What the server answers is compared with what the
rest of rulelang says (the checker's messages, the IR's declarations), or
with what is counted in the file by other means."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (the 'lsp' extra)")

from lsprotocol import types as lsp  # noqa: E402

from rulelang import errors, loads  # noqa: E402
from rulelang.check import check_all  # noqa: E402
from rulelang.lsp import reference  # noqa: E402
from rulelang.syntax import parse  # noqa: E402
from rulelang.words import KEYWORDS  # noqa: E402

from lsp_client import Client, apply_edits  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def client():
    c = Client()
    yield c
    c.close()


def opened(client: Client, path: str, text: str = "", name: str = ""):
    """(uri, text, diagnostics) of a shipped file opened in the server
    (under another name when the test changes it, so tests stay apart)."""
    source = ROOT / path
    text = text or source.read_text(encoding="utf-8")
    uri = source.with_name(name or source.name).as_uri()
    return uri, text, client.open(uri, text)


def where(text: str, pattern: str, nth: int = 0):
    """(line, column) of the ``nth`` match of ``pattern`` (its group 1 if
    it has one), 0-based, in characters."""
    m = list(re.finditer(pattern, text))[nth]
    start = m.start(1) if m.groups() else m.start()
    line = text.count("\n", 0, start)
    return line, start - (text.rfind("\n", 0, start) + 1)


def code_of(text: str) -> str:
    """The text with its comments blanked (a comment runs from # to the line's end)."""
    return re.sub(r'("[^"\n]*")|#[^\n]*', lambda m: m.group(1) or "", text)


def test_the_server_says_what_it_can_do(client):
    caps = client.initialized.capabilities
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.rename_provider and caps.completion_provider and caps.document_symbol_provider
    assert caps.document_formatting_provider and caps.code_action_provider
    assert client.initialized.server_info.name == "rulelang"


@pytest.mark.parametrize("path", ["rulesets/northpole.rules", "rulesets/endurance.rules",
                                  "rulesets/deepsea.rules", "rulesets/expedition.rules",
                                  "examples/blackjack.rules", "examples/hex.rules"])
def test_a_sound_ruleset_has_no_diagnostics(client, path):
    """Every shipped file opens clean, as `rulelang check` finds it."""
    _, _, diagnostics = opened(client, path)
    assert diagnostics == []


def test_diagnostics_as_you_type_are_the_checks_messages(client):
    """Each change is checked again: a misspelt name gives the checker's
    message at its place, a syntax error the parser's, a fix clears them."""
    uri, text, diagnostics = opened(client, "rulesets/northpole.rules", name="typing.rules")
    assert diagnostics == []
    bad = text.replace("if food > 0: food -= 1", "if fod > 0: food -= 1").replace(
        "skill 5 min 0", "skill 5 min 0 max spaces_per_shp")
    got = client.change(uri, bad)
    errors_, _ = check_all(parse(bad, "typing.rules"))
    assert [(d.message, d.range.start.line, d.range.start.character) for d in got] == \
        [(e.message, e.line - 1, e.column - 1) for e in errors_]
    assert len(got) == 2 and all(d.severity == lsp.DiagnosticSeverity.Error for d in got)
    fod = next(d for d in got if "'fod'" in d.message)
    assert fod.range.end.character - fod.range.start.character == len("fod")

    broken = text.replace("phase travel {", "phase travel")
    got = client.change(uri, broken)
    with pytest.raises(errors.RulesetSyntaxError) as e:
        parse(broken, "typing.rules")
    assert [d.message for d in got] == [d.message for d in e.value.diagnostics]
    assert got[0].range.start.line == e.value.line - 1

    assert client.change(uri, text) == []


def test_a_checker_warning_is_a_warning(client):
    """What `check` prints as a warning comes with warning severity and its words."""
    text = (ROOT / "examples/pig.rules").read_text(encoding="utf-8")
    unused = text + "\nrule never_called { banked += 1 }\n"
    _, warned = check_all(parse(unused, "w.rules"))
    assert warned
    _, _, got = opened(client, "examples/pig.rules", unused, name="warned.rules")
    assert [(d.message, d.severity, d.range.start.line) for d in got] == \
        [(w.message, lsp.DiagnosticSeverity.Warning, w.line - 1) for w in warned]


def test_positions_are_in_utf16_units(client):
    """A name after characters outside the BMP is placed in UTF-16 units, as
    LSP counts by default."""
    text = (ROOT / "examples/pig.rules").read_text(encoding="utf-8")
    bad = text.replace('log "a 1: the turn\'s {held} is lost"',
                       'log "\U0001d11e\U0001d11e é"; held += fod')
    uri, _, got = opened(client, "examples/pig.rules", bad, name="utf16.rules")
    (d,) = got
    line = bad.split("\n")[d.range.start.line]
    prefix = line[:line.index("fod")]
    assert d.range.start.character == len(prefix.encode("utf-16-le")) // 2 == len(prefix) + 2
    hovered = client.hover(uri, d.range.start.line, len(prefix.encode("utf-16-le")) // 2 - 4)
    assert hovered is not None and "held" in hovered.contents.value


def test_hover_on_a_stat_gives_its_bounds(client):
    uri, text, _ = opened(client, "rulesets/northpole.rules")
    line, col = where(text, r"if (food) > 0")
    h = client.hover(uri, line, col + 1)
    assert "stat" in h.contents.value and "food" in h.contents.value
    assert "starts at 10" in h.contents.value and "min 0" in h.contents.value
    assert (h.range.start.line, h.range.start.character, h.range.end.character) == (line, col, col + 4)
    line, col = where(text, r"(position) 0 min 0 max pole")
    assert "max pole" in client.hover(uri, line, col).contents.value


def test_hover_on_a_rule_gives_its_parameters(client):
    uri, text, _ = opened(client, "rulesets/expedition.rules")
    line, col = where(text, r"rule (can_enter) ")
    value = client.hover(uri, line, col).contents.value
    assert "rule" in value and "from: map, to: map" in value and "gives yes/no" in value
    line, col = where(text, r"if (can_enter)\(here, s\)")
    assert "from: map, to: map" in client.hover(uri, line, col).contents.value


def test_hover_on_a_card_gives_its_properties(client):
    uri, text, _ = opened(client, "rulesets/expedition.rules")
    line, col = where(text, r"move card (Quinine) from box")
    value = client.hover(uri, line, col).contents.value
    assert '"Quinine"' in value and "deck `box`" in value and "x10" in value
    assert "abundant yes" in value


def test_hover_on_a_keyword_gives_its_reference_entry(client):
    uri, text, _ = opened(client, "examples/pig.rules")
    line, col = where(text, r"(while) banked")
    value = client.hover(uri, line, col).contents.value
    heading, body = next((h, b) for h, b in reference.sections() if h == "while")
    assert value.startswith("**while** — while")
    assert body.splitlines()[2] in value        # the section's own words, from docs/language.md


def test_go_to_definition(client):
    uri, text, _ = opened(client, "examples/pig.rules")
    line, col = where(text, r"held < (target)")
    loc = client.definition(uri, line, col)
    assert (loc.range.start.line, loc.range.start.character) == where(text, r"(?m)^param (target)")
    uri, text, _ = opened(client, "rulesets/northpole.rules")
    line, col = where(text, r"if failed: (morale_check)")
    loc = client.definition(uri, line, col)
    assert (loc.range.start.line, loc.range.start.character) == where(text, r"(?m)^rule (morale_check)")
    # a local: its 'let'
    uri, text, _ = opened(client, "examples/pig.rules")
    line, col = where(text, r"held \+= (face)")
    loc = client.definition(uri, line, col)
    assert (loc.range.start.line, loc.range.start.character) == where(text, r"let (face)")


SHIPPED = sorted(p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("rulesets/*.rules"),
                                                           *ROOT.glob("examples/*.rules")])


@pytest.mark.parametrize("path", SHIPPED)
def test_every_name_read_has_a_declaration_and_a_hover(path):
    """On every shipped file (the analysis the server answers from): each
    name it finds a meaning for has a declaration to go to and a hover,
    and a name the checker's resolver bound means what the resolver says."""
    from rulelang.lsp.analysis import analyse
    from rulelang import ir
    text = (ROOT / path).read_text(encoding="utf-8")
    a = analyse(text, path)
    assert a.problems == [] and len(a.occurrences) > 10
    for occ in a.occurrences:
        assert occ.symbol in a.definitions and a.hovers.get(occ.symbol), occ
    kinds = {"local": "local", "player": "stat", "global": "stat", "card": "property",
             "piece": "field", "word": "word", "const": ("const", "param")}
    by_place = {(o.place.line, o.place.start): o.symbol for o in a.occurrences}
    checked = 0
    for node in ir.walk(a.rs):
        if isinstance(node, ir.Name) and node.pos is not None:
            binding = a.resolved.binding(node)
            symbol = by_place.get((node.pos.line - 1, node.pos.column - 1))
            if binding is not None and symbol is not None and symbol.name == node.name:
                assert symbol.kind in kinds[binding.kind], (node, binding, symbol)
                checked += 1
    assert checked >= 3


def test_find_references(client):
    """Every place `held` is read or written, the log line's {held} too,
    counted against the file's code with the comments left out."""
    uri, text, _ = opened(client, "examples/pig.rules")
    line, col = where(text, r"(held) 0")
    found = {(r.range.start.line, r.range.start.character) for r in client.references(uri, line, col)}
    code = code_of(text)
    expected = {where(code, r"\b(held)\b", i) for i in range(len(re.findall(r"\bheld\b", code)))}
    assert found == expected and len(found) == 9
    without = client.references(uri, line, col, declaration=False)
    assert len(without) == len(found) - 1
    # a card property is not the stat of the same name
    uri, text, _ = opened(client, "rulesets/northpole.rules")
    line, col = where(text, r"sum of (food) in hand")
    props = {(r.range.start.line, r.range.start.character) for r in client.references(uri, line, col)}
    line, col = where(text, r"if (food) > 0")
    stats = {(r.range.start.line, r.range.start.character) for r in client.references(uri, line, col)}
    assert props and stats and not props & stats
    assert where(text, r"Hunting\s+x5:\s+move 0, (food) 1") in props
    # a deck called by a keyword ('deck cards'): its uses, not the keyword's
    uri, text, _ = opened(client, "examples/kuhn_poker.rules")
    line, col = where(text, r"draw 1 from (cards)")
    found = {(r.range.start.line, r.range.start.character) for r in client.references(uri, line, col)}
    assert found == {where(text, r"deck (cards)"), (line, col), where(text, r"move all from (cards)")}


def test_rename_a_stat_and_a_local(client):
    """After a rename the file still loads, and plays the same game."""
    uri, text, _ = opened(client, "examples/pig.rules", name="rename.rules")
    line, col = where(text, r"(banked) \+= held")
    edit = client.rename(uri, line, col, "bank_total")
    renamed = apply_edits(text, edit.changes[uri])
    assert not re.search(r"\bbanked\b", code_of(renamed)) and "bank_total" in renamed
    client.change(uri, renamed)
    line, col = where(renamed, r"let (face)")
    edit = client.rename(uri, line, col, "die_face")
    renamed = apply_edits(renamed, edit.changes[uri])
    assert not re.search(r"\bface\b", code_of(renamed)) and renamed.count("die_face") == 3
    before, after = loads(text).new_game(players=2, seed=3), loads(renamed).new_game(players=2, seed=3)
    while not before.is_over:
        moves = before.legal_moves()
        assert [m.label for m in moves] == [m.label for m in after.legal_moves()]
        before.apply(moves[0])
        after.apply(after.legal_moves()[0])
    assert before.result().scores == after.result().scores


def test_rename_a_card(client):
    """A card renamed: its line in the deck and every place a rule names it."""
    uri, text, _ = opened(client, "rulesets/expedition.rules", name="card.rules")
    line, col = where(text, r"move card (Quinine) from box")
    edit = client.rename(uri, line, col, "Cinchona")
    renamed = apply_edits(text, edit.changes[uri])
    code = code_of(text)
    named = len(re.findall(r'(?<!")\bQuinine\b(?!")', re.sub(r'"[^"\n]*"', '""', code)))
    assert len(edit.changes[uri]) == named >= 4
    assert not re.search(r"\bQuinine\b", re.sub(r'"[^"\n]*"', '""', code_of(renamed)))
    assert "Cinchona" in {c.name for d in loads(renamed).ruleset.decks for c in d.cards}
    assert client.change(uri, renamed) == []


def test_rename_to_a_keyword_is_refused(client):
    uri, text, _ = opened(client, "examples/pig.rules")
    line, col = where(text, r"(banked) \+= held")
    with pytest.raises(Exception) as e:
        client.rename(uri, line, col, "while")
    assert "not a name" in str(e.value)


def test_completion_offers_names_in_scope_keywords_cards_and_pieces(client):
    uri, text, _ = opened(client, "rulesets/expedition.rules")
    inside = where(text, r"(give) s\.search")
    labels = {i.label: i for i in client.completion(uri, *inside).items}
    assert "s" in labels and labels["s"].kind == lsp.CompletionItemKind.Variable
    assert labels["Quinine"].kind == lsp.CompletionItemKind.EnumMember          # a card
    assert labels["porters"].kind == lsp.CompletionItemKind.Variable            # a stat
    assert labels["equip"].kind == lsp.CompletionItemKind.Function              # a rule
    assert KEYWORDS <= set(labels)
    outside = where(text, r"(rule) explore")
    assert "s" not in {i.label for i in client.completion(uri, *outside).items}
    uri, text, _ = opened(client, "rulesets/northpole.rules")
    labels = {i.label for i in client.completion(uri, 0, 0).items}
    assert '"Cracked Ice"' in labels and "Trek" in labels            # quoted where it must be
    uri, text, _ = opened(client, "examples/hare_and_hounds.rules")
    rs = parse(text, "h.rules")
    pieces = {p.name for ps in rs.pieces for p in ps.pieces}
    labels = {i.label.strip('"') for i in client.completion(uri, 0, 0).items}
    assert pieces and pieces <= labels


def test_completion_while_the_file_does_not_parse(client):
    """Half-typed text still completes the names of the last good version."""
    uri, text, _ = opened(client, "examples/pig.rules", name="half.rules")
    half = text.replace("        banked += held\n", "        banked += he\n    if\n")
    client.change(uri, half)
    line, col = where(half, r"banked \+= (he)")
    labels = {i.label for i in client.completion(uri, line, col + 2).items}
    assert {"held", "banked", "target"} <= labels


def test_document_symbols_outline_the_ruleset(client):
    uri, text, _ = opened(client, "rulesets/northpole.rules")
    rs = parse(text, "n.rules")
    symbols = {s.name: s for s in client.symbols(uri)}
    travel = symbols["travel"]
    assert travel.kind == lsp.SymbolKind.Class
    assert [c.name for c in travel.children] == [c.name for c in rs.decks[0].cards]
    for r in rs.rules:
        assert symbols[r.name].kind == lsp.SymbolKind.Function
        assert symbols[r.name].selection_range.start.line == where(text, rf"(?m)^rule ({r.name})\b")[0]
    assert [c.name for c in symbols["turn"].children] == [p.name for p in rs.turn.phases]
    assert {"per player", "global", "setup", "score", "events", "discard"} <= set(symbols)
    per_player = {c.name for c in symbols["per player"].children}
    assert {"men", "food", "position", "status"} <= per_player
    for s in symbols.values():        # every entry's name is inside its range
        assert (s.range.start.line, s.range.start.character) <= \
            (s.selection_range.start.line, s.selection_range.start.character)
        assert (s.selection_range.end.line, s.selection_range.end.character) <= \
            (s.range.end.line, s.range.end.character)


@pytest.mark.skipif(importlib.util.find_spec("rulelang.syntax.fmt") is None,
                    reason="rulelang.syntax.fmt (the formatter, the other half of issue 19) is not "
                           "on this branch: the server answers no edits without it")
def test_formatting_is_rulelang_fmt(client):
    from rulelang.syntax.fmt import format_source
    text = (ROOT / "examples/pig.rules").read_text(encoding="utf-8")
    messy = "\n".join(line.strip() for line in text.split("\n"))
    uri, _, _ = opened(client, "examples/pig.rules", messy, name="messy.rules")
    edits = client.formatting(uri)
    formatted = apply_edits(messy, edits)
    assert formatted == format_source(messy, "messy.rules") != messy
    assert parse(formatted) == parse(text)
    client.change(uri, formatted)
    assert client.formatting(uri) == []


def test_formatting_a_file_that_does_not_parse_changes_nothing(client):
    text = (ROOT / "examples/pig.rules").read_text(encoding="utf-8")
    uri, _, got = opened(client, "examples/pig.rules", text.replace("turn {", "turn {{"),
                         name="unformattable.rules")
    assert got and client.formatting(uri) == []


def test_code_action_applies_did_you_mean(client):
    uri, text, _ = opened(client, "rulesets/northpole.rules", name="quickfix.rules")
    bad = text.replace("if food > 0: food -= 1", "if fod > 0: food -= 1")
    (d,) = client.change(uri, bad)
    assert d.message.endswith("did you mean 'food'?")
    (action,) = client.code_actions(uri, d.range, [d])
    assert action.kind == lsp.CodeActionKind.QuickFix and action.title == "Change to 'food'"
    assert apply_edits(bad, action.edit.changes[uri]) == text
    # a misspelt pile: the message's quoted name, found after the problem's place
    bad = text.replace("deck travel refills from discard", "deck travel refills from dicard")
    diagnostics = client.change(uri, bad)
    (d,) = [d for d in diagnostics if "did you mean 'discard'" in d.message]
    actions = client.code_actions(uri, d.range, [d])
    assert len(actions) == 1 and apply_edits(bad, actions[0].edit.changes[uri]) == text
    # a suggestion in the middle of the message (the checker hands it over
    # as data, Diagnostic.suggestion: the message is not read for it)
    bad = text.replace("position = max(position - total, start)", "position = mx(position - total, start)")
    (d,) = client.change(uri, bad)
    assert "did you mean 'max'?; the functions are" in d.message
    (action,) = client.code_actions(uri, d.range, [d])
    assert action.title == "Change to 'max'" and apply_edits(bad, action.edit.changes[uri]) == text
    # nothing to offer where there is no suggestion
    line = where(text, r"game ")[0]
    assert client.code_actions(uri, lsp.Range(start=lsp.Position(line=line, character=0),
                                              end=lsp.Position(line=line, character=4)), []) == []


def test_hostile_text_gets_diagnostics_not_a_crash(client):
    """Nested brackets past the limit, control characters, an unclosed
    text: each gets diagnostics, and the server keeps answering."""
    for i, text in enumerate(["(" * 5000, "game \x00\x01 \"x", "per player {" * 300 + "\u202e",
                              "rule r { let x = " + "-" * 20000 + "1 }"]):
        uri, _, got = opened(client, "examples/pig.rules", text, name=f"hostile{i}.rules")
        assert got, text[:20]
        client.hover(uri, 0, 0)
        client.symbols(uri)
        client.completion(uri, 0, 1)
    uri, text, _ = opened(client, "examples/pig.rules")
    assert client.hover(uri, *where(text, r"(banked) \+= held")) is not None
