"""Transport of Infantry (seed 000 "Transport of Infantry", and passengers in "Suppression and Vehicles",
"Fire by Passengers").

A transport vehicle carries up to its design's capacity in figures (a power-armoured figure takes two places,
RN-614).  Mounting and dismounting take one action of the passenger unit (L1411; RN-131: like a reorganise, so
a suppressed unit only in cover).  To mount, every figure of the unit must be within 2" of the vehicle (its
footprint, RN-757).  A dismounting unit is placed in an arc on the chosen side of the vehicle, every figure within
2" of it; its second action is free to use (L1413: "to move further away").  No one disembarks from a suppressed
vehicle (L1500).  ``("approach", vehicle)`` is a Move Action towards a friendly transport (the nominated point is
the vehicle), so that a squad can get within 2" of it.

Passengers move with the vehicle (``vehicle_movement.carry_along``), still activate on their own (L1490), are not
seen or targeted by the enemy (``Game.enemy_units``), keep their victory-point value, and bail out when they
must withdraw (a broken or routed passenger's withdrawal starts with leaving the vehicle, RN-758).  Scenario units
may start mounted (``carried_by``).
"""
from __future__ import annotations

import math

from ..kernel.data import armoury
from ..kernel.entities import BROKEN, KILLED, ROUTED, Unit
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.table import place
from ..unit_actions.move_action import DIR_VECTORS, DIRECTIONS, begin_move, may_advance
from .vehicle_movement import footprint
from .vehicles import has_vehicles
from .vehicles import vehicle_state

MOUNT_RANGE = 2.0  # L1411
APPROACH_RANGE = 24.0  # a friendly transport this close may be approached (RN-758)


@event
class Embarked(Event):
    unit: int
    vehicle: int


@event
class Disembarked(Event):
    unit: int
    vehicle: int
    x: float
    y: float
    forced: bool  # bailed out (a withdrawal, the vehicle destroyed)


def places(u: Unit) -> int:
    """Transport places the unit takes: one per figure (killed ones left out), two per power-armoured figure."""
    armours = armoury()[1]
    n = 0
    for f in u.figures:
        if f.status != KILLED:
            n += 2 if armours[f.armour or u.armour].power_armour else 1
    return n


def room(game, v: Unit) -> int:
    """Places left in transport vehicle ``v`` (its crew, when represented by a unit, takes none: RN-881)."""
    crew_uid = game.rules.services.get("vehicle_crew")  # the close-assault rules' crews (RN-881)
    crew = crew_uid(game, v) if crew_uid is not None else -1
    return v.profile.vehicle.transport_figures - sum(places(game.units[p]) for p in v.veh.passengers if p != crew)


def within_reach(v: Unit, u: Unit) -> bool:
    """Every figure of ``u`` within 2" of vehicle ``v`` (its footprint)."""
    r = footprint(v) + MOUNT_RANGE + 1e-9
    return all((x - v.x) ** 2 + (y - v.y) ** 2 <= r * r for x, y in u.figure_positions())


def may_carry(v: Unit) -> bool:
    return (v.profile.vehicle is not None and v.profile.vehicle.transport_figures > 0 and v.in_play and not v.hidden
            and v.veh.hull < 0 and v.veh.carrier < 0)


def _may_board(u: Unit, status) -> bool:
    return (u.profile.vehicle is None and u.veh.carrier < 0 and not u.hidden and not u.mounted and not u.propped
            and u.veh.towed_by < 0 and (not status.suppressed or status.in_cover) and u.confidence < BROKEN)


def _options(game, u: Unit, status) -> list:
    if u.veh.carrier >= 0:
        v = game.units[u.veh.carrier]
        if v.suppression > 0 or (status.suppressed and not status.in_cover):
            return []
        return [("dismount", d) for d in range(DIRECTIONS) if dismount_positions(game, v, u, d) is not None]
    if u.profile.vehicle is not None or not _may_board(u, status):
        return []
    out, approach = [], []
    need = places(u)
    units = game.units
    for uid in game.side_units[u.side]:
        v = units[uid]
        if not may_carry(v) or room(game, v) < need:
            continue
        if within_reach(v, u):
            out.append(("mount", uid))
        elif not status.suppressed and not status.disorganised and \
                (v.x - u.x) ** 2 + (v.y - u.y) ** 2 <= APPROACH_RANGE * APPROACH_RANGE:
            approach.append(("approach", uid))
    return out + approach


