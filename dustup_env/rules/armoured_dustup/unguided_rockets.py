"""Unguided Rockets (seed 000 "Armoured Dustup › Heavy Weapons › Unguided Rockets", L1250-1258): infantry
anti-vehicle rockets (IAVR), weapons of class ``iavr`` in ``weapons.json`` carried by figures.

* ``("fire_iavr", target)``: the unit's first ready rocket fires on its own, an action of its own, with its own
  (higher) impact: the firer's quality die and the rocket's firepower die against the target die of the
  support-weapon range bands (12" short, effective 48" or the rocket's restricted range, a maximum range where
  given: L1256; RN-123) and no size shift (L1258, RN-121).  The effects by the target's kind, ``heavy_weapons.weapon_effects``
  (a vehicle: ``vehicle_attack``).
* A rocket with an HE warhead (``he``) also fires in the unit's fire as a support weapon (small arms impact),
  final defensive fire included (L1252); one without never does (``shoot_action.ready_figures``).
* A ``disposable`` rocket fires once, in either way; its bearer then carries its ``backup`` small arm (L1254).
"""
from __future__ import annotations

import math

from ..kernel.data import armoury
from ..kernel.dice import die_name
from ..kernel.entities import OK, Unit
from ..kernel.errors import IllegalOptionError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..unit_actions.shoot_action import (NO_ENGAGE, may_shoot, resolve_fire, shoot_geometry, spend_disposable,
                                         target_die)
from .heavy_weapons import vehicle_profile, weapon_effects

ROCKET_CLASS = 1  # the weapon class of a rocket for the vehicle rules (passengers' armour test, L1443)


@event
class RocketFired(Event):
    unit: int
    target: int
    figure: int
    weapon: str
    target_die: str
    target_roll: int
    dice: tuple
    rolls: tuple
    successes: int
    result: str
    hits: int


def _rockets() -> frozenset:
    return frozenset(n for n, w in armoury()[0].items() if w.cls == "iavr")


ROCKETS = _rockets()


def rocket_figure(u: Unit) -> int:
    """The unit's first able figure with a rocket that has not fired this activation, or -1."""
    for i, f in enumerate(u.figures):
        if f.status == OK and f.weapon in ROCKETS and i not in u.fired:
            return i
    return -1


def rocket_plan(game, u: Unit, t: Unit, fi: int) -> dict | None:
    """What ``u``'s rocket figure ``fi`` would roll at ``t``, or None (no sight, beyond its maximum range)."""
    geo = shoot_geometry(game, u, t)
    if geo is None:
        return None
    w = armoury()[0][u.figures[fi].weapon]
    dist = math.hypot(t.x - u.x, t.y - u.y)
    if w.max_range and dist > w.max_range:
        return None
    vp = vehicle_profile(game, t)
    step = target_die(distance=dist, effective_range=w.effective_range, concealment=geo[0], propped=t.propped,
                      small=vp is None and t.small_target, firer_quality=u.quality, travel=t.travel,
                      night=game.options["night"] and not u.night_vision)  # seed 003: +2 in the summed shifts
    if step == NO_ENGAGE:
        return None
    return {"distance": dist, "cover": geo[1], "target_die": step, "firepower": [w.fp_die], "impact": w.impact,
            "vehicle": vp is not None, "weapon": w.name}


def _options(game, u: Unit, status) -> list:
    if not may_shoot(u, status):
        return []
    fi = rocket_figure(u)
    if fi < 0:
        return []
    return [("fire_iavr", t.uid) for t in game.enemy_units(u.side)
            if t.location != "routed_off" and rocket_plan(game, u, t, fi) is not None]


def _fire(game, u: Unit, opt) -> None:
    t = game.units[opt[1]]
    fi = rocket_figure(u)
    plan = rocket_plan(game, u, t, fi) if fi >= 0 else None
    if plan is None:
        raise IllegalOptionError(f"{opt!r}: no rocket can fire at that target")
    u.fired.add(fi)
    spend_disposable(u, [fi])
    step = plan["target_die"]
    res = resolve_fire(game.dice, quality=u.quality, firepower=plan["firepower"], target=step,
                       extra_hits=game.options["extra_hits"])
    game.emit(RocketFired(u.uid, t.uid, fi, plan["weapon"], die_name(step), res.target_roll,
                          tuple(die_name(s) for s in [u.quality] + plan["firepower"]), res.firer_rolls,
                          res.successes, res.result, res.hits))
    weapon_effects(game, u, t, res, plan["impact"], ROCKET_CLASS, plan, (u.x, u.y))


def _applies(scenario: dict, options: dict) -> bool:
    return any(f.get("weapon") in ROCKETS for side in scenario["sides"] for u in side["units"] for f in u.get("figures", ()))


FAMILIES = (Family("fire_iavr", ("enemy",), 48, "fire one of the unit's unguided rockets on its own at an enemy unit"),)

RULE = Rule(
    "Unguided Rockets", 'seed 000 "Armoured Dustup › Heavy Weapons › Unguided Rockets"',
    applies=_applies, families=FAMILIES,
    action_options=(_options,), actions={"fire_iavr": _fire})
