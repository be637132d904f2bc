"""Fortifications (seed 000 "ADDITIONAL RULES › Buildings and Fortifications": "Fortifications may mount weaponry
just as a vehicle", L2010; "Very large structures are considered to be made up of modules", L1998).

* **Mounted weapons** (RN-1704): a building's ``weapons`` (scenario) are heavy-weapon designs of the library (as a
  unit's ``heavy_weapon``).  A fortification has no crew of its own: a unit occupying it (its leader inside the
  outline, :func:`.buildings.occupants`) fires a mounted weapon as its crew would fire a heavy weapon:
  ``("fire_fortification", enemy, k)``, one action, the unit's quality die and the weapon's firepower at the
  heavy-weapon target die (``heavy_weapons.heavy_plan`` / ``fire_weapon``: infantry or vehicle targets by the
  attack pipeline), its crew figures firing nothing else this activation (RN-700), each mounted weapon once a turn,
  and not while the unit may not shoot (suppressed, disorganised, concealed).  Under either side's occupation: a
  fortification taken is the taker's.  A destroyed (or breached) fortification's weapons are lost.  A damaged
  fortification fires as a damaged vehicle: each of its damage markers shifts the target die up one (L1455,
  RN-1940; above D12 the weapon cannot engage).
* **Modules** (RN-1705): a very large structure is declared as several buildings sharing a ``structure`` name:
  each module is a building of its own (its own target, armour, damage, rubble, occupants); nothing else ties
  them.
"""
from __future__ import annotations

from ..kernel.dice import D12
from ..kernel.errors import IllegalOptionError
from ..kernel.ruleset import Family, Rule
from .buildings import building_of, buildings, has_buildings

WEAPON_SLOTS = 4


def _has_fortifications(scenario: dict, options: dict) -> bool:
    return has_buildings(scenario, options) and any(b.get("weapons") for b in scenario.get("buildings", []))


def mounted(e: dict, k: int):
    """The profile of the building's k-th mounted weapon."""
    from ..armoured_dustup.heavy_weapons import design_profile
    return design_profile(e["state"]["weapons"][k], f"building {e['state']['name']!r}: weapons")


def _ready(game, u, status) -> tuple:
    """(the fortification ``u`` occupies, the indices of its mounted weapons ``u`` may fire now)."""
    from ..armoured_dustup.heavy_weapons import direct_fire, may_crew_fire
    from ..unit_actions.shoot_action import may_shoot
    if u.profile.vehicle is not None or not may_shoot(u, status):
        return None, []
    e = building_of(game, u)
    if e is None or not e["state"]["weapons"]:
        return None, []
    ks = []
    for k in range(len(e["state"]["weapons"])):
        prof = mounted(e, k)
        if k not in e["state"]["fired"] and direct_fire(prof) and may_crew_fire(prof, u):
            ks.append(k)
    return e, ks


def plan(game, u, e: dict, k: int, t):
    """What the fortification ``e``'s k-th mounted weapon, served by ``u``, would roll at ``t`` (``heavy_plan``), or
    None.  L1455 with L2010 ("mount weaponry just as a vehicle"): each damage marker of the fortification shifts the
    target die up one, as a damaged vehicle's; above D12 it cannot engage (RN-1940)."""
    from ..armoured_dustup.heavy_weapons import heavy_plan
    p = heavy_plan(game, u, t, mounted(e, k).weapon)
    damage = e["state"]["damage"]
    if p is None or not damage:
        return p
    step = p["target_die"] + damage
    if step > D12:
        return None
    return dict(p, target_die=step)


def _options(game, u, status) -> list:
    e, ks = _ready(game, u, status)
    if not ks:
        return []
    out = []
    for t in game.enemy_units(u.side):
        if t.location == "routed_off":
            continue
        for k in ks:
            if plan(game, u, e, k, t) is not None:
                out.append(("fire_fortification", t.uid, k))
    return out


def _fire(game, u, opt) -> None:
    from ..armoured_dustup.heavy_weapons import crew_figures, fire_weapon
    from ..kernel.actions import status
    st = status(game, u)
    e, ks = _ready(game, u, st) if st is not None else (None, [])
    t, k = game.units[opt[1]], opt[2]
    p = plan(game, u, e, k, t) if k in ks else None
    if p is None:
        raise IllegalOptionError(f"{opt!r}: no mounted weapon of the unit's fortification can fire at that target")
    prof = mounted(e, k)
    e["state"]["fired"].append(k)
    for i in crew_figures(prof, u):
        u.fired.add(i)
    fire_weapon(game, u, t, prof.weapon, p)


def structures(game) -> dict:
    """The modules of each very large structure: its name -> the module entities (RN-1705)."""
    out: dict = {}
    for e in buildings(game):
        name = e["state"].get("structure")
        if name:
            out.setdefault(name, []).append(e)
    return out


RULE = Rule(
    "Fortifications", 'seed 000 "ADDITIONAL RULES › Buildings and Fortifications" (L1998 modules, L2010 weaponry)',
    applies=_has_fortifications,
    families=(Family("fire_fortification", ("enemy", tuple(range(WEAPON_SLOTS))), 241,
                     "Fortifications: a unit occupying a fortification fires its k-th mounted weapon at an enemy unit"),),
    action_options=(_options,),
    actions={"fire_fortification": _fire},
)
