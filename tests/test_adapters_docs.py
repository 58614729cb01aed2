"""The examples of docs/adapters.md run as they are (from the repository's
root), each ```python block in its own namespace; a block that needs a
library this Python lacks is skipped, saying which."""

from __future__ import annotations

import contextlib
import io
import os
import re

import pytest

from helpers import ROOT

DOC = ROOT / "docs" / "adapters.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_an_example_per_adapter():
    joined = "\n".join(BLOCKS)
    for module in ("openspiel", "pettingzoo", "gymnasium", "text"):
        assert f"from rulelang.adapters import {module}" in joined or \
            f"from rulelang.adapters.{module} import" in joined


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_an_example_runs(block, monkeypatch):
    for library in re.findall(r"^(?:import|from) (pyspiel|pettingzoo|gymnasium|open_spiel)\b",
                              block, re.M):
        pytest.importorskip(library, reason=f"{library} is not installed for this Python")
    if "rulelang.adapters import openspiel" in block:
        pytest.importorskip("pyspiel", reason="OpenSpiel is not installed for this Python")
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(DOC), "exec"), {"__name__": "adapters_doc"})
    assert out.getvalue().strip(), "an example prints what it shows"
    assert os.getcwd() == str(ROOT)