def dismount_positions(game, v: Unit, u: Unit, d: int):
    """Where ``u``'s figures stand after dismounting on side ``d`` (a compass direction) of ``v``: an arc 1" out from
    its footprint, the leader in the middle, 1" between figures; None if a figure would be off the table or the
    leader on impassable ground."""
    r = footprint(v) + 1.0
    alive = [i for i, f in enumerate(u.figures) if f.status != KILLED]
    n = len(alive)
    base = 2 * math.pi * d / DIRECTIONS
    slots = sorted(range(n), key=lambda k: (abs(k - (n - 1) / 2), k))  # the middle slot first (the leader's)
    order = [u.leader] + [i for i in alive if i != u.leader]
    pos = {}
    for i, k in zip(order, slots):
        a = base + (k - (n - 1) / 2) * (1.0 / r)
        x, y = v.x + r * math.sin(a), v.y + r * math.cos(a)
        if not game.bf.on_table(x, y):
            return None
        pos[i] = (x, y)
    lx, ly = pos[u.leader]
    if game.bf.move_cost(lx, ly, u.terrain_column) is None:
        return None
    return pos


def _mount(game, u: Unit, opt) -> None:
    v = game.units[opt[1]]
    vehicle_state(u).carrier = v.uid
    vehicle_state(v).passengers = v.veh.passengers + [u.uid]
    place(game, u, v.x, v.y, "mount")
    u.complete_concealment = False
    game.emit(Embarked(u.uid, v.uid))


def dismount(game, u: Unit, d: int, forced: bool = False) -> None:
    """Put passenger ``u`` on the table on side ``d`` of its vehicle (a forced dismount falls back on the leader at
    the vehicle's position, its figures in their places)."""
    v = game.units[u.veh.carrier]
    pos = dismount_positions(game, v, u, d)
    vehicle_state(v).passengers = [p for p in v.veh.passengers if p != u.uid]
    vehicle_state(u).carrier = -1
    if pos is None:
        place(game, u, v.x, v.y, "dismount")
    else:
        lx, ly = pos[u.leader]
        lf = u.figures[u.leader]
        for i, (x, y) in pos.items():
            u.set_offset(i, lf.dx + x - lx, lf.dy + y - ly)
        u.loose = False
        place(game, u, lx, ly, "dismount")  # (the figures in their places first: the point sees them there)
    game.emit(Disembarked(u.uid, v.uid, round(u.x, 3), round(u.y, 3), forced))


def _dismount(game, u: Unit, opt) -> None:
    dismount(game, u, opt[1])


def _approach(game, u: Unit, opt):
    """A move towards the vehicle (the Move Action's resumable walk: its reactions as for any move)."""
    v = game.units[opt[1]]
    if not may_advance(game, u, v.x, v.y):
        return None  # the Shaken test failed: the action is spent without moving
    return begin_move(game, u, v.x, v.y)


def bail_out(game, u: Unit) -> None:
    """A passenger that must leave: dismounts on the side facing its home edge (the nearest side that has room)."""
    v = game.units[u.veh.carrier]
    hx, hy = game.home_point(u)
    ang = math.atan2(hx - v.x, hy - v.y)
    best = min(range(DIRECTIONS), key=lambda d: (abs((2 * math.pi * d / DIRECTIONS - ang + math.pi) % (2 * math.pi)
                                                     - math.pi), d))
    ds = sorted(range(DIRECTIONS), key=lambda d: (min((d - best) % DIRECTIONS, (best - d) % DIRECTIONS), d))
    for d in ds:
        if dismount_positions(game, v, u, d) is not None:
            dismount(game, u, d, forced=True)
            return
    dismount(game, u, best, forced=True)


