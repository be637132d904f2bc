"""On-Table Artillery Fire (seed 000 "Artillery and Air Support › On-Table Artillery Fire": "Restrictions",
"Direct Fire", "Indirect Fire", L1594-1610).

An on-table artillery piece is a heavy weapon whose design's weapon is artillery (a towed or man-packed piece,
``heavy_weapon``: e.g. ``towed_field_gun``) or a vehicle's artillery weapon (``sp_artillery``, ``sp_mortar``).  Its
weapon profile gives the round size (the design's class: light 2 medium rounds, medium 4 large, heavy 6 very large,
RN-616).

* **Direct fire** (L1604-1606): ``("fire_artillery", target)``: a gun (not a high-angle piece, RN-1460) fires over open
  sights at a visible enemy as a heavy weapon of its size: the heavy-weapon target die and range (size x 48"), the
  firepower and impacts of the conventional gun of its class (RN-1461), the result through the heavy-weapon rules
  (``heavy_weapons.fire_weapon``).  The piece must be able to fire as a heavy weapon (set up, working, crewed, not fired
  this activation; a vehicle's weapon in its arc, not after a move with poor stabilisation).
* **Indirect fire** (L1608-1610: "Guns that are firing indirectly use the indirect fire procedure described below"):
  one procedure, the request's (RN-1470): an on-table piece fires indirectly only as a fire-support asset of its
  side (scenario field ``fire_support``, firer ``on_table``, ``unit`` naming it), called by any unit's Request
  Fire Support action (:mod:`.fire_support_request`: the request roll, the target and dummy markers), and its
  mission lands at the start of the firing unit's next activation (L1648, :mod:`.fire_missions`).  This module
  gives that procedure the piece's checks: high-angle pieces may not fire below their minimum range (L1600-1602:
  24" for light mortars, 48" for every other rocket or mortar; guns none, RN-148), so no marker of such a request
  goes nearer the piece; the piece must be ready to fire when its mission lands (:func:`indirect_piece`); the
  option ``artillery_indirect: false`` is the footnote's choice that no on-table piece fires indirectly (L1603
  fn 12): no on-table asset is then offered to a request.  The piece has no indirect-fire action of its own.
"""
from __future__ import annotations

import json
from dataclasses import replace

from ..armoured_dustup import heavy_weapons as hw
from ..kernel.entities import Unit
from ..kernel.errors import IllegalOptionError, ScenarioError
from ..kernel.ruleset import Family, Option, Rule
from ..unit_actions.shoot_action import may_shoot
from ..vehicle_design import conversions as cv
from ..vehicle_design.conversions import direct_fire_values
from . import impacts

HIGH_ANGLE_WORDS = cv.HIGH_ANGLE_WORDS  # RN-1460: the design's name says what it is
DIRECT_FIRE_TYPE = "HVC"  # RN-1461: a gun over open sights fires as the conventional gun of its class


# ---------------------------------------------------------------------------------------------- the pieces
_names = cv.joined_names
high_angle = cv.high_angle  # (the design report prints the same ranges: the rules live with the design rules)
light_mortar = cv.light_mortar


def minimum_range(weapon, name: str = "") -> float:
    """The minimum range of indirect fire (L1600-1602, RN-148): none for a gun; 24" for a light mortar; 48" for every
    other high-angle piece."""
    return cv.indirect_minimum_range(weapon, name, impacts.artillery_data().minimum_range)


def pieces(game, u: Unit) -> list:
    """``u``'s artillery: ``[(k, weapon, name)]``: a heavy-weapon unit's piece (k = -1) or a vehicle's artillery
    weapons (k: the weapon's index in the design)."""
    v = u.profile.vehicle
    if v is not None:
        return [(k, w, v.name if hasattr(v, "name") else "") for k, w in enumerate(v.weapons)
                if w.category == "artillery"]
    prof = hw.weapon_of(game, u)
    if prof is not None and prof.weapon.category == "artillery":
        return [(-1, prof.weapon, prof.name)]
    return []


def _vehicle_fired(game, v: Unit) -> list:
    from ..armoured_dustup.fire_by_vehicles import fired
    return fired(game, v)


def ready(game, u: Unit, k: int, w) -> bool:
    """The piece may fire now (as a heavy weapon: set up, working, crewed, not fired this activation; a vehicle's
    weapon not fired this activation and not after a move with poor stabilisation)."""
    if k < 0:
        st = hw.state(game, u)
        return st is not None and hw.can_fire(game, u, hw.weapon_of(game, u), st)
    from ..armoured_dustup.fire_by_vehicles import own_shift
    return k not in _vehicle_fired(game, u) and own_shift(u, w) is not None


def _mark_fired(game, u: Unit, k: int) -> None:
    if k < 0:
        prof = hw.weapon_of(game, u)
        hw.state(game, u)["fired"] = True
        for i in hw.crew_figures(prof, u):
            u.fired.add(i)
    else:
        from ..armoured_dustup.fire_by_vehicles import mark_fired as mark
        mark(game, u, k)


