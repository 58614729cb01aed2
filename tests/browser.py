"""What the browser tests share (tests/test_serve_browser.py,
tests/test_serve_bots_browser.py): the long-run gate, Debian's headless
Chromium with the arguments they run it with, and a free port on loopback."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from typing import Any, Iterator

import pytest

CHROMIUM = os.environ.get("RULELANG_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_a_browser() -> None:
    """Skip the calling test module unless this is the long run and the
    serve extra, Playwright and Chromium are all there."""
    if not os.environ.get("RULELANG_LONG"):
        pytest.skip("the browser tests are part of the long run (RULELANG_LONG=1)",
                    allow_module_level=True)
    pytest.importorskip("starlette", reason="rulelang serve needs the 'serve' extra")
    pytest.importorskip("uvicorn", reason="rulelang serve needs the 'serve' extra")
    pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")
    if not os.path.exists(CHROMIUM) and shutil.which("chromium") is None:
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)",
                    allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(hall: Any) -> Iterator[str]:
    """``rulelang serve``'s app for ``hall`` on a free loopback port, in a
    thread: its address, while the block runs."""
    import uvicorn

    from rulelang.serve.app import make_app
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(make_app(hall), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)
