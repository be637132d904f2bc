"""Test-only stand-in for the vehicle rules, as the weapons rules see them (their services), and scenarios.

The weapons rules talk to vehicle targets only through the rule set's services ``vehicle_profile(game, t)``,
``vehicle_fire(game, firer, t, res, impact, weapon_class=, mode=)`` and ``towed(game, u)``.  Until the vehicle
rules provide them, :func:`stand_in` gives a test Rule with the same services: units named in ``vehicles`` are
vehicles of a library design; a hit rolls :func:`vehicle_impact` and records the result in
``game.extra["test_vehicle_damage"]``.
"""
from __future__ import annotations

from dustup_env.rules.armoured_dustup.heavy_weapons import vehicle_impact
from dustup_env.rules.kernel.dice import parse_die
from dustup_env.rules.kernel.ruleset import Rule
from dustup_env.rules.vehicle_design import library_profile


def stand_in(vehicles: dict, towed_units=()) -> Rule:
    """``vehicles``: unit name -> library design name.  ``towed_units``: names of units whose limbered weapon a
    vehicle tows."""
    profiles = {name: library_profile(d) for name, d in vehicles.items()}

    def vehicle_profile(game, t):
        return profiles.get(t.name)

    def vehicle_fire(game, firer, t, res, impact, weapon_class=1, mode=""):
        log = game.extra.setdefault("test_vehicle_damage", [])
        if res.result == "none":
            log.append([t.uid, mode, "miss"])
            return
        if res.result == "minor" or not res.hits:
            log.append([t.uid, mode, "suppressed"])
            return
        armour = parse_die(profiles[t.name].armour.front)
        for _ in range(res.hits):
            effect, _, _ = vehicle_impact(game.dice, impact=impact, armour=armour)
            log.append([t.uid, mode, effect])

    def towed(game, u):
        return u.name in towed_units

    return Rule("Test vehicles", "test-only stand-in for the vehicle rules",
                services={"vehicle_profile": vehicle_profile, "vehicle_fire": vehicle_fire, "towed": towed})
