"""Checker tests as small rule files, the expected error written next to the
offending line (``# expect: <message>``).  Every expected message must be
reported on its line, and nothing else may be reported."""

from __future__ import annotations

import pathlib
import re

import pytest

import rulelang
from rulelang.check import check
from rulelang.syntax import parse

CASES = sorted((pathlib.Path(__file__).parent / "checker_cases").glob("*.rules"))
EXPECT = re.compile(r"#\s*expect:\s*(.+?)\s*$")


def expectations(text):
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            out.append((number, m.group(1)))
    return out


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_checker_case(path):
    """Each checker case reports exactly the errors written beside its lines."""
    text = path.read_text(encoding="utf-8")
    expected = expectations(text)
    assert expected, "a checker case must expect at least one error"
    found = [(d.line, d.message) for d in check(parse(text, str(path)))]
    missing = [(line, msg) for line, msg in expected
               if not any(fl == line and msg in fm for fl, fm in found)]
    unexpected = [(line, msg) for line, msg in found
                  if not any(el == line and em in msg for el, em in expected)]
    assert not missing and not unexpected, f"missing: {missing}\nunexpected: {unexpected}"


def test_load_raises_with_every_diagnostic():
    """load() raises one RulesetError that carries all the problems found,
    the first one's place on the error itself."""
    path = CASES[0]
    with pytest.raises(rulelang.RulesetError) as info:
        rulelang.load(path)
    err = info.value
    assert isinstance(err, rulelang.RulesetCheckError)
    assert len(err.diagnostics) == len(expectations(path.read_text()))
    assert (err.filename, err.line) == (str(path), err.diagnostics[0].line)
    assert err.column >= 1 and err.message == err.diagnostics[0].message


def test_real_rulesets_are_clean():
    """Every ruleset in rulesets/ checks without errors."""
    for path in sorted((pathlib.Path(__file__).parent.parent / "rulesets").glob("*.rules")):
        assert check(parse(path.read_text(), str(path))) == [], path


def test_a_did_you_mean_is_handed_over_as_data():
    """A "did you mean" is in the message for people and in
    ``Diagnostic.suggestion`` for tools (the language server's quick fix):
    (the name written, the name meant); None where nothing is close."""
    src = '''game "G"
players 2
per player { food 3 }
turn { phase p { fod -= 1  zzzzzz -= 1 } }
score { food }
'''
    with pytest.raises(rulelang.RulesetCheckError) as e:
        rulelang.loads(src)
    by_line = {d.message.split("'")[1]: d for d in e.value.diagnostics}
    assert by_line["fod"].suggestion == ("fod", "food")
    assert by_line["fod"].message.endswith("did you mean 'food'?")
    assert by_line["zzzzzz"].suggestion is None


def test_a_fault_of_a_pattern_is_said_once_not_once_per_thing_it_makes():
    """A piece set made from a pattern ('"Chip {n}" for n from 1
    to 6: size n') repeats its declaration's fault for each thing it
    makes: the checker says each fault once, at its place; two different
    faults at the same place are both said."""
    src = '''game "G"
players 2
pieces chips { "Chip {n}" for n from 1 to 6: size n }
pieces tiles { "{n} of {s}" for n from 1 to 3 and s in red, blue: rank n, size s }
per player { p 0 }
turn { phase p { p += 1 } }
score { p }
'''
    with pytest.raises(rulelang.RulesetCheckError) as e:
        rulelang.loads(src)
    said = [(d.line, d.column, d.message) for d in e.value.diagnostics]
    assert len(said) == len(set(said)) and len(said) >= 2
    assert sorted(line for line, _, m in said if "'size'" in m) == [3, 4]   # (once each)
