"""``dustup serve``: the HTTP game server (FastAPI + uvicorn; OpenAPI docs at ``/docs``) and the page at ``/``.

The same operations as the stdio protocol, over :class:`~.session.Session`.  Games live in a database
(:mod:`.store`) as their replay recipe: every decision of a request is committed in one transaction
before the response is sent, and a game not in memory (a restart, an evicted game) is rebuilt exactly
by replaying it.  Each game has its own lock, so an AI thinking in one game never holds up requests for
another.  Tokens (``Authorization: Bearer T``) act and see for their own side only.  See docs/server.md.
"""
from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from dustup_env.rules import DEFAULT_OPTIONS, Game

from . import views
from .session import (BUILTIN_AGENTS, ServiceError, Session, check_side, json_type, agents, random_seed, scenarios,
                      short)
from .store import Store, StoreError, token_hash

STATIC = Path(__file__).resolve().parent / "static"
MAX_REPLAY_DECISIONS = 20_000
MAX_BODY_BYTES = 1 << 20  # a request body larger than this is refused with 413 before it is read (docs/server.md)
log = logging.getLogger("dustup.serve")


def _json(obj, status: int = 200) -> Response:
    """A JSON response straight from ``json.dumps`` (the game JSON is plain data: no encoder walk)."""
    return Response(json.dumps(obj, separators=(",", ":")), status_code=status, media_type="application/json")


class HTTPError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


