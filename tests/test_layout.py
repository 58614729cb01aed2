"""The package's layout shows the pipeline: no module imports, at its top
or inside a function, a module that imports it back (directly or through
others).  The graph is read from the source with ``ast``."""

from __future__ import annotations

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "rulelang"


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name):
    """Whether ``name`` is a module or a package of rulelang (not a name in one)."""
    path = PACKAGE.parent / name.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


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
                out.add(sub if is_module(sub) else target)
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
