"""Encumbrance by heavy equipment (seed 000 "Move Action › Encumbrance").

"Troops carrying heavy equipment or casualties move at one die type lower than normal. For example
infantry carrying man-packed weapons reduce their movement die from a D6 to a D4."

Unit field ``heavy_equipment`` (RN-361): the unit carries heavy equipment and moves one die type lower
(a closed shift, never below D4), like a unit carrying casualties (``moving_casualties``).  The two are
one encumbrance: a unit carrying both still shifts once.  Man-packed heavy weapons themselves (setting
up, dismantling, crews) belong to the heavy-weapons rules (Armoured Dustup).
"""
from __future__ import annotations

from ..kernel.dice import D4
from ..kernel.entities import Unit
from .moving_casualties import carrying
from ..kernel.ruleset import Rule


def heavy_equipment_die(game, u: Unit, die: int) -> int:
    """MOVEMENT_DIE_HOOKS entry (after the casualties' shift): one die type lower, not twice."""
    if u.heavy_equipment and die > D4 and not carrying(u):
        return die - 1
    return die


def _has_heavy_equipment(scenario: dict, options: dict) -> bool:
    return any(u.get("heavy_equipment") for side in scenario["sides"] for u in side["units"])


RULE = Rule("Encumbrance by heavy equipment", 'seed 000 "Move Action › Encumbrance"', applies=_has_heavy_equipment,
            movement_die=(heavy_equipment_die,))
