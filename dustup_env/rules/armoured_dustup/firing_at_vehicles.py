"""Firing at Vehicles and Large Creatures (seed 000 "ARMOURED DUSTUP › Firing at Vehicles and Large Creatures",
L1421-1435).

Fire at a vehicle, mech or large creature rolls as fire at infantry: the Shoot Action's target die (infantry range
bands for small arms and support weapons, L1429; a vehicle is never a "small target", RN-804) or the heavy-weapon
rules' own, the quality and firepower dice.  What the result does is :func:`vehicle_shot`: the ``attacks`` entry of
the target kind ``vehicle`` (every fire reaches it through the attack pipeline's one dispatch,
``kernel.attack.fire_effects``: the Shoot Action, fire parties, and the heavy weapons, rockets and missiles; it is also
the ``vehicle_shot`` service):

* one success (a minor result) or more suppresses: one more suppression marker, up to 3, except that small arms
  cause at most one marker on a vehicle whose armour class on the facing struck is above 1 (L1431, RN-133, RN-805);
* the hits of a major result: *Indicating Damaged Vehicles* (its ``vehicle_fire(game, v, impact, hits, x, y,
  weapon_class=)`` service): each an
  opposed roll of the weapon's impact die against the armour die of the facing the line of fire strikes (RN-127):
  beats it: a damage marker, more than double: destroyed (L1433-1435; a draw goes to the vehicle, RN-710); the
  passengers roll their armour against the weapon class (L1443, RN-134), then test like any unit with
  casualties (``vehicle_damage.passengers_test``, RN-803);
* then the consequences of fire as for any unit: the ``after_shot`` hooks, one confidence test for the highest
  trigger (first under fire, first suppressed, "vehicle takes one or more damage") with the damage markers the
  vehicle had before the attack as modifiers (RN-114, RN-806), with the artillery modifier when the firer is an
  aircraft in the air (L1134: "artillery or aerospace attack", the ``aerospace_attack`` service, RN-1973), the
  ``on_shot`` hooks (panic).
"""
from __future__ import annotations

import math

from ..kernel.attack import FIGURES, VEHICLE, VEHICLE_FACING, VEHICLE_TOP, fire_effects, target_kind
from ..kernel.dice import D12, die_name
from ..kernel.entities import Unit
from ..kernel.events import Event, ShotResolved, Suppressed, event
from ..kernel.ruleset import Rule
from ..kernel.table import place
from ..morale.confidence_test import confidence_test
from ..unit_actions.shoot_action import firepower, plan_mode, resolve_fire, weapons_ready
from .indicating_damaged_vehicles import vehicle_fire as resolve_hits
from .vehicle_damage import able_figures, passengers_test
from .vehicles import armour_class, armour_facing, has_vehicles

MAX_SUPPRESSION = 3
SMALL_ARMS_WEAPON_CLASS = 1  # RN-134: small arms, support weapons, IAVRs and grenades count as class 1


@event
class SuppressionResisted(Event):
    """Small arms cannot add a second marker to a vehicle with armour above 1 (L1431)."""
    unit: int
    markers: int


def small_arms_capped(t: Unit, facing: str) -> bool:
    """L1431: small arms cause at most one suppression on a vehicle with armour greater than 1 (armour class of
    the facing struck >= 2, RN-133)."""
    return armour_class(t, facing) > 1 and t.suppression >= 1


def vehicle_shot(game, firer: Unit, t: Unit, res, impact: int, weapon_class: int = SMALL_ARMS_WEAPON_CLASS,
                 mode: str = "", small_arms: bool = False, reaction: bool = False, origin=None, cover: int = 0) -> int:
    """The effects of a resolved attack ``res`` (a ``FireResult``) of ``firer`` on vehicle ``t`` (see the module
    docstring).  ``impact``: the impact die against armour; ``weapon_class``: the firing weapon's class (heavy
    weapons: their size; infantry weapons 1, RN-134) for the passengers' test; ``small_arms``: the fire was of small
    arms only (no support weapon, grenade or heavy weapon); ``reaction``: final defensive fire (no suppression, no
    test); ``origin``: where the shot comes from (default the firer), for the facing; ``cover``: what only the
    kind ``figures`` reads.  Returns 0 (vehicles have no casualties; passengers' wounds are their own unit's)."""
    ox, oy = (firer.x, firer.y) if origin is None else origin
    facing = armour_facing(t, ox, oy)
    reasons = []
    before = t.veh.damage
    if not t.under_fire_before:
        t.under_fire_before = True
        reasons.append("first_under_fire")
    if res.result != "none" and not reaction:
        if small_arms and small_arms_capped(t, facing):
            game.emit(SuppressionResisted(t.uid, t.suppression))
        else:
            if not t.suppressed_before:
                t.suppressed_before = True
                reasons.append("first_suppressed")
            if t.suppression < MAX_SUPPRESSION:
                t.suppression += 1
            game.emit(Suppressed(t.uid, t.suppression))
    damaged = False
    if res.hits:
        before_passengers = able_figures(game, t.veh.passengers)
        results = resolve_hits(game, t, impact, res.hits, ox, oy, weapon_class=weapon_class, facing=facing,
                               test_confidence=False)  # one test below for every trigger of the attack
        damaged = "damaged" in results and "destroyed" not in results
        passengers_test(game, before_passengers)
    if damaged:
        reasons.append("vehicle_damage")
    for hook in game.rules.after_shot:
        hook(game, firer, t, res, reasons)
    if reasons and t.in_play and not reaction:
        aerial = game.rules.services.get("aerospace_attack")  # L1134: "artillery or aerospace attack" (Aerospace)
        confidence_test(game.dice, t, reasons, events=game.events, vehicle_damage=before,
                        artillery=aerial is not None and aerial(game, firer))
    for hook in game.rules.on_shot:
        hook(game, firer, t)
    return 0


