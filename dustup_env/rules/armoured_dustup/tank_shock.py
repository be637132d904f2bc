"""Tank Shock (seed 000 "ARMOURED DUSTUP › Tank Shock", L1536-1551).

A vehicle (not a mech or monster, which assault as infantry; not suppressed, L1551; Confident or Steady, L730, RN-904;
able to move) may tank-shock an
enemy infantry unit it sees within its reach (twice its maximum move in the open, as an assault's reach):
``("tank_shock", unit)``, one action (RN-814).  The opposed courage test, the vehicle counting as its size class in
units (L1538):

* the infantry roll higher: the vehicle drives through their position (it ends 2" beyond them, or where the terrain
  stops it) and the infantry stand their ground, moving aside;
* the infantry roll more than double the vehicle's: as above, and they make one attack on the vehicle as if they
  had assaulted it (one impact roll of their best grenade or charge, ``close_assault.attack_impact``, against the
  armour facing them);
* otherwise (ties included) the infantry withdraw (one level down, RN-143) and the vehicle moves onto the ground
  they held.
"""
from __future__ import annotations

import math

from ..kernel.dice import die_max, die_name
from ..kernel.entities import STEADY, Unit
from ..kernel.errors import IllegalOptionError
from ..kernel.events import Moved
from ..kernel.ruleset import Family, Rule
from ..kernel.table import place
from ..unit_actions.assault_action import withdraw
from ..unit_actions.move_action import move_path, step_hook
from .close_assault import VehicleAssaulted, infantry_attack, vehicle_courage
from .vehicle_movement import carry_along, footprint, immobile
from .vehicles import bearing, has_vehicles
from .vehicles import vehicle_state

THROUGH = 2.0  # RN-143: the vehicle ends 2" beyond the infantry it drives through


def reach(v: Unit) -> float:
    """Twice the vehicle's maximum move in the open (2" a point), like an assault's reach."""
    return 2.0 * 2.0 * die_max(v.movement)


def may_shock(v: Unit) -> bool:
    """Not suppressed (L1551); Confident or Steady and not panicking: tank shock is an assault (L1536 "Vehicles can
    initiate an assault against an infantry unit"), and "Attackers may not assault if shaken, broken or routed"
    (L730, RN-904); able to move."""
    return (v.profile.vehicle is not None and v.kind == "vehicle" and v.veh.hull < 0 and not v.suppression
            and v.confidence <= STEADY and not v.panicked and not immobile(v) and v.in_play)


def _options(game, v: Unit, status) -> list:
    if not may_shock(v):
        return []
    r = reach(v)
    out = []
    for t in game.enemy_units(v.side):
        if t.profile.vehicle is not None or t.location == "routed_off" or t.complete_concealment:
            continue
        if math.hypot(t.x - v.x, t.y - v.y) <= r and game.bf.has_los(v.x, v.y, t.x, t.y) \
                and game.bf.move_cost(t.x, t.y, v.terrain_column) is not None:
            out.append(("tank_shock", t.uid))
    return out


def drive(game, v: Unit, px: float, py: float) -> None:
    """The vehicle drives straight at (px, py) (through infantry; terrain may stop it), ends facing the way it went,
    its passengers and tow with it."""
    start = (v.x, v.y)
    dist = math.hypot(px - v.x, py - v.y)
    x, y = move_path(game.bf, v, px, py, 4.0 * dist + 1.0, [], v.terrain_column, step_hook(game, v))
    place(game, v, x, y, "tank_shock", point=False)  # (its path ran the point at every step)
    if (x, y) != start:
        vehicle_state(v).facing = bearing(start[0], start[1], x, y)
        vehicle_state(v).moved = True
    game.emit(Moved(v.uid, 0, 0.0, (round(start[0], 3), round(start[1], 3)), (round(x, 3), round(y, 3)), False))
    carry_along(game, v)


def _shock(game, v: Unit, opt) -> None:
    t = game.units[opt[1]]
    if opt not in _options(game, v, None):
        raise IllegalOptionError(f"{opt!r}: no tank shock against that unit now")
    a, d, a_die, d_die = vehicle_courage(game, v, t)
    if d > 2 * a:
        result = "attack"
    elif d > a:
        result = "aside"
    else:
        result = "withdraw"
    game.emit(VehicleAssaulted(t.uid, v.uid, die_name(a_die), a, die_name(d_die), d, result))
    tx, ty = t.x, t.y
    if result == "withdraw":
        withdraw(game, t, [v], 1, "tank_shock")
        drive(game, v, tx, ty)
        return
    dist = math.hypot(tx - v.x, ty - v.y)
    beyond = THROUGH + footprint(v)
    if dist > 1e-9:
        px, py = tx + (tx - v.x) / dist * beyond, ty + (ty - v.y) / dist * beyond
    else:
        px, py = tx, ty
    px = min(max(px, 0.0), game.bf.width)
    py = min(max(py, 0.0), game.bf.height)
    drive(game, v, px, py)
    if result == "attack" and t.in_play and v.in_play:
        infantry_attack(game, t, v, tx, ty)


RULE = Rule(
    "Tank Shock", 'seed 000 "ARMOURED DUSTUP › Tank Shock"',
    applies=has_vehicles,
    families=(Family("tank_shock", ("enemy",), 86, "a vehicle tank-shocks an enemy infantry unit"),),
    action_options=(_options,),
    actions={"tank_shock": _shock},
)
