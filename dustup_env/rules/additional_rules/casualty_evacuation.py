"""Casualty Evacuation by carrying the wounded off the battlefield (seed 000 "Casualty Evacuation").

"As noted in the medical treatment rules (page 23) treated wounded can be left with a detachment from a
squad. This detachment can also attempt to evacuate the wounded by carrying them off the battlefield.
However, this is a very slow process and does not improve the confidence of the remaining troops. ...
The successful evacuation can also affect the player's victory conditions and influence campaigns."

``("evacuate",)`` (RN-357) is a Move Action of a detachment (a unit with a parent) that carries at least
one wounded figure (untreated or treated): the unit moves towards its home edge (the normal move: the
movement die, encumbrance from carrying the wounded, terrain, the 2" rule, the Shaken leadership
test, wounded without a carrier left behind).  If its leader reaches the home edge (within 0.5", as a
routed unit leaves the table) the unit leaves the table with its wounded: it is out of play, and unlike
a unit destroyed or routed off it scores no victory point for the enemy.  Game option ``"casevac_vp"``
(default 0): victory points for the evacuating side per wounded figure carried off.  No confidence
changes ("does not improve the confidence").  The CASEVAC vehicle (called with a communication, the
inbound chart, the confidence rolls when it leaves) is :mod:`..armoured_dustup.casevac_vehicle`.
"""
from __future__ import annotations

import math

from ..kernel.events import Event, event
from ..kernel.entities import TREATED, WOUNDED, Unit
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.decisions import Frame
from ..kernel.sequence import pop, push
from ..unit_actions.move_action import begin_move, may_advance

EDGE = 0.5  # the leader this close to its home edge leaves the table (as routed units do)


@event
class Evacuated(Event):
    unit: int
    wounded: int  # wounded figures carried off the table


def _wounded(u: Unit) -> int:
    n = 0
    for f in u.figures:
        if f.status == WOUNDED or f.status == TREATED:
            n += 1
    return n


def _options(game, u: Unit, status) -> list:
    if u.parent < 0 or status.suppressed or u.propped:
        return []
    return [("evacuate",)] if _wounded(u) else []


def _evacuate(game, u: Unit, opt) -> bool:
    """A move toward the nearest point of the home edge (the Move Action's walk, with its Shaken test), over an
    ``evacuate`` frame that carries the wounded off when the walk ends there."""
    hx, hy = game.home_point(u)
    frame = push(game, Frame(EVACUATE, u.uid, 0, False, {"x": hx, "y": hy}))
    if not may_advance(game, u, hx, hy):
        Evacuation.resume(game, frame, None)  # no move: the unit may already be at the edge
        return False
    return begin_move(game, u, hx, hy)


EVACUATE = "evacuate"


class Evacuation:
    """Frame ``evacuate`` (data: the edge point ``x``, ``y`` the move headed for): the move has ended."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        u = game.units[frame.unit]
        if u.in_play and math.hypot(u.x - frame.data["x"], u.y - frame.data["y"]) < EDGE:
            n = _wounded(u)
            if n:
                u.location = "evacuated"
                u.evacuated_wounded = n
                game.emit(Evacuated(u.uid, n))
        pop(game, frame)  # the activation counts the action


def _vp(game, vp: list) -> None:
    per = game.options["casevac_vp"]
    if per:
        for u in game.units:
            if u.evacuated:
                vp[u.side] += per * u.evacuated_wounded


FAMILIES = (Family("evacuate", (), 45, "a detachment carries its wounded off its home edge"),)
RULE = Rule("Casualty Evacuation", 'seed 000 "Casualty Evacuation"',
            families=FAMILIES,
            options=(Option("casevac_vp", 0, "victory points per wounded figure a detachment carries off its home "
                            "edge (evacuate)", kind="int", minimum=0),),
            action_options=(_options,), actions={"evacuate": _evacuate}, victory_points=(_vp,),
            procedures={EVACUATE: Evacuation()})
