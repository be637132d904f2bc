"""Towing and Pushing Vehicles (seed 000 "Towing and Pushing Vehicles"; towed heavy weapons, "Moving Heavy Weapons").

A vehicle may tow or push another of at most one size class larger (L1417) that is lined up with it (within 2",
footprint to footprint, RN-760); attaching takes one reorganise-type action (not while suppressed out of cover),
so does unhooking.  Grav and hover vehicles may not tow or push (the design's ``can_tow``), nor may a damaged
vehicle (L1419): a vehicle that is damaged lets go.  While towing or pushing it moves at half speed (RN-132): a
D12 mover rolls a D6, a D8 mover a D4, any other die rolls as usual and its roll is halved, rounding up.  The towed
unit moves with it (``vehicle_movement.carry_along``) and does not move on its own.

Heavy weapons on a towed carriage are towed too when the heavy-weapon rules provide the ``towable_size`` service
(``towable_size(game, unit)``: the size class a tower must be able to tow, or None if the unit cannot be towed);
this rule provides ``towed(game, unit)`` (the towing vehicle, None if none).  A towed unit does not move on its
own (the crew of a towed gun rides with it, RN-880); a towed unit that is moved anyway (a forced withdrawal) is let go.
"""
from __future__ import annotations

import math

from ..kernel.dice import D4, D6, D8, D12
from ..kernel.entities import Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from .vehicle_movement import carry_along, footprint
from .vehicles import has_vehicles
from .vehicles import vehicle_state

LINE_UP = 2.0  # invented (RN-760): the tower's and the towed unit's footprints this close
HALF_DIE = {D12: D6, D8: D4}  # L1417 "if they normally roll a D12 as their movement die, they roll a D6"


@event
class TowAttached(Event):
    unit: int
    towed: int
    pushing: bool


@event
class TowReleased(Event):
    unit: int
    towed: int
    reason: str  # "unhook" | "damaged" | "destroyed"


def towed(game, u: Unit):
    """The vehicle towing or pushing ``u``, None if none (a service of this rule: true while towed)."""
    return game.units[u.veh.towed_by] if u.veh.towed_by >= 0 else None


def may_tow(v: Unit) -> bool:
    p = v.profile.vehicle
    return (p is not None and p.can_tow and v.veh.damage == 0 and not v.veh.immobilised and v.veh.towing < 0 and v.veh.towed_by < 0
            and v.veh.carrier < 0 and v.veh.hull < 0 and v.in_play and not v.hidden)


def tow_size(game, t: Unit):
    """The size class a tower must manage for ``t`` (vehicles: their size; heavy weapons through the heavy-weapon
    rules' ``towable_size`` service), None if ``t`` cannot be towed."""
    if t.profile.vehicle is not None:
        return t.profile.vehicle.size
    svc = game.rules.services.get("towable_size")
    return svc(game, t) if svc is not None else None


def _radius(t: Unit) -> float:
    return footprint(t) if t.profile.vehicle is not None else 0.5


def _options(game, v: Unit, status) -> list:
    if v.profile.vehicle is None:
        return []
    if v.veh.towing >= 0:
        return [("unhook",)]
    if not may_tow(v) or (status.suppressed and not status.in_cover):
        return []
    out = []
    units = game.units
    reach = footprint(v) + LINE_UP
    for uid in game.side_units[v.side]:
        t = units[uid]
        if t is v or not t.in_play or t.hidden or t.veh.towed_by >= 0 or t.veh.towing >= 0 or t.veh.carrier >= 0 or t.veh.hull >= 0 \
                or t.uid == v.veh.hull:
            continue
        r = reach + _radius(t)
        if (t.x - v.x) ** 2 + (t.y - v.y) ** 2 > r * r:
            continue
        size = tow_size(game, t)
        if size is None or size > v.profile.vehicle.size + 1:
            continue
        out.append(("tow", uid))
        if t.profile.vehicle is not None:
            out.append(("push", uid))  # heavy weapons are towed, not pushed
    return out


def _attach(game, v: Unit, opt) -> None:
    t = game.units[opt[1]]
    vehicle_state(v).towing, vehicle_state(v).pushing, vehicle_state(t).towed_by = t.uid, opt[0] == "push", v.uid
    t.propped = False
    game.emit(TowAttached(v.uid, t.uid, v.veh.pushing))
    carry_along(game, v)


def release(game, v: Unit, reason: str) -> None:
    """``v`` lets go of what it tows or pushes."""
    if v.veh.towing < 0:
        return
    t = game.units[v.veh.towing]
    vehicle_state(t).towed_by = -1
    vehicle_state(v).towing, vehicle_state(v).pushing = -1, False
    game.emit(TowReleased(v.uid, t.uid, reason))


def _unhook(game, v: Unit, opt) -> None:
    release(game, v, "unhook")


def _movement_die(game, u: Unit, die: int) -> int:
    if u.veh.towing >= 0:
        return HALF_DIE.get(die, die)
    return die


def _movement_roll(game, u: Unit, die: int):
    """Half speed for dice other than D12 and D8: the usual roll, halved rounding up (RN-132)."""
    if u.veh.towing < 0 or u.movement in HALF_DIE:
        return None
    return math.ceil(game.dice.roll(die) / 2)


def _filter(game, u: Unit, opts: list) -> list:
    """A vehicle towing or pushing, or towed, does not hide (a hidden vehicle tows nothing, RN-769); the towed crew
    of a heavy weapon does not move on its own (RN-880: unhooked first)."""
    if u.veh.towing < 0 and u.veh.towed_by < 0:
        return opts
    if u.veh.towed_by >= 0 and u.profile.vehicle is None:
        return [o for o in opts if o != ("reorganise", "hide") and o[0] not in ("move", "withdraw", "regroup")]
    return [o for o in opts if o != ("reorganise", "hide")]


def _no_towed_partner(game, u: Unit, opts: list) -> list:
    """RN-880: a towed crew is not a partner of a Regroup Action (it rides with its gun until unhooked)."""
    units = game.units
    return [o for o in opts if not (o[0] == "regroup" and units[o[1]].veh.towed_by >= 0)]


def _after_move(game, u: Unit, start, withdraw: bool) -> None:
    """A towed unit moved on its own (the crew of a towed gun forced to withdraw): the tower lets go."""
    if u.veh.towed_by >= 0 and u.profile.vehicle is None and (u.x, u.y) != tuple(start):
        release(game, game.units[u.veh.towed_by], "unhook")


RULE = Rule(
    "Towing and Pushing", 'seed 000 "Towing and Pushing Vehicles"',
    applies=has_vehicles,
    families=(Family("tow", ("own",), 63, "attach tow cables to this friendly vehicle or towed weapon"),
              Family("push", ("own",), 64, "line up to push this friendly vehicle"),
              Family("unhook", (), 65, "let go of the vehicle or weapon towed or pushed")),
    action_options=(_options,),
    action_filters=(_filter, _no_towed_partner),
    actions={"tow": _attach, "push": _attach, "unhook": _unhook},
    movement_die=(_movement_die,),
    movement_roll=(_movement_roll,),
    after_move=(_after_move,),
    services={"towed": towed},
)
