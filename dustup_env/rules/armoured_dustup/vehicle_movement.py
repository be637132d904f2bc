"""Vehicle Movement (seed 000 "Vehicle Movement", "Obstacles", "Vehicle Damage" (mobility), "Suppression and
Vehicles" (movement)).

Vehicles move by the Move Action (:mod:`..unit_actions.move_action`): their movement die (the design's, D12 for
most, D6 for mechs and monsters), x2 movement points, and the terrain table of their mobility type
(``kernel/battlefield.py`` ``VEHICLE_TABLES``: low / high mobility wheeled, tracked, hover/GEV, grav, walker and the
invented watercraft table), as the unit's movement column.  Obstacles cost what their type (or the scenario)
gives for the mover type, or are impassable to it.  Each damage marker, and being suppressed, makes every terrain
one class worse (clear -> poor -> difficult -> impassable, L1459, L1498).  Vehicles move while suppressed (RN-140).
A vehicle that moves ends facing the way it moved (RN-756); turning on the spot counts as movement for Weapon
Stabilisation (RN-905).  Passengers, a super-heavy vehicle's turrets and a
towed unit move with it (:func:`carry_along`).
"""
from __future__ import annotations

import math

from ..kernel.battlefield import vehicle_column
from ..kernel.entities import Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.table import place
from .vehicles import bearing, has_vehicles
from .vehicles import vehicle_state

FOOTPRINT_BASE, FOOTPRINT_PER_SIZE = 0.5, 0.5  # invented (RN-757): a vehicle's radius is 0.5" + 0.5" x size class


def footprint(v: Unit) -> float:
    """The radius of a vehicle's footprint (what "within 2 inches of the vehicle" is measured from, RN-757)."""
    return FOOTPRINT_BASE + FOOTPRINT_PER_SIZE * v.profile.vehicle.size


def terrain_shift(v: Unit) -> int:
    """Classes of terrain worse: one per damage marker, one while suppressed (L1459, L1498)."""
    return v.veh.damage + (1 if v.suppression > 0 else 0)


def movement_column(v: Unit) -> int:
    """The vehicle's movement column now (its mobility type, amphibious, shifted by damage and suppression); a unit
    of vehicular cavalry uses its mobility table while mounted."""
    p = v.profile.vehicle
    if p is None:
        return vehicle_column(v.mobility, v.amphibious, 0)
    mobility = p.mobility_type if p.movement_die is not None else "grav"  # a grounded aircraft (RN-1503)
    return vehicle_column(mobility, v.amphibious, terrain_shift(v))


def refresh_columns(game, *_args) -> None:
    """Keep every vehicle's movement column in step with its damage and suppression (after every option)."""
    for u in game.units:
        if u.profile.vehicle is not None:
            c = movement_column(u)
            if u.terrain_column != c:
                u.terrain_column = c


def immobile(u: Unit) -> bool:
    """Cannot move on its own: immobilised, mounted, towed or pushed, or a turret on its hull."""
    return u.veh.immobilised or u.veh.carrier >= 0 or u.veh.towed_by >= 0 or u.veh.hull >= 0


def _movement_roll(game, u: Unit, die):
    """An immobile unit's move covers no ground (the roll is 0; a routed one cannot leave that way either)."""
    if u.profile.vehicle is not None and immobile(u):
        return 0
    if u.veh.carrier >= 0:
        return 0
    return None


def _filter(game, u: Unit, opts: list) -> list:
    if (u.profile.vehicle is not None or u.veh.carrier >= 0) and immobile(u):
        return [o for o in opts if o[0] not in ("move", "withdraw", "turn")]
    return opts


def carry_along(game, v: Unit) -> None:
    """Bring along what moves with vehicle ``v``: its passengers (at its position, off the table's view), its
    turrets (super-heavy vehicles: same position and facing) and the unit it tows or pushes (behind or in front of
    it, footprint to footprint)."""
    for uid in v.veh.passengers:
        place(game, game.units[uid], v.x, v.y, "carried", point=False)  # aboard: the vehicle's move is the move
    for t in game.units:
        if t.veh.hull == v.uid:
            place(game, t, v.x, v.y, "carried", point=False)
            vehicle_state(t).facing = v.veh.facing
    if v.veh.towing >= 0:
        t = game.units[v.veh.towing]
        gap = footprint(v) + (footprint(t) if t.profile.vehicle is not None else 0.5)
        a = math.radians(v.veh.facing)
        sgn = 1.0 if v.veh.pushing else -1.0
        x = min(max(v.x + sgn * gap * math.sin(a), 0.0), game.bf.width)
        y = min(max(v.y + sgn * gap * math.cos(a), 0.0), game.bf.height)
        dx, dy = x - t.x, y - t.y
        place(game, t, x, y, "towed")
        if t.profile.vehicle is not None:
            vehicle_state(t).facing = v.veh.facing
        for uid in t.veh.passengers:
            place(game, game.units[uid], x, y, "carried", point=False)
        if dx or dy:
            t.complete_concealment = False


def _after_move(game, u: Unit, start, withdraw) -> None:
    if u.profile.vehicle is None:
        return
    if (u.x, u.y) != start:
        vehicle_state(u).facing = bearing(start[0], start[1], u.x, u.y)  # a vehicle ends facing the way it moved (RN-756)
        vehicle_state(u).moved = True
    carry_along(game, u)


@event
class Turned(Event):
    unit: int
    facing: float


TURN_STEP = 360.0 / 16  # the turn action's 16 compass directions (the move directions)


def _turn_options(game, u: Unit, status) -> list:
    """``("turn", d)``: turn on the spot to face compass direction ``d`` (one action, RN-756)."""
    if u.profile.vehicle is None or immobile(u):
        return []
    return [("turn", d) for d in range(16) if abs((d * TURN_STEP - u.veh.facing + 180.0) % 360.0 - 180.0) > 1e-6]


def _turn(game, u: Unit, opt) -> None:
    """Turning on the spot is movement for Weapon Stabilisation (S002:645 "physically turning the vehicle, which
    counts as MOVEMENT"; L1471-1474, RN-905): poor weapons cannot fire after it, average ones at +1."""
    vehicle_state(u).facing = opt[1] * TURN_STEP
    vehicle_state(u).moved = True
    carry_along(game, u)
    game.emit(Turned(u.uid, u.veh.facing))


def _on_activation(game, u: Unit) -> None:
    if u.veh.moved:
        vehicle_state(u).moved = False


def _init(game) -> None:
    for u in game.units:
        if u.profile.vehicle is not None:
            u.terrain_column = movement_column(u)
            carry_along(game, u)


RULE = Rule(
    "Vehicle Movement", 'seed 000 "Vehicle Movement", "Obstacles", "Vehicle Damage" (terrain one class worse), '
    '"Suppression and Vehicles" (movement)',
    applies=has_vehicles,
    init=(_init,),
    families=(Family("turn", ("dir",), 66, "a vehicle turns on the spot to face this direction (mirrored like moves)"),),
    action_options=(_turn_options,),
    actions={"turn": _turn},
    after_apply=(refresh_columns,),
    movement_roll=(_movement_roll,),
    action_filters=(_filter,),
    after_move=(_after_move,),
    on_activation=(_on_activation,),
)
