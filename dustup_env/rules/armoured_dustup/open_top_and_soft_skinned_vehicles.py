"""Open Top and Soft Skinned Vehicles (seed 000 "ARMOURED DUSTUP › Open Top and Soft Skinned Vehicles", L1447) and
Fire by Passengers (L1490; "Suppression and Vehicles", L1498-1502 for passengers).

**Engaging the passengers.**  A unit that could shoot at an open-topped (an open-top design, or hatches opened up)
or soft-skinned vehicle carrying passengers may engage the passengers instead: ``("shoot_passengers", vehicle,
mode)``, a Shoot Action at the first unit aboard (RN-811) with the vehicle's line of sight, partial concealment
more (RN-135) and cover: hard if the vehicle is armoured, soft if not.  The vehicle takes no damage.  If the
occupants are suppressed by it, the vehicle is suppressed too (a marker, up to 3) and closes down if it has
hatches.

**Fire by passengers.**  Passengers activate on their own (transport rules) and may shoot from the vehicle,
``("passenger_shoot", target, mode)``, from an open-topped vehicle or through fire ports (RN-139): while the vehicle
is suppressed they count as suppressed and may fire only through fire ports, at +1 on the target die (L1498);
they throw no grenades from a vehicle (RN-812).
"""
from __future__ import annotations

from ..kernel.entities import BROKEN, Unit
from ..kernel.errors import IllegalOptionError
from ..kernel.events import Suppressed
from ..kernel.ruleset import Family, Rule
from ..unit_actions.shoot_action import FIRE_MODES, shoot_geometry
from .firing_at_vehicles import MAX_SUPPRESSION, fire_party, party_plan
from .vehicles import HatchesChanged, armoured, has_vehicles, open_topped
from .vehicles import vehicle_state

PASSENGER_MODES = tuple(m for m in FIRE_MODES if m != "grenades")  # RN-812: no grenades from a vehicle


# ---------------------------------------------------------------------------------------------- engaging passengers
def exposed(v: Unit) -> bool:
    """L1447: the passengers of an open-top (or opened-up) or soft-skinned vehicle may be engaged."""
    p = v.profile.vehicle
    return p is not None and bool(v.veh.passengers) and (open_topped(v) or p.soft_skinned)


def passengers_geometry(game, u: Unit, v: Unit):
    """(concealment, cover) of the passengers of ``v`` seen from ``u``: the vehicle's, one level more concealed
    (RN-135) and hard cover if the vehicle is armoured, soft if not (L1447); None without a line of sight."""
    geo = shoot_geometry(game, u, v)
    if geo is None:
        return None
    return min(2, geo[0] + 1), max(geo[1], 2 if armoured(v) else 1)


def target_passengers(game, v: Unit) -> Unit:
    """RN-811: the first unit aboard."""
    return game.units[v.veh.passengers[0]]


def _may_shoot(u: Unit, status) -> bool:
    return not (status.disorganised or status.suppressed or u.complete_concealment
                or (u.confidence == BROKEN and not status.in_cover))


def _engage_options(game, u: Unit, status) -> list:
    if u.profile.vehicle is not None or u.veh.carrier >= 0 or not _may_shoot(u, status):
        return []
    out = []
    for v in game.enemy_units(u.side):
        if not exposed(v):
            continue
        geo = passengers_geometry(game, u, v)
        if geo is None:
            continue
        p = target_passengers(game, v)
        for mode in PASSENGER_MODES:
            if party_plan(game, u, p, mode, geo) is not None:
                out.append(("shoot_passengers", v.uid, mode))
    return out


def _engage(game, u: Unit, opt) -> None:
    v = game.units[opt[1]]
    if not exposed(v):
        raise IllegalOptionError(f"{opt!r}: no passengers to engage")
    p = target_passengers(game, v)
    geo = passengers_geometry(game, u, v)
    plan = None if geo is None else party_plan(game, u, p, opt[2], geo)
    if plan is None:
        raise IllegalOptionError(f"{opt!r}: cannot engage those passengers")
    res = fire_party(game, u, p, opt[2], plan, opt[2])
    if res.result != "none" and p.suppression > 0:  # the occupants are suppressed by it (the Shoot Action's rule)
        occupants_suppressed(game, v)


def occupants_suppressed(game, v: Unit) -> None:
    """L1447: the occupants suppressed: the vehicle is suppressed too and closes down if it has hatches."""
    if v.suppression < MAX_SUPPRESSION:
        v.suppression += 1
    game.emit(Suppressed(v.uid, v.suppression))
    if v.veh.opened_up:
        vehicle_state(v).opened_up = False
        game.emit(HatchesChanged(v.uid, False))


# ---------------------------------------------------------------------------------------------- fire by passengers
def passenger_shift(v: Unit) -> int | None:
    """RN-139: from an open-topped vehicle that is not suppressed: no shift; through fire ports: +1 while the
    vehicle is suppressed; otherwise no fire (None)."""
    p = v.profile.vehicle
    if v.suppression > 0:
        return 1 if p.fire_ports and not open_topped(v) else None
    if open_topped(v) or p.fire_ports:
        return 0
    return None


def _passenger_options(game, u: Unit, status) -> list:
    if u.veh.carrier < 0 or not _may_shoot(u, status):
        return []
    v = game.units[u.veh.carrier]
    shift = passenger_shift(v)
    if shift is None:
        return []
    out = []
    for t in game.enemy_units(u.side):
        if t.location == "routed_off":
            continue
        geo = shoot_geometry(game, v, t)
        if geo is None:
            continue
        for mode in PASSENGER_MODES:
            if party_plan(game, u, t, mode, geo, shift) is not None:
                out.append(("passenger_shoot", t.uid, mode))
    return out


def _passenger_shoot(game, u: Unit, opt) -> None:
    t = game.units[opt[1]]
    v = game.units[u.veh.carrier]
    shift = passenger_shift(v)
    geo = shoot_geometry(game, v, t)
    plan = None if shift is None or geo is None else party_plan(game, u, t, opt[2], geo, shift)
    if plan is None:
        raise IllegalOptionError(f"{opt!r}: the passengers cannot fire at that target")
    fire_party(game, u, t, opt[2], plan, opt[2])


def _options(game, u: Unit, status) -> list:
    if u.veh.carrier >= 0:
        return _passenger_options(game, u, status)
    return _engage_options(game, u, status)


FAMILIES = (Family("shoot_passengers", ("enemy", "mode"), 83,
                   "Shoot Action at the passengers of an open-top or soft-skinned enemy vehicle (not the vehicle)"),
            Family("passenger_shoot", ("enemy", "mode"), 84, "passengers fire from their vehicle at an enemy unit"))

RULE = Rule(
    "Open Top and Soft Skinned Vehicles", 'seed 000 "ARMOURED DUSTUP › Open Top and Soft Skinned Vehicles", '
    '"Fire by Passengers", "Suppression and Vehicles" (passengers)',
    applies=has_vehicles,
    families=FAMILIES,
    action_options=(_options,),
    actions={"shoot_passengers": _engage, "passenger_shoot": _passenger_shoot},
)
