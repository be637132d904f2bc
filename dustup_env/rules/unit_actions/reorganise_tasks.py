"""Reorganise Action for scenario activities (seed 000 "Reorganise Action").

"Reorganise actions are used for any action not already covered by the rules and often relate to
something defined in the scenario such as picking up an item or performing an activity at a
specific location."

Scenario (optional): ``"tasks": [{"name", "position": [x, y], "vp", "radius" (default 2"),
"side" (0/1, default either)}]``.  ``("reorganise", "task")`` is offered to a unit whose leader is
within the radius of a task not yet done (by anyone) that its side may do, under the usual
reorganise limits (not disorganised; suppressed only in cover).  One reorganise action does the
nearest such task; the side scores its VP at the end of the game (``VP_HOOKS``).  Each task is
done once.
"""
from __future__ import annotations

import math

from ..kernel.events import Event, event
from ..kernel.entities import Unit
from ..kernel.ruleset import Rule

TASK_RADIUS = 2.0


@event
class TaskDone(Event):
    unit: int
    task: int
    name: str
    vp: int


def tasks(game) -> list:
    return game.scenario.get("tasks", [])


def _done(game) -> set:
    out = set()
    for u in game.units:
        out.update(u.tasks_done)
    return out


def _eligible(game, u: Unit) -> list:
    ts = tasks(game)
    if not ts:
        return []
    done = _done(game)
    out = []
    for i, t in enumerate(ts):
        if i in done or t.get("side", u.side) != u.side:
            continue
        d = math.hypot(t["position"][0] - u.x, t["position"][1] - u.y)
        if d <= t.get("radius", TASK_RADIUS) + 1e-9:
            out.append((d, i))
    out.sort()
    return [i for _, i in out]


def _options(game, u: Unit, status) -> list:
    if status.disorganised or (status.suppressed and not status.in_cover) or not tasks(game):
        return []
    return [("reorganise", "task")] if _eligible(game, u) else []


def _do_task(game, u: Unit) -> None:
    i = _eligible(game, u)[0]
    t = tasks(game)[i]
    u.tasks_done.append(i)
    game.emit(TaskDone(u.uid, i, t["name"], int(t["vp"])))


def _vp(game, vp: list) -> None:
    ts = tasks(game)
    for u in game.units:
        for i in u.tasks_done:
            vp[u.side] += int(ts[i]["vp"])


def _has_tasks(scenario: dict, options: dict) -> bool:
    return bool(scenario.get("tasks"))


RULE = Rule("Reorganise Action: scenario tasks", 'seed 000 "Reorganise Action"', applies=_has_tasks,
            action_options=(_options,), reorganise={"task": _do_task}, victory_points=(_vp,))
