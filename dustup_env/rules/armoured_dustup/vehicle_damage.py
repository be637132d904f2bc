"""Vehicle Damage (seed 000 "ARMOURED DUSTUP › Vehicle Damage", "Casualties to Vehicle Passengers", "Indicating
Damaged Vehicles"; the confidence trigger and modifier of "MORALE › Confidence Test", L1124, L1138).

* A damaging hit adds one damage marker, a destroying hit takes the vehicle out of play (L1433-1439).  The vehicle
  rules' own markers and wrecks (the services ``vehicle_damaged(game, v)`` and ``vehicle_destroyed(game, v)`` of
  *Indicating Damaged Vehicles*) are used when the rule set has them; otherwise :func:`add_damage` and
  :func:`destroy` here do the least the combat rules need (RN-801): a marker, or the hull figure killed, the
  passengers put on the table at the vehicle and tow links released.
* Per damage marker (L1459-1463): terrain one class worse (the movement rules, ``vehicle_movement.terrain_shift``);
  +1 to the target die of every target the vehicle engages (:func:`engage_shift`, used by *Fire by Vehicles*) and
  to the range die of its detection (:func:`detect_range_die`, closed; the Detect Action applies it, RN-136); a
  mech or monster defending itself in close combat shifts its quality die down (:func:`defending_quality`, for
  the close-assault rules).
* The confidence test of a vehicle: "Vehicle takes one or more damage" once per attack, and "Each existing vehicle
  damage marker" (markers from before the attack, RN-114) on every test of that attack.
* Passengers (L1443): when a vehicle is damaged each passenger figure rolls its armour die and is hit unless it
  beats the weapon class (more than double it when the vehicle is destroyed); a hit is a wound that needs
  treatment (RN-134, RN-802).
"""
from __future__ import annotations

from ..kernel.attack import infantry_damage
from ..kernel.data import armoury
from ..kernel.dice import D4, D12, die_name
from ..kernel.entities import KILLED, OK, Unit
from ..kernel.events import Event, LeaderLost, event
from ..morale.confidence_test import confidence_test


@event
class VehicleDamaged(Event):
    unit: int
    markers: int


@event
class VehicleDestroyed(Event):
    unit: int


@event
class PassengerTested(Event):
    unit: int  # the passenger unit
    vehicle: int
    figure: int
    armour_die: str
    roll: int
    needed: int  # the roll must exceed this (weapon class, or double it when the vehicle is destroyed)
    effect: str  # none | wound | kill


# ---------------------------------------------------------------------------------------------- markers
def add_damage(game, v: Unit) -> None:
    """One damage marker on ``v`` (the vehicle rules' ``vehicle_damaged`` service if the rule set has it)."""
    svc = game.rules.services.get("vehicle_damaged")
    if svc is not None:
        svc(game, v)
        return
    v.damage += 1
    game.emit(VehicleDamaged(v.uid, v.damage))


def destroy(game, v: Unit) -> None:
    """``v`` is destroyed (the vehicle rules' ``vehicle_destroyed`` service if the rule set has it).  The least
    version (RN-801): the hull figure is killed (the unit leaves play), its passengers are put on the table at the
    vehicle, tow and push links and turret links are released."""
    svc = game.rules.services.get("vehicle_destroyed")
    if svc is not None:
        svc(game, v)
        return
    units = game.units
    for i, f in enumerate(v.figures):
        if f.status != KILLED:
            v.set_figure(i, status=KILLED)
    v.immobilised = True
    for uid in list(v.passengers):
        p = units[uid]
        p.carrier = -1
        p.x, p.y = v.x, v.y
    v.passengers = []
    if v.towing >= 0:
        units[v.towing].towed_by = -1
        v.towing = -1
        v.pushing = False
    if v.towed_by >= 0:
        units[v.towed_by].towing = -1
        units[v.towed_by].pushing = False
        v.towed_by = -1
    game.emit(VehicleDestroyed(v.uid))


# ---------------------------------------------------------------------------------------------- effects
def engage_shift(v: Unit) -> int:
    """L1461: +1 to the target die of a target the vehicle engages, per damage marker (RN-136)."""
    return v.damage if v.profile.vehicle is not None else 0


def defending_quality(v: Unit) -> int:
    """L1463: a mech or monster defending itself in close combat: its quality die one step down per damage marker
    (minimum D4)."""
    if v.profile.vehicle is None or not v.damage:
        return v.quality
    return max(D4, v.quality - v.damage)


def detect_range_die(game, u: Unit, die: int) -> int:
    """L1461 "engage or spot": a damaged vehicle's detection range die shifts up one per marker, closed like the
    Detect Action's other shifts (RN-136; the Detect Action applies it)."""
    if u.profile.vehicle is None or not u.damage:
        return die
    return min(D12, die + u.damage)


# ---------------------------------------------------------------------------------------------- passengers
def passenger_casualties(game, v: Unit, weapon_class: int, destroyed: bool) -> None:
    """L1443: each passenger figure of ``v`` rolls its armour die: it must exceed the weapon class (more than double
    it when the vehicle is destroyed) or it is hit: one wound that needs treatment (a second wound kills, as for any
    wounded figure; RN-802).  A passenger unit with casualties takes the usual test for casualties (and its leader,
    RN-803)."""
    need = weapon_class * (2 if destroyed else 1)
    arm = armoury()[1]
    for uid in list(v.passengers):
        p = game.units[uid]
        casualties, leader_hit = 0, False
        for fi, f in enumerate(p.figures):
            if f.status == KILLED:
                continue
            adie = arm[f.armour or p.armour].die
            r = game.dice.roll(adie)
            effect = "none" if r > need else infantry_damage(game, p, fi, "wound")
            game.emit(PassengerTested(p.uid, v.uid, fi, die_name(adie), r, need, effect))
            if effect != "none" and f.status == OK:
                casualties += 1
                if fi == p.leader:
                    leader_hit = True
        if not casualties:
            continue
        reasons = ["casualties"]
        newly_lost = leader_hit and not p.leader_lost
        if newly_lost:
            reasons.append("leader_casualty")
            p.leader_lost = True
            game.emit(LeaderLost(p.uid, p.leader))
        if p.in_play:
            confidence_test(game.dice, p, reasons, more_casualties_than_survivors=casualties > p.n_able(),
                            events=game.events)
        if newly_lost:
            for hook in game.rules.on_leader_lost:
                hook(game, p)
