"""The VS Code extension's TextMate grammar (editors/vscode), run by
vscode-textmate and vscode-oniguruma (the libraries VS Code tokenizes
with, installed from the npm registry by `npm ci` in editors/vscode/test
from its committed package-lock.json) on every shipped rule file: each
character gets the same kind of scope as the Pygments lexer gives it
(keyword, name, number, text, comment…), and none is left unscoped."""

from __future__ import annotations

import bisect
import fcntl
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygments", reason="the grammar is compared with the Pygments lexer")

from pygments.token import (Comment, Keyword, Name, Number, Operator,  # noqa: E402
                            Punctuation, String, Text)

from rulelang.highlight import RulelangLexer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VSCODE = ROOT / "editors" / "vscode"
HARNESS = VSCODE / "test"
FILES = sorted(p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("rulesets/*.rules"),
                                                         *ROOT.glob("examples/*.rules")])


def _node_tools() -> str:
    missing = [t for t in ("node", "npm") if shutil.which(t) is None]
    return f"{' and '.join(missing)} not found: the grammar test runs vscode-textmate under Node" \
        if missing else ""


@pytest.fixture(scope="module")
def tokenized():
    """file -> lines -> [start, end, scopes] as vscode-textmate gives them."""
    why = _node_tools()
    if why:
        pytest.skip(why)
    # one install at a time: under pytest -n, several workers get here at once
    with open(HARNESS / ".install-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (HARNESS / "node_modules" / "vscode-textmate").is_dir():
            done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                                  cwd=HARNESS, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"npm ci in {HARNESS} failed:\n{done.stdout}\n{done.stderr}"
    done = subprocess.run(["node", "tokenize.js", *[str(ROOT / f) for f in FILES]], cwd=HARNESS,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {Path(k).relative_to(ROOT).as_posix(): v for k, v in json.loads(done.stdout).items()}


def tm_kind(scopes):
    """The kind of the innermost scope, in the words ``pygments_kind`` uses."""
    scope = scopes[-1]
    for prefix, kind in (("comment", "comment"), ("variable.other.placeholder", "placeholder"),
                         ("string", "string"), ("keyword.operator", "operator"),
                         ("keyword", "keyword"), ("constant.language", "constant"),
                         ("constant.numeric", "number"), ("entity.name.function", "function"),
                         ("entity.name.type", "type"), ("variable.other.constant", "constant name"),
                         ("variable.other", "name"), ("punctuation", "punctuation")):
        if scope.startswith(prefix):
            return kind
    return "unscoped" if scope == "source.rulelang" else scope


def pygments_kind(token):
    for t, kind in ((Comment, "comment"), (String.Interpol, "placeholder"), (String, "string"),
                    (Operator, "operator"), (Keyword.Constant, "constant"), (Keyword, "keyword"),
                    (Number, "number"), (Name.Function, "function"), (Name.Class, "type"),
                    (Name.Constant, "constant name"), (Name, "name"), (Punctuation, "punctuation"),
                    (Text, "space")):
        if token in t:
            return kind
    return str(token)


def test_the_grammar_is_made_from_the_keywords():
    """rulelang.tmLanguage.json is what make_grammar.py writes from rulelang.words now."""
    sys.path.insert(0, str(VSCODE / "syntaxes"))
    try:
        import make_grammar
    finally:
        sys.path.pop(0)
    assert (VSCODE / "syntaxes" / "rulelang.tmLanguage.json").read_text(encoding="utf-8") == \
        make_grammar.render(), "run python editors/vscode/syntaxes/make_grammar.py"


@pytest.mark.parametrize("path", FILES)
def test_every_character_is_scoped_as_the_lexer_reads_it(tokenized, path):
    text = (ROOT / path).read_text(encoding="utf-8")
    lines = text.split("\n")
    expected = [["space"] * len(line) for line in lines]     # per line: each character's kind
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for start, token, value in RulelangLexer().get_tokens_unprocessed(text):
        kind = pygments_kind(token)
        n = bisect.bisect_right(starts, start) - 1
        col = start - starts[n]
        for ch in value:
            if ch == "\n":
                n, col = n + 1, 0
                continue
            expected[n][col] = kind
            col += 1
    wrong = []
    for n, (line, toks) in enumerate(zip(lines, tokenized[path])):
        for start, end, scopes in toks:
            got = tm_kind(scopes)
            for col in range(start, min(end, len(line))):
                if line[col].isspace():
                    continue
                if got != expected[n][col]:
                    wrong.append(f"{path}:{n + 1}:{col + 1}: {line[col]!r} in {line.strip()!r}: "
                                 f"scoped {got} ({scopes[-1]}), the lexer says {expected[n][col]}")
                    break
    assert wrong == [], "\n".join(wrong[:20])


def test_keywords_and_names_on_one_line(tokenized):
    """On a line of the Pig example: the keywords, the names, the die."""
    path = "examples/pig.rules"
    lines = (ROOT / path).read_text(encoding="utf-8").split("\n")
    n = next(i for i, line in enumerate(lines) if "let face = roll d6" in line)
    by_text = {lines[n][s:e]: scopes[-1] for s, e, scopes in tokenized[path][n]}
    assert by_text["let"].startswith("keyword") and by_text["roll"].startswith("keyword")
    assert by_text["face"] == "variable.other.rulelang"
    assert by_text["d6"] == "constant.numeric.dice.rulelang"
    n = next(i for i, line in enumerate(lines) if line.startswith("param target"))
    by_text = {lines[n][s:e]: scopes[-1] for s, e, scopes in tokenized[path][n]}
    assert by_text["target"] == "variable.other.constant.rulelang"
    assert by_text['"Points to win"'.strip('"')].startswith("string")


def test_a_keyword_used_as_a_name_before_a_dot(tokenized):
    """Expedition's rule has parameters called 'from' and 'to': 'to.walk' reads as a name."""
    path = "rulesets/expedition.rules"
    lines = (ROOT / path).read_text(encoding="utf-8").split("\n")
    n = next(i for i, line in enumerate(lines) if "give to.walk <= time" in line)
    scoped = [(lines[n][s:e], scopes[-1]) for s, e, scopes in tokenized[path][n] if lines[n][s:e].strip()]
    assert scoped[:4] == [("give", "keyword.control.rulelang"), ("to", "variable.other.rulelang"),
                          (".", "punctuation.separator.rulelang"), ("walk", "variable.other.rulelang")]


def test_the_extension_is_described():
    """package.json names the language, grammar, configuration and snippets
    it ships (each file there and valid JSON), and starts `rulelang lsp`."""
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "rulelang" and ".rules" in language["extensions"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["scopeName"] == "source.rulelang"
    for rel in (language["configuration"], grammar["path"],
                *[s["path"] for s in manifest["contributes"]["snippets"]]):
        json.loads((VSCODE / rel).read_text(encoding="utf-8"))
    config = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert ["{", "}"] in config["brackets"] and ["(", ")"] in config["brackets"]
    server = manifest["contributes"]["configuration"]["properties"]["rulelang.server.command"]
    assert server["default"] == ["rulelang", "lsp"]
    extension = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert "vscode-languageclient" in extension and "rulelang.server.command" in extension
    if shutil.which("node"):
        done = subprocess.run(["node", "--check", str(VSCODE / manifest["main"])],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr


def test_snippets_expand_to_rules_that_parse():
    """Each snippet, its placeholders given their defaults, is rulelang the
    parser reads (the ones for statements inside a rule)."""
    from rulelang.syntax import parse
    snippets = json.loads((VSCODE / "snippets" / "rulelang.json").read_text(encoding="utf-8"))
    assert len({s["prefix"] for s in snippets.values()}) == len(snippets)
    for name, s in snippets.items():
        body = "\n".join(s["body"]) if isinstance(s["body"], list) else s["body"]
        text = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", body)
        text = re.sub(r"\$\{\d+\|([^,|]*)[^}]*\}", r"\1", text)
        text = re.sub(r"\$\d+", "", text)
        if name.startswith("statement"):
            text = "game \"g\"\nplayers 2\nper player { a 0 }\nrule r {\n" + text + "\n}\n"
        elif not text.lstrip().startswith(("game", "players")):
            text = "game \"g\"\nplayers 2\nper player { a 0 }\n" + text
        parse(text, f"snippet {name}")