def direct_profile(w):
    """The piece over open sights as a heavy weapon of its size (L1606, RN-1461)."""
    return replace(w, category="direct_fire", fire_control="average", **direct_fire_values(DIRECT_FIRE_TYPE, w.size))


# ---------------------------------------------------------------------------------------------- options
def _direct_options(game, u: Unit, status) -> list:
    out = []
    if not may_shoot(u, status):
        return out
    for k, w, name in pieces(game, u):
        if high_angle(_names(name, w.name)) or not ready(game, u, k, w):
            continue
        d = direct_profile(w)
        for t in game.enemy_units(u.side):
            if t.routed_off or t.uid in {o[1] for o in out}:
                continue
            if k >= 0:
                from ..armoured_dustup.fire_by_vehicles import in_arc
                if not in_arc(u, w, t):
                    continue
            if hw.heavy_plan(game, u, t, d) is not None:
                out.append(("fire_artillery", t.uid))
        break  # the first ready gun
    return out


def indirect_piece(game, u: Unit):
    """``(k, weapon, name)``: the first of ``u``'s pieces that may fire indirectly now (the option
    ``artillery_indirect`` on, the piece ready to fire), else None."""
    if not game.options.get("artillery_indirect", True):
        return None
    for k, w, name in pieces(game, u):
        if ready(game, u, k, w):
            return k, w, name
    return None


def indirect_minimum(game, u: Unit) -> float:
    """The least distance from ``u`` at which its artillery may fire indirectly: its first piece's minimum range."""
    ps = pieces(game, u)
    return minimum_range(ps[0][1], ps[0][2]) if ps else 0.0


def _options(game, u: Unit, status) -> list:
    if not pieces(game, u):
        return []
    return _direct_options(game, u, status)


# ---------------------------------------------------------------------------------------------- actions
def _fire_direct(game, u: Unit, opt) -> None:
    t = game.units[opt[1]]
    for k, w, name in pieces(game, u):
        if high_angle(_names(name, w.name)) or not ready(game, u, k, w):
            continue
        d = direct_profile(w)
        plan = hw.heavy_plan(game, u, t, d)
        if plan is None:
            break
        _mark_fired(game, u, k)
        hw.fire_weapon(game, u, t, d, plan)
        return None
    raise IllegalOptionError(f"{opt!r}: no gun of this unit can fire at that target over open sights")


def mark_fired(game, u: Unit, k: int) -> None:
    """The piece ``k`` of ``u`` has fired this activation (its indirect mission landed)."""
    _mark_fired(game, u, k)


def _caught_by_its_own_round(game, u: Unit, frame):
    """A piece whose own round, landing as its activation began, left it out of play has nothing left to do but end
    the activation (RN-1462)."""
    if frame is not None and frame.type == "activation" and frame.unit == u.uid and not u.in_play:
        return [("end",)]
    return None


# ---------------------------------------------------------------------------------------------- applies
_ARTILLERY_DESIGNS: dict = {}  # (field, design name or JSON text) -> whether it has artillery


def design_has_artillery(field: str, design, where: str) -> bool:
    key = (field, design if isinstance(design, str) else json.dumps(design, sort_keys=True))
    hit = _ARTILLERY_DESIGNS.get(key)
    if hit is None:
        if field == "heavy_weapon":
            hit = hw.design_profile(design, where).weapon.category == "artillery"
        else:
            from ..armoured_dustup.vehicles import design_profile
            hit = any(w.category == "artillery" for w in design_profile(design, where).weapons)
        if len(_ARTILLERY_DESIGNS) > 4096:
            _ARTILLERY_DESIGNS.clear()
        _ARTILLERY_DESIGNS[key] = hit
    return hit


def has_artillery(scenario: dict, options: dict) -> bool:
    """The scenario fields an on-table artillery piece (a heavy weapon or a vehicle whose design has artillery)."""
    try:
        for side in scenario["sides"]:
            for spec in side["units"]:
                for field in ("heavy_weapon", "design"):
                    if field in spec and design_has_artillery(field, spec[field], f"unit {spec.get('name')!r}"):
                        return True
    except ScenarioError:
        return False  # the design's own rule reports it
    return False


FAMILIES = (
    Family("fire_artillery", ("enemy",), 110, "an on-table gun fires over open sights as a heavy weapon of its size"),
)  # no family of its own for indirect fire: that is the Request Fire Support action's (RN-1470)

RULE = Rule(
    "On-Table Artillery Fire", 'seed 000 "Artillery and Air Support › On-Table Artillery Fire" (Restrictions, Direct '
    'Fire, Indirect Fire)',
    applies=has_artillery,
    options=(Option("artillery_indirect", True, "on-table artillery may fire indirectly (L1603 fn 12: players may "
                                                "decide that no on-table piece does)", kind="bool"),),
    families=FAMILIES,
    action_options=(_options,),
    actions={"fire_artillery": _fire_direct},
    option_overrides=(_caught_by_its_own_round,),
)
