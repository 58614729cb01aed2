"""What makes a load cheaper keeps what it replaced (issue 20, load time):
the IR's equality and hash made from the fields (``ir.fields.node_methods``)
agree with those attrs writes; ``ir.child_list``, which skips the fields of
plain data, finds every node a scan of all fields finds; ``ir.deepest``'s
level-by-level answer is the walk's."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import attrs
import pytest

from rulelang import ir
from rulelang.ir.walk import _first_too_deep
from rulelang.syntax import parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))


def _tree(path):
    return parse(path.read_text(encoding="utf-8"), str(path))


def _every_field_scan(node):
    """The children as a scan of every field but ``pos`` finds them."""
    out = []
    for f in attrs.fields(type(node)):
        if f.name == "pos":
            continue
        v = getattr(node, f.name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if attrs.has(type(x)):
                out.append(x)
    return out


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_child_list_finds_what_a_scan_of_every_field_finds(path):
    nodes = list(ir.walk(_tree(path)))
    assert len(nodes) > 20
    for n in nodes:
        assert ir.child_list(n) == _every_field_scan(n)


def test_node_equality_and_hash_are_those_of_attrs():
    """Equal when of one class with equal fields, the position aside (two
    files that differ in layout give equal IRs); never equal across
    classes; a hash that follows equality."""
    a = ir.BinOp("+", ir.Num(1, ir.Pos(1, 1)), ir.Name("x", ir.Pos(1, 5)), ir.Pos(1, 1))
    b = ir.BinOp("+", ir.Num(1), ir.Name("x"), ir.Pos(9, 9))
    c = ir.BinOp("-", ir.Num(1), ir.Name("x"))
    assert a == b and hash(a) == hash(b) and not (a != b)
    assert a != c and c != a
    assert ir.Not(ir.Num(1)) != ir.Neg(ir.Num(1))
    assert ir.Num(1) != 1 and ir.Num(1).__eq__(1) is NotImplemented
    assert ir.NoneLit(ir.Pos(1, 1)) == ir.NoneLit() and hash(ir.NoneLit()) == hash(ir.NoneLit(ir.Pos(2, 2)))
    assert len({ir.Num(1), ir.Num(1, ir.Pos(3, 3)), ir.Num(2)}) == 2
    # every node class compares by its fields, as attrs would (pos left out)
    for cls in ir.NODE_CLASSES.values():
        assert cls.__eq__ is not object.__eq__, cls
        assert cls.__hash__ is not None, cls


def test_two_parses_of_one_file_are_equal_and_hash_alike():
    path = ROOT / "rulesets" / "northpole.rules"
    text = path.read_text(encoding="utf-8")
    one, two = parse(text, "a.rules"), parse("\n\n" + text, "b.rules")
    assert one.rules == two.rules and hash(one.rules) == hash(two.rules)
    assert one.rules[0] is not two.rules[0]


def _chain(depth):
    e = ir.Num(1, ir.Pos(1, 1))
    for i in range(depth):
        e = ir.Not(e, ir.Pos(1, i + 2) if i % 3 else None)
    return e


@pytest.mark.parametrize("depth,limit", [(5, 10), (10, 10), (11, 10), (40, 12), (300, 200)])
def test_deepest_answers_as_the_walk_does(depth, limit):
    tree = ir.Assign(ir.Name("x"), "=", _chain(depth), ir.Pos(1, 1))
    found = ir.deepest(tree, limit)
    assert (found is None) == (depth + 1 <= limit)
    if found is not None:
        expected = _first_too_deep(tree, limit)
        assert type(found) is type(expected)
        assert getattr(found, "pos", None) == getattr(expected, "pos", None)


_IMPORT_GC = """
import gc, sys, weakref
class Cycle:
    pass
before = Cycle(); before.me = before          # a cycle the program made, still young
held = weakref.ref(before)
if sys.argv[1] == "frozen":
    gc.freeze()
import rulelang
print(gc.get_freeze_count() > 0, any(o is rulelang.load for o in gc.get_objects(generation=2)))
del before
gc.collect()
print(held() is None)
"""


@pytest.mark.parametrize("how", ["plain", "frozen"])
def test_the_import_moves_what_it_made_to_the_oldest_generation_and_freezes_nothing(how):
    """``import rulelang`` puts what it made in the collector's oldest
    generation at once (no young collection walks it: about 4 ms of a
    first load) and leaves every cycle collectable: the program's own
    cycle made before the import is collected.  Objects the program had
    frozen stay frozen (``gc.unfreeze`` would have let them go), and then
    the import leaves the collector's generations as they were."""
    done = subprocess.run([sys.executable, "-c", _IMPORT_GC, how], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    plain = str(how == "plain")
    frozen = str(how == "frozen")
    assert done.stdout.split() == [frozen, plain, plain], done.stdout + done.stderr
