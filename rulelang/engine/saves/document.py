"""Reading a save: the JSON document within the limits, the checks every
document (a state or a replay) starts with, and the HMAC-SHA256 that
signs a document under a server's key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any, Dict, List, Optional, Tuple, Union

from ... import documents
from ...errors import SaveError
from ...limits import Limits
from .shapes import Gm, Parts, Shape, _Context, _err, _what, json_path

#: A server's key for the MAC: a non-empty str or bytes (``_key_bytes``
#: refuses anything else).
Key = Union[str, bytes, bytearray]


def read(text: object, limits: Limits, what: str = "save") -> Any:
    """The JSON document in ``text`` (str or bytes), read within the limits:
    its size (``max_save_bytes``), its values (``max_nodes``) and nesting
    (``max_nesting``), and no fractions, NaN, huge numbers or duplicate keys."""
    most = limits.max_save_bytes
    if isinstance(text, str):
        if len(text) > most:
            raise SaveError("$", f"the {what} is longer than the limit of {most} bytes "
                                 f"(Limits.max_save_bytes)")
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise SaveError("$", f"the {what} is not valid Unicode text") from None
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise SaveError("$", f"a {what} is JSON text (a str or bytes), not {type(text).__name__}")
    if len(data) > most:
        raise SaveError("$", f"the {what} is {len(data)} bytes, more than the limit of {most} "
                             f"(Limits.max_save_bytes)")
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveError("$", f"the {what} is not UTF-8 text (at byte {e.start})") from None
    # (Long numbers are refused by Python's own bound on their digits,
    # fast; saves are big documents of numbers.)
    try:
        doc = documents.decode_json(source, places=False)
    except documents.DocumentError as e:
        where = f" at line {e.line}, column {e.column}" if e.message.startswith("not valid") else ""
        raise SaveError("$", f"the {what}: {e.message}{where}") from None
    if len(data) > 2 * limits.max_nodes:     # (a value takes two bytes at least)
        _measure(doc, limits, what)
    return doc


def _measure(doc: Any, limits: Limits, what: str) -> None:
    """Refuse a document of more values than ``max_nodes`` or nested deeper
    than ``max_nesting`` (without recursion).  (The shapes hold the
    nesting of a document that passes to ``max_nesting`` as well.)"""
    most, deepest = limits.max_nodes, limits.max_nesting
    count = 0
    stack: List[Tuple[Any, int]] = [(doc, 0)]
    while stack:
        x, depth = stack.pop()
        count += 1
        if count > most:
            raise SaveError("$", f"the {what} holds more than {most} values (Limits.max_nodes)")
        if depth > deepest:
            raise SaveError(json_path(_path_to_depth(doc, deepest)),
                            f"nested more than {deepest} levels deep (Limits.max_nesting)")
        if isinstance(x, list):
            stack.extend((item, depth + 1) for item in x)
        elif isinstance(x, dict):
            stack.extend((item, depth + 1) for item in x.values())


def _path_to_depth(doc: Any, depth: int) -> Parts:
    """The path of the first value nested ``depth + 1`` levels down."""
    stack: List[Tuple[Any, Parts]] = [(doc, ())]
    while stack:
        x, parts = stack.pop()
        if len(parts) > depth:
            return parts
        if isinstance(x, list):
            stack.extend((item, parts + (i,)) for i, item in enumerate(x))
        elif isinstance(x, dict):
            stack.extend((item, parts + (k,)) for k, item in x.items())
    return ()


# --------------------------------------------------------------- the MAC


def _key_bytes(key: object) -> bytes:
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)) or not key:
        raise TypeError("a save's key is a non-empty str or bytes")
    return bytes(key)


def canonical(doc: Dict[str, Any]) -> bytes:
    """The canonical form of a document (without its "mac"): sorted keys,
    no spaces, ASCII."""
    body = {k: v for k, v in doc.items() if k != "mac"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def mac_of(doc: Dict[str, Any], key: Key) -> str:
    """The HMAC-SHA256 (hex) of ``doc``'s canonical form under ``key``."""
    return hmac.new(_key_bytes(key), canonical(doc), hashlib.sha256).hexdigest()


def _verify(doc: Dict[str, Any], key: Optional[Key], what: str) -> None:
    if key is None:
        return
    k = _key_bytes(key)
    given = doc.get("mac")
    if given is None:
        raise SaveError("$", f"the {what} carries no MAC, and a key was given: it is not "
                             f"authenticated")
    want = hmac.new(k, canonical(doc), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode("ascii"), want.encode("ascii")):
        raise SaveError("$.mac", f"the MAC does not match: the {what} was changed, or made "
                                 f"with another key")


def _head(doc: Any, shape: Shape, fmt: str, what: str, game: Gm) -> None:
    """The checks every document starts with: an object of the right
    format, of the declared shape, of this ruleset."""
    if not isinstance(doc, dict):
        raise SaveError("$", f"a {what} is a JSON object, not {_what(doc)}")
    got = doc.get("format")
    if got != fmt:
        if isinstance(got, str) and got.startswith(fmt.split("/")[0] + "/"):
            raise SaveError("$.format", f"this is a {got} {what}; this version of rulelang "
                                        f"reads {fmt}")
        raise SaveError("$.format", f"not a rulelang {what} (its format is {_what(got)}, "
                                    f"not {json.dumps(fmt)})")
    cx = _Context(game.limits)
    if not shape.ok(doc, cx):
        shape.check(doc, (), cx)


def _same_ruleset(doc: Dict[str, Any], game: Gm, what: str) -> None:
    if doc["ruleset"] != game.fingerprint:
        raise SaveError("$.ruleset", f"the {what} belongs to another ruleset (fingerprint "
                                     f"{doc['ruleset']}; this game, {game.title!r}, is "
                                     f"{game.fingerprint})")


def _check_players(doc: Dict[str, Any], game: Gm) -> int:
    n = doc["players"]
    if not game.min_players <= n <= game.max_players:
        raise SaveError("$.players", f"{game.title} is for {game.min_players} to "
                                     f"{game.max_players} players, not {n}")
    return n


def _check_options(doc: Dict[str, Any], game: Gm, n: int) -> None:
    options = doc["options"]
    if options is None:
        return
    known = game.options
    for name, value in options.items():
        if name not in known:
            raise _err(("options", name), f"the game has no option {json.dumps(name)} "
                                          f"(its options: {', '.join(known) or 'none'})")
        values = value if isinstance(value, list) else [value]
        for i, v in enumerate(values):
            if v is not None and v not in known[name]:
                where = ("options", name, i) if isinstance(value, list) else ("options", name)
                raise _err(where, f"option {json.dumps(name)} has no choice {json.dumps(v)} "
                                  f"(its choices: {', '.join(known[name])})")


# ------------------------------------------------------------- the game
