"""``dustup engine``: the stdio protocol, JSON lines (see docs/protocol.md).

One request object per line on stdin, exactly one response object per line on stdout (``analyze`` with
``stream: true`` also sends its intermediate answers, each marked ``"intermediate": true``), nothing else on
stdout (logs go to stderr).  A reader thread takes the input lines as they come, so that a ``stop`` line ends
a running analysis (the analysis polls for it between playouts); any other line sent during an analysis is
handled, in order, once the analysis has answered.  Every response has ``"ok": true`` or ``"ok": false`` with ``"error"``, a
one-line message naming the problem; the request's ``"id"`` is echoed.  A failed request changes
nothing.  Blank lines are ignored; ``quit`` or end of input ends the engine.
"""
from __future__ import annotations

import json
import os
import queue
import sys
import threading
import traceback
from collections import deque

from dustup_env.rules import DEFAULT_OPTIONS

from .session import ServiceError, Session, json_type, short, agents, check_side, scenarios

PROTOCOL = 1
MAX_LINE = 16 * 1024 * 1024  # a request line longer than this is refused (a scenario object fits easily)

# command -> {field: (required, JSON types accepted, description)}
_ANY_SIDE = (False, (int,), "the side acting or reading (default: the front-end's side; the AI's side is refused)")
COMMANDS: dict = {
    "hello": {},
    "new": {
        "scenario": (False, (str, dict), "a built-in scenario name, a scenario file path or a scenario object"),
        "seed": (False, (int,), "the game's seed (dice)"),
        "options": (False, (dict,), "game options"),
        "you": (False, (int,), "the front-end's side, 0 or 1"),
        "ai": (False, (str, type(None)), "the AI's agent name, or null for two front-end players"),
        "ai_seed": (False, (int,), "the AI's seed (default: the game's seed)"),
        "strength": (False, (int,), "the AI's strength 1..8: the agent level:N (instead of ai)"),
        "movetime_ms": (False, (int, float), "the AI's time a decision in milliseconds (search agents)"),
        "clock": (False, (dict,), "a clock per side: {\"time_ms\": T, \"increment_ms\": I}"),
    },
    "set": {
        "strength": (False, (int,), "the AI's strength 1..8 from now on (the agent level:N)"),
        "movetime_ms": (False, (int, float, type(None)), "the AI's time a decision in milliseconds (null: none)"),
        "clock": (False, (dict, type(None)), "a clock per side {\"time_ms\": T, \"increment_ms\": I} (null: none)"),
    },
    "decision": {"side": _ANY_SIDE},
    "view": {"side": _ANY_SIDE},
    "state": {"side": _ANY_SIDE},
    "events": {"side": _ANY_SIDE, "since": (False, (int,), "the first event index to return (default 0)")},
    "play": {"side": _ANY_SIDE, "option": (True, (list,), "one of the pending decision's options, as given")},
    "hint": {"side": _ANY_SIDE, "time_ms": (False, (int, float), "the time budget in milliseconds (default 1000)"),
             "agent": (False, (str,), "the agent asked (default: the game's AI, else hard)")},
    "analyze": {"side": _ANY_SIDE,
                "playouts": (False, (int,), "the budget in playouts (deterministic)"),
                "time_ms": (False, (int, float), "the budget in milliseconds (default 1000 when playouts is not given)"),
                "top": (False, (int,), "how many options to answer with (default 5)"),
                "stream": (False, (bool,), "true: intermediate answers as they come, then the final one"),
                "interval_ms": (False, (int, float), "the time between intermediate answers (default 500)"),
                "agent": (False, (str,), "the search agent that analyses (default: the game's AI if a search, "
                                         "else mcts)")},
    "stop": {},
    "sight": {"side": _ANY_SIDE, "unit": (False, (int,), "an own unit: the enemy units it sees, range band, target die"),
              "target": (False, (int,), "an enemy unit the side knows of: the own units that see it"),
              "point": (False, (list,), "a point [x, y]: the own units that see it")},
    "measure": {"side": _ANY_SIDE, "from": (True, (list,), "a point [x, y]"), "to": (True, (list,), "a point [x, y]")},
    "reach": {"side": _ANY_SIDE,
              "unit": (False, (int,), "an own unit (default: the unit of the side's pending decision)")},
    "save": {"path": (False, (str,), "also write the save to this file")},
    "load": {"save": (False, (dict,), "a save object"), "path": (False, (str,), "a save file"),
             "you": (False, (int,), "the front-end's side, 0 or 1"),
             "ai": (False, (str, type(None)), "the AI's agent name, or null"),
             "ai_seed": (False, (int,), "the AI's seed")},
    "quit": {},
}


def _type_names(types) -> str:
    names = {int: "an integer", float: "a number", str: "a string", dict: "an object", list: "an array",
             type(None): "null", bool: "true or false"}
    return " or ".join(names[t] for t in types)


