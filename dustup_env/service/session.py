"""One game served to front-ends: the :class:`Session` behind ``dustup engine`` and ``dustup serve``.

A session owns a :class:`~dustup_env.rules.Game`, the side(s) played by front-ends and the AI agent of
the other side.  It implements every operation once (new, decision, view, events, play, hint, save,
load); the stdio protocol (:mod:`.protocol`) and the HTTP server (:mod:`.server`) are thin layers that
parse requests, call these methods and send the JSON they return.

Every request is checked before anything changes: a bad request raises :class:`ServiceError` (a
one-line message naming the problem, and the HTTP status it maps to) and leaves the game as it was.

The AI plays its decisions as soon as they come up, so after every operation either a front-end side
must decide or the game is over.  Each side sees only what it may know: its decisions, its
``game.view(side)`` and its ``game.event_log(side)``.

Persistence: a session is its replay recipe (scenario, seed, options, the AI's name and seed, and every
decision applied, :meth:`Session.record`).  :meth:`Session.restore` rebuilds it exactly, including the
AI's internal state (the AI is asked again for each of its decisions, in order, as it was during play).
"""
from __future__ import annotations

import hashlib
import math
import random
import threading
import time

from dustup_env import insight
from dustup_env import narrate as nr
from dustup_env.agent_registry import unfamiliar
from dustup_env.rules import DustupError, Game, GameOverError, IllegalOptionError
from dustup_env.rules import scenario_names

from . import views

BUILTIN_AGENTS = ("random", "scripted", "easy", "medium", "hard", "defensive", "ppo", "ppo-skirmish")
HINT_FALLBACK = "scripted"  # answers a hint whose agent did not finish within the time budget
MAX_HINT_MS = 60_000
ANALYSIS_AGENT = "mcts"  # the search that analyses when none is named (and the game's AI is not a search)
MAX_PLAYOUTS = 100_000
MAX_TOP = 50
LEVELS = 8  # strength N is the agent level:N (agents/levels.py), N in 1..LEVELS
MAX_CLOCK_MS = 24 * 3600 * 1000
DECISIONS_PER_TURN = 20  # the AI's decisions with a choice expected per turn before it has played a turn


class ServiceError(Exception):
    """A request that cannot be carried out; ``status`` is the HTTP status it maps to."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


# ---------------------------------------------------------------------------------------------- checks
def check_int(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(f"{name} must be an integer, not {json_type(value)} {short(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"in {lo}..{hi}" if hi is not None else f">= {lo}"
        raise ServiceError(f"{name} must be {rng}, not {value}")
    return value


def check_side(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise ServiceError(f"{name} must be 0 or 1, not {short(value)}")
    return value


def json_type(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def short(v, n: int = 60) -> str:
    import json
    try:
        s = json.dumps(v)
    except (TypeError, ValueError):
        s = repr(v)
    return s if len(s) <= n else s[:n - 3] + "..."


def check_point(name: str, value) -> list:
    """A point of the table as JSON: [x, y], two numbers (the table's bounds are checked by the game)."""
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value)):
        raise ServiceError(f"{name} must be a point [x, y] (two numbers), not {short(value)}")
    if any(v != v or v in (float("inf"), float("-inf")) for v in value):
        raise ServiceError(f"{name} must be a point of finite numbers, not {short(value)}")
    return [float(value[0]), float(value[1])]


def add_odds(rec: dict, odds: list) -> None:
    """Each option of ``rec`` (a decision's JSON) whose outcome the engine can enumerate gets ``dice`` (the dice the
    rules would roll now), ``odds`` (their exact chances) and ``odds_text`` (a one-line summary): ``odds`` is
    :func:`dustup_env.insight.option_odds` of each option, from what the deciding side may know."""
    for x, orec in zip(odds, rec["options"]):
        if x is not None:
            orec["dice"], orec["odds"] = x["dice"], x["odds"]
            orec["odds_text"] = insight.short_odds(x)


def parse_option(value) -> tuple:
    """A JSON option (an array: a name, then integers, strings or finite numbers: a point's coordinates) as the
    engine's tuple."""
    if not isinstance(value, list):
        raise ServiceError(f"option must be an array such as [\"move\", 0, 1], not {json_type(value)} {short(value)}")
    if not value:
        raise ServiceError("option must not be empty: it starts with the option's name, e.g. [\"end\"]")
    if not isinstance(value[0], str):
        raise ServiceError(f"option must start with the option's name (a string), not {short(value[0])}")
    for i, a in enumerate(value[1:], 1):
        if isinstance(a, float):  # a point's coordinate (the fire-support target markers)
            if not math.isfinite(a):
                raise ServiceError(f"option element {i} must be a finite number (a point's coordinate), not {short(a)}")
        elif isinstance(a, bool) or not isinstance(a, (int, str)):
            raise ServiceError(f"option element {i} must be an integer or a string, not {json_type(a)} {short(a)}")
    return tuple(value)


