"""How a game is won (the rules text does not say: the reading is RN-032).

The game ends at the scenario's turn limit, or at once when a side can no longer fight (every unit
out of play or routed, no reinforcement on the way): that side loses.  At the turn limit the victory
points decide (equal points: a draw): each objective's points go to the side holding it (an unrouted
unit in play with its leader within 3" and no such enemy unit), and each side scores one point per
enemy unit out of play (merged, evacuated and inbound units excepted).  Other rules add points through
the ``victory_points`` point of the rule set (scenario tasks, casualty evacuation).
"""
from __future__ import annotations

import math

from ..kernel.entities import ROUTED
from ..kernel.ruleset import Rule

OBJECTIVE_RADIUS = 3.0


def objective_holder(game, ox: float, oy: float) -> int:
    """The side holding the objective at (ox, oy): an unrouted unit in play within 3" and no enemy one (-1: none)."""
    near = [False, False]
    for u in game.units:
        if u.in_play and u.confidence != ROUTED and math.hypot(u.x - ox, u.y - oy) <= OBJECTIVE_RADIUS:
            near[u.side] = True
    if near[0] != near[1]:
        return 0 if near[0] else 1
    return -1


def _victory_points(game, vp: list) -> None:
    for _, ox, oy, v in game.objectives:
        side = objective_holder(game, ox, oy)
        if side >= 0:
            vp[side] += v
    for u in game.units:
        if not u.in_play and not u.merged and not u.evacuated and not u.inbound:
            vp[1 - u.side] += 1


RULE = Rule("Victory", "RN-032 (the text gives no victory conditions)", victory_points=(_victory_points,),
            services={"objective_holder": objective_holder})
