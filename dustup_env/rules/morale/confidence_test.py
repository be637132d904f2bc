"""Confidence Test (seed 000 "MORALE › Confidence Test"): the circumstances that call for a test, their values by
mission commitment, the modifiers, and the test itself (one per attack, for the highest trigger).
"""
from __future__ import annotations

from ..kernel.dice import DiceSource
from ..kernel.entities import CONFIDENCE_NAMES, ROUTED, Unit
from ..kernel.events import ConfidenceTested

NTR = None  # no test required

# Circumstances requiring a confidence test: target value by commitment (low, medium, high).
TRIGGERS = {
    "first_under_fire": (1, NTR, NTR),
    "first_suppressed": (2, 1, NTR),
    "casualties": (2, 1, 0),
    "leader_casualty": (3, 2, 1),
    "abandon_wounded": (3, 2, 1),
    "vehicle_damage": (3, 2, 1),
}
# Modifiers to the required score, by commitment.
MODIFIERS = {
    "artillery": (2, 1, 0),
    "per_untreated": (2, 1, 0),
    "more_casualties_than_survivors": (4, 2, 1),
    "travel_mode": (4, 3, 2),
    "per_vehicle_damage": (2, 1, 0),
}
# Events that require a test but are not rows of the seed's table (value by commitment):
# "fired_on_in_travel": Travel Movement "If fired on, the unit ... must take a confidence test" (value 0; the
# travel-mode modifier applies to every test of a unit in travel mode).
EXTRA_TRIGGERS = {
    "fired_on_in_travel": (0, 0, 0),
}


def trigger_value(reason: str, commitment: int):
    return TRIGGERS[reason][commitment]


def confidence_test(dice: DiceSource, unit: Unit, reasons: list[str], *, more_casualties_than_survivors=False,
                    events: list | None = None, extra: int = 0, extra_reason: str | None = None,
                    artillery: bool = False, travel: bool = False, vehicle_damage: int = 0) -> int:
    """One confidence test for the highest applicable trigger.  Returns levels dropped (0, 1, 2).

    Required score = the table value + modifiers + the unit's leadership.  Score higher to pass;
    fail drops one level; scoring less than half the required score (rounded down) drops two.

    ``extra_reason`` names a test the table does not list (e.g. ``"commander_casualty"``): it is taken
    even when no table event applies, on a base of 0 (rules-notes RN-113), with ``extra`` added to the
    required score.  ``artillery``/``travel``/``vehicle_damage`` are the table's other modifiers.
    A panicking unit that is forced to rout can never be rallied (``panic_routed``).
    """
    c = unit.commitment
    best, best_reason = None, None
    for r in reasons:
        v = (TRIGGERS.get(r) or EXTRA_TRIGGERS[r])[c]
        if v is not None and (best is None or v > best):
            best, best_reason = v, r
    if best is None:
        if extra_reason is None:
            return 0
        best, best_reason = 0, extra_reason
    needed = best + extra + unit.lv + MODIFIERS["per_untreated"][c] * unit.n_untreated()
    if more_casualties_than_survivors:
        needed += MODIFIERS["more_casualties_than_survivors"][c]
    if artillery:
        needed += MODIFIERS["artillery"][c]
    if travel or getattr(unit, "travel", False):  # a unit in travel mode (column)
        needed += MODIFIERS["travel_mode"][c]
    needed += MODIFIERS["per_vehicle_damage"][c] * vehicle_damage
    roll = dice.roll(unit.quality)
    if roll > needed:
        drop = 0
    elif roll < needed // 2:
        drop = 2
    else:
        drop = 1
    unit.confidence = min(ROUTED, unit.confidence + drop)
    if unit.panicked and unit.confidence == ROUTED:
        unit.panic_routed = True
    if events is not None:
        events.append(ConfidenceTested(unit.uid, best_reason, roll, needed, drop, CONFIDENCE_NAMES[unit.confidence]))
    return drop
