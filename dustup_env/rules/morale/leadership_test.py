"""Leadership Test (seed 000 "MORALE › Leadership Test"): the unit's quality die must score higher than its
leadership value (a shaken unit advancing or leaving cover, ...).
"""
from __future__ import annotations

from ..kernel.dice import DiceSource
from ..kernel.entities import Unit
from ..kernel.events import LeadershipTested


def leadership_test(dice: DiceSource, unit: Unit, reason: str, events: list | None = None) -> bool:
    """Roll the quality die; pass by scoring higher than the unit's leadership value."""
    roll = dice.roll(unit.quality)
    ok = roll > unit.lv
    if events is not None:
        events.append(LeadershipTested(unit.uid, roll, unit.lv, ok, reason))
    return ok
