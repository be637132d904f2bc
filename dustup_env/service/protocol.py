"""``dustup engine``: the stdio protocol, JSON lines (see docs/protocol.md).

One request object per line on stdin, exactly one response object per line on stdout, nothing else on
stdout (logs go to stderr).  Every response has ``"ok": true`` or ``"ok": false`` with ``"error"``, a
one-line message naming the problem; the request's ``"id"`` is echoed.  A failed request changes
nothing.  Blank lines are ignored; ``quit`` or end of input ends the engine.
"""
from __future__ import annotations

import json
import os
import sys
import traceback

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
    },
    "decision": {"side": _ANY_SIDE},
    "view": {"side": _ANY_SIDE},
    "state": {"side": _ANY_SIDE},
    "events": {"side": _ANY_SIDE, "since": (False, (int,), "the first event index to return (default 0)")},
    "play": {"side": _ANY_SIDE, "option": (True, (list,), "one of the pending decision's options, as given")},
    "hint": {"side": _ANY_SIDE, "time_ms": (False, (int, float), "the time budget in milliseconds (default 1000)"),
             "agent": (False, (str,), "the agent asked (default: the game's AI, else hard)")},
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
             type(None): "null"}
    return " or ".join(names[t] for t in types)


class Engine:
    """The protocol's state: at most one session; ``handle(line)`` gives the response object."""

    def __init__(self, log=None):
        self.session: Session | None = None
        self.log = log or (lambda msg: print(f"dustup engine: {msg}", file=sys.stderr, flush=True))
        self.done = False

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
                if isinstance(v, bool) or not isinstance(v, types):
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
        s = Session.new(scenario=req.get("scenario", "skirmish"), seed=req.get("seed", 0),
                        options=req.get("options"), you=req.get("you", 0), ai=req.get("ai", "hard"),
                        ai_seed=req.get("ai_seed"), allow_paths=True, log=self.log)
        return self._start(s)

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
    eng = Engine(log=log)
    while not eng.done:
        raw = stdin.readline(MAX_LINE + 1)
        if not raw:
            break
        if isinstance(raw, bytes):
            if len(raw) > MAX_LINE:
                _drain(stdin, raw)
                resp = {"ok": False, "error": f"request line longer than {MAX_LINE} bytes"}
            else:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    line = None
                    resp = {"ok": False, "error": f"request is not UTF-8: {e.reason} at byte {e.start}"}
                if line is not None:
                    resp = eng.handle_line(line)
        else:
            resp = eng.handle_line(raw)
        if resp is None:
            continue
        try:
            text = json.dumps(resp, separators=(",", ":"))
        except (TypeError, ValueError) as e:  # a bug: still exactly one JSON line, and the engine goes on
            eng.log(f"internal error: response not JSON: {e}")
            text = json.dumps({"ok": False, **({"id": resp["id"]} if "id" in resp else {}),
                               "error": f"internal error: the response is not JSON ({e})"})
        stdout.write(text + "\n")
        stdout.flush()
    return 0


def _drain(stdin, raw) -> None:
    while raw and not raw.endswith(b"\n"):
        raw = stdin.readline(MAX_LINE)