def unload_all(game, v: Unit) -> None:
    """Every passenger of ``v`` bails out (the vehicle is destroyed or out of play)."""
    for uid in list(v.veh.passengers):
        bail_out(game, game.units[uid])


def _before_apply(game, decision, option) -> None:
    if option == ("withdraw",) and decision.unit >= 0:
        u = game.units[decision.unit]
        if u.veh.carrier >= 0:
            bail_out(game, u)


def _after_apply(game, decision, option) -> None:
    """A transport that left the table (routed off) sets its passengers down at the edge first: they are not
    routed themselves and stay in the fight (RN-769)."""
    for v in game.units:
        if v.veh.passengers and v.location == "routed_off":
            unload_all(game, v)


PASSENGER_ACTIONS = frozenset({"end", "dismount", "recover", "order", "rally", "communicate", "panic_test",
                               "passenger_shoot",  # Fire by Passengers: open_top_and_soft_skinned_vehicles.py
                               "air_drop"})  # drops from a hovering aircraft: aerospace_operations/passengers.py


OUTSIDE_ONLY = frozenset({"regroup", "treat"})  # options naming a friendly unit that need it on the table


def _filter(game, u: Unit, opts: list) -> list:
    if u.veh.carrier >= 0:
        return [o for o in opts if o[0] in PASSENGER_ACTIONS]
    units = game.units
    return [o for o in opts if not (o[0] in OUTSIDE_ONLY and units[o[1]].veh.carrier >= 0)]


def vehicle_references(game, field: str, role: str):
    """The scenario's units naming a vehicle of their side in ``field`` (``carried_by``, ``crew_of``): yields
    ``(where, spec, unit, vehicle or None)``; a vehicle naming one is a scenario error (it is not a ``role``)."""
    for s, side in enumerate(game.scenario["sides"]):
        names = {spec["name"]: game.side_units[s][i] for i, spec in enumerate(side["units"])}
        for i, spec in enumerate(side["units"]):
            if field not in spec:
                continue
            where = f"sides/{s}/units/{i} ({spec['name']!r}): {field}"
            u = game.units[game.side_units[s][i]]
            if u.profile.vehicle is not None:
                raise ScenarioError(f"{where}: a vehicle is not a {role}")
            vid = names.get(spec[field])
            yield where, spec, u, (game.units[vid] if vid is not None else None)


def _init(game) -> None:
    """Units that start mounted (``carried_by``)."""
    for where, spec, u, v in vehicle_references(game, "carried_by", "passenger"):
        if v is None or v.profile.vehicle is None:
            raise ScenarioError(f"{where}: {spec['carried_by']!r} is not a vehicle of the same side")
        if v.profile.vehicle.transport_figures <= 0 or v.veh.hull >= 0:
            raise ScenarioError(f"{where}: {spec['carried_by']!r} carries no passengers")
        if u.hidden or v.hidden or u.inbound or v.inbound or u.mounted:
            raise ScenarioError(f"{where}: hidden units, reinforcements and mounted cavalry do not start mounted")
        if room(game, v) < places(u):
            raise ScenarioError(f"{where}: {spec['carried_by']!r} has room for {room(game, v)} more figures, the "
                                f"unit needs {places(u)}")
        vehicle_state(u).carrier = v.uid
        vehicle_state(v).passengers = v.veh.passengers + [u.uid]
        place(game, u, v.x, v.y, "set_up", point=False)  # the game's set-up: no move


RULE = Rule(
    "Transport of Infantry", 'seed 000 "Transport of Infantry"; passengers in "Suppression and Vehicles", '
    '"Fire by Passengers"',
    applies=has_vehicles,
    init=(_init,),
    families=(Family("mount", ("own",), 60, "mount this friendly transport vehicle (every figure within 2\")"),
              Family("dismount", ("dir",), 61, "dismount on this side of the vehicle (mirrored like moves)"),
              Family("approach", ("own",), 62, "Move Action towards this friendly transport vehicle")),
    action_options=(_options,),
    action_filters=(_filter,),
    before_apply=(_before_apply,),
    after_apply=(_after_apply,),
    actions={"mount": _mount, "dismount": _dismount, "approach": _approach},
)
