"""Vehicle Damage (seed 000 "ARMOURED DUSTUP › Vehicle Damage"; the passengers' part of "Casualties to Vehicle
Passengers"; the confidence trigger and modifier of "MORALE › Confidence Test", L1124, L1138).

Markers, destruction, wrecks and the passengers' armour rolls are *Indicating Damaged Vehicles*
(:mod:`.indicating_damaged_vehicles`).  Here, what the markers do (L1459-1463):

* terrain one class worse per marker: the movement rules (``vehicle_movement.terrain_shift``);
* +1 to the target die of every target the vehicle engages (:func:`engage_shift`, used by *Fire by Vehicles*) and
  to the range die of its detection (the Detect Action's ``range_die``, RN-136);
* a mech or monster defending itself in close combat shifts its quality die down one per marker, minimum D4
  (:func:`defending_quality`, for the close-assault rules);

and the passengers' confidence test after their armour rolls (:func:`passengers_test`, RN-803).
"""
from __future__ import annotations

from ..kernel.dice import D4
from ..kernel.entities import OK, Unit
from ..kernel.events import LeaderLost
from ..morale.confidence_test import confidence_test


def engage_shift(v: Unit) -> int:
    """L1461: +1 to the target die of a target the vehicle engages, per damage marker (RN-136)."""
    return v.veh.damage if v.profile.vehicle is not None else 0


def defending_quality(v: Unit) -> int:
    """L1463: a mech or monster defending itself in close combat: its quality die one step down per damage marker
    (minimum D4)."""
    if v.profile.vehicle is None or not v.veh.damage:
        return v.quality
    return max(D4, v.quality - v.veh.damage)


def able_figures(game, uids) -> dict:
    """uid -> (statuses of its figures) of the passenger units ``uids`` (before the armour rolls)."""
    return {uid: tuple(f.status for f in game.units[uid].figures) for uid in uids}


def passengers_test(game, before: dict) -> None:
    """RN-803: each passenger unit that lost able figures in the vehicle's damage takes the test for casualties
    from fire (its leader hit, more casualties than survivors), as any unit would."""
    for uid, statuses in before.items():
        p = game.units[uid]
        lost = [i for i, s in enumerate(statuses) if s == OK and p.figures[i].status != OK]
        if not lost:
            continue
        reasons = ["casualties"]
        newly_lost = p.leader in lost and not p.leader_lost
        if newly_lost:
            reasons.append("leader_casualty")
            p.leader_lost = True
            game.emit(LeaderLost(p.uid, p.leader))
        if p.in_play:
            confidence_test(game.dice, p, reasons, more_casualties_than_survivors=len(lost) > p.n_able(),
                            events=game.events)
        if newly_lost:
            for hook in game.rules.on_leader_lost:
                hook(game, p)
