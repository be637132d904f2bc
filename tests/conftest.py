"""Shared helpers for the rules test-suite.

Most tests build a tiny scenario in code (``scenario(...)`` with ``unit(...)`` and ``rect(...)``
terrain), start a :class:`Game` on :class:`ScriptedDice` with :func:`begin` (which scripts the
turn-1 initiative roll and choice), and then assert exact outcomes.  ``g.dice.remaining == 0``
after an action checks that the rules rolled exactly the scripted dice, no more and no fewer.
"""
from __future__ import annotations

import random
import signal

import pytest

from dustup_env.rules import Game, ScriptedDice

# A suite started in the background by a non-interactive shell (`make test &`, `nohup make test &`) inherits SIGINT
# ignored, and so would every command the tests start (an ignored signal stays ignored across exec): the tests of
# Ctrl-C would wait in vain for commands that cannot hear it. Python's own handler here (the main process and each
# worker) gives the commands started from here the default again, as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """``--dist loadgroup`` (``make test``): the worker's node id of a test marked ``xdist_group(NAME)`` ends in
    ``@NAME``, which is how the scheduler sends a group's tests to one worker.  pytest-xdist writes that suffix to
    ``item._nodeid``, which pytest 9 no longer reads (the id is ``item._id``): there every group was silently split
    across the workers (module fixtures such as the training smoke run computed once per worker, runs that must
    not fight for the cores run side by side).  Add the suffix where it is missing."""
    if not getattr(config.option, "loadgroup", False):  # set on xdist's workers under --dist loadgroup
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if not names:
            continue
        suffix = "@" + "_".join(names)
        if item.nodeid.endswith(suffix):  # xdist's own suffix took (pytest 8)
            continue
        if hasattr(item, "_id"):
            from _pytest.nodeid import NodeId

            item._id = NodeId.parse(item.nodeid + suffix)
        else:
            item._nodeid = item.nodeid + suffix


# Initiative rolls that make side 0 win the turn-1 initiative.
SIDE0_WINS = [("d8", 8), ("d8", 1)]


def unit(name, pos, figures=(("rifle", 5),), **kw) -> dict:
    """A unit spec: ``figures`` is a list of (weapon, count) pairs (or ready-made figure dicts)."""
    spec = {"name": name, "position": [float(pos[0]), float(pos[1])],
            "figures": [f if isinstance(f, dict) else {"weapon": f[0], "count": f[1]} for f in figures]}
    spec.update(kw)
    return spec


def rect(ttype, x0, y0, x1, y1, name=None) -> dict:
    """A rectangular terrain feature."""
    d = {"type": ttype, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
    if name:
        d["name"] = name
    return d


def wall(ttype, x0, y0, x1, y1, cost=2) -> dict:
    """A straight obstacle (wall, hedge, fence)."""
    return {"type": ttype, "line": [[x0, y0], [x1, y1]], "cost": cost}


def scenario(blue, red, *, terrain=(), obstacles=(), objectives=(), width=48, height=48, turn_limit=6,
             commitment=("medium", "medium"), name="test", options=None) -> dict:
    """A scenario dict: side 0 ('Blue', home south) and side 1 ('Red', home north)."""
    doc = {"name": name, "table": {"width": width, "height": height}, "turn_limit": turn_limit,
           "terrain": list(terrain), "obstacles": list(obstacles), "objectives": list(objectives),
           "sides": [{"name": "Blue", "home_edge": "south", "commitment": commitment[0], "units": list(blue)},
                     {"name": "Red", "home_edge": "north", "commitment": commitment[1], "units": list(red)}]}
    if options is not None:
        doc["options"] = options
    return doc


def new_game(scn, dice, options=None) -> Game:
    """A game on scripted dice (the script must start with the turn-1 initiative rolls)."""
    return Game(scn, seed=0, options=options, dice=ScriptedDice(list(dice)))


def begin(scn, dice=(), first=0, options=None) -> Game:
    """Start a game where side 0 wins the initiative and side ``first`` activates first.

    ``dice`` is the script for everything after the turn-1 initiative roll.
    """
    g = new_game(scn, SIDE0_WINS + list(dice), options=options)
    g.apply(("first",) if first == 0 else ("second",))
    return g


def activate(g: Game, uid: int) -> None:
    g.apply(("activate", uid))


def add_dice(g: Game, *results) -> None:
    """Append forced results to a scripted game's dice."""
    g.dice.results.extend(ScriptedDice(list(results)).results)


def events_of(g: Game, etype: str, since: int = 0) -> list[dict]:
    return [e for e in g.event_log()[since:] if e["type"] == etype]


def last_event(g: Game, etype: str) -> dict:
    evs = events_of(g, etype)
    assert evs, f"no {etype} event in the log"
    return evs[-1]


def kinds(options) -> set:
    """The set of option names (first element) in an option tuple."""
    return {o[0] for o in options}


def shoot_modes(options, target: int) -> set:
    return {o[2] for o in options if o[0] == "shoot" and o[1] == target}


def play_random(g: Game, rng: random.Random, max_decisions: int = 100_000) -> list:
    """Play uniformly random legal options to the end; returns the decisions applied."""
    taken = []
    while not g.over and len(taken) < max_decisions:
        opt = rng.choice(g.decision().options)
        g.apply(opt)
        taken.append(opt)
    return taken


@pytest.fixture
def duel():
    """Two 5-rifle squads 30" apart on an empty 48x48 table (uids 0 and 1)."""
    return scenario([unit("A", (24, 5))], [unit("B", (24, 35))])