def check_agent(name, allow_paths: bool, extra: tuple = ()) -> str:
    """A known agent name: a built-in one, one of ``extra`` (allowed by the operator), or ``policy:PATH``
    when ``allow_paths`` (model files are loaded with pickle: only a local user's own choice)."""
    if not isinstance(name, str) or not name:
        raise ServiceError(f"ai must be an agent name ({', '.join(BUILTIN_AGENTS)}) or null, not {short(name)}")
    if name in BUILTIN_AGENTS or name in extra:
        return name
    if name.startswith("policy:") and allow_paths:
        return name
    if name == "mcts" or name.startswith("mcts:"):  # the search (its settings are checked when it is built)
        return name
    if name.startswith("level:"):  # a strength level (checked when it is built)
        return name
    known = ", ".join(BUILTIN_AGENTS) + ", mcts[:KEY=VALUE,...], level:N" + (" or policy:PATH" if allow_paths else "")
    raise ServiceError(f"unknown agent {name!r}: known agents are {known}")


def strength_agent(strength) -> str:
    """The agent of a UCI-like ``strength`` setting: ``level:N`` (the strength levels, agents/levels.py)."""
    n = check_int("strength", strength, 1, LEVELS)
    return f"level:{n}"


def check_time_control(movetime_ms=None, clock=None) -> dict | None:
    """A time control for the AI: ``movetime_ms`` (milliseconds a decision) or ``clock`` (``{"time_ms": T,
    "increment_ms": I}``: T per side, I added after each of the side's decisions); None: none."""
    if movetime_ms is not None and clock is not None:
        raise ServiceError("give movetime_ms (a time per decision) or clock (a clock per side), not both")
    if movetime_ms is not None:
        if isinstance(movetime_ms, bool) or not isinstance(movetime_ms, (int, float)) or \
                not 1 <= movetime_ms <= MAX_HINT_MS:
            raise ServiceError(f"movetime_ms must be a number of milliseconds in 1..{MAX_HINT_MS}, not "
                               f"{short(movetime_ms)}")
        return {"movetime_ms": float(movetime_ms)}
    if clock is not None:
        if not isinstance(clock, dict):
            raise ServiceError(f"clock must be an object {{\"time_ms\": T, \"increment_ms\": I}}, not "
                               f"{json_type(clock)} {short(clock)}")
        extra = set(clock) - {"time_ms", "increment_ms"}
        if extra:
            raise ServiceError(f"clock: unknown field {sorted(extra)[0]!r} (fields: time_ms, increment_ms)")
        if "time_ms" not in clock:
            raise ServiceError("clock: missing field 'time_ms' (each side's time in milliseconds)")
        t, inc = clock["time_ms"], clock.get("increment_ms", 0)
        for name, v, lo in (("clock.time_ms", t, 1), ("clock.increment_ms", inc, 0)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= MAX_CLOCK_MS:
                raise ServiceError(f"{name} must be a number of milliseconds in {lo}..{MAX_CLOCK_MS}, not {short(v)}")
        return {"clock_ms": [float(t), float(t)], "increment_ms": float(inc)}
    return None


def make_agent(name: str, seed: int):
    from dustup_env.agent_registry import make_agent as _make
    try:
        agent = _make(name, seed=seed)
    except ValueError as e:
        if name.startswith("level:") and "unknown agent 'level:" in str(e):
            raise ServiceError(f"strength levels (agent {name!r}) are not installed: the level agents are not in "
                               "the agent registry") from None
        raise ServiceError(f"cannot load agent {name!r}: {e}") from None
    except OSError as e:
        raise ServiceError(f"cannot load agent {name!r}: {e}") from None
    except Exception as e:  # noqa: BLE001 - a broken model file: say so, never a traceback
        raise ServiceError(f"cannot load agent {name!r}: {type(e).__name__}: {e}") from None
    agent.reset(seed)
    return agent


def _derived_seed(*parts) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:6], "big")


def default_option(decision) -> tuple:
    opts = decision.options
    return ("end",) if ("end",) in opts else opts[0]