class Engine:
    """The protocol's state: at most one session; ``handle(line)`` gives the response object."""

    def __init__(self, log=None, emit=None, poll=None):
        self.session: Session | None = None
        self.log = log or (lambda msg: print(f"dustup engine: {msg}", file=sys.stderr, flush=True))
        self.done = False
        self.emit = emit  # callable(response dict): writes a line at once (an analysis's intermediate answers)
        self.poll = poll  # callable() -> true when a stop has arrived (polled while analysing)

    # ------------------------------------------------------------------ dispatch
    def handle_line(self, line: str) -> dict | None:
        if not line.strip():
            return None
        try:
            req = json.loads(line)
        except json.JSONDecodeError as e:
            return {"ok": False, "error": f"malformed JSON: {e.msg} at column {e.colno}"}
        except RecursionError:
            return {"ok": False, "error": "malformed JSON: nested too deeply"}
        return self.handle(req)

    def handle(self, req) -> dict:
        if not isinstance(req, dict):
            return {"ok": False, "error": f"a request must be a JSON object, not {json_type(req)}"}
        rid = req.get("id")
        out: dict = {}
        if "id" in req:
            out["id"] = rid
        try:
            if "id" in req and not (rid is None or isinstance(rid, (str, int, float))):
                raise ServiceError(f"id must be a string, a number or null, not {json_type(rid)}")
            cmd = req.get("cmd")
            if cmd is None:
                raise ServiceError("missing field cmd: the command, one of " + ", ".join(COMMANDS))
            if not isinstance(cmd, str):
                raise ServiceError(f"cmd must be a string, not {json_type(cmd)} {short(cmd)}")
            if cmd not in COMMANDS:
                raise ServiceError(f"unknown command {cmd!r}: commands are {', '.join(COMMANDS)}")
            spec = COMMANDS[cmd]
            for k in req:
                if k not in spec and k not in ("cmd", "id"):
                    raise ServiceError(f"{cmd}: unknown field {k!r}" + (f" (fields: {', '.join(spec)})" if spec
                                                                       else f" ({cmd} takes no fields)"))
            for k, (required, types, _) in spec.items():
                if k not in req:
                    if required:
                        raise ServiceError(f"{cmd}: missing field {k!r}")
                    continue
                v = req[k]
                if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
                    if not (float in types and isinstance(v, int) and not isinstance(v, bool)):
                        raise ServiceError(f"{cmd}: field {k!r} must be {_type_names(types)}, not {json_type(v)} "
                                           f"{short(v)}")
            out.update(getattr(self, "_cmd_" + cmd)(req))
            return {"ok": True, **out}
        except ServiceError as e:
            return {"ok": False, **out, "error": e.message}
        except Exception as e:  # noqa: BLE001 - a bug must not kill the engine or print a traceback on stdout
            self.log(f"internal error: {type(e).__name__}: {e}\n{traceback.format_exc()}")
            return {"ok": False, **out, "error": f"internal error: {type(e).__name__}: {e}"}

    # ------------------------------------------------------------------ helpers
    def _session(self, cmd: str) -> Session:
        if self.session is None:
            raise ServiceError(f"{cmd}: no game yet: start one with new or load")
        return self.session

    def _side(self, s: Session, req: dict) -> int:
        if "side" in req:
            return check_side("side", req["side"])
        if len(s.humans) == 1:
            return s.humans[0]
        raise ServiceError(f"{req['cmd']}: this game has two front-end players (ai null): name the side")

    # ------------------------------------------------------------------ commands
    def _cmd_hello(self, req):
        from dustup_env import __version__
        return {"engine": "dustup", "version": __version__, "protocol": PROTOCOL,
                "commands": list(COMMANDS),
                "fields": {c: {k: {"required": r, "type": _type_names(t), "about": a} for k, (r, t, a) in f.items()}
                           for c, f in COMMANDS.items()},
                "agents": agents() + ["policy:PATH"], "scenarios": scenarios(),
                "options": dict(DEFAULT_OPTIONS)}

    def _start(self, s: Session) -> dict:
        self.session = s  # only once the new session is complete: a failed new/load keeps the old game
        side = s.humans[0]
        ev = s.events(side, 0) if len(s.humans) == 1 else {"events": [], "next": 0}
        out = {"game": s.settings(), "you": side if len(s.humans) == 1 else None}
        if len(s.humans) == 1:
            out.update(events=ev["events"], next=ev["next"], decision=s.decision(side))
        else:
            d = s.game.decision() if not s.game.over else None
            out["deciding"] = d.side if d is not None else None
        out.update(over=s.game.over, result=s.result())
        return out

    def _cmd_new(self, req):
        if "strength" in req and "ai" in req:
            raise ServiceError("new: give ai (an agent) or strength (a level), not both")
        s = Session.new(scenario=req.get("scenario", "skirmish"), seed=req.get("seed", 0),
                        options=req.get("options"), you=req.get("you", 0), ai=req.get("ai", "hard"),
                        ai_seed=req.get("ai_seed"), allow_paths=True, log=self.log, strength=req.get("strength"),
                        movetime_ms=req.get("movetime_ms"), clock=req.get("clock"))
        return self._start(s)

    def _cmd_set(self, req):
        s = self._session("set")
        fields = [k for k in COMMANDS["set"] if k in req]
        if not fields:
            raise ServiceError("set: give strength, movetime_ms or clock")
        return {"game": s.configure(req.get("strength"), req.get("movetime_ms"), req.get("clock"), fields)}

    def _cmd_analyze(self, req):
        s = self._session("analyze")
        side = self._side(s, req)
        on_update = None
        if req.get("stream") and self.emit is not None:
            head = {"id": req["id"]} if "id" in req else {}
            on_update = lambda a: self.emit({"ok": True, **head, **a})  # noqa: E731
        out = s.analyze(side, req.get("playouts"), req.get("time_ms"), req.get("top", 5), req.get("agent"),
                        stop=self.poll, on_update=on_update, interval_ms=req.get("interval_ms", 500))
        return out

    def _cmd_stop(self, req):
        return {"stopped": False}  # no analysis is running (a stop sent during one answers after it)

    def _cmd_load(self, req):
        if ("save" in req) == ("path" in req):
            raise ServiceError("load: give either save (a save object) or path (a save file)")
        save = req.get("save")
        if "path" in req:
            try:
                with open(req["path"]) as fh:
                    save = json.load(fh)
            except OSError as e:
                raise ServiceError(f"load: cannot read {req['path']!r}: {e.strerror or e}") from None
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise ServiceError(f"load: {req['path']!r} is not JSON: {e}") from None
        s = Session.from_save(save, you=req.get("you", 0), ai=req.get("ai", "hard"), ai_seed=req.get("ai_seed"),
                              allow_paths=True, log=self.log)
        return self._start(s)

    def _cmd_decision(self, req):
        s = self._session("decision")
        side = self._side(s, req)
        d = s.decision(side)
        out = {"decision": d, "over": s.game.over}
        if d is None and not s.game.over:
            out["deciding"] = s.game.decision().side
        return out

    def _cmd_view(self, req):
        s = self._session("view")
        return {"view": s.view(self._side(s, req))}

    def _cmd_state(self, req):
        s = self._session("state")
        return s.state(self._side(s, req))

    def _cmd_events(self, req):
        s = self._session("events")
        return s.events(self._side(s, req), req.get("since", 0))

    def _cmd_play(self, req):
        s = self._session("play")
        return s.play(self._side(s, req), req["option"])

    def _cmd_hint(self, req):
        s = self._session("hint")
        return s.hint(self._side(s, req), req.get("time_ms", 1000), req.get("agent"), allow_paths=True)

    def _cmd_sight(self, req):
        s = self._session("sight")
        return {"sight": s.sight(self._side(s, req), req.get("unit"), req.get("target"), req.get("point"))}

    def _cmd_measure(self, req):
        s = self._session("measure")
        return {"measure": s.measure(self._side(s, req), req["from"], req["to"])}

    def _cmd_reach(self, req):
        s = self._session("reach")
        return {"reach": s.reach(self._side(s, req), req.get("unit"))}

    def _cmd_save(self, req):
        s = self._session("save")
        save = s.save()
        if "path" in req:
            try:
                with open(req["path"], "w") as fh:
                    json.dump(save, fh)
            except OSError as e:
                raise ServiceError(f"save: cannot write {req['path']!r}: {e.strerror or e}") from None
            return {"path": req["path"], "decisions": len(save["decisions"]), "digest": save["digest"]}
        return {"save": save}

    def _cmd_quit(self, req):
        self.done = True
        return {"bye": True}


