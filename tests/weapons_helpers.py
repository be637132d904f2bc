"""Test-only stand-in for the vehicle rules, as the weapons rules see them (their services), and scenarios.

The weapons rules talk to vehicle targets only through the rule set's services ``vehicle_profile(game, t)``,
``vehicle_fire(game, v, impact, hits, x, y, weapon_class=)`` and ``towed(game, u)`` (the signatures of the vehicle
rules).  Until the vehicle
rules provide them, :func:`stand_in` gives a test Rule with the same services: units named in ``vehicles`` are
vehicles of a library design; a hit rolls :func:`vehicle_impact` and records the result in
the test-only rule state :class:`VehicleDamageLog`.
"""
from __future__ import annotations

from dustup_env.rules.armoured_dustup.heavy_weapons import vehicle_impact
from dustup_env.rules.kernel.dice import parse_die
from dustup_env.rules.kernel.ruleset import Rule
from dustup_env.rules.kernel.state import Component
from dustup_env.rules.vehicle_design import library_profile


class VehicleDamageLog(Component):
    """The stand-in's state: ``[[uid, weapon class, effect], ...]``, every hit on a vehicle (unset: none yet)."""

    __slots__ = ("test_vehicle_damage",)


def damage_log(game):
    """The hits recorded on vehicles so far, or None."""
    st = game.components.get(VehicleDamageLog)
    return st.test_vehicle_damage if st is not None else None


def stand_in(vehicles: dict, towed_units=()) -> Rule:
    """``vehicles``: unit name -> library design name.  ``towed_units``: names of units whose limbered weapon a
    vehicle tows."""
    profiles = {name: library_profile(d) for name, d in vehicles.items()}

    def vehicle_profile(game, t):
        return profiles.get(t.name)

    def vehicle_fire(game, v, impact, hits, x, y, weapon_class=1, facing=None, test_confidence=True):
        """The vehicle rules' signature: the hits of one attack from (x, y) on vehicle ``v``."""
        st = game.state_of(VehicleDamageLog)
        if st.test_vehicle_damage is None:
            st.test_vehicle_damage = []
        log = st.test_vehicle_damage
        armour = parse_die(profiles[v.name].armour.front)
        results = []
        for _ in range(hits):
            effect, _, _ = vehicle_impact(game.dice, impact=impact, armour=armour)
            log.append([v.uid, weapon_class, effect])
            results.append(effect)
        return results

    def towed(game, u):
        """The vehicle towing it (any unit will do here): hooked up in odd turns, unhooked in even ones (so that a
        towed gun also unlimbers, which it does only unhooked, RN-880)."""
        return game.units[0] if u.name in towed_units and game.turn % 2 == 1 else None

    return Rule("Test vehicles", "test-only stand-in for the vehicle rules",
                services={"vehicle_profile": vehicle_profile, "vehicle_fire": vehicle_fire, "towed": towed})


VEHICLES = {"Tank": "main_battle_tank", "APC": "apc_wheeled"}


def weapons_scenario(turn_limit: int = 4) -> dict:
    """Every weapon of the Armoured Dustup rules on one table (vehicles: the stand-in's, by name)."""
    from conftest import rect, scenario, unit
    blue = [unit("HMG", (10, 8), figures=(("rifle", 3),), heavy_weapon="hmg_team"),
            unit("ATGM", (20, 6), figures=(("rifle", 2),), heavy_weapon="missile_team"),
            unit("Rockets", (30, 8), figures=(("rpg", 1), ("hedp_rocket", 1), ("light_iavr", 1), ("bazooka", 1),
                                              ("assault_rifle", 3))),
            unit("Gun", (40, 6), figures=(("rifle", 4),), heavy_weapon="towed_at_gun"),
            unit("Rifles", (24, 12), figures=(("rifle", 6),), grenades=True)]
    red = [unit("Tank", (18, 40)), unit("APC", (26, 42)),
           unit("AP", (22, 43), figures=(("rifle", 4),), area_protection="d10", ecm="d10"),
           unit("ATGM2", (36, 44), figures=(("rifle", 2),), heavy_weapon="missile_team"),
           unit("RPGs", (8, 42), figures=(("rpg", 2), ("assault_rifle", 4)))]
    return scenario(blue, red, terrain=[rect("light_woods", 32, 20, 40, 26), rect("building", 2, 24, 6, 28)],
                    width=48, height=48, turn_limit=turn_limit)
