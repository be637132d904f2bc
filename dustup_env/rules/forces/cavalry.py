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
* Vehicular cavalry (D12, vehicle movement) is out of scope (vehicles are not implemented).
"""
from __future__ import annotations

from ..kernel.dice import D6
from ..kernel.events import Event, event
from ..kernel.entities import Unit
from ..kernel.ruleset import Rule


@event
class Mounted(Event):
    unit: int
    mounted: bool


def cavalry_die(game, u: Unit, die: int) -> int:
    """MOVEMENT_DIE_HOOKS entry (registered before encumbrance): dismounted cavalry move as infantry."""
    if u.profile.cavalry and not u.mounted:
        return D6
    return die


def _options(game, u: Unit, status) -> list:
    if not u.profile.cavalry or status.disorganised or (status.suppressed and not status.in_cover) or u.propped:
        return []
    if u.mounted:
        return [("reorganise", "dismount")]
    if not u.mounts_detached:
        return [("reorganise", "mount")]
    return []


def _filter(game, u: Unit, opts: list) -> list:
    if u.profile.cavalry and (u.mounted or not u.mounts_detached) and ("prop",) in opts:
        return [o for o in opts if o != ("prop",)]
    return opts


def _mount(game, u: Unit) -> None:
    u.mounted = True
    game.emit(Mounted(u.uid, True))


def _dismount(game, u: Unit) -> None:
    u.mounted = False
    game.emit(Mounted(u.uid, False))


def _has_cavalry(scenario: dict, options: dict) -> bool:
    return any(u.get("movement") == "cavalry" for side in scenario["sides"] for u in side["units"])


RULE = Rule("Cavalry", 'seed 000 "Unit Types › Cavalry"; "Prop Action"', applies=_has_cavalry,
            movement_die=(cavalry_die,), action_options=(_options,), action_filters=(_filter,),
            reorganise={"mount": _mount, "dismount": _dismount})
