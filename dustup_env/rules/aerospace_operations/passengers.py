"""Passenger Transport: dropping troops from hovering aircraft (seed 000 L1832-1842).

Loading and unloading a grounded aircraft is the transport rules' mount and dismount (L1818-1820, one action each,
within 2"; :mod:`.flight` keeps both from an aircraft in the air).  From a hovering aircraft a passenger unit may drop:

* ``("air_drop", "rope", dir)``: fast-roping from a hovering VTOL aircraft takes the whole activation (both actions,
  offered only as the unit's first action, L1834); troops may not abseil from a grav vehicle (L1840);
* ``("air_drop", "grav", dir)``: grav-packs, one action (L1834): offered from a hovering grav vehicle, whose troops
  "may use grav-packs" (L1840); the scenario data has no grav-pack equipment for troops in VTOL aircraft (RN-1512).

Each model rolls the unit's quality die, one lower if the ground under the aircraft is difficult (woods, buildings'
roofs, hills and slopes, L1838): a 1 is an untreated wound (RN-163).  The troops are placed no more than 1" outside
the aircraft's footprint on side ``dir`` (L1842: the transport rules' dismount arc, 1" out).
"""
from __future__ import annotations

from ..armoured_dustup.transport import dismount, dismount_positions
from ..kernel.dice import shift_closed
from ..kernel.entities import OK, WOUNDED, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from . import air
from .air import HOVERING, air_state

DIFFICULT = frozenset({"light_woods", "dense_woods", "building", "hill", "slopes"})  # L1838 (RN-1512)


@event
class TroopsDropped(Event):
    unit: int
    vehicle: int
    method: str  # rope | grav
    rolls: tuple  # the quality roll of each model
    wounded: int


def _methods(game, v: Unit) -> tuple:
    a = air_state(game, v)
    if a is None or a["mode"] != HOVERING or not v.in_play:
        return ()
    return ("grav",) if air.kind(v) == "grav" else ("rope",)


def _options(game, u: Unit, status) -> list:
    if u.veh.carrier < 0:
        return []
    v = game.units[u.veh.carrier]
    methods = _methods(game, v)
    if not methods:
        return []
    f = game.activation_frame()
    full = f is not None and f.unit == u.uid and f.actions_left >= 2
    out = []
    for m in methods:
        if m == "rope" and not full:
            continue
        out.extend(("air_drop", m, d) for d in range(16) if dismount_positions(game, v, u, d) is not None)
    return out


def drop(game, u: Unit, method: str, d: int) -> None:
    v = game.units[u.veh.carrier]
    ground = game.bf.terrain_at(v.x, v.y)
    die = shift_closed(u.quality, -1) if ground in DIFFICULT else u.quality
    dismount(game, u, d)
    rolls, wounded = [], 0
    for i, f in enumerate(u.figures):
        if f.status != OK:
            continue
        r = game.dice.roll(die)
        rolls.append(r)
        if r == 1:
            u.set_figure(i, status=WOUNDED)
            wounded += 1
    game.emit(TroopsDropped(u.uid, v.uid, method, tuple(rolls), wounded))


def _drop(game, u: Unit, opt):
    drop(game, u, opt[1], opt[2])
    return 2 if opt[1] == "rope" else 1


RULE = Rule(
    "Aerospace Operations: passenger transport",
    'seed 000 "Passenger Transport", "Dropping Troops from Hovering Aircraft"',
    applies=air.has_aircraft,
    action_options=(_options,),
    actions={"air_drop": _drop},
    families=(Family("air_drop", (("rope", "grav"), "dir"), 150,
                     "passengers drop from a hovering aircraft on this side of it (ropes: both actions)"),),
)