def serve_stdio(stdin=None, stdout=None, log=None) -> int:
    """Run the protocol until ``quit`` or end of input.  Only responses are written to ``stdout``; anything
    else that would print there (a library's output) is sent to stderr."""
    if stdout is None:
        # keep the real stdout for responses; send file descriptor 1 (and sys.stdout) to stderr
        sys.stdout.flush()
        fd = os.dup(1)
        os.dup2(2, 1)
        stdout = os.fdopen(fd, "w", encoding="utf-8", buffering=1)
        sys.stdout = sys.stderr
    if stdin is None:
        stdin = sys.stdin.buffer
    lines = _Lines(stdin)

    def write(resp: dict) -> None:
        try:
            text = json.dumps(resp, separators=(",", ":"))
        except (TypeError, ValueError) as e:  # a bug: still exactly one JSON line, and the engine goes on
            eng.log(f"internal error: response not JSON: {e}")
            text = json.dumps({"ok": False, **({"id": resp["id"]} if "id" in resp else {}),
                               "error": f"internal error: the response is not JSON ({e})"})
        stdout.write(text + "\n")
        stdout.flush()

    eng = Engine(log=log, emit=write, poll=lines.poll_stop)
    while not eng.done:
        item = lines.next()
        if item is None:
            break
        resp = item if isinstance(item, dict) else eng.handle_line(item)
        if resp is None:
            continue
        write(resp)
        for stop in lines.take_stops():  # the stops that ended this analysis: each answered after it
            write({"ok": True, **({"id": stop["id"]} if "id" in stop else {}), "stopped": True})
    return 0