def error_response(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    """Every error the server answers, whatever its status: ``{"ok": false, "error": "one line"}``."""
    return JSONResponse({"ok": False, "error": message}, status_code=status, headers=headers)


class ErrorBody(BaseModel):
    """The body of every error response (docs/server.md, "Errors")."""
    ok: bool = Field(False, description="always false")
    error: str = Field(..., description="one line naming the problem, with the request's field names")


ERROR_RESPONSES = {status: {"model": ErrorBody, "description": what} for status, what in (
    (400, "a field's value is not acceptable (type, range, unknown name, an option that is not legal)"),
    (401, "no token, a malformed Authorization header, or not a token of this game"),
    (403, "not this token's side's decision"), (404, "no such game or path"), (405, "method not allowed"),
    (409, "the game is over, or not over yet"), (413, "the request body is over the server's limit"),
    (422, "the body is not a JSON object of the endpoint's fields (not JSON, a missing or unknown field)"),
    (500, "an unexpected error on the server"), (503, "the database could not store the move"))}


class Unexpected:
    """ASGI middleware: an unexpected exception is logged with its traceback (the server's stderr) and answered
    500 in the error shape, the connection kept (not re-raised to the server, which would drop it)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def tracked(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if started:
                raise
            await error_response(500, "internal server error: the request failed on the server (its log has the "
                                      "details)")(scope, receive, send)


class BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes with 413, before the app reads it.

    A ``Content-Length`` over the limit is answered at once, nothing of the body read; a body without one
    (``Transfer-Encoding: chunked``) is counted as it streams in and answered as soon as the count passes
    the limit (at most ``limit`` bytes and one chunk are read).  The server then closes the connection."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES):
        self.app = app
        self.limit = int(limit)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = None
        for k, v in scope.get("headers", ()):
            if k == b"content-length":
                try:
                    length = int(v)
                except ValueError:
                    length = None
        if length is not None and length > self.limit:
            return await self._refuse(scope, receive, send, f"is {length:,} bytes")
        total = 0
        chunks: list[bytes] = []
        if length is None:  # streamed: count it here, up to the limit, then hand it to the app
            while True:
                msg = await receive()
                if msg["type"] != "http.request":
                    return  # the client went away
                total += len(msg.get("body", b""))
                if total > self.limit:
                    return await self._refuse(scope, receive, send, "(sent without Content-Length) is larger")
                chunks.append(msg.get("body", b""))
                if not msg.get("more_body", False):
                    break
            body, given = b"".join(chunks), False

            async def replay():
                nonlocal given
                if not given:
                    given = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            return await self.app(scope, replay, send)
        return await self.app(scope, receive, send)

    async def _refuse(self, scope, receive, send, what: str):
        resp = error_response(413, f"the request body {what}: the server takes at most {self.limit:,} bytes",
                              {"Connection": "close"})
        await resp(scope, receive, send)


# ---------------------------------------------------------------------------------------------- requests
class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scenario: Any = Field("skirmish", description="a built-in scenario name or a scenario object")
    seed: Any = Field(None, description="the dice seed (default: drawn by the server and kept secret)")
    options: Any = Field(None, description="game options (see GET /info)")
    ai: Any = Field("hard", description="the AI's agent (GET /info lists them), or null for two players")
    side: Any = Field(0, description="the side of the player creating the game, 0 or 1 (with an AI)")
    ai_seed: Any = Field(None, description="the AI's seed (default: the game's seed)")
    strength: Any = Field(None, description="the AI's strength 1..8: the agent level:N (instead of ai)")
    movetime_ms: Any = Field(None, description="the AI's time a decision in milliseconds (search agents)")
    clock: Any = Field(None, description='a clock per side: {"time_ms": T, "increment_ms": I}')


class Play(BaseModel):
    model_config = ConfigDict(extra="forbid")
    option: Any = Field(..., description='one of the pending decision\'s options, as listed, e.g. ["move", 0, 1]')


class Hint(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time_ms: Any = Field(1000, description="the time budget in milliseconds")
    agent: Any = Field(None, description="the agent asked (default: the game's AI, else hard)")


class Analyze(BaseModel):
    model_config = ConfigDict(extra="forbid")
    playouts: Any = Field(None, description="the budget in playouts (deterministic)")
    time_ms: Any = Field(None, description="the budget in milliseconds (default 1000 when playouts is not given)")
    top: Any = Field(5, description="how many options to answer with")
    stream: Any = Field(False, description="true: newline-delimited JSON, intermediate answers then the final one")
    interval_ms: Any = Field(500, description="the time between intermediate answers in milliseconds")
    agent: Any = Field(None, description="the search agent that analyses (default: the game's AI if a search, "
                                         "else mcts)")


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    strength: Any = Field(None, description="the AI's strength 1..8 from now on (the agent level:N)")
    movetime_ms: Any = Field(None, description="the AI's time a decision in milliseconds (null: none)")
    clock: Any = Field(None, description='a clock per side {"time_ms": T, "increment_ms": I} (null: none)')


class Replay(BaseModel):
    model_config = ConfigDict(extra="forbid")
    save: Any = Field(..., description="a save (format dustup-save), e.g. from dustup play --save")


BODIES = {"create_game": NewGame, "play": Play, "hint": Hint, "analyze": Analyze, "set_game": Settings,
          "replay": Replay}  # endpoint -> its body


def _option(value):
    """The ``option`` field: null (or a null element) named as such; the session checks the rest."""
    if value is None:
        raise ServiceError('option must be an array such as ["move", 0, 1], not null')
    if isinstance(value, list):
        for i, a in enumerate(value[1:], 1):
            if a is None:
                raise ServiceError(f"option element {i} must be an integer or a string, not null")
    return value


def validation_message(errors: list, model=None) -> tuple[int, str]:
    """FastAPI's validation errors as (status, one line) with the request's own field names: 422 for a
    body that is not a JSON object of the endpoint's fields, 400 for a query parameter's value."""
    status, parts = 400, []
    fields = ", ".join(model.model_fields) if model is not None else ""
    for e in errors[:3]:
        loc, typ, given = tuple(e.get("loc", ())), e.get("type", ""), e.get("input")
        where, name = (loc[0] if loc else "body"), ".".join(str(x) for x in loc[1:])
        if where == "body":
            status = 422
        if typ == "json_invalid":
            at = f" at character {loc[1]}" if len(loc) > 1 else ""
            parts.append(f"malformed JSON: {e.get('ctx', {}).get('error', 'cannot be decoded')}{at}")
        elif where == "body" and not name:
            if typ == "missing":
                parts.append("the body is missing: send a JSON object (Content-Type: application/json)")
            elif isinstance(given, (bytes, bytearray)):
                parts.append("the body is not JSON: send a JSON object with Content-Type: application/json")
            else:
                parts.append(f"the body must be a JSON object, not {json_type(given)}")
        elif typ == "missing":
            parts.append(f"missing field {name!r}" + (f" (fields: {fields})" if where == "body" and fields else ""))
        elif typ == "extra_forbidden":
            parts.append(f"unknown field {name!r}" + (f" (fields: {fields})" if fields else ""))
        elif typ in ("int_parsing", "int_type", "int_from_float"):
            parts.append(f"{name} must be an integer, not {short(given)}")
        else:
            parts.append(f"{name or where}: {e.get('msg', 'invalid')}")
    return status, "; ".join(parts)


# ---------------------------------------------------------------------------------------------- registry
class Entry:
    __slots__ = ("id", "lock", "session", "tokens", "loaded", "analysis")

    def __init__(self, game_id: str):
        self.id = game_id
        self.lock = threading.Lock()
        self.analysis: tuple | None = None  # (side, threading.Event): that side's running analysis; set it to stop
        self.session: Session | None = None
        self.tokens: tuple = (None, None)
        self.loaded = False


class Games:
    """Games in memory (an LRU of at most ``cache`` games), each with its lock, backed by the store."""

    def __init__(self, store: Store, cache: int = 1000):
        self.store = store
        self.cache = cache
        self.entries: OrderedDict[str, Entry] = OrderedDict()
        self.lock = threading.Lock()  # guards ``entries`` only (held for microseconds)

    def add(self, session: Session, tokens: tuple[str | None, str | None]) -> str:
        hashes = tuple(token_hash(t) if t else None for t in tokens)
        game_id = secrets.token_urlsafe(9)
        rec = session.record()
        self.store.create(game_id, rec, hashes, session.secret_seed, session.game.over, session.result())
        e = Entry(game_id)
        e.session, e.tokens, e.loaded = session, hashes, True
        with self.lock:
            self.entries[game_id] = e
            self._evict()
        return game_id

    def get(self, game_id: str) -> Entry:
        """The game's entry, LOCKED (the caller releases ``entry.lock``); 404 if there is no such game."""
        with self.lock:
            e = self.entries.get(game_id)
            if e is None:
                e = self.entries[game_id] = Entry(game_id)
                self._evict()
            else:
                self.entries.move_to_end(game_id)
        e.lock.acquire()
        if not e.loaded:
            try:
                self._load(e)
            except BaseException:
                e.lock.release()
                with self.lock:
                    if self.entries.get(game_id) is e:
                        del self.entries[game_id]
                raise
        return e

    def peek(self, game_id: str) -> Entry | None:
        """The game's entry if it is in memory, NOT locked (its tokens and its running analysis only)."""
        with self.lock:
            e = self.entries.get(game_id)
        return e if e is not None and e.loaded else None

    def _load(self, e: Entry) -> None:
        try:
            rec = self.store.load(e.id) if len(e.id) <= 32 else None
        except StoreError as err:
            raise HTTPError(500, f"game {e.id} cannot be read from the database: {err}") from None
        if rec is None:
            raise HTTPError(404, f"no game {e.id!r}")
        try:
            s = Session.restore(rec, log=log.warning)
        except Exception as err:  # noqa: BLE001
            log.error("game %s does not replay from the database: %s", e.id, err)
            raise HTTPError(500, f"game {e.id} does not replay from the database: {err}") from None
        s.secret_seed = rec["secret_seed"]
        e.session, e.tokens, e.loaded = s, rec["tokens"], True

    def forget(self, game_id: str) -> None:
        with self.lock:
            self.entries.pop(game_id, None)

    def _evict(self) -> None:
        while len(self.entries) > self.cache:
            for gid, e in self.entries.items():
                if e.lock.acquire(blocking=False):  # never evict a game in use
                    e.lock.release()
                    del self.entries[gid]
                    break
            else:
                return


def _side_of(entry: Entry, authorization: str | None) -> int:
    if not authorization:
        raise HTTPError(401, "missing token: send Authorization: Bearer TOKEN", {"WWW-Authenticate": "Bearer"})
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPError(401, "malformed Authorization header: send Authorization: Bearer TOKEN",
                        {"WWW-Authenticate": "Bearer"})
    h = token_hash(token.strip())
    for side, th in enumerate(entry.tokens):
        if th is not None and secrets.compare_digest(th, h):
            return side
    raise HTTPError(401, "unknown token for this game", {"WWW-Authenticate": "Bearer"})


# ---------------------------------------------------------------------------------------------- app
def create_app(store: Store, *, allow_agents: tuple[str, ...] = (), cache: int = 1000,
               max_body: int = MAX_BODY_BYTES) -> FastAPI:
    """The ASGI app over ``store``.  ``allow_agents``: extra agent names (``policy:PATH``) the operator
    allows; clients may only pick the built-in agents otherwise (a model file is loaded with pickle).
    ``max_body``: the largest request body in bytes (larger ones get 413 unread)."""
    app = FastAPI(title="Dustup game server", version="1", responses=ERROR_RESPONSES,
                  description="Play Dustup against an AI (or another player) over HTTP. Create a game with "
                              "POST /games, then send each decision with POST /games/{id}/play using the "
                              "token you were given (Authorization: Bearer TOKEN). The page at / plays in the "
                              "browser. See docs/server.md.")
    games = Games(store, cache)
    app.state.games = games
    app.state.store = store
    extra = tuple(allow_agents)

    app.add_middleware(Unexpected)
    app.add_middleware(BodyLimit, limit=max_body)

    @app.exception_handler(HTTPError)
    def _http_error(request: Request, exc: HTTPError):
        return error_response(exc.status, exc.message, exc.headers)

    @app.exception_handler(ServiceError)
    def _service_error(request: Request, exc: ServiceError):
        return error_response(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    def _validation_error(request: Request, exc: RequestValidationError):
        endpoint = getattr(request.scope.get("endpoint"), "__name__", "")
        return error_response(*validation_message(exc.errors(), BODIES.get(endpoint)))

    @app.exception_handler(StarletteHTTPException)
    def _starlette_error(request: Request, exc: StarletteHTTPException):
        """FastAPI's and Starlette's own errors (no route, a method not allowed, a body it cannot parse)."""
        method, path = request.method, request.url.path
        if exc.status_code == 404:
            return error_response(404, f"no such path: {method} {path} (the API is listed at /docs)")
        if exc.status_code == 405:
            allow = (exc.headers or {}).get("Allow", "")
            return error_response(405, f"{method} is not allowed on {path}" + (f": use {allow}" if allow else ""),
                                  exc.headers)
        if exc.status_code == 400:  # FastAPI could not decode the body (not UTF-8, nested too deeply)
            cause = exc.__cause__
            why = ("nested too deeply" if isinstance(cause, RecursionError) else
                   "not UTF-8 text" if isinstance(cause, UnicodeDecodeError) else "it cannot be decoded")
            return error_response(422, f"malformed JSON: {why}")
        return error_response(exc.status_code, str(exc.detail), exc.headers)

    def locked(game_id: str):
        return games.get(game_id)

    # ------------------------------------------------------------------ info
    @app.get("/info", summary="Engine, protocol, agents, scenarios and game options")
    def info():
        from dustup_env import __version__
        return {"engine": "dustup", "version": __version__, "protocol": 1, "agents": agents() + list(extra),
                "scenarios": scenarios(), "options": dict(DEFAULT_OPTIONS)}

    # ------------------------------------------------------------------ games
    @app.post("/games", status_code=201, summary="Create a game",
              description="Returns the game id and the token of the creator's side (with ai null: the tokens "
                          "of both sides). With an AI, the AI has already played when this returns.")
    def create_game(body: NewGame):
        check_side("side", body.side)  # the body's name for it (the session calls it ``you``)
        if body.strength is not None and "ai" in body.model_fields_set:
            raise ServiceError("give ai (an agent) or strength (a level), not both")
        secret = body.seed is None
        seed = random_seed() if secret else body.seed
        s = Session.new(scenario=body.scenario, seed=seed, options=body.options, you=body.side, ai=body.ai,
                        ai_seed=body.ai_seed, allow_paths=False, log=log.warning, extra_agents=extra,
                        strength=body.strength, movetime_ms=body.movetime_ms, clock=body.clock)
        s.secret_seed = secret
        ai = s.ai
        if ai is None:
            tokens = (secrets.token_urlsafe(24), secrets.token_urlsafe(24))
            gid = games.add(s, tokens)
            return {"game": gid, "tokens": list(tokens), "ai": None}
        side = s.humans[0]
        tokens = (secrets.token_urlsafe(24), None) if side == 0 else (None, secrets.token_urlsafe(24))
        gid = games.add(s, tokens)
        return {"game": gid, "token": tokens[side], "side": side, "ai": ai}

    @app.get("/games/{game_id}", summary="The token side's view of the game",
             description="view, the pending decision (null while the other side decides), over, result.")
    def get_game(game_id: str, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            tc = e.session.settings().get("time_control")
            return _json({"game": game_id, **e.session.state(side), **({"time_control": tc} if tc else {})})
        finally:
            e.lock.release()

    @app.post("/games/{game_id}/play", summary="Take one of the pending options",
              description="Applies the option, lets the AI answer, and returns the new events this side may "
                          "see and its next decision (or over and the result). The moves are stored before "
                          "the response is sent.")
    def play(game_id: str, body: Play, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            s = e.session
            n0 = len(s.decisions)
            out = s.play(side, _option(body.option))
            try:
                store.append(game_id, n0, s.decisions[n0:], s.game.over, s.result(), s.time_control_record())
            except Exception as err:  # noqa: BLE001 - not stored: not acknowledged; rebuild from the database
                e.loaded = False
                e.session = None
                log.error("game %s: cannot store decisions %d..: %s", game_id, n0, err)
                raise HTTPError(503, "the move could not be stored; it was not applied (try again)") from None
            return _json(out)
        finally:
            e.lock.release()

    @app.post("/games/{game_id}/set", summary="Change the AI's strength and time control from now on",
              description="strength (1..8: the agent level:N), movetime_ms or clock ({\"time_ms\": T, "
                          "\"increment_ms\": I}; null: none), as the protocol's set. Stored with the game: a "
                          "game rebuilt from the database keeps them. Answers the game's settings.")
    def set_game(game_id: str, body: Settings, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            _side_of(e, authorization)
            s = e.session
            fields = [k for k in ("strength", "movetime_ms", "clock") if k in body.model_fields_set]
            if not fields:
                raise ServiceError("give strength, movetime_ms or clock")
            before = (s.ai, s.agent, s.ai_from, s.ai_note, s.time_control, s._ai_choices, s._ai_first_turn)
            settings = s.configure(body.strength, body.movetime_ms, body.clock, fields)
            try:
                store.configure(game_id, len(s.decisions), s.ai, s.ai_from, s.time_control_record())
            except Exception as err:  # noqa: BLE001 - not stored: not changed
                (s.ai, s.agent, s.ai_from, s.ai_note, s.time_control, s._ai_choices, s._ai_first_turn) = before
                log.error("game %s: cannot store its settings: %s", game_id, err)
                raise HTTPError(503, "the settings could not be stored; they were not changed (try again)") from None
            return _json({"game": game_id, "settings": settings})
        finally:
            e.lock.release()

    @app.get("/games/{game_id}/events", summary="The events this side may see, from index `since`")
    def events(game_id: str, since: int = 0, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            return _json(e.session.events(side, since))
        finally:
            e.lock.release()

    @app.get("/games/{game_id}/sight", summary="Sight and range as this side may know them",
             description="Give one of: unit (an own unit: the enemy units it sees, each with distance, range band, "
                         "target die and whether it may fire at it now), target (an enemy unit this side knows of: "
                         "the own units that see it), or x and y (a point: the own units that see it).")
    def sight(game_id: str, unit: int | None = None, target: int | None = None, x: float | None = None,
              y: float | None = None, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            if (x is None) != (y is None):
                raise ServiceError("sight: a point needs both x and y")
            point = None if x is None else [x, y]
            return _json(e.session.sight(side, unit, target, point))
        finally:
            e.lock.release()

    @app.get("/games/{game_id}/measure", summary="Distance, bearing, line of sight and range band between two points")
    def measure(game_id: str, ax: float, ay: float, bx: float, by: float, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            return _json(e.session.measure(side, [ax, ay], [bx, by]))
        finally:
            e.lock.release()

    @app.get("/games/{game_id}/reach", summary="Where a Move Action may end, per distance and direction",
             description="For an own unit (default: the unit of this side's pending decision): for each nominated "
                         "distance and each of the 16 directions, the end of the walk with the least and the "
                         "greatest movement roll (terrain costs, obstacles, 2\" from the enemy figures this side "
                         "knows of).")
    def reach(game_id: str, unit: int | None = None, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            return _json(e.session.reach(side, unit))
        finally:
            e.lock.release()

    @app.post("/games/{game_id}/hint", summary="The AI's choice for this side's pending decision (not applied)")
    def hint(game_id: str, body: Hint, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            if body.agent is not None and (not isinstance(body.agent, str) or not body.agent):
                raise ServiceError(f"agent must be an agent name ({', '.join(BUILTIN_AGENTS)}) or null, "
                                   f"not {short(body.agent)}")
            return e.session.hint(side, body.time_ms, body.agent, allow_paths=False, extra_agents=extra)
        finally:
            e.lock.release()

    @app.post("/games/{game_id}/analyze", summary="The search's analysis of this side's pending decision",
              description="The top options with visits, win probability, expected victory-point margin and the "
                          "principal variation, within a budget of playouts or time_ms. With stream true: "
                          "newline-delimited JSON (application/x-ndjson), one intermediate answer a line "
                          "(\"intermediate\": true), then the final one. POST /games/{id}/analyze/stop ends "
                          "it early with the best answer so far.")
    def analyze(game_id: str, body: Analyze, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            side = _side_of(e, authorization)
            if not isinstance(body.stream, bool):
                raise ServiceError(f"stream must be true or false, not {short(body.stream)}")
            run = e.session.prepare_analysis(side, body.playouts, body.time_ms, body.top, body.agent,
                                             body.interval_ms, allow_paths=False, extra_agents=extra)
        except BaseException:
            e.lock.release()
            raise
        stop = threading.Event()
        e.analysis = (side, stop)
        if not body.stream:
            try:
                return _json(run(stop.is_set))
            finally:
                e.analysis = None
                e.lock.release()
        lines: queue.Queue = queue.Queue()

        def work():
            try:
                lines.put(run(stop.is_set, lines.put))
            except ServiceError as err:
                lines.put({"ok": False, "error": err.message})
            except Exception as err:  # noqa: BLE001 - the stream has begun: the error is its last line
                log.exception("game %s: analysis failed", game_id)
                lines.put({"ok": False, "error": f"internal error: {type(err).__name__}: {err}"})
            finally:
                e.analysis = None
                e.lock.release()
                lines.put(None)

        def stream():
            try:
                while True:
                    item = lines.get()
                    if item is None:
                        return
                    yield json.dumps(item, separators=(",", ":")) + "\n"
            finally:
                stop.set()  # the client went away: the analysis ends

        threading.Thread(target=work, name=f"dustup-analysis-{game_id}", daemon=True).start()
        return StreamingResponse(stream(), media_type="application/x-ndjson")

    @app.post("/games/{game_id}/analyze/stop", summary="End this game's running analysis early",
              description="The running analysis answers at once with the best so far (\"stopped\": true). "
                          "Answers stopped: false when none is running.")
    def analyze_stop(game_id: str, authorization: str | None = Header(None)):
        e = games.peek(game_id)
        if e is None:  # not in memory: no analysis runs; still a 404 for a game that does not exist
            e = locked(game_id)
            e.lock.release()
        side = _side_of(e, authorization)
        running = e.analysis
        if running is None or running[0] != side:
            return {"stopped": False}
        running[1].set()
        return {"stopped": True}

    @app.get("/games/{game_id}/save", summary="The game's save, once it is over",
             description="A save holds the seed and every decision, hidden units and all: it is given out only "
                         "when the game is over.")
    def save(game_id: str, authorization: str | None = Header(None)):
        e = locked(game_id)
        try:
            _side_of(e, authorization)
            if not e.session.game.over:
                raise HTTPError(409, "the save reveals the dice and hidden units: it is available once the game "
                                     "is over")
            return _json(e.session.save())
        finally:
            e.lock.release()

    # ------------------------------------------------------------------ replays
    @app.post("/replay", summary="Replay a saved game: one frame per decision, for a spectator",
              description="Each frame is the decision taken (side, option, label), the events it caused and "
                          "the table after it, everything shown (a save reveals all).")
    def replay(body: Replay):
        return _json(replay_frames(body.save))

    # ------------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def replay_frames(save) -> dict:
    """Frames of a saved game for the replay page (spectator: everything shown)."""
    from dustup_env import narrate as nr
    from dustup_env.rules import DustupError

    if not isinstance(save, dict):
        raise ServiceError(f"save must be a save object (format dustup-save), not {json_type(save)}")
    dec = save.get("decisions")
    if isinstance(dec, list) and len(dec) > MAX_REPLAY_DECISIONS:
        raise ServiceError(f"save has {len(dec)} decisions; replays take at most {MAX_REPLAY_DECISIONS}")
    if isinstance(save.get("scenario"), str):
        from dustup_env.rules import scenario_names
        if save["scenario"] not in scenario_names():
            raise ServiceError(f"unknown scenario {save['scenario']!r} in the save")
    if isinstance((save.get("options") or {}).get("courage_table"), str):
        raise ServiceError("the save's courage_table must be a table object here (file paths are not read)")
    try:
        final = Game.from_dict(save)  # validates the whole save (format, version, every decision, digest)
    except DustupError as e:
        raise ServiceError(f"bad save: {e}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise ServiceError(f"bad save: {type(e).__name__}: {e}") from None
    know_final = nr.Knowledge.spectator(final)
    g = Game(save["scenario"], seed=save["seed"], options=save.get("options"))
    frames = []

    def frame(side, option, label, first):
        t = views.table_view(g, None)
        ev = g.event_log()
        frames.append({"n": len(frames), "side": side, "option": option, "label": label,
                       "events": views.event_records(ev[first:], know_final, first),
                       "turn": t["turn"], "units": t["units"], "markers": t["markers"], "score": t["score"],
                       "holders": [o["holder"] for o in t["objectives"]], "dynamic_terrain": t["dynamic_terrain"],
                       **{k: t[k] for k in ("entities", "bursts", "feature_styles") if k in t}})
        return len(ev)

    n = frame(None, None, None, 0)
    for opt in save["decisions"]:
        d = g.decision()
        know = nr.Knowledge.spectator(g)
        label = (f"{know.side_name(d.side)}: " + (f"{know.unit(d.unit)}: " if d.unit >= 0 else "")
                 + nr.option_label(tuple(opt), d.kind, know, unit=d.unit))
        g.apply(tuple(opt))
        n = frame(d.side, list(opt), label, n)
    res = g.result()
    w = res["winner"]
    res["winner_name"] = None if w is None or w < 0 else g.scenario["sides"][w]["name"]
    return {"geometry": views.geometry(g), "frames": frames, "result": res if g.over else None, "over": g.over}
