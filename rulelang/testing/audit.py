"""``EngineAudit``: what the engine does that it must not (open a file, a
socket or a process, import, read a clock), watched while active."""

from __future__ import annotations

import importlib
import os
import sys
from types import FrameType
from typing import Any, Callable, Dict, List, Literal, Optional, Sequence, Tuple

#: Audit events that a hermetic engine never raises (prefixes).
_WATCHED = ("open", "os.", "shutil.", "socket.", "subprocess.", "import", "time.sleep",
            "urllib.", "http.", "ftplib.", "smtplib.", "ctypes.", "webbrowser.", "glob.",
            "pty.", "mmap.", "sqlite3.")
#: Events under those prefixes that touch nothing outside the process.
_HARMLESS = {"os.putenv", "os.unsetenv"}
_CLOCKS = ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
           "process_time", "process_time_ns", "thread_time", "thread_time_ns", "localtime",
           "gmtime", "ctime", "asctime", "strftime")
_NOT_ENGINE = ("rulelang.testing", "rulelang.cli", "rulelang.__main__")
#: Modules the engine imports only when first needed (a save, a syntax
#: error, a "did you mean"), so that ``import rulelang`` stays quick:
#: imported before an audit begins, as a warm-up would.
FIRST_USE = ("rulelang.engine.saves", "rulelang.syntax.diagnose", "difflib")
_audit_state: Dict[str, Any] = {"installed": False, "active": None, "busy": False}


def _in_engine(frame: Optional[FrameType]) -> Optional[str]:
    """The first rulelang module (other than the harness and the command
    line) on the stack from ``frame`` up, or None."""
    while frame is not None:
        name: str = frame.f_globals.get("__name__", "")
        if name.startswith("rulelang") and not name.startswith(_NOT_ENGINE):
            return name
        frame = frame.f_back
    return None


def _audit_hook(event: str, args: Tuple[Any, ...]) -> None:
    if _audit_state is None:        # (the interpreter is shutting down)
        return
    audit = _audit_state["active"]
    if audit is None or not event.startswith(_WATCHED) or event in _HARMLESS \
            or _audit_state["busy"]:
        return
    _audit_state["busy"] = True
    try:
        where = _in_engine(sys._getframe(1))
        if where is None:
            return
        if event == "open" and args and audit.allowed(args):
            return
        audit.events.append((event, repr(args)[:200], where))
    finally:
        _audit_state["busy"] = False


class EngineAudit:
    """While active (``with EngineAudit() as audit:``), records every file
    open, file-system call, socket, subprocess, new import and wall-clock
    read made from inside the engine (any ``rulelang`` module but this
    harness and the command line) into ``audit.events`` as ``(event,
    arguments, module)``.  ``allow_open``: paths the engine may read (the
    ruleset being loaded).

    It uses ``sys.addaudithook`` (a hook, once added, stays for the life
    of the process; it does nothing while no audit is active) and, for the
    clocks, which raise no audit event, wraps the functions of ``time``
    while active.  Warm the engine up first (load a ruleset, make a syntax
    error, play a game): the first use of a library may import modules."""

    def __init__(self, allow_open: Sequence[str] = ()) -> None:
        self.allow = {os.path.realpath(os.fspath(p)) for p in allow_open}
        self.events: List[Tuple[str, str, str]] = []
        self._saved: Dict[str, Any] = {}

    def allowed(self, args: Tuple[Any, ...]) -> bool:
        path, mode = args[0], args[1] if len(args) > 1 else "r"
        if isinstance(path, int) or not isinstance(mode, str) or set(mode) - set("rbt"):
            return False
        try:
            return os.path.realpath(os.fspath(path)) in self.allow
        except (TypeError, ValueError):
            return False

    def __enter__(self) -> "EngineAudit":
        import time
        if _audit_state["active"] is not None:
            raise RuntimeError("an EngineAudit is already active")
        for module in FIRST_USE:
            importlib.import_module(module)
        if not _audit_state["installed"]:
            sys.addaudithook(_audit_hook)
            _audit_state["installed"] = True
        for name in _CLOCKS:
            if hasattr(time, name):
                self._saved[name] = getattr(time, name)
                setattr(time, name, self._clock(name, self._saved[name]))
        _audit_state["active"] = self
        return self

    def _clock(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        events = self.events

        def clock(*args: Any) -> Any:
            if not _audit_state["busy"]:
                _audit_state["busy"] = True
                try:
                    where = _in_engine(sys._getframe(1))
                finally:
                    _audit_state["busy"] = False
                if where is not None:
                    events.append((f"time.{name}", "()", where))
            return real(*args)
        return clock

    def __exit__(self, *exc: object) -> Literal[False]:
        import time
        _audit_state["active"] = None
        for name, real in self._saved.items():
            setattr(time, name, real)
        self._saved.clear()
        return False

    def format(self) -> str:
        return "\n".join(f"{module}: {event} {args}" for event, args, module in self.events)


# ---------------------------------------------------------------- golden logs