class _Lines:
    """The input, read line by line by a thread of its own: :meth:`next` gives the next line (text), a
    refusal (a response object: a line too long, not UTF-8) or None at the end of input; :meth:`poll_stop`
    (called while an analysis runs) takes the lines that have arrived, answers true at a ``stop`` and keeps the
    others, in order, for :meth:`next`."""

    def __init__(self, stdin):
        self.q: queue.Queue = queue.Queue()
        self.held: deque = deque()
        self.stops: list = []
        threading.Thread(target=self._read, args=(stdin,), name="dustup-engine-input", daemon=True).start()

    def _read(self, stdin) -> None:
        try:
            for raw in _raw_lines(stdin):
                if raw is _TOO_LONG:
                    self.q.put({"ok": False, "error": f"request line longer than {MAX_LINE} bytes"})
                    continue
                if isinstance(raw, bytes):
                    try:
                        raw = raw.decode("utf-8")
                    except UnicodeDecodeError as e:
                        self.q.put({"ok": False, "error": f"request is not UTF-8: {e.reason} at byte {e.start}"})
                        continue
                self.q.put(raw)
        except (OSError, ValueError):  # the input was closed under the reader
            pass
        self.q.put(None)

    def next(self):
        if self.held:
            return self.held.popleft()
        while True:
            try:
                return self.q.get(timeout=0.5)  # a timeout keeps Ctrl-C prompt
            except queue.Empty:
                continue

    def poll_stop(self) -> bool:
        while True:
            try:
                item = self.q.get_nowait()
            except queue.Empty:
                return bool(self.stops)
            stop = _stop_request(item)
            if stop is not None:
                self.stops.append(stop)
                return True
            self.held.append(item)
            if item is None or _is_quit(item):  # the end of input or quit: the analysis answers now
                return True

    def take_stops(self) -> list:
        out, self.stops = self.stops, []
        return out


_TOO_LONG = object()


def _raw_lines(stdin):
    """The input's lines (bytes, or text from a text stream), ``_TOO_LONG`` for a line over the limit.  The
    process's own standard input is read from its file descriptor, without Python's buffered reader (whose lock a
    reading thread would still hold when the interpreter shuts down)."""
    try:
        fd = stdin.fileno() if stdin is sys.stdin.buffer or stdin is sys.stdin else None
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        while True:
            raw = stdin.readline(MAX_LINE + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE:
                _drain(stdin, raw)
                yield _TOO_LONG
                continue
            yield raw
    buf, start, skipping = b"", 0, False
    while True:
        i = buf.find(b"\n", start)
        if i >= 0:
            line, buf, start = buf[:i + 1], buf[i + 1:], 0
            if skipping:
                skipping = False
                continue
            yield line if len(line) <= MAX_LINE else _TOO_LONG
            continue
        if len(buf) > MAX_LINE:  # no end of line within the limit: refuse it and skip to its end
            if not skipping:
                yield _TOO_LONG
            buf, start, skipping = b"", 0, True
        else:
            start = len(buf)
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if buf and not skipping:
                yield buf if len(buf) <= MAX_LINE else _TOO_LONG
            return
        buf += chunk


def _request(item):
    if not isinstance(item, str) or '"cmd"' not in item:
        return None
    try:
        req = json.loads(item)
    except (json.JSONDecodeError, RecursionError):
        return None
    return req if isinstance(req, dict) else None


def _stop_request(item):
    """The request object when ``item`` is a well-formed ``stop`` (only cmd and id), else None."""
    req = _request(item)
    if req is None or req.get("cmd") != "stop" or set(req) - {"cmd", "id"}:
        return None
    rid = req.get("id")
    return req if rid is None or (isinstance(rid, (str, int, float)) and not isinstance(rid, bool)) else None


def _is_quit(item) -> bool:
    req = _request(item)
    return req is not None and req.get("cmd") == "quit"


def _drain(stdin, raw) -> None:
    while raw and not raw.endswith(b"\n"):
        raw = stdin.readline(MAX_LINE)
