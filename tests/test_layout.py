"""The package's layout shows the pipeline: no module imports, at its top
or inside a function, a module that imports it back (directly or through
others); each stage imports only from the stages before it; and no module
of the packages already split is over ``MOST_LINES`` lines.  The graph is
read from the source with ``ast``."""

from __future__ import annotations

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "rulelang"


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name):
    """Whether ``name`` is a module or a package of rulelang (not a name
    defined in one)."""
    where = PACKAGE.parent / name.replace(".", "/")
    return where.with_suffix(".py").exists() or (where / "__init__.py").exists()


def imports_of(path):
    """The rulelang modules ``path`` imports (package __init__s that only
    re-export are followed through, as Python runs them)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("rulelang"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if _is_module(sub) else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("rulelang"))
    out.discard(name)
    return out


def graph():
    return {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}


def cycles(g):
    """Every strongly connected group of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in g:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


# Modules that import the package root or a facade for what they offer
# (``rulelang/__init__.py`` re-exports; ``__main__`` runs the command line).
ROOTS = {"rulelang", "rulelang.__main__"}


def test_no_module_imports_one_that_imports_it_back():
    g = {k: v - ROOTS for k, v in graph().items() if k not in ROOTS}
    found = cycles(g)
    assert not found, f"import circles: {found}"


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# ---------------------------------------------------------------- the stages

#: The stages in pipeline order, each with the modules (or packages) it
#: holds.  A module may import from its own stage and from the stages
#: before it, never from a later one nor from another stage of its rank:
#: the IR imports no parser, checker or engine; the parser and the checker
#: (both readers of the IR, rank 2) import neither each other nor the
#: engine; the engine imports no tool.
STAGES = [
    (0, "base", ("rulelang.version", "rulelang.errors", "rulelang.limits", "rulelang.documents",
                 "rulelang.words", "rulelang.show")),
    (1, "ir", ("rulelang.ir",)),
    (2, "syntax", ("rulelang.syntax",)),
    (2, "check", ("rulelang.check",)),
    (3, "trust", ("rulelang.trust",)),
    (4, "engine", ("rulelang.engine",)),
    (5, "tools", ("rulelang.api", "rulelang.validate", "rulelang.cli",
                  "rulelang.testing", "rulelang.simulate", "rulelang.serve", "rulelang.play",
                  "rulelang.highlight", "rulelang.lsp", "rulelang.adapters",
                  "rulelang.players", "rulelang.balance")),
]


def stage_of(module):
    for rank, name, prefixes in STAGES:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank, name
    return None


def test_every_module_has_a_stage():
    unplaced = sorted(m for m in graph() if m not in ROOTS and stage_of(m) is None)
    assert not unplaced, f"modules in no stage (add them to STAGES): {unplaced}"


def test_each_stage_imports_only_from_the_stages_before_it():
    wrong = []
    for module, imports in sorted(graph().items()):
        if module in ROOTS:
            continue
        rank, stage = stage_of(module)
        for target in sorted(imports):
            there = stage_of(target)
            if target in ROOTS or there is None or there[1] == stage:
                continue
            if there[0] >= rank:
                wrong.append(f"{module} ({stage}) imports {target} ({there[1]})")
    assert not wrong, "imports against the pipeline:\n" + "\n".join(wrong)


def test_the_stage_check_finds_a_backward_import():
    assert stage_of("rulelang.ir.walk") == (1, "ir")
    assert stage_of("rulelang.check.resolve")[0] == stage_of("rulelang.syntax.parse")[0]
    assert stage_of("rulelang.engine.program")[0] > stage_of("rulelang.check")[0]
    assert stage_of("rulelang.irony") is None


def test_package_imports_are_read_as_modules():
    """``from .. import ir`` imports the package rulelang.ir, not the root."""
    assert "rulelang.ir" in imports_of(PACKAGE / "check" / "base.py")
    assert "rulelang.check.resolve" in imports_of(PACKAGE / "engine" / "source.py")


# ---------------------------------------------------------------- sizes

#: The longest a module of the package may be: one meaning a module.
MOST_LINES = 700


def test_no_module_is_too_long():
    long = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MOST_LINES:
            long[module_name(path)] = lines
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def test_a_compiled_program_is_frozen():
    """``Program`` is data made by ``compile_ruleset``: once built, nothing
    sets or deletes its attributes (a game cannot change another's rules)."""
    import pytest

    import rulelang
    prog = rulelang.load(PACKAGE.parent / "examples" / "pig.rules").prog
    with pytest.raises(AttributeError, match="frozen"):
        prog.K = 3
    with pytest.raises(AttributeError, match="frozen"):
        del prog.codes
    assert prog.K >= 1 and prog.codes


def test_import_rulelang_leaves_out_what_only_some_programs_need():
    """``import rulelang`` and a load (issue 20: the first load in a fresh
    process) do not import the saves (read and written only when a game is
    kept), the syntax errors' diagnosis, or difflib (for a "did you mean");
    each comes in when first used."""
    import subprocess
    import sys
    from rulelang.testing.audit import FIRST_USE
    code = ("import sys, rulelang; rulelang.load(sys.argv[1]); "
            f"print(' '.join(m for m in {FIRST_USE!r} if m in sys.modules))")
    root = pathlib.Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code, str(root / "examples" / "nim.rules")],
                         capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == ""
    saved = subprocess.run([sys.executable, "-c", code.replace(
        "rulelang.load(sys.argv[1]);", "rulelang.load(sys.argv[1]).new_game(seed=1).to_json();")
        , str(root / "examples" / "nim.rules")], capture_output=True, text=True, check=True, cwd=root)
    assert saved.stdout.split() == ["rulelang.engine.saves"]


#: What a load of a rule file does without (issue 20, the first load in a
#: fresh process): each is imported when a program first uses it
#: (``fractions`` when a chance's odds are first asked for).
LOAD_LEAVES_OUT = ("rulelang.documents", "rulelang.ir.serialize",
                   "rulelang.ir.shape", "rulelang.ir.schema", "hashlib", "pathlib", "lark", "yaml",
                   "jsonschema", "cattrs", "fractions")


def test_a_load_leaves_out_the_data_forms_and_their_libraries():
    """``import rulelang`` and a load of a rule file, in a process whose
    start-up imported nothing (``-S``: no ``site``, which in a development
    install imports ``pathlib`` and more itself), import none of
    ``LOAD_LEAVES_OUT``; yet ``rulelang.serialize`` still answers."""
    import site
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parent.parent
    path = [str(root)] + site.getsitepackages()
    code = ("import sys; sys.path[:0] = sys.argv[2:]; import rulelang; rulelang.load(sys.argv[1]); "
            f"print(' '.join(m for m in {LOAD_LEAVES_OUT!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-S", "-c", code, str(root / "rulesets" / "northpole.rules")]
                         + path, capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.split() == []
    asked = subprocess.run([sys.executable, "-S", "-c", code.replace(
        "rulelang.load(sys.argv[1]);", "rulelang.load(sys.argv[1]); rulelang.serialize.to_data;"),
        str(root / "rulesets" / "northpole.rules")] + path, capture_output=True, text=True,
        check=True, cwd=root)
    assert "rulelang.ir.serialize" in asked.stdout.split()
