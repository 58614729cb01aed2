"""The HTTP/JSON API, the pages and the live connections (Starlette).

Every request that concerns a seat carries its token (``Authorization:
Bearer TOKEN``; a WebSocket sends it as its first message) and is checked
against the game on every request.  A refused request gets a JSON error
``{"error": CODE, "message": TEXT}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, List, Optional, Tuple

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import pages
from .openapi import SCHEMA
from .tables import Hall, ServeError, Table, seat_view

#: The largest request body read (bytes): a move or a new game is small.
MOST_BODY = 16 * 1024
#: The longest name a person may join with.
MOST_NAME = 40
#: How many version numbers a slow live connection may have waiting.
QUEUE = 64

Handler = Callable[[Request], Awaitable[Response]]


def _error(e: ServeError) -> JSONResponse:
    return JSONResponse({"error": e.code, "message": e.message}, status_code=e.status)


def _refusing(handler: Handler) -> Handler:
    """The handler, with a refusal turned into its JSON error."""
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except ServeError as e:
            return _error(e)
    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def _no_twice(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    d: Dict[str, Any] = {}
    for k, v in pairs:
        if k in d:
            raise ServeError(400, "bad_body", f"the body gives the key {k!r} twice")
        d[k] = v
    return d


async def _body(request: Request, allowed: Dict[str, Tuple[type, ...]],
                required: Tuple[str, ...] = ()) -> Dict[str, Any]:
    """The request's JSON object, read up to ``MOST_BODY`` bytes, with only
    the ``allowed`` keys, each of its types (a bool is not a number)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MOST_BODY):
        raise ServeError(413, "too_large", f"the body is larger than {MOST_BODY} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MOST_BODY:
            raise ServeError(413, "too_large", f"the body is larger than {MOST_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        data: Any = {}
    else:
        try:
            data = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_twice,
                              parse_constant=_no_constant)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise ServeError(400, "bad_body", "the body is not JSON text") from None
    if not isinstance(data, dict):
        raise ServeError(400, "bad_body", "the body is a JSON object")
    for key, value in data.items():
        kinds = allowed.get(key)
        if kinds is None:
            raise ServeError(400, "bad_body", f"unknown key {key[:40]!r}; keys: {', '.join(allowed)}")
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(_KIND_NAMES[k] for k in kinds)
            raise ServeError(400, "bad_body", f"{key!r} is {names}")
    for key in required:
        if key not in data:
            raise ServeError(400, "bad_body", f"the body needs {key!r}")
    return data


def _no_constant(name: str) -> None:
    raise ServeError(400, "bad_body", f"{name} is not a number")


_KIND_NAMES = {str: "a string", int: "a whole number", dict: "an object", list: "a list",
               bool: "true or false", type(None): "null"}


def _token(request: Request) -> Optional[str]:
    auth = request.headers.get("authorization")
    if auth is None:
        return None
    kind, _, token = auth.partition(" ")
    if kind.lower() != "bearer" or not token.strip():
        raise ServeError(401, "bad_token", "the Authorization header is 'Bearer TOKEN'")
    return token.strip()


def _game_id(request: Request) -> str:
    return str(request.path_params["game"])


#: Sent with every answer: the page loads only its own scripts and styles
#: and talks only to its own server, so even text that slipped past
#: escaping could not run (defence in depth; ``pages.esc`` is the guard).
HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class _Headers:
    """ASGI middleware: ``HEADERS`` on every HTTP answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)
        await self.app(scope, receive, sending)


def make_app(hall: Hall) -> Starlette:
    """The server's application over ``hall`` (its rulesets, games and store)."""

    async def seat_and_table(request: Request) -> Tuple[Table, Optional[int]]:
        table = hall.table(_game_id(request))
        return table, table.seat_of(_token(request))

    # ---------------------------------------------------------------- pages

    async def lobby(request: Request) -> Response:
        return HTMLResponse(pages.lobby([r.describe() for r in hall.rulesets.values()],
                                        [t.public() for t in hall.tables.values()]))

    async def lobby_games(request: Request) -> Response:
        return HTMLResponse(pages.games_list([t.public() for t in hall.tables.values()]))

    async def table_page(request: Request) -> Response:
        table = hall.table(_game_id(request))
        return HTMLResponse(pages.table_page(table.public()))

    async def static(request: Request) -> Response:
        name = str(request.path_params["name"])
        found = pages.STATIC.get(name)
        if found is None:
            raise ServeError(404, "not_found", "no such file")
        kind, text = found
        return Response(text, media_type=kind, headers={"Cache-Control": "no-cache"})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)      # (no icon; said so, rather than a 404 in the console)

    async def openapi(request: Request) -> Response:
        return JSONResponse(SCHEMA)

    # ---------------------------------------------------------------- API

    async def rulesets(request: Request) -> Response:
        """The rulesets served, with their player counts, options, parameters and bots."""
        return JSONResponse([r.describe() for r in hall.rulesets.values()])

    async def games(request: Request) -> Response:
        """Every game, as anyone may know it."""
        return JSONResponse([t.public() for t in hall.tables.values()])

    async def create(request: Request) -> Response:
        """A new game: its ruleset, player count, options, parameters and bots."""
        body = await _body(request, {"ruleset": (str,), "players": (int, type(None)),
                                     "options": (dict, type(None)), "params": (dict, type(None)),
                                     "bots": (dict, type(None))}, ("ruleset",))
        options = body.get("options") or {}
        for value in options.values():
            if not (isinstance(value, str) or value is None
                    or (isinstance(value, list) and all(isinstance(v, str) or v is None
                                                        for v in value))):
                raise ServeError(400, "bad_body", "an option's value is a choice's label, "
                                 "null, or a list of them")
        params = body.get("params") or {}
        for value in params.values():
            if isinstance(value, bool) or not isinstance(value, int):
                raise ServeError(400, "bad_body", "a parameter's value is a whole number")
        bots: Dict[int, str] = {}
        for seat, spec in (body.get("bots") or {}).items():
            if not (seat.isdigit() and len(seat) < 4) or not isinstance(spec, str):
                raise ServeError(400, "bad_body", "'bots' maps a seat number (as a string) to "
                                 "a bot's name")
            bots[int(seat)] = spec
        table = hall.create(body["ruleset"], body.get("players"), options, params, bots)
        hall.tell(table)
        return JSONResponse(table.public(), status_code=201)

    async def game(request: Request) -> Response:
        """The game as anyone may know it."""
        return JSONResponse(hall.table(_game_id(request)).public())

    async def join(request: Request) -> Response:
        """Take a free seat: the answer holds the seat's secret token, told only this once."""
        table = hall.table(_game_id(request))
        body = await _body(request, {"name": (str,)})
        name = " ".join(str(body.get("name") or "").split())[:MOST_NAME]
        seat_text = str(request.path_params["seat"])
        if not (seat_text.isdigit() and len(seat_text) < 4):
            raise ServeError(404, "no_seat", "a seat is a number")
        async with table.lock:
            token = hall.join(table, int(seat_text), name)
        hall.tell(table)
        return JSONResponse({"game": table.id, "seat": int(seat_text), "token": token},
                            status_code=201)

    async def view(request: Request) -> Response:
        """What this seat (or, with no token, a spectator) may see, and its moves."""
        table, seat = await seat_and_table(request)
        async with table.lock:
            return JSONResponse(seat_view(table, seat))

    async def table_html(request: Request) -> Response:
        """The same view as HTML, as the page shows it."""
        table, seat = await seat_and_table(request)
        async with table.lock:
            info = seat_view(table, seat)
        return HTMLResponse(pages.table_fragment(info),
                            headers={"X-Game-Version": str(info["version"])})

    async def move(request: Request) -> Response:
        """Make a move: its label, and the version it was chosen at."""
        table, seat = await seat_and_table(request)
        body = await _body(request, {"move": (str,), "version": (int,)}, ("move", "version"))
        async with table.lock:
            hall.move(table, seat, body["move"], body["version"])
            info = seat_view(table, seat)
        hall.tell(table)
        return JSONResponse(info)

    async def live(ws: WebSocket) -> None:
        """Tells the client each new version of the game (nothing else: it
        then asks for its own view).  The first message is ``{"token": T}``
        (null for a spectator)."""
        await ws.accept()
        try:
            table = hall.table(str(ws.path_params["game"]))
            first = await asyncio.wait_for(ws.receive_text(), timeout=30)
            if len(first) > 1024:
                raise ServeError(413, "too_large", "the first message is small")
            try:
                hello = json.loads(first)
            except json.JSONDecodeError:
                raise ServeError(400, "bad_body", "the first message is JSON text") from None
            if not isinstance(hello, dict) or not isinstance(hello.get("token"), (str, type(None))):
                raise ServeError(400, "bad_body", 'the first message is {"token": TOKEN or null}')
            seat = table.seat_of(hello.get("token"))
        except ServeError as e:
            await ws.send_json({"error": e.code, "message": e.message})
            await ws.close(code=1008)
            return
        except (asyncio.TimeoutError, WebSocketDisconnect):
            await _close(ws)
            return
        queue: asyncio.Queue[int] = asyncio.Queue(QUEUE)
        table.listeners.append(queue)
        waiter = asyncio.ensure_future(_drain(ws))
        try:
            await ws.send_json({"version": table.version, "seat": seat})
            while not waiter.done():
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                version = getter.result()
                while not queue.empty():
                    version = queue.get_nowait()
                await ws.send_json({"version": version})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            waiter.cancel()
            table.listeners.remove(queue)
            await _close(ws)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        code = {404: "not_found", 405: "method_not_allowed"}.get(status, "error")
        message = {404: "no such path", 405: "this path does not take that method"}.get(
            status, "the request failed")
        return JSONResponse({"error": code, "message": message}, status_code=status)

    routes = [
        Route("/", lobby),
        Route("/lobby/games", lobby_games),
        Route("/games/{game}", _refusing(table_page)),
        Route("/static/{name}", _refusing(static)),
        Route("/openapi.json", openapi),
        Route("/favicon.ico", favicon),
        Route("/api/rulesets", rulesets),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games", _refusing(create), methods=["POST"]),
        Route("/api/games/{game}", _refusing(game)),
        Route("/api/games/{game}/seats/{seat}", _refusing(join), methods=["POST"]),
        Route("/api/games/{game}/view", _refusing(view)),
        Route("/api/games/{game}/table", _refusing(table_html)),
        Route("/api/games/{game}/moves", _refusing(move), methods=["POST"]),
        WebSocketRoute("/api/games/{game}/live", live),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hall.start()        # (the bots that were thinking when the server stopped)
        try:
            yield
        finally:
            await hall.stop()

    return Starlette(routes=routes, exception_handlers={HTTPException: not_found},
                     middleware=[Middleware(_Headers)], lifespan=lifespan)


async def _drain(ws: WebSocket) -> None:
    """Reads (and drops) what the client sends, until it goes."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return


async def _close(ws: WebSocket) -> None:
    """Closes the connection, if the client has not gone already."""
    try:
        await ws.close()
    except Exception:       # (gone: Starlette and uvicorn each have their exception for it)
        pass
