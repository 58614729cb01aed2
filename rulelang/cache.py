"""A cache of checked rulesets on disk, so a large rule file loads without
being parsed and checked again.

Opt-in: the engine opens no file but the ruleset unless asked
(``rulelang.load(path, cache=True)``, a directory, or the environment
variable ``RULELANG_CACHE``: a directory, or ``1`` for the default one).
An entry is the ruleset's IR as JSON (``rulelang.ir.serialize``: plain data,
never code), named by a hash of the rule file's text, the limits it was
checked under, the rulelang version and the source of the stages that
make the IR (so a changed parser or checker never reads an old entry).

Nothing in an entry is trusted: anyone who can write to the directory can
plant a file under any name.  An entry is read as a data document
(``rulelang.documents``) and admitted as any other is (``rulelang.trust``:
the IR's exact shape, then the checker), within the same limits; an entry
that fails is a miss, made again from the rule file.  The directory is
safe to delete at any time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Optional, Union

from . import documents, ir, trust
from .errors import RulesetError
from .ir import serialize
from .limits import DEFAULT, Limits
from .version import __version__

#: The default directory: ``$XDG_CACHE_HOME/rulelang`` or ``~/.cache/rulelang``.
def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulelang"


def directory(cache: Union[None, bool, str, "os.PathLike[str]"]) -> Optional[Path]:
    """The cache directory that ``cache`` (a ``load`` argument) asks for:
    None (as ``RULELANG_CACHE`` says), False (none), True (the default
    one) or a directory."""
    if cache is None:
        env = os.environ.get("RULELANG_CACHE", "").strip()
        if not env or env.lower() in ("0", "off", "no", "false"):
            return None
        return default_dir() if env.lower() in ("1", "on", "yes", "true") else Path(env)
    if cache is False:
        return None
    if cache is True:
        return default_dir()
    return Path(cache)


@functools.lru_cache(maxsize=None)
def _stages() -> str:
    """A fingerprint of the code that turns rule text into checked IR."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{__version__} {serialize.FORMAT}".encode())
    stages = sorted(p.relative_to(here).as_posix() for part in ("ir", "syntax", "check")
                    for p in (here / part).glob("*.py"))
    for rel in stages + ["limits.py", "syntax/rulelang.lark"]:
        try:
            h.update((here / rel).read_bytes())
        except OSError:
            h.update(rel.encode())
    return h.hexdigest()


def key(text: str, limits: Optional[Limits]) -> str:
    h = hashlib.sha256()
    h.update(_stages().encode())
    h.update(repr(limits or Limits()).encode())
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def get(folder: Path, text: str, filename: str, limits: Optional[Limits]) -> Optional[ir.Ruleset]:
    """The checked ruleset for this text, if the cache has a sound entry
    for it (read and admitted as untrusted data), else None."""
    path = folder / f"{key(text, limits)}.json"
    most = (limits or DEFAULT).max_source_bytes * 20
    try:
        with open(path, encoding="utf-8") as f:
            entry = f.read(most + 1)
        if len(entry) > most:
            return None
        data = documents.read(entry, str(path), limits, "json")
        if not isinstance(data, dict):
            return None
        data.pop("origin", None)
        data["origin"] = filename
        return trust.admit_data(data, filename, limits, source=text)
    except (OSError, UnicodeDecodeError, RulesetError):
        return None     # missing, half-written, planted or from elsewhere: made again


def put(folder: Path, text: str, limits: Optional[Limits], rs: ir.Ruleset) -> None:
    """Keep a checked ruleset; a cache that cannot be written is skipped."""
    path = folder / f"{key(text, limits)}.json"
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        data = serialize.to_data(rs)
        data.pop("origin", None)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass
