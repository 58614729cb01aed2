"""The API's OpenAPI 3.1 description, served at /openapi.json (written by
hand; ``tests/test_serve.py`` checks that it names every route the
server has and no other)."""

from __future__ import annotations

from typing import Any, Dict, List


def _ref(name: str) -> Dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: Dict[str, Any], description: str) -> Dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERR = _json(_ref("Error"), "refused; nothing was changed")
_GAME_ID = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"}}
_SEAT_AUTH: List[Dict[str, List[str]]] = [{"seatToken": []}, {}]

SCHEMA: Dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "rulelang serve",
        "version": "1",
        "description": (
            "A table for any rulelang ruleset. The server holds every game; a seat's client "
            "sends its seat token as `Authorization: Bearer TOKEN` and is told only what that "
            "seat may see. Without a token a request is a spectator's. Every refusal is "
            "`{\"error\": CODE, \"message\": TEXT}` and changes nothing."),
    },
    "components": {
        "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                          "description": "the token given when the seat was joined"}},
        "schemas": {
            "Error": {"type": "object", "required": ["error", "message"], "properties": {
                "error": {"type": "string", "description": "a short code: bad_body, too_large, "
                          "bad_token, spectator, stale, illegal, rules_failed, seat_taken, "
                          "no_game, no_seat, no_ruleset, bad_setup, bad_bot, over, unavailable, "
                          "full, store_failed, not_found, method_not_allowed"},
                "message": {"type": "string"}}},
            "Ruleset": {"type": "object", "properties": {
                "key": {"type": "string"}, "title": {"type": "string"},
                "min_players": {"type": "integer"}, "max_players": {"type": "integer"},
                "options": {"type": "object", "additionalProperties": {
                    "type": "array", "items": {"type": "string"}}},
                "params": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                    "value": {"type": "integer"}, "default": {"type": "integer"},
                    "low": {"type": "integer"}, "high": {"type": "integer"},
                    "title": {"type": ["string", "null"]}}}},
                "bots": {"type": "array", "items": {"type": "string"}, "description":
                         "the bots offered; any spec within bot_limits is taken too"},
                "bot_limits": {"type": "object", "description": "the most a bot may think a "
                               "decision: mcts:N up to `playouts`, mcts:Ns up to `seconds`, "
                               "greedy:N up to `depth`", "properties": {
                                   "playouts": {"type": "integer"}, "seconds": {"type": "number"},
                                   "depth": {"type": "integer"}}}}},
            "Game": {"type": "object", "description": "what anyone may know of a game", "properties": {
                "id": {"type": "string"}, "ruleset": {"type": "string"}, "title": {"type": "string"},
                "players": {"type": "integer"},
                "version": {"type": "integer", "description": "how many moves were made"},
                "over": {"type": "boolean"}, "ending": {"type": ["string", "null"]},
                "to_move": {"type": ["integer", "null"]},
                "thinking": {"type": ["integer", "null"], "description": "the seat whose bot is "
                             "working out its move (its move comes later, told on the live "
                             "connection like any other)"},
                "open": {"type": "boolean", "description": "a seat is free and the game is not over"},
                "created": {"type": "number"},
                "seats": {"type": "array", "items": {"type": "object", "properties": {
                    "seat": {"type": "integer"}, "bot": {"type": ["string", "null"]},
                    "name": {"type": ["string", "null"]}, "taken": {"type": "boolean"}}}}}},
            "NewGame": {"type": "object", "required": ["ruleset"], "additionalProperties": False,
                        "properties": {
                            "ruleset": {"type": "string", "description": "a ruleset's key"},
                            "players": {"type": ["integer", "null"]},
                            "options": {"type": ["object", "null"], "additionalProperties": {
                                "type": ["string", "null", "array"]}},
                            "params": {"type": ["object", "null"],
                                       "additionalProperties": {"type": "integer"}},
                            "bots": {"type": ["object", "null"], "description":
                                     "seat number (as a string) -> bot spec: random, greedy, "
                                     "greedy:N, mcts, mcts:N (playouts a decision) or mcts:Ns "
                                     "(seconds a decision), within the ruleset's bot_limits "
                                     "(over them: bad_bot)", "additionalProperties":
                                     {"type": "string"}}}},
            "Join": {"type": "object", "additionalProperties": False,
                     "properties": {"name": {"type": "string", "maxLength": 1000}}},
            "Joined": {"type": "object", "properties": {
                "game": {"type": "string"}, "seat": {"type": "integer"},
                "token": {"type": "string", "description": "the seat's secret; told only once"}}},
            "Move": {"type": "object", "required": ["move", "version"], "additionalProperties": False,
                     "properties": {
                         "move": {"type": "string", "description": "a legal move's label"},
                         "version": {"type": "integer",
                                     "description": "the game's version the move was chosen at"}}},
            "SeatView": {"type": "object", "description": "what one seat may see", "properties": {
                "game": _ref("Game"), "seat": {"type": ["integer", "null"]},
                "version": {"type": "integer"},
                "view": {"type": "object", "description": "state.view(seat) without its legal moves: "
                         "stats, piles (a hidden pile as {size}), pieces, tracks, globals"},
                "boards": {"type": "object", "additionalProperties": {"enum": ["grid", "hex"]}},
                "layout": {"type": "object", "description": "from the rule file: stats' bounds, "
                           "tracks' spaces"},
                "log": {"type": "array", "items": {"type": "object", "properties": {
                    "round": {"type": "integer"}, "player": {"type": ["integer", "null"]},
                    "kind": {"type": "string"}, "text": {"type": "string"}}}},
                "log_length": {"type": "integer"},
                "decision": {"type": ["object", "null"], "properties": {
                    "title": {"type": ["string", "null"]},
                    "moves": {"type": "array", "items": {"type": "string"}}}},
                "result": {"type": "object", "properties": {
                    "scores": {"type": "array", "items": {"type": "integer"}},
                    "winners": {"type": "array", "items": {"type": "integer"}},
                    "ending": {"type": ["string", "null"]}}}}},
        },
    },
    "paths": {
        "/api/rulesets": {"get": {
            "summary": "The rulesets served", "operationId": "rulesets",
            "responses": {"200": _json({"type": "array", "items": _ref("Ruleset")}, "the rulesets")}}},
        "/api/games": {
            "get": {"summary": "Every game", "operationId": "games",
                    "responses": {"200": _json({"type": "array", "items": _ref("Game")}, "the games")}},
            "post": {"summary": "Create a game", "operationId": "create",
                     "requestBody": {"required": True,
                                     "content": {"application/json": {"schema": _ref("NewGame")}}},
                     "responses": {"201": _json(_ref("Game"), "the new game"), "400": _ERR,
                                   "404": _ERR, "413": _ERR}}},
        "/api/games/{game}": {"get": {
            "summary": "A game, as anyone may know it", "operationId": "game",
            "parameters": [_GAME_ID],
            "responses": {"200": _json(_ref("Game"), "the game"), "404": _ERR}}},
        "/api/games/{game}/seats/{seat}": {"post": {
            "summary": "Take a free seat", "operationId": "join",
            "parameters": [_GAME_ID, {"name": "seat", "in": "path", "required": True,
                                      "schema": {"type": "integer"}}],
            "requestBody": {"content": {"application/json": {"schema": _ref("Join")}}},
            "responses": {"201": _json(_ref("Joined"), "the seat's token"), "404": _ERR,
                          "409": _ERR}}},
        "/api/games/{game}/view": {"get": {
            "summary": "What this seat (or a spectator) may see, and its moves",
            "operationId": "view", "parameters": [_GAME_ID], "security": _SEAT_AUTH,
            "responses": {"200": _json(_ref("SeatView"), "the seat's view"), "401": _ERR,
                          "404": _ERR}}},
        "/api/games/{game}/table": {"get": {
            "summary": "The seat's view drawn as HTML (what the page shows)",
            "operationId": "table", "parameters": [_GAME_ID], "security": _SEAT_AUTH,
            "responses": {"200": {"description": "an HTML fragment; the header X-Game-Version "
                                  "gives its version", "content": {"text/html": {
                                      "schema": {"type": "string"}}}},
                          "401": _ERR, "404": _ERR}}},
        "/api/games/{game}/moves": {"post": {
            "summary": "Make a move", "operationId": "move", "parameters": [_GAME_ID],
            "security": [{"seatToken": []}],
            "requestBody": {"required": True,
                            "content": {"application/json": {"schema": _ref("Move")}}},
            "description": ("Answered once the move and the quick bots' answers are made and "
                            "kept. A thinking bot (mcts, greedy:N) to move next works out its "
                            "move in a worker: the answer's game says `thinking`, and its move "
                            "comes later, told on the live connection."),
            "responses": {"200": _json(_ref("SeatView"), "made; the seat's new view"),
                          "400": _ERR, "401": _ERR, "403": _ERR, "404": _ERR,
                          "409": _json(_ref("Error"), "stale (another version) or illegal"),
                          "413": _ERR, "422": _ERR}}},
        "/api/games/{game}/live": {"get": {
            "summary": "WebSocket: the game's new versions, live",
            "description": ("Upgrade to a WebSocket and send `{\"token\": TOKEN}` (null to watch). "
                            "The server answers `{\"version\": N, \"seat\": S}` and then "
                            "`{\"version\": N}` at every change, and nothing else: the client "
                            "then fetches its own view. A bad token gets an Error message and "
                            "the connection is closed (1008)."),
            "operationId": "live", "parameters": [_GAME_ID],
            "responses": {"101": {"description": "switching to the WebSocket protocol"}}}},
    },
}