# ---------------------------------------------------------------------------------------------- session
class Session:
    """A game between front-end side(s) and (optionally) an AI.  Not thread-safe: callers lock it."""

    def __init__(self, game: Game, *, ai: str | None, ai_side: int | None, ai_seed: int, decisions=(),
                 ai_from: int = 0, agent=None, log=None):
        self.game = game
        self.ai = ai
        self.ai_side = ai_side if ai else None
        self.ai_seed = int(ai_seed)
        self.ai_from = int(ai_from)  # decisions before this index were not the AI's (a loaded save)
        self.decisions: list[tuple] = [tuple(o) for o in decisions]
        self.agent = agent
        self.ai_fallbacks = 0  # AI answers that were not legal options (replaced by default_option)
        self.log = log  # callable(str) for warnings (stderr, the server's log); never given hidden state
        self._logs: dict = {}  # side -> game.event_log(side) since the last decision applied
        self._odds = None  # ((decisions applied, side), the odds of each option of that side's pending decision)
        self.secret_seed = False  # the seed was drawn by the server: the players' event logs do not show it
        # what the AI says it was not trained or written for in this game (one line), shown with the settings
        self.ai_note = unfamiliar(agent, game) if agent is not None else None
        self.time_control: dict | None = None  # check_time_control's: the AI's time a decision, or both clocks
        self._clock_mark = time.monotonic()  # when the front-end's decision was put to it (its clock runs)
        self._ai_choices = 0  # the AI's decisions with a choice, and the turn of its first one (its pace)
        self._ai_first_turn = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, scenario="skirmish", seed=0, options=None, you=0, ai="hard", ai_seed=None,
            allow_paths: bool = True, log=None, extra_agents: tuple = (), strength=None, movetime_ms=None,
            clock=None) -> "Session":
        """Start a game; the AI (if any) plays until a front-end side must decide.  ``strength`` N: the AI is
        ``level:N``; ``movetime_ms`` or ``clock``: the AI's time control (:func:`check_time_control`)."""
        if strength is not None:
            ai = strength_agent(strength)
        time_control = check_time_control(movetime_ms, clock)
        if isinstance(scenario, str):
            if not scenario:
                raise ServiceError("scenario must be a built-in scenario name or a scenario object")
            if not allow_paths and scenario not in scenario_names():
                raise ServiceError(f"unknown scenario {scenario!r}: built-in scenarios are "
                                   f"{', '.join(scenario_names())} (or send a scenario object)")
        elif not isinstance(scenario, dict):
            raise ServiceError(f"scenario must be a scenario name or a scenario object, not {json_type(scenario)}")
        seed = check_int("seed", seed, 0, 2**63 - 1)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ServiceError(f"options must be an object of game options, not {json_type(options)}")
        if not allow_paths and isinstance(options.get("courage_table"), str):
            raise ServiceError("options.courage_table must be a table object here (file paths are not read)")
        you = check_side("you", you)
        if ai is not None:
            ai = check_agent(ai, allow_paths, extra_agents)
        ai_seed = seed if ai_seed is None else check_int("ai_seed", ai_seed, 0, 2**63 - 1)
        try:
            game = Game(scenario, seed=seed, options=options)
        except DustupError as e:
            raise ServiceError(str(e)) from None
        except (TypeError, ValueError, KeyError, OSError) as e:
            raise ServiceError(f"bad game settings: {type(e).__name__}: {e}") from None
        agent = make_agent(ai, ai_seed) if ai else None
        s = cls(game, ai=ai, ai_side=1 - you if ai else None, ai_seed=ai_seed, agent=agent, log=log)
        s.time_control = time_control
        s.advance()
        return s

    @classmethod
    def from_save(cls, save, you=0, ai="hard", ai_seed=None, allow_paths: bool = True, log=None) -> "Session":
        """Continue a saved game (the project's save format) with the front-end as side ``you``."""
        if not isinstance(save, dict):
            raise ServiceError(f"save must be a save object (format dustup-save), not {json_type(save)}")
        you = check_side("you", you)
        if ai is not None:
            ai = check_agent(ai, allow_paths)
        if not allow_paths:
            if isinstance(save.get("scenario"), str) and save["scenario"] not in scenario_names():
                raise ServiceError(f"unknown scenario {save['scenario']!r} in the save")
            if isinstance((save.get("options") or {}).get("courage_table"), str):
                raise ServiceError("the save's courage_table must be a table object here (file paths are not read)")
        try:
            game = Game.from_dict(save)
        except DustupError as e:
            raise ServiceError(f"bad save: {e}") from None
        except (TypeError, ValueError, KeyError, OSError, AttributeError) as e:
            raise ServiceError(f"bad save: {type(e).__name__}: {e}") from None
        ai_seed = game.seed if ai_seed is None else check_int("ai_seed", ai_seed, 0, 2**63 - 1)
        agent = make_agent(ai, ai_seed) if ai else None
        decisions = [tuple(o) for o in save["decisions"]]
        s = cls(game, ai=ai, ai_side=1 - you if ai else None, ai_seed=ai_seed, decisions=decisions,
                ai_from=len(decisions), agent=agent, log=log)
        s.advance()
        return s

    def record(self) -> dict:
        """The replay recipe: everything :meth:`restore` needs (plain JSON)."""
        g = self.game
        return {"scenario": g.source_scenario, "seed": g.seed, "options": dict(g.options), "ai": self.ai,
                "ai_side": self.ai_side, "ai_seed": self.ai_seed, "ai_from": self.ai_from,
                "decisions": [list(o) for o in self.decisions], "time_control": self.time_control_record()}

    def time_control_record(self) -> dict | None:
        """The AI's time control as stored (plain JSON), or None: ``{"movetime_ms": M}``, or ``{"clock_ms": [T0,
        T1], "increment_ms": I, "mark": W}``: both clocks' time left and the wall-clock time ``W`` (seconds since
        the epoch) since which the side to move's clock has been running, not yet taken off."""
        tc = self.time_control
        if tc is None:
            return None
        if "movetime_ms" in tc:
            return {"movetime_ms": tc["movetime_ms"]}
        return {"clock_ms": list(tc["clock_ms"]), "increment_ms": tc["increment_ms"],
                "mark": time.time() - (time.monotonic() - self._clock_mark)}

    def _restore_time_control(self, rec: dict | None) -> None:
        """:meth:`time_control_record`'s ``rec`` back: the clocks as stored, the side to move's running since its
        mark (a restart's downtime included, as if the server had never stopped)."""
        if not rec:
            return
        if "movetime_ms" in rec:
            self.time_control = {"movetime_ms": float(rec["movetime_ms"])}
            return
        self.time_control = {"clock_ms": [float(t) for t in rec["clock_ms"]],
                             "increment_ms": float(rec["increment_ms"])}
        mark = rec.get("mark")
        if mark is not None:
            self._clock_mark = time.monotonic() - max(0.0, time.time() - float(mark))

    @classmethod
    def restore(cls, rec: dict, log=None) -> "Session":
        """Rebuild a session from :meth:`record` exactly: the game by replaying its decisions, the AI's
        state by asking it again for each of its own decisions (the recorded option is applied)."""
        game = Game(rec["scenario"], seed=rec["seed"], options=rec["options"])
        ai = rec.get("ai")
        agent = make_agent(ai, rec["ai_seed"]) if ai else None
        s = cls(game, ai=ai, ai_side=rec.get("ai_side"), ai_seed=rec["ai_seed"], ai_from=rec.get("ai_from", 0),
                agent=agent, log=log)
        for i, opt in enumerate(rec["decisions"]):
            opt = tuple(opt)
            d = game.decision()
            if agent is not None and d.side == s.ai_side and i >= s.ai_from:
                if len(d.options) > 1:  # the AI's pace (its decisions with a choice), as _ai_think_time counts it
                    s._ai_choices += 1
                    if s._ai_first_turn is None:
                        s._ai_first_turn = game.turn
                try:
                    agent.choose(game, d)  # the same calls in the same order: the same agent state
                except Exception:  # noqa: BLE001 - it failed the same way during play (default_option)
                    pass
            game.apply(opt)
            s.decisions.append(opt)
        s._restore_time_control(rec.get("time_control"))
        return s

    # ------------------------------------------------------------------ the AI
    @property
    def humans(self) -> tuple[int, ...]:
        return (0, 1) if self.ai_side is None else (1 - self.ai_side,)

    def _apply(self, opt: tuple) -> None:
        self._logs = {}
        self.game.apply(opt)
        self.decisions.append(opt)

    def side_log(self, side: int) -> list[dict]:
        """``game.event_log(side)``, kept until the next decision is applied."""
        lg = self._logs.get(side)
        if lg is None:
            lg = self._logs[side] = self.game.event_log(side)
        return lg

    def advance(self) -> int:
        """Let the AI play its pending decisions; the number it played."""
        g = self.game
        n = 0
        while self.agent is not None and not g.over:
            d = g.decision()
            if d.side != self.ai_side:
                break
            t0 = time.monotonic()
            if len(d.options) > 1:
                self._ai_think_time(g)
            try:
                opt = self.agent.choose(g, d)
                opt = tuple(opt) if opt is not None else None
            except Exception as e:  # noqa: BLE001 - a failing AI must not take the game down
                opt = None
                self._warn(f"the AI {self.ai!r} failed ({type(e).__name__}: {e}); it forgoes this decision")
            if opt is None or opt not in d.options:
                self.ai_fallbacks += 1
                opt = default_option(d)
            self._spend(self.ai_side, (time.monotonic() - t0) * 1000.0, len(d.options) > 1)
            self._apply(opt)
            n += 1
        self._clock_mark = time.monotonic()
        return n

    # ------------------------------------------------------------------ time controls
    def _ai_think_time(self, g) -> None:
        """Give the AI its time for the decision at hand (agents that take a time budget: the search agents): the
        time per decision, or on a clock its time left over the decisions with a choice it expects to take
        (its pace so far, per turn, times the turns left), plus most of the increment, never more than half its
        time left."""
        tc = self.time_control
        fn = getattr(self.agent, "time_budget", None)
        if self._ai_first_turn is None:
            self._ai_first_turn = g.turn
        self._ai_choices += 1
        if tc is None or fn is None:
            return
        if "movetime_ms" in tc:
            ms = tc["movetime_ms"]
        else:
            left, inc = tc["clock_ms"][self.ai_side], tc["increment_ms"]
            turns_done = g.turn - self._ai_first_turn
            pace = (self._ai_choices / turns_done) if turns_done > 0 else DECISIONS_PER_TURN
            turns_left = max(1, int(g.scenario.get("turn_limit", g.turn)) - g.turn + 1)
            expected = max(1.0, pace * turns_left)
            ms = min(max(left, 0.0) * 0.5, max(left, 0.0) / expected + 0.8 * inc)
        fn(max(0.005, ms / 1000.0))

    def _spend(self, side: int, ms: float, choice: bool = True) -> None:
        """``ms`` off ``side``'s clock, and its increment after a decision with a choice."""
        tc = self.time_control
        if tc is None or "clock_ms" not in tc:
            return
        tc["clock_ms"][side] -= ms
        if choice:
            tc["clock_ms"][side] += tc["increment_ms"]

    def clocks(self) -> list | None:
        """Both sides' time left in milliseconds (negative: over its time), or None without a clock."""
        tc = self.time_control
        return [round(t) for t in tc["clock_ms"]] if tc is not None and "clock_ms" in tc else None

    def configure(self, strength=None, movetime_ms=None, clock=None, fields=()) -> dict:
        """Change the AI's strength (``level:N``) and its time control mid-game (``fields``: the names given; a
        time control given as None is removed)."""
        agent = None
        if "strength" in fields:
            if self.ai is None:
                raise ServiceError("strength: this game has no AI (ai null)")
            name = strength_agent(strength)
            agent = make_agent(name, self.ai_seed)
        tc = self.time_control
        if "movetime_ms" in fields or "clock" in fields:
            tc = check_time_control(movetime_ms, clock)
        if agent is not None:  # only once everything is checked: a failed set changes nothing
            self.ai, self.agent, self.ai_from = name, agent, len(self.decisions)
            self.ai_note = unfamiliar(agent, self.game)
            self._ai_choices, self._ai_first_turn = 0, None
        self.time_control = tc
        fn = getattr(self.agent, "time_budget", None)
        if tc is None and fn is not None:
            fn(None)  # no time control: the agent's own time a decision again
        self._clock_mark = time.monotonic()
        return self.settings()

    def _warn(self, msg: str) -> None:
        if self.log is not None:
            self.log(msg)

    # ------------------------------------------------------------------ reading
    def check_reader(self, side) -> int:
        """``side`` when a front-end plays it; the AI's side is refused (its decisions, view and events are
        its private knowledge: hidden units, which of its markers is real).  Every operation that takes a side
        checks it here, with the same message."""
        side = check_side("side", side)
        if side not in self.humans:
            raise ServiceError(f"side {side} ({self.game.side_names[side]}) is played by the AI: a front-end "
                               f"reads and acts only for its own side", 403)
        return side

    def knowledge(self, side: int) -> nr.Knowledge:
        return nr.Knowledge.of_side(self.game, side)

    def pending(self, side: int):
        """The engine's pending decision if it is ``side``'s (else None)."""
        g = self.game
        if g.over:
            return None
        d = g.decision()
        return d if d.side == side else None

    def decision(self, side: int, know: nr.Knowledge | None = None) -> dict | None:
        """``side``'s pending decision as JSON, or None (the game is over, or the other side decides)."""
        d = self.pending(self.check_reader(side))
        if d is None:
            return None
        rec = views.decision_record(self.game, d, know or self.knowledge(side))
        key = (len(self.decisions), side)
        if self._odds is None or self._odds[0] != key:  # the same decision asked again: the odds worked out once
            self._odds = (key, [insight.option_odds(self.game, side, o, d.unit) if d.kind in insight.ODDS_KINDS else None
                                for o in d.options])
        add_odds(rec, self._odds[1])
        return rec

    def view(self, side: int, raw: dict | None = None) -> dict:
        return views.table_view(self.game, self.check_reader(side), raw)

    def _unit_arg(self, side: int, name: str, value, own: bool) -> int:
        g = self.game
        check_int(name, value, 0, len(g.units) - 1)
        if own and g.units[value].side != side:
            raise ServiceError(f"{name} {value} is not one of side {side}'s units")
        if not own and value not in {e.uid for e in g.enemy_units(side)}:
            raise ServiceError(f"{name} {value} is not an enemy unit side {side} knows of")
        return value

    def sight(self, side: int, unit=None, target=None, point=None) -> dict:
        """Sight and range as ``side`` may know them (:func:`dustup_env.insight.sight`): give one of ``unit`` (an own
        unit: the enemy units it sees, range band, target die), ``target`` (an enemy unit the side knows of) or
        ``point`` ([x, y]: the own units that see it)."""
        side = self.check_reader(side)
        if (unit is None) + (target is None) + (point is None) != 2:
            raise ServiceError("sight: give exactly one of unit (an own unit), target (an enemy unit) or point [x, y]")
        if unit is not None:
            self._unit_arg(side, "unit", unit, True)
        if target is not None:
            self._unit_arg(side, "target", target, False)
        if point is not None:
            point = check_point("point", point)
        try:
            return insight.sight(self.game, side, unit=unit, target=target, point=point)
        except ValueError as e:
            raise ServiceError(str(e)) from None

    def measure(self, side: int, a, b) -> dict:
        """The distance, bearing, terrain line of sight and range band between two points of the table."""
        self.check_reader(side)
        a, b = check_point("from", a), check_point("to", b)
        try:
            return insight.measure(self.game, a, b)
        except ValueError as e:
            raise ServiceError(str(e)) from None

    def reach(self, side: int, unit=None) -> dict:
        """Where a Move Action of an own unit (default: the unit of the pending decision) may end, per nominated
        distance and direction, with the least and the greatest movement roll (:func:`dustup_env.insight.reach`)."""
        side = self.check_reader(side)
        if unit is None:
            d = self.pending(side)
            if d is None or d.unit < 0:
                raise ServiceError("reach: name the unit (no pending decision of this side has one)")
            unit = d.unit
        self._unit_arg(side, "unit", unit, True)
        if not self.game.units[unit].in_play:
            raise ServiceError(f"unit {unit} is not in play")
        return insight.reach(self.game, side, unit)

    def events(self, side: int, since: int = 0) -> dict:
        side = self.check_reader(side)
        since = check_int("since", since, 0)
        log = self.side_log(side)
        if since > len(log):
            raise ServiceError(f"since {since} is past the end of the event log ({len(log)} events)")
        return {"events": self._records(log[since:], side, since), "next": len(log)}

    def _records(self, events: list[dict], side: int, first: int, know: nr.Knowledge | None = None) -> list[dict]:
        if self.secret_seed:
            events = [{**e, "seed": None} if e.get("type") == "GameStarted" else e for e in events]
        return views.event_records(events, know or self.knowledge(side), first)

    def result(self) -> dict | None:
        g = self.game
        if not g.over:
            return None
        r = g.result()
        w = r["winner"]
        r["winner_name"] = None if w is None or w < 0 else g.scenario["sides"][w]["name"]
        return r

    def state(self, side: int) -> dict:
        """Everything a front-end shows: the view, the pending decision (or null), over, result."""
        side = self.check_reader(side)
        g = self.game
        waiting = None
        if not g.over:
            d = g.decision()
            if d.side != side:
                waiting = d.side
        raw = g.view(side)
        know = nr.Knowledge.of_side(g, side, raw)
        return {"side": side, "view": self.view(side, raw), "decision": self.decision(side, know),
                "waiting_for": waiting, "over": g.over, "result": self.result(), "events": len(self.side_log(side)),
                **({"clock_ms": self.clocks()} if self.clocks() is not None else {})}

    def settings(self) -> dict:
        g = self.game
        out = {"scenario": g.scenario.get("name", ""), "seed": None if self.secret_seed else g.seed,
               "options": dict(g.options), "ai": self.ai, "ai_side": self.ai_side, "humans": list(self.humans)}
        tc = self.time_control
        if tc is not None:
            out["time_control"] = ({"movetime_ms": tc["movetime_ms"]} if "movetime_ms" in tc else
                                   {"clock_ms": self.clocks(), "increment_ms": tc["increment_ms"]})
        if self.ai_note:
            out["ai_note"] = self.ai_note
        return out

    # ------------------------------------------------------------------ acting
    def _acting(self, side):
        """The pending decision ``side`` may act on (after every check), else ServiceError."""
        side = self.check_reader(side)
        g = self.game
        if g.over:
            r = self.result()
            who = "a draw" if r["winner_name"] is None else f"{r['winner_name']} won"
            raise ServiceError(f"the game is over ({who}, {r['vp'][0]}-{r['vp'][1]}): there is no decision to take", 409)
        d = g.decision()
        if d.side != side:
            raise ServiceError(f"it is not side {side}'s decision: side {d.side} ({g.side_names[d.side]}) is deciding",
                               403)
        return d

    def play(self, side, option) -> dict:
        """Apply ``option`` (one of ``side``'s pending options, as given), let the AI answer; the new events
        ``side`` may see and its next decision (or over and the result)."""
        d = self._acting(side)
        opt = parse_option(option)
        if opt not in d.options:
            k = self.knowledge(side)
            raise ServiceError(f"{short(list(opt))} is not one of the {len(d.options)} legal options of "
                               f"{nr.decision_prompt(d.side, d.kind, d.unit, k)!r}; the decision lists them")
        g = self.game
        before = len(self.side_log(side))
        self._spend(d.side, (time.monotonic() - self._clock_mark) * 1000.0)
        try:
            self._apply(opt)
        except (IllegalOptionError, GameOverError) as e:  # pragma: no cover - checked above
            raise ServiceError(str(e)) from None
        self.advance()
        log = self.side_log(side)
        know = self.knowledge(side)
        out = {"events": self._records(log[before:], side, before, know), "next": len(log),
               "decision": self.decision(side, know), "over": g.over, "result": self.result()}
        if self.clocks() is not None:
            out["clock_ms"] = self.clocks()
        return out

    def _analyst(self, agent, allow_paths: bool, extra_agents: tuple, what: str):
        """The search agent that analyses (``agent``, default: the game's AI when it is a search, else ``mcts``),
        seeded for this decision; ServiceError when the agent named cannot analyse."""
        if agent is None:
            name = self.ai if self.ai is not None and getattr(self.agent, "analyze", None) else ANALYSIS_AGENT
        else:
            name = check_agent(agent, allow_paths, extra_agents)
        helper = make_agent(name, _derived_seed(self.ai_seed, len(self.decisions), what))
        if not callable(getattr(helper, "analyze", None)):
            raise ServiceError(f"agent {name!r} cannot analyse: name a search agent (mcts or mcts:KEY=VALUE,...)")
        return name, helper

    def analyze(self, side, playouts=None, time_ms=None, top=5, agent: str | None = None, stop=None,
                on_update=None, interval_ms=500, allow_paths: bool = True, extra_agents: tuple = ()) -> dict:
        """The search's analysis of ``side``'s pending decision (agents/analysis.py): the ``top`` options with
        visits, win probability, expected victory-point margin and principal variation, under a budget of
        ``playouts`` or ``time_ms`` (default 1000 ms).  ``stop()`` is polled between playouts (true: answer with
        the best so far); ``on_update(answer)`` gets an intermediate answer every ``interval_ms``.  Reads only
        what ``side`` may know: the search's root holds only that, and its dice are its own."""
        run = self.prepare_analysis(side, playouts, time_ms, top, agent, interval_ms, allow_paths, extra_agents)
        return run(stop, on_update)

    def prepare_analysis(self, side, playouts=None, time_ms=None, top=5, agent: str | None = None, interval_ms=500,
                         allow_paths: bool = True, extra_agents: tuple = ()):
        """Every check of :meth:`analyze` (a ServiceError for a bad request), then ``run(stop, on_update)`` that
        analyses (the server checks a streamed request before its answer starts)."""
        d = self._acting(side)
        if playouts is not None and time_ms is not None:
            raise ServiceError("give playouts or time_ms (the analysis's budget), not both")
        if playouts is not None:
            check_int("playouts", playouts, 1, MAX_PLAYOUTS)
        elif time_ms is None:
            time_ms = 1000
        if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(time_ms, (int, float))
                                    or not 0 < time_ms <= MAX_HINT_MS):
            raise ServiceError(f"time_ms must be a number of milliseconds in 1..{MAX_HINT_MS}, not {short(time_ms)}")
        check_int("top", top, 1, MAX_TOP)
        if isinstance(interval_ms, bool) or not isinstance(interval_ms, (int, float)) or not 10 <= interval_ms <= \
                MAX_HINT_MS:
            raise ServiceError(f"interval_ms must be a number of milliseconds in 10..{MAX_HINT_MS}, not "
                               f"{short(interval_ms)}")
        if agent is not None and (not isinstance(agent, str) or not agent):
            raise ServiceError(f"agent must be a search agent's name (mcts or mcts:KEY=VALUE,...), not {short(agent)}")
        name, helper = self._analyst(agent, allow_paths, extra_agents, "analyze")
        know = self.knowledge(d.side)

        def run(stop=None, on_update=None) -> dict:
            upd = (lambda a: on_update({**a, "agent": name})) if on_update is not None else None
            try:
                out = helper.analyze(self.game, playouts=playouts or 0,
                                     seconds=None if playouts else time_ms / 1000.0, top=top, stop=stop,
                                     on_update=upd, every=interval_ms / 1000.0, know=know)
            except ValueError as e:
                raise ServiceError(f"analyze: {e}") from None
            out["agent"] = name
            return out

        return run

    def hint(self, side, time_ms=1000, agent: str | None = None, allow_paths: bool = True,
             extra_agents: tuple = ()) -> dict:
        """The choice an AI would make for ``side``'s pending decision (not applied), within ``time_ms``.

        The agent (default: the session's AI, else ``hard``) thinks on a copy of the game; if it has not
        answered when the time is up, a quick agent (``scripted``) answers instead (``complete: false``).  A search
        agent (``mcts``, a level that searches) answers with the top option of its analysis (:meth:`analyze`
        within ``time_ms``), and the hint also carries its ``win``, ``margin``, ``visits`` and ``pv``."""
        d = self._acting(side)
        if isinstance(time_ms, bool) or not isinstance(time_ms, (int, float)) or not 0 < time_ms <= MAX_HINT_MS:
            raise ServiceError(f"time_ms must be a number of milliseconds in 1..{MAX_HINT_MS}, not {short(time_ms)}")
        name = check_agent(agent, allow_paths, extra_agents) if agent is not None else (self.ai or "hard")
        seed = _derived_seed(self.ai_seed, len(self.decisions), "hint")
        helper = make_agent(name, seed)
        if callable(getattr(helper, "analyze", None)):  # a search: the hint is its analysis's top option
            t0 = time.perf_counter()
            a = helper.analyze(self.game, seconds=time_ms / 1000.0, top=1, know=self.knowledge(d.side))
            best = a["options"][0]
            return {"option": a["option"], "label": a["label"], "agent": name, "complete": True,
                    "ms": round((time.perf_counter() - t0) * 1000.0, 1), "win": a["win"], "margin": a["margin"],
                    "visits": best["visits"], "playouts": a["playouts"], "pv": best["pv"]}
        copy = self.game.clone()
        box: dict = {}

        def think():
            try:
                box["option"] = tuple(helper.choose(copy, copy.decision()))
            except Exception as e:  # noqa: BLE001
                box["error"] = f"{type(e).__name__}: {e}"

        t0 = time.perf_counter()
        th = threading.Thread(target=think, name="dustup-hint", daemon=True)
        th.start()
        th.join(time_ms / 1000.0)
        complete = "option" in box and box["option"] in d.options
        if complete:
            opt, used = box["option"], name
        else:
            used = HINT_FALLBACK
            try:
                opt = tuple(make_agent(HINT_FALLBACK, seed).choose(self.game.clone(), d))
            except Exception:  # noqa: BLE001
                opt = None
            if opt not in d.options:
                opt, used = default_option(d), "default"
        ms = (time.perf_counter() - t0) * 1000.0
        k = self.knowledge(side)
        return {"option": list(opt), "label": nr.option_label(opt, d.kind, k, unit=d.unit), "agent": used,
                "complete": complete, "ms": round(ms, 1)}

    def save(self) -> dict:
        """The project's save (scenario, seed, options, every decision): it reveals everything, hidden units
        and all, to whoever reads it."""
        try:
            return self.game.to_dict()
        except DustupError as e:  # pragma: no cover - sessions always roll the seeded dice
            raise ServiceError(str(e)) from None


def scenarios() -> list[dict]:
    from dustup_env.rules import load_scenario
    out = []
    for n in scenario_names():
        s = load_scenario(n)
        out.append({"name": n, "description": s.get("description", ""),
                    "table": [s["table"]["width"], s["table"]["height"]], "turn_limit": s["turn_limit"],
                    "sides": [side["name"] for side in s["sides"]]})
    return out


def agents() -> list[str]:
    return list(BUILTIN_AGENTS)


def random_seed() -> int:
    return random.SystemRandom().randrange(2**31)
