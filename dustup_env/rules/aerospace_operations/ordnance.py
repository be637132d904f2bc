"""Firing from Aircraft: deadfall weapons (seed 000 L1778-1784; the loads are seed 002's dead-fall ordnance,
S002:788-793).

An aircraft in the air with dead-fall loads left (its design's ``air.deadfall_loads``, one bomb each) drops them as
an action, ``("air_bomb", how)``:

* ``"one"``: one bomb, D6" straight ahead of the aircraft's centre (L1778);
* ``"same"``: every load left on the same target, each D6" ahead of the centre (L1780);
* ``"stick"``: every load left in a stick, each D6" ahead of the bomb before it (L1780).

From a hovering aircraft every bomb falls directly below it (L1782); none is dropped while grounded (L1784).  A
bomb is a cluster bomb like a medium artillery round (S002:793; RN-1515): the kernel's point attack on the ground
(:func:`.anti_aircraft.ground_burst`), radius 4", impact D8 (general purpose, L1579-1583); every unit with a figure
in the blast is suppressed and tests its confidence with the artillery modifier, which L1134 gives "artillery or
aerospace" attacks, exactly as after an artillery round (``impacts.blast_consequences``: one marker and one test
per unit, a vehicle's with its damage).
"""
from __future__ import annotations

import math

from ..kernel.attack import Source
from ..kernel.dice import D6, D8
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..artillery_and_air_support.impacts import blast_consequences, damage_before, tally_struck
from . import air
from .air import AIRBORNE, HOVERING, air_state
from .anti_aircraft import ground_burst

BOMB_RADIUS = 4.0  # a medium round (L1592), RN-1515
BOMB_IMPACT = D8  # general purpose (L1581)


@event
class BombDropped(Event):
    unit: int
    x: float
    y: float
    roll: int  # the D6 (0: straight down from a hover)


def loads(game, u) -> int:
    a = air_state(game, u)
    return 0 if a is None else a.get("bombs", u.profile.vehicle.air.deadfall_loads if u.profile.vehicle.air else 0)


def _options(game, u, status) -> list:
    a = air_state(game, u)
    if a is None or a["mode"] not in (AIRBORNE, HOVERING):
        return []
    n = loads(game, u)
    if n < 1:
        return []
    return [("air_bomb", "one")] + ([("air_bomb", "same"), ("air_bomb", "stick")] if n >= 2 else [])


def impact_points(game, u, how: str) -> list:
    """Where the bombs fall (rolling the D6s), in the order they are dropped."""
    n = 1 if how == "one" else loads(game, u)
    h = math.radians(u.veh.facing)
    if air_state(game, u)["mode"] == HOVERING:
        return [(u.x, u.y, 0)] * n
    out, ahead = [], 0.0
    for _ in range(n):
        r = game.dice.roll(D6)
        ahead = ahead + r if how == "stick" else r
        out.append((u.x + ahead * math.sin(h), u.y + ahead * math.cos(h), r))
    return out


def bomb(game, u, x: float, y: float) -> None:
    """One bomb's burst at (x, y) and its consequences for every unit struck, as an artillery round's (see the
    module docstring): one marker and one test with the artillery modifier per unit (``impacts.blast_consequences``:
    casualties, a leader casualty, vehicle damage, or a base test, RN-113)."""
    before = damage_before(game)
    res = ground_burst(game, Source.at_point(x, y, BOMB_RADIUS, "bomb"), BOMB_IMPACT, vehicle_test=False)
    tallies: dict = {}
    tally_struck(res, tallies, before)
    blast_consequences(game, tallies)


def _bomb(game, u, opt) -> None:
    points = impact_points(game, u, opt[1])
    a = air_state(game, u)
    a["bombs"] = loads(game, u) - len(points)
    for x, y, r in points:
        game.emit(BombDropped(u.uid, round(x, 3), round(y, 3), r))
        if game.bf.on_table(x, y):
            bomb(game, u, x, y)


RULE = Rule(
    "Aerospace Operations: deadfall weapons", 'seed 000 "Deadfall Weapons"',
    applies=air.has_aircraft,
    action_options=(_options,),
    actions={"air_bomb": _bomb},
    families=(Family("air_bomb", (("one", "same", "stick"),), 151,
                     "an aircraft in the air drops one bomb, or all its bombs on one target or in a stick"),),
)
