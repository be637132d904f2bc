"""Cavalry (seed 000 "Unit Types › Cavalry"; "Prop Action": "Cavalry and vehicles may not prop").

"Cavalry may dismount and act as infantry.  It takes one reorganise action to mount or dismount.
Generally, a cavalry unit will leave a detachment with their horses ...  Horse cavalry have a base
move characteristic of D10 ...  Cavalry may not prop.  However, cavalry that have dismounted may
prop as long as their mounts have been detached.  Cavalry move D10x2."

* Scenario: unit ``"movement": "cavalry"`` (D10; optional ``"mounted": false`` to start on foot).
* ``("reorganise", "dismount")`` / ``("reorganise", "mount")``: one reorganise action each; a
  dismounted unit moves as infantry (D6).  A dismounted unit that forms a detachment leaves its
  mounts with it (the detachment stays mounted); it may then prop, and may mount again only after
  the detachment has rejoined (``("regroup", uid)``).
* No ``("prop",)`` for mounted cavalry, nor for dismounted cavalry whose mounts are not detached.
* Vehicular cavalry (``"mobility"``: a vehicle movement table, e.g. ``"high_mobility_wheeled"`` for bikes): D12 while
  mounted, on the terrain table of its mobility type; "vehicles may be left unattended" (L185): a dismounting unit
  leaves its vehicles where it stands (:class:`CavalryState`), may prop without detaching anyone,
  and mounts again only with every figure within 2" of them (RN-765).
"""
from __future__ import annotations

from ..kernel.battlefield import VEHICLE_AMPHIBIOUS_WATER, terrain_column, vehicle_column
from ..kernel.data import armoury
from ..kernel.dice import D6
from ..kernel.events import Event, event
from ..kernel.entities import Unit
from ..kernel.ruleset import Rule
from ..kernel.state import Component


class CavalryState(Component):
    """The rule's state: ``{str(uid): [[x, y], ...]}``, where each vehicular cavalry unit left its vehicles."""

    __slots__ = ("unattended_vehicles",)


def _unattended(game) -> dict:
    st = game.components.get(CavalryState)
    return (st.unattended_vehicles if st is not None else None) or {}


def _leave_vehicles(game, u: Unit) -> None:
    st = game.state_of(CavalryState)
    if st.unattended_vehicles is None:
        st.unattended_vehicles = {}
    st.unattended_vehicles[str(u.uid)] = [[x, y] for x, y in u.figure_positions()]

REMOUNT_RANGE = 2.0  # invented (RN-765): every figure this close to one of the vehicles left unattended


@event
class Mounted(Event):
    unit: int
    mounted: bool


def cavalry_die(game, u: Unit, die: int) -> int:
    """MOVEMENT_DIE_HOOKS entry (registered before encumbrance): dismounted cavalry move as infantry."""
    if u.profile.cavalry and not u.mounted:
        return D6
    return die


def vehicular(u: Unit) -> bool:
    """Vehicular cavalry (bikes, jeeps): cavalry with a vehicle movement table."""
    return u.profile.cavalry and bool(u.profile.mobility)


def mounted_column(u: Unit) -> int:
    """The movement column of vehicular cavalry on its vehicles."""
    return vehicle_column(u.mobility, u.amphibious and u.mobility in VEHICLE_AMPHIBIOUS_WATER)


def foot_column(u: Unit) -> int:
    return terrain_column(armoury()[1][u.armour].power_armour, u.amphibious, u.wading)


def _options(game, u: Unit, status) -> list:
    if not u.profile.cavalry or status.disorganised or (status.suppressed and not status.in_cover) or u.propped:
        return []
    if u.mounted:
        return [("reorganise", "dismount")]
    if u.profile.mobility:
        spots = _unattended(game).get(str(u.uid))
        if spots and all(any((x - a) ** 2 + (y - b) ** 2 <= REMOUNT_RANGE ** 2 + 1e-9 for a, b in spots)
                         for x, y in u.figure_positions()):
            return [("reorganise", "mount")]
        return []
    if not u.mounts_detached:
        return [("reorganise", "mount")]
    return []


def _filter(game, u: Unit, opts: list) -> list:
    if u.profile.cavalry and (u.mounted or not (u.mounts_detached or u.profile.mobility)) and ("prop",) in opts:
        return [o for o in opts if o != ("prop",)]
    return opts


def _mount(game, u: Unit) -> None:
    u.mounted = True
    if u.profile.mobility:
        _unattended(game).pop(str(u.uid), None)
        u.terrain_column = mounted_column(u)
    game.emit(Mounted(u.uid, True))


def _dismount(game, u: Unit) -> None:
    u.mounted = False
    if u.profile.mobility:
        _leave_vehicles(game, u)
        u.terrain_column = foot_column(u)
    game.emit(Mounted(u.uid, False))


def _init(game) -> None:
    """Vehicular cavalry that starts dismounted has its vehicles where it stands."""
    for u in game.units:
        if u.profile.cavalry and u.profile.mobility and not u.mounted:
            _leave_vehicles(game, u)


def _has_cavalry(scenario: dict, options: dict) -> bool:
    return any(u.get("movement") == "cavalry" for side in scenario["sides"] for u in side["units"])


RULE = Rule("Cavalry", 'seed 000 "Unit Types › Cavalry"; "Prop Action"', applies=_has_cavalry, init=(_init,),
            movement_die=(cavalry_die,), action_options=(_options,), action_filters=(_filter,),
            reorganise={"mount": _mount, "dismount": _dismount})