def point_hit_top(game, v: Unit, source, impact: int, test_confidence: bool = True) -> str:
    """A point attack over vehicle ``v`` (``kernel.attack.burst``): one hit against its top armour (L1685, RN-981).
    The result: none, damaged or destroyed (Indicating Damaged Vehicles: markers, wreck, passengers' armour rolls
    and the vehicle's confidence test, unless ``test_confidence=False``: the attack's rule tests once)."""
    return resolve_hits(game, v, impact, 1, source.x, source.y, facing="top", test_confidence=test_confidence)[0]


def point_hit_facing(game, v: Unit, source, impact: int, test_confidence: bool = True) -> str:
    """A point attack within the radius of vehicle ``v``: one hit against the armour of the facing towards the point
    (L1685, RN-981)."""
    return resolve_hits(game, v, impact, 1, source.x, source.y, test_confidence=test_confidence)[0]


def party_plan(game, u: Unit, t: Unit, mode: str, geo, shift: int = 0, origin=None):
    """The Shoot Action's plan of ``u``'s fire party ``mode`` at ``t`` with the sight geometry ``geo`` (concealment,
    cover) given by the caller and ``shift`` more on the target die (above D12: None).  ``origin``: where the
    range is measured from (default: ``u``; passengers fire from their vehicle, which is where they are)."""
    ox, oy = (u.x, u.y) if origin is None else origin
    dist = math.hypot(t.x - ox, t.y - oy)
    plan = plan_mode(game, u, t, mode, dist, geo, weapons_ready(u, dist))
    if plan is None:
        return None
    if shift:
        step = plan[5] + shift
        if step > D12:
            return None
        plan = plan[:5] + (step,) + plan[6:]
    return plan


def fire_party(game, u: Unit, t: Unit, mode: str, plan, label: str, reaction: bool = False):
    """Resolve a Shoot Action plan (``party_plan``) as the Shoot Action does (``shoot_action.shoot``): the weapons
    fire, the roll, the event (mode ``label``), then the effects on ``t`` by its kind (``kernel.attack.fire_effects``;
    a vehicle: :func:`vehicle_shot`, which this never asks for final defensive fire's restraint: ``reaction`` goes to
    infantry targets only, as it always has)."""
    dist, (conc, cover), sa, sup, throwers, step, thrown, own = plan
    fp, impact = firepower(u, sa, sup, throwers, thrown, own)
    for i in sa + sup + throwers:
        u.fired.add(i)
    suppressive = mode == "suppressive"
    res = resolve_fire(game.dice, quality=u.quality, firepower=fp, target=step, suppressive=suppressive,
                       extra_hits=game.options["extra_hits"])
    game.emit(ShotResolved(u.uid, t.uid, label, die_name(step), res.target_roll,
                           tuple(die_name(s) for s in [u.quality] + fp), res.firer_rolls, res.successes, res.result,
                           res.hits, suppressive))
    fire_effects(game, u, t, res, impact, cover=cover, mode=label, small_arms=not sup and not throwers,
                 reaction=reaction and target_kind(t) == FIGURES)  # reaction: final defensive fire (RN-857)
    return res


def _aboard(game, decision, option) -> None:
    """Passengers hit in their vehicle may lose their leader; a new leader (a reorganise action aboard) must not
    take the unit off its vehicle: a mounted unit stays where its vehicle is (after every option)."""
    units = game.units
    for v in units:
        if v.veh.passengers:
            for uid in v.veh.passengers:
                u = units[uid]
                if u.x != v.x or u.y != v.y:
                    place(game, u, v.x, v.y, "carried", point=False)


RULE = Rule(
    "Firing at Vehicles", 'seed 000 "ARMOURED DUSTUP › Firing at Vehicles and Large Creatures", "Casualties to '
    'Vehicle Passengers", "Vehicle Damage" (markers, confidence)',
    applies=has_vehicles,
    after_apply=(_aboard,),
    services={"vehicle_shot": vehicle_shot},
    attacks={VEHICLE: vehicle_shot},
    damage={VEHICLE_TOP: point_hit_top, VEHICLE_FACING: point_hit_facing},
)
